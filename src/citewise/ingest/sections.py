"""Shared rules for cutting a document into sections at its headings.

The markup parsers (:mod:`~citewise.ingest.markdown`, :mod:`~citewise.ingest.rst`,
:mod:`~citewise.ingest.html`, :mod:`~citewise.ingest.text`) each find the headings of one document
and hand them to :func:`build_sections`. The rules are shared, so a section id means the same thing
whichever format it came from:

- A numbered provision keeps its number: ``Article 7`` -> ``Article 7`` (kind ``ARTICLE``),
  ``§2`` -> ``§ 2``, ``2.3 Scope`` -> ``2.3``, ``제3조의2 (보증금)`` -> ``제3조의2``.
- Any other heading becomes a slug of its text (``URL Parsing`` -> ``url-parsing``, kind ``HEADING``).
- A repeated id gets ``-2``, ``-3`` ... in document order, so ids are unique and stable as long as
  the headings before them do not change.
- Text before the first heading becomes a section ``preamble`` only if it is not blank; a document
  without any heading is one ``BODY`` section ``body``.
- A section whose whole body is ``[Repealed]``, ``Repealed.`` or ``[Deleted]`` is marked deleted,
  ``[Reserved]`` marks it reserved (also when the heading ends with such a marker and has no body).

Section texts are verbatim slices of the document text (only blank lines at their ends are
trimmed), so a quote found in a section can always be found in the document.

The naming helpers (:func:`slug`, :func:`file_stem`, :func:`doc_id_from_path`) and :func:`as_date`
serve the other parsers too (PDF, JSONL).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection
from citewise.ingest.decode import decode_text
from citewise.ingest.limits import checkpoint
from citewise.records import SectionKind
from citewise.text.articles import KOREAN_ARTICLE, korean_article_id

__all__ = [
    "PROVISION_NUMBER",
    "PROVISION_SECTION_SIGN",
    "PROVISION_WORD",
    "Heading",
    "as_date",
    "build_sections",
    "doc_id_from_path",
    "file_stem",
    "first_heading_text",
    "headed_document",
    "normalise_newlines",
    "slug",
]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading found in a list of lines."""

    start: int  # index of its first line (an RST overline included)
    end: int  # index just after its last line (a setext/RST underline included)
    text: str
    level: int  # 1 = outermost


PROVISION_WORD = re.compile(
    r"(?P<word>Article|Section|Clause|Rule)\s+(?P<num>\d+[A-Za-z]?(?:\.\d+)*)(?![\w.]*\w)", re.IGNORECASE
)
PROVISION_SECTION_SIGN = re.compile(r"§+\s*(?P<num>\d+[A-Za-z]?(?:[.-]\d+)*)")
# "2.3 Scope", "4. Definitions", "7 Penalties". A bare number of four digits ("2024 Report") is a
# year far more often than a provision, so single numbers are limited to three digits.
PROVISION_NUMBER = re.compile(r"(?P<num>\d+(?:\.\d+)+|\d{1,3})\.?(?=\s+\S|$)")

# Markers must make up the whole body: "Repealed provisions are listed below." is text, not a marker.
# A date after the marker is allowed ("Deleted (1 May 2020)", "삭제 <2020. 3. 24.>").
_DELETED_BODY = re.compile(
    r"\[(?:repealed|deleted)\b[^\]]*\]\.?|(?:repealed|deleted|삭제)\.?(?:\s*[<(\[][^>)\]]*[>)\]])?",
    re.IGNORECASE,
)
_RESERVED_BODY = re.compile(r"\[reserved\]\.?|reserved\.?", re.IGNORECASE)
_DELETED_IN_HEADING = re.compile(r"\[(?:repealed|deleted)\b[^\]]*\]\s*$", re.IGNORECASE)
_RESERVED_IN_HEADING = re.compile(r"\[reserved\]\s*$", re.IGNORECASE)

# `:mod:` and similar RST roles say nothing about the heading; they would only lengthen its slug.
_RST_ROLE = re.compile(r":[\w.+-]+:(?=`)")
_KNOWN_SUFFIXES = (".txt", ".rst", ".md", ".markdown", ".html", ".htm", ".pdf", ".jsonl", ".ndjson")


def slug(text: str, fallback: str = "section") -> str:
    """Lower-case ``text`` and join its words with ``-`` (letters of any script are kept).

    >>> slug(":mod:`urllib.parse` --- Parse URLs")
    'urllib-parse-parse-urls'
    """
    words = re.sub(r"[\W_]+", "-", _RST_ROLE.sub("", text).lower()).strip("-")
    return words or fallback


