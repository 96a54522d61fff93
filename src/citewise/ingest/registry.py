"""Parsers by format name.

The built-in parsers are an explicit table (:func:`builtin_parsers`), imported on the first lookup so
``citewise --help`` does not pay for lxml and pypdf. Other code adds a parser the same way the
built-ins are added, with :func:`register_parser` (usable as a class decorator); a later
registration under a name replaces the earlier one::

    from citewise.ingest.registry import get_parser, register_parser

    @register_parser
    class OrgModeParser(Parser):
        name = "org"
        suffixes = (".org",)
        ...

    get_parser("org")

An unknown name fails with :class:`~citewise.errors.InputError` listing the valid ones. The parsers
import only :mod:`citewise.ingest.base`; this module imports them, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from citewise.errors import InputError
from citewise.ingest.base import Parser
from citewise.registry import Registry

__all__ = ["PARSERS", "ParserFactory", "ParserRegistry", "builtin_parsers", "get_parser", "register_parser"]

ParserFactory = Callable[[], Parser]
"""Builds a parser with no arguments (a :class:`~citewise.ingest.base.Parser` subclass is one)."""


def builtin_parsers() -> tuple[ParserFactory, ...]:
    """Citewise's own parsers."""
    from citewise.ingest.html import HtmlParser
    from citewise.ingest.jsonl import JsonlParser
    from citewise.ingest.kr_statute import KoreanStatuteParser
    from citewise.ingest.markdown import MarkdownParser
    from citewise.ingest.pdf import PdfParser
    from citewise.ingest.rst import RstParser
    from citewise.ingest.text import PlainTextParser
    from citewise.ingest.uslm import UslmParser

    return (
        HtmlParser,
        JsonlParser,
        KoreanStatuteParser,
        MarkdownParser,
        PdfParser,
        RstParser,
        PlainTextParser,
        UslmParser,
    )


class ParserRegistry(Mapping[str, ParserFactory]):
    """Parser factories by format name: a read-only mapping that adds ``builtins`` on first use."""

    def __init__(self, builtins: Callable[[], tuple[ParserFactory, ...]] = builtin_parsers) -> None:
        def add_builtins(_: Registry[ParserFactory]) -> None:
            for factory in builtins():
                self._add(factory)

        self._registry: Registry[ParserFactory] = Registry(
            "format", builtins=add_builtins, error=InputError, valid="valid formats"
        )

    def add(self, factory: ParserFactory) -> ParserFactory:
        """Make ``factory`` available under its parser's ``name``; returns it (a class decorator)."""
        self.load()  # so a registration made before the first lookup still replaces a built-in
        self._add(factory)
        return factory

    def parser(self, name: str) -> Parser:
        """A new parser for format ``name``; an unknown name raises :class:`InputError`."""
        return self._registry.lookup(name)()

    def load(self) -> None:
        """Add the built-ins (once)."""
        self._registry.load()

    def _add(self, factory: ParserFactory) -> None:
        name = factory().name
        if not name:
            raise ValueError("a parser needs a name")
        self._registry.add(name, factory)

    def __getitem__(self, name: str) -> ParserFactory:
        return self._registry[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry)

    def __len__(self) -> int:
        return len(self._registry)


PARSERS = ParserRegistry()
"""The registry ingestion uses."""


def register_parser(factory: ParserFactory) -> ParserFactory:
    """Add a parser to :data:`PARSERS` (usable as a class decorator)."""
    return PARSERS.add(factory)


def get_parser(name: str) -> Parser:
    """A new parser by format name; an unknown name fails listing the valid ones."""
    return PARSERS.parser(name)


def _load_builtin_parsers() -> None:
    # Kept for citewise.ingest.pipeline, which asks for it before reading every parser's suffixes.
    PARSERS.load()
