"""Run a parser where a limit can stop it: a child process bounded in time and memory.

A checkpoint in a Python loop cannot stop libxml2 spending minutes on one element with 200,000
attributes, or zlib inflating a PDF stream to gigabytes: the time goes inside one C call. So files
(and fetched bodies) are parsed in a forked child, a copy of this process with the parsers and
registrations it has now: :func:`run_bounded` forks for one call, :class:`BoundedWorker` once for a
run of calls (ingest's files), forking again only after a call it had to stop. The child's address
space may grow by ``memory_bytes`` beyond what it inherited (``RLIMIT_AS``; an allocation past it
raises ``MemoryError``), and the parent kills it when ``seconds`` pass. Either way the caller gets
:class:`BoundExceeded`, saying which bound and by how much, and goes on with the next file; anything
else the function raises is raised again here.

Where ``fork`` is missing (Windows), the function runs in this process under the cooperative
checkpoints only (:func:`citewise.ingest.limits.checkpoint`).

Example::

    documents = run_bounded(parse_all, path, data, seconds=60, memory_bytes=2**30)
"""

from __future__ import annotations

import contextlib
import enum
import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import Any, TypeVar

from citewise.errors import ParseError

__all__ = ["Bound", "BoundExceeded", "BoundedWorker", "can_isolate", "run_bounded"]

T = TypeVar("T")


class Bound(str, enum.Enum):
    """Which limit stopped the work."""

    TIME = "time"
    MEMORY = "memory"
    CRASH = "crash"


class BoundExceeded(ParseError):
    """The work passed its time or memory limit (or its process died) and was stopped."""

    def __init__(self, bound: Bound, message: str, *, path: str | None = None) -> None:
        self.bound = bound
        super().__init__(message, path=path)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.bound, self.detail, self.path))


def _rebuild(bound: Bound, message: str, path: str | None) -> BoundExceeded:
    return BoundExceeded(bound, message, path=path)


def can_isolate() -> bool:
    """Whether work can run in a bounded child here (POSIX ``fork``)."""
    return hasattr(os, "fork")


def run_bounded(
    fn: Callable[..., T],
    *args: Any,
    seconds: float,
    memory_bytes: int | None,
    where: str | None = None,
    advice: str = "the limit per file; split the file or check that it is what it claims to be",
    grace: float = 0.0,
) -> T:
    """``fn(*args)`` in a child process stopped after ``seconds`` (killed ``grace`` seconds later, so
    the work's own checkpoints can name the bound first) or past ``memory_bytes`` of new memory; its
    result (which must pickle) or its exception is returned or raised here. Raises
    :class:`BoundExceeded` naming ``where`` when a bound stopped it. (One call, one child: for many
    calls in a row, :class:`BoundedWorker` forks once.)"""
    with BoundedWorker(memory_bytes, max_calls=1) as worker:
        return worker.run(fn, *args, seconds=seconds, where=where, advice=advice, grace=grace)