def file_stem(path: Path) -> str:
    """A file name without its format suffixes (``a_b.c.rst.txt`` -> ``a_b.c``)."""
    name = path.name
    while name.lower().endswith(_KNOWN_SUFFIXES) and "." in name[1:]:
        name = name[: name.rindex(".")]
    return name


def doc_id_from_path(path: Path) -> str:
    """Propose a document id from a file name: ``urllib.parse.rst.txt`` -> ``urllib-parse``."""
    return slug(file_stem(path), fallback="document")


def as_date(value: object, field: str, path: str) -> date | None:
    """Read a date given as ``YYYY-MM-DD`` (or already a date); ``None``/empty stays ``None``."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ParseError(f"{field} must be a date written YYYY-MM-DD, got {value!r}", path=path)


def _classify(heading: str) -> tuple[SectionKind, str]:
    """Return the section kind and the id base a heading proposes."""
    if match := PROVISION_WORD.match(heading):
        return SectionKind.ARTICLE, f"{match['word'].capitalize()} {match['num']}"
    if match := PROVISION_SECTION_SIGN.match(heading):
        return SectionKind.ARTICLE, f"§ {match['num']}"
    if match := KOREAN_ARTICLE.match(heading):
        return SectionKind.ARTICLE, korean_article_id(match)
    if match := PROVISION_NUMBER.match(heading):
        return SectionKind.ARTICLE, match["num"]
    return SectionKind.HEADING, slug(heading)


class _SectionIds:
    """Hands out section ids, suffixing ``-2``, ``-3`` ... to an id already taken."""

    def __init__(self) -> None:
        self._taken: set[str] = set()
        self._last: dict[str, int] = {}  # the last suffix given to a base: n repeats cost O(n), not O(n^2)

    def claim(self, base: str) -> str:
        candidate, n = base, self._last.get(base, 1)
        while candidate in self._taken:
            n += 1
            candidate = f"{base}-{n}"
        self._taken.add(candidate)
        self._last[base] = n
        return candidate


def _join_body(lines: Sequence[str]) -> str:
    """Join lines, dropping blank lines at both ends (the rest stays verbatim)."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


def _status(heading: str, body: str) -> tuple[bool, bool]:
    """Return (deleted, reserved) from the markers a section body (or bare heading) carries."""
    text = body.strip()
    if text:
        return bool(_DELETED_BODY.fullmatch(text)), bool(_RESERVED_BODY.fullmatch(text))
    return bool(_DELETED_IN_HEADING.search(heading)), bool(_RESERVED_IN_HEADING.search(heading))


def build_sections(lines: Sequence[str], headings: Sequence[Heading], start: int = 0) -> tuple[ParsedSection, ...]:
    """Cut ``lines[start:]`` into sections at ``headings`` (see the module docstring for the rules)."""
    ids = _SectionIds()
    first = headings[0].start if headings else len(lines)
    lead = _join_body(lines[start:first])
    sections: list[ParsedSection] = []
    if lead:
        lead_id = "preamble" if headings else "body"
        sections.append(ParsedSection(ids.claim(lead_id), "", lead, kind=SectionKind.BODY))
    for i, heading in enumerate(headings):
        if not i % 256:
            checkpoint()
        stop = headings[i + 1].start if i + 1 < len(headings) else len(lines)
        body = _join_body(lines[heading.end : stop])
        kind, base = _classify(heading.text)
        deleted, reserved = _status(heading.text, body)
        sections.append(
            ParsedSection(ids.claim(base), heading.text, body, kind=kind, deleted=deleted, reserved=reserved)
        )
    return tuple(sections)


def normalise_newlines(text: str) -> str:
    """End every line with ``\\n`` (Windows ``\\r\\n`` and old Mac ``\\r`` line ends included)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def first_heading_text(headings: Sequence[Heading]) -> str | None:
    """The text of the first heading that has any (a document's title when nothing states one)."""
    return next((h.text for h in headings if h.text), None)


def headed_document(
    fmt: str, path: Path, data: bytes, find_headings: Callable[[list[str]], list[Heading]]
) -> ParsedDocument:
    """A document split at the headings ``find_headings`` finds in its lines: the shared body of
    the parsers whose format has no front matter (reStructuredText, plain text)."""
    source = str(path)
    text = normalise_newlines(decode_text(data, source))
    lines = text.split("\n")
    headings = find_headings(lines)
    return ParsedDocument(
        doc_id=doc_id_from_path(path),
        id_declared=False,
        title=first_heading_text(headings) or file_stem(path),
        format=fmt,
        text=text,
        sections=build_sections(lines, headings),
        source=source,
    )
