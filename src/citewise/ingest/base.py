"""What every parser produces, and the parser protocol.

A parser turns the bytes of one input into one or more :class:`ParsedDocument` values. It knows
nothing about the store: versioning, hashing and review happen later in
:mod:`citewise.ingest.pipeline`. A parser raises :class:`~citewise.errors.ParseError` naming what
is wrong with the input; it never returns a half-parsed document. Parsers are looked up by name in
:mod:`citewise.ingest.registry`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from citewise.records import SectionKind

__all__ = ["ParsedDocument", "ParsedSection", "Parser"]


@dataclass(frozen=True, slots=True)
class ParsedSection:
    """One section as the parser found it."""

    section_id: str
    """Identifier unique within the document, matching the official numbering where there is one."""
    heading: str
    """Heading as written."""
    text: str
    """Body text (without the heading line)."""
    kind: SectionKind = SectionKind.HEADING
    """What kind of section this is."""
    deleted: bool = False
    """Deleted or repealed provision (kept, never evidence)."""
    reserved: bool = False
    """Reserved placeholder."""
    deleted_parts: tuple[str, ...] = ()
    """Markers of deleted paragraphs or items inside a live section (e.g. ``("③",)``)."""


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """One document as a parser found it, before it is versioned and stored."""

    doc_id: str
    """Stable id proposed by the parser (e.g. ``kr-law-001248``); options may override it."""
    title: str
    """Title as the document states it."""
    format: str
    """Name of the parser that produced it."""
    text: str
    """Full text the document hash is computed over."""
    sections: tuple[ParsedSection, ...]
    """Sections in document order."""
    issuing_authority: str | None = None
    """Issuing authority stated by the document itself (never the channel it came through)."""
    official_publisher: str | None = None
    """Official publisher URL or name stated by the document itself."""
    origin_url: str | None = None
    """Origin URL stated by the document (JSONL rows may carry one)."""
    version_label: str | None = None
    """Version label stated by the document (e.g. ``MST276291``)."""
    promulgated_on: date | None = None
    """Promulgation date stated by the document."""
    effective_on: date | None = None
    """Effective date stated by the document."""
    language: str | None = None
    """Language of the text, when the parser knows it."""
    licence: str | None = None
    """Licence stated by the input (JSONL rows may carry one)."""
    metadata: dict[str, str] = field(default_factory=dict)
    """Format-specific facts kept verbatim."""
    source: str = ""
    """Where it was read from (path, or ``path:line`` for JSONL)."""
    id_declared: bool = True
    """Whether ``doc_id`` is one the document states about itself (front matter, a law id, a JSONL
    ``_id``); False when it was derived from the file name (then only the same path and format are
    the same document)."""


class Parser:
    """Base of every parser. Subclasses set ``name`` and ``suffixes`` and implement :meth:`parse`."""

    name: str = ""
    #: file name endings this parser claims (lower case, with the dot)
    suffixes: tuple[str, ...] = ()

    def sniff(self, path: Path, head: str) -> bool:
        """True when this parser recognises ``path`` from its name and first characters."""
        return path.suffix.lower() in self.suffixes

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the documents in ``data`` (read from ``path``)."""
        raise NotImplementedError
