"""The parser registry: built-ins by name, added on first lookup; an unknown name lists the valid ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.errors import InputError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.html import HtmlParser
from citewise.ingest.registry import PARSERS, ParserRegistry, builtin_parsers, get_parser

pytestmark = pytest.mark.unit

BUILTIN_NAMES = ["html", "jsonl", "kr-statute", "markdown", "pdf", "rst", "text", "uslm"]


class _OrgParser(Parser):
    name = "org"
    suffixes = (".org",)

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        yield from ()


class _OtherHtmlParser(HtmlParser):
    pass


def test_the_default_registry_holds_every_builtin_parser() -> None:
    assert sorted(PARSERS) == BUILTIN_NAMES
    assert sorted(factory().name for factory in builtin_parsers()) == BUILTIN_NAMES


def test_an_unknown_format_fails_listing_the_valid_ones() -> None:
    with pytest.raises(InputError) as caught:
        get_parser("docx")
    assert str(caught.value) == f"unknown format 'docx'; valid formats: {', '.join(BUILTIN_NAMES)}"


def test_builtins_are_added_on_the_first_lookup_only() -> None:
    calls = []

    def builtins() -> tuple[type[Parser], ...]:
        calls.append(1)
        return (HtmlParser,)

    registry = ParserRegistry(builtins)
    assert calls == []
    assert isinstance(registry.parser("html"), HtmlParser)
    assert list(registry) == ["html"]
    assert calls == [1]


def test_a_registered_parser_is_found_and_a_later_one_replaces_a_builtin() -> None:
    registry = ParserRegistry(lambda: (HtmlParser,))
    assert registry.add(_OrgParser) is _OrgParser  # usable as a class decorator
    registry.add(_OtherHtmlParser)  # before any lookup: still replaces the built-in
    assert sorted(registry) == ["html", "org"]
    assert type(registry.parser("html")) is _OtherHtmlParser
    assert isinstance(registry.parser("org"), _OrgParser)


def test_a_parser_without_a_name_is_refused() -> None:
    class Nameless(_OrgParser):
        name = ""

    with pytest.raises(ValueError, match="needs a name"):
        ParserRegistry(tuple).add(Nameless)
