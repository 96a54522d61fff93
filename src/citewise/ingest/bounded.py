"""Run a parser where a limit can stop it: a child process bounded in time and memory.

A checkpoint in a Python loop cannot stop libxml2 spending minutes on one element with 200,000
attributes, or zlib inflating a PDF stream to gigabytes: the time goes inside one C call. So each
file (and each fetched body) is parsed in a forked child, a copy of this process with the parsers
and registrations it has now. The child's address space may grow by ``memory_bytes`` beyond what it
inherited (``RLIMIT_AS``; an allocation past it raises ``MemoryError``), and the parent kills it when
``seconds`` pass. Either way the caller gets :class:`BoundExceeded`, saying which bound and by how
much, and goes on with the next file; anything else the function raises is raised again here.

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
import time
from collections.abc import Callable
from typing import Any, TypeVar

from citewise.errors import ParseError

__all__ = ["Bound", "BoundExceeded", "can_isolate", "run_bounded"]

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
    :class:`BoundExceeded` naming ``where`` when a bound stopped it."""
    if not can_isolate():
        return fn(*args)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(write_end, fn, args, memory_bytes)
    os.close(write_end)
    try:
        payload = _collect(read_end, pid, seconds + grace)
    finally:
        os.close(read_end)
    if payload is None:
        _reap(pid, kill=True)
        raise BoundExceeded(
            Bound.TIME,
            f"parsing took longer than {seconds:g} s, {advice}",
            path=where,
        )
    status = _reap(pid, kill=False)
    if not payload:
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        raise BoundExceeded(Bound.CRASH, f"the parser stopped without an answer ({how})", path=where)
    kind, value = pickle.loads(payload)
    if kind == "memory":
        limit = f"{(memory_bytes or 0) / 2**20:.0f} MB"
        raise BoundExceeded(
            Bound.MEMORY,
            f"parsing needed more than {limit} of memory, {advice}",
            path=where,
        )
    if kind == "raised":
        raise value
    return value  # type: ignore[no-any-return]


def _child(write_end: int, fn: Callable[..., Any], args: tuple[Any, ...], memory_bytes: int | None) -> None:
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C reaches the parent, which reaps us
        _limit_memory(memory_bytes)
        try:
            outcome: tuple[str, Any] = ("ok", fn(*args))
        except MemoryError:
            outcome = ("memory", None)
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent as it was
            outcome = ("raised", exc)
        try:
            payload = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            payload = pickle.dumps(("memory", None))
        except Exception as exc:  # noqa: BLE001 - an unpicklable result or exception
            payload = pickle.dumps(("raised", ParseError(f"the parser's answer could not be passed back: {exc}")))
        view = memoryview(payload)
        while view:
            written = os.write(write_end, view)
            view = view[written:]
    except BaseException:  # noqa: BLE001 - the child must end here whatever happens
        code = 70
    finally:
        os._exit(code)


def _limit_memory(memory_bytes: int | None) -> None:
    if memory_bytes is None:
        return
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            inherited = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = inherited + memory_bytes
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass  # no /proc or no rlimits here: the time bound still holds


def _collect(read_end: int, pid: int, seconds: float) -> bytes | None:
    """Everything the child writes until it closes the pipe; ``None`` when ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([read_end], [], [], left)
        if not ready:
            return None
        chunk = os.read(read_end, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


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