class BoundedWorker:
    """A forked child that runs bounded calls one after another, so a folder of files costs one fork,
    not one per file. A call that passes its time is killed with the child, and the next call forks
    a new one; so does a call that ran out of memory, and the child retires after ``max_calls``
    calls or once it has grown by a quarter of ``memory_bytes`` (what one file leaves behind must not
    count against the next). Use as a context manager; :meth:`close` ends the child."""

    def __init__(self, memory_bytes: int | None, *, max_calls: int = 64) -> None:
        self.memory_bytes = memory_bytes
        self.max_calls = max_calls
        self._pid: int | None = None
        self._requests = -1
        self._replies = -1
        self._calls = 0

    def __enter__(self) -> BoundedWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the child (if one is running)."""
        self._stop(kill=True)

    def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        seconds: float,
        where: str | None = None,
        advice: str = "the limit per file; split the file or check that it is what it claims to be",
        grace: float = 0.0,
    ) -> T:
        """``fn(*args)`` in the child, as :func:`run_bounded` describes."""
        if not can_isolate():
            return fn(*args)
        request = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        for attempt in (1, 2):
            if self._pid is None:
                self._start()
            try:
                _write_frame(self._requests, request)
                break
            except BrokenPipeError:  # the child ended between calls: start another once
                self._stop(kill=True)
                if attempt == 2:
                    raise BoundExceeded(Bound.CRASH, "the parser process could not be started", path=where) from None
        reply = _read_frame(self._replies, seconds + grace)
        if reply is None:
            self._stop(kill=True)
            raise BoundExceeded(Bound.TIME, f"parsing took longer than {seconds:g} s, {advice}", path=where)
        if not reply:
            status = self._stop(kill=False)
            how = f"signal {-status}" if status < 0 else f"exit status {status}"
            raise BoundExceeded(Bound.CRASH, f"the parser stopped without an answer ({how})", path=where)
        kind, value, grown = pickle.loads(reply)
        self._calls += 1
        if kind == "memory" or grown or self._calls >= self.max_calls:
            self._stop(kill=True)
        if kind == "memory":
            limit = f"{(self.memory_bytes or 0) / 2**20:.0f} MB"
            raise BoundExceeded(Bound.MEMORY, f"parsing needed more than {limit} of memory, {advice}", path=where)
        if kind == "raised":
            raise value
        return value  # type: ignore[no-any-return]

    def _start(self) -> None:
        to_child, requests = os.pipe()
        replies, from_child = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(requests)
            os.close(replies)
            _serve(to_child, from_child, self.memory_bytes)
        os.close(to_child)
        os.close(from_child)
        self._pid, self._requests, self._replies, self._calls = pid, requests, replies, 0

    def _stop(self, *, kill: bool) -> int:
        if self._pid is None:
            return 0
        for fd in (self._requests, self._replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        status = _reap(self._pid, kill=kill)
        self._pid, self._requests, self._replies = None, -1, -1
        return status


def _serve(requests: int, replies: int, memory_bytes: int | None) -> None:
    """The child's loop: run each request, answer, end when the parent closes the pipe."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C reaches the parent, which reaps us
        base = _limit_memory(memory_bytes)
        while True:
            request = _read_frame(requests, None)
            if not request:
                break
            fn, args = pickle.loads(request)
            try:
                outcome: tuple[str, Any] = ("ok", fn(*args))
            except MemoryError:
                outcome = ("memory", None)
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent as it was
                outcome = ("raised", exc)
            grown = memory_bytes is not None and base is not None and _address_space() > base + memory_bytes // 4
            try:
                payload = pickle.dumps((*outcome, grown), protocol=pickle.HIGHEST_PROTOCOL)
            except MemoryError:
                payload = pickle.dumps(("memory", None, True))
            except Exception as exc:  # noqa: BLE001 - an unpicklable result or exception
                error = ParseError(f"the parser's answer could not be passed back: {exc}")
                payload = pickle.dumps(("raised", error, grown))
            _write_frame(replies, payload)
            if outcome[0] == "memory":
                break
    except BaseException:  # noqa: BLE001 - the child must end here whatever happens
        code = 70
    finally:
        os._exit(code)


_HEADER = struct.Struct("!Q")


def _write_frame(fd: int, payload: bytes) -> None:
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_frame(fd: int, seconds: float | None) -> bytes | None:
    """One framed message; ``b""`` when the other side closed the pipe, ``None`` when ``seconds``
    passed first (``None`` seconds: wait as long as it takes)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    header = _read_exactly(fd, _HEADER.size, deadline)
    if not header:
        return header
    (size,) = _HEADER.unpack(header)
    return _read_exactly(fd, size, deadline) if size else b""


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes | None:
    chunks: list[bytes] = []
    got = 0
    while got < size:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
        chunk = os.read(fd, min(size - got, 1 << 20))
        if not chunk:
            return b""
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _address_space() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _limit_memory(memory_bytes: int | None) -> int | None:
    """Cap this process's address space at what it has now plus ``memory_bytes``; what it has now,
    or ``None`` when there is no cap (none asked for, or no ``/proc`` and rlimits here)."""
    if memory_bytes is None:
        return None
    try:
        import resource

        inherited = _address_space()
        limit = inherited + memory_bytes
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        return None  # the time bound still holds
    return inherited


def _reap(pid: int, *, kill: bool) -> int:
    """Wait for the child (killing it first when asked); its exit status, negative for a signal."""
    if kill:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already (SIGCHLD ignored by the embedding program)
        return 0
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)
