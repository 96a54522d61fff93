"""Bounds on what one input may cost to parse, so that a hostile file fails alone and fast.

A file can be small and still expensive: a few hundred bytes of YAML aliases expand to gigabytes,
a JSON line of nested brackets exhausts the interpreter's stack, a long run of spaces makes a
backtracking pattern quadratic. Ingestion therefore parses each file under :class:`ParseLimits`:

- a size limit, checked before the file is read;
- YAML read by :func:`load_yaml`, which refuses documents whose alias expansion or nesting goes
  past a small bound (the anchors are counted as the constructed value would repeat them);
- JSON lines checked by :func:`check_json_depth` before they are decoded;
- a wall-clock budget per file, checked by :func:`checkpoint` inside the parsers' loops;
- and, around all of it, a child process that the time and memory limits stop even inside one
  long C call (:mod:`citewise.ingest.bounded`).

Each bound that is exceeded raises :class:`~citewise.errors.ParseError` naming the bound and what to
do, so the pipeline records one failed file and carries on with the next. The budget of the file
being parsed is held in a context variable (:meth:`ParseBudget.running`), so parsers keep their
``parse(path, data)`` signature.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from citewise.errors import ParseError

__all__ = [
    "ParseBudget",
    "ParseLimits",
    "check_json_depth",
    "checkpoint",
    "current_limits",
    "load_yaml",
    "warn",
]


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """How much one input may cost to parse."""

    max_file_bytes: int = 64 * 2**20
    """Largest file read (bytes); a larger one fails before it is read."""
    max_seconds: float = 60.0
    """Wall-clock time one file may take to parse."""
    max_memory_bytes: int | None = 1024 * 2**20
    """Memory one file's parse may add (address space, on POSIX); ``None``: no bound."""
    yaml_max_nodes: int = 10_000
    """Largest YAML document, counting every node an alias repeats."""
    yaml_max_depth: int = 64
    """Deepest nesting of YAML collections."""
    json_max_depth: int = 64
    """Deepest nesting of arrays and objects in one JSON line."""


class ParseBudget:
    """The time one file has used while being parsed: the clock runs only inside :meth:`running`,
    so the time the pipeline spends storing a JSONL file's rows between them is not counted."""

    def __init__(self, path: str, limits: ParseLimits) -> None:
        self.path = path
        self.limits = limits
        self.spent = 0.0
        """Seconds used so far."""
        self.notes: list[str] = []
        """Warnings about the file the parsers gave (:func:`warn`), for the user to read."""
        self._started: float | None = None

    @contextmanager
    def running(self) -> Iterator[None]:
        """Parse under this budget (the clock runs) for the duration of the block."""
        token = _CURRENT.set(self)
        self._started = time.monotonic()
        try:
            yield
        finally:
            self.spent += time.monotonic() - self._started
            self._started = None
            _CURRENT.reset(token)

    def exhausted(self) -> bool:
        """Whether the file has used up its time."""
        running = time.monotonic() - self._started if self._started is not None else 0.0
        return self.spent + running > self.limits.max_seconds


_CURRENT: ContextVar[ParseBudget | None] = ContextVar("citewise_parse_budget", default=None)


def current_limits() -> ParseLimits:
    """The limits of the file being parsed (the defaults outside :meth:`ParseBudget.running`)."""
    budget = _CURRENT.get()
    return budget.limits if budget else ParseLimits()


def warn(message: str) -> None:
    """Note something the user should know about the file being parsed (it is still ingested): the
    pipeline shows it with the file's result. Outside a budget it goes nowhere."""
    budget = _CURRENT.get()
    if budget is not None and message not in budget.notes:
        budget.notes.append(message)


def checkpoint() -> None:
    """Raise ParseError when the file being parsed has used up its time; cheap, call it in loops."""
    budget = _CURRENT.get()
    if budget is not None and budget.exhausted():
        raise ParseError(
            f"parsing took longer than {budget.limits.max_seconds:g} s, the limit per file; "
            "split the file or check that it is what it claims to be",
            path=budget.path,
        )


# -- YAML -----------------------------------------------------------------------------------


def load_yaml(text: str, where: str, loader: type[yaml.BaseLoader] | type[yaml.SafeLoader] = yaml.SafeLoader) -> object:
    """``yaml.load`` with ``loader``, refusing alias bombs and deep nesting (ParseError naming the
    bound). ``loader`` is SafeLoader or BaseLoader (every scalar a string)."""
    limits = current_limits()
    bounded = _bounded(loader, limits, where)  # type: ignore[arg-type]  # SafeLoader is a BaseLoader at runtime
    reader = bounded(text)
    try:
        node = reader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, {}, limits.yaml_max_nodes, where)
        return reader.construct_document(node)
    finally:
        reader.dispose()  # type: ignore[no-untyped-call]


def _bounded(base: type[yaml.BaseLoader], limits: ParseLimits, where: str) -> type[yaml.BaseLoader]:
    class BoundedLoader(base):  # type: ignore[valid-type,misc]
        _depth = 0

        def compose_node(self, parent: Node | None, index: object) -> Node:
            self._depth += 1
            checkpoint()
            if self._depth > limits.yaml_max_depth:
                raise ParseError(f"YAML nested deeper than {limits.yaml_max_depth} levels; flatten it", path=where)
            try:
                return super().compose_node(parent, index)  # type: ignore[no-any-return]
            finally:
                self._depth -= 1

    return BoundedLoader


def _expanded_size(node: Node, sizes: dict[int, int | None], limit: int, where: str) -> int:
    """Nodes in ``node`` with every alias counted as a copy of what it names (memoised, so an
    exponential expansion is measured in linear time)."""
    key = id(node)
    if key in sizes:
        known = sizes[key]
        if known is None:
            raise ParseError("YAML alias refers to the collection it is in (a recursive anchor)", path=where)
        return known
    sizes[key] = None
    size = 1
    if isinstance(node, SequenceNode):
        size += sum(_expanded_size(child, sizes, limit, where) for child in node.value)
    elif isinstance(node, MappingNode):
        for k, v in node.value:
            size += _expanded_size(k, sizes, limit, where) + _expanded_size(v, sizes, limit, where)
    if size > limit:
        raise ParseError(
            f"YAML expands to more than {limit} values (aliases repeat what their anchors name); "
            "write the values out or remove the aliases",
            path=where,
        )
    sizes[key] = size
    return size


# -- JSON -----------------------------------------------------------------------------------

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def check_json_depth(line: str, where: str) -> None:
    """ParseError when the JSON text ``line`` nests arrays/objects deeper than the limit (checked
    before decoding: the decoder itself would exhaust the stack)."""
    limit = current_limits().json_max_depth
    if line.count("[") + line.count("{") <= limit:
        return
    depth = 0
    for match in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', line)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise ParseError(
                    f"JSON nested deeper than {limit} levels; flatten the row",
                    path=where,
                )
        else:
            depth -= 1
