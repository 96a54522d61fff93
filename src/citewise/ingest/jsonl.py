"""JSONL parser: one document per line, with per-line failures.

Each non-blank line is a JSON object::

    {"_id": "doc-1", "title": "Google", "text": "Google was founded in 1998 ...",
     "origin_url": "https://...", "licence": "CC-BY-SA-3.0", "metadata": {"source": "nq"}}

``_id`` (or ``doc_id``) and a non-empty ``text`` are required. A bad line (invalid JSON, a missing
id or text, an id already used earlier in the file, a NUL byte, nesting deeper than the limit of
:mod:`citewise.ingest.limits`) does not stop the others: :meth:`JsonlParser.parse`
*yields* a :class:`~citewise.errors.ParseError` for it, whose ``path`` is ``file:LINE``, and carries
on. The ingestion pipeline records those as failures of single lines.

Each document becomes a single ``BODY`` section ``body``: rows are usually passages already, and
guessing headings inside them would make section ids depend on a heuristic.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection, Parser
from citewise.ingest.decode import guess_wide_encoding
from citewise.ingest.limits import check_json_depth, checkpoint
from citewise.ingest.sections import as_date
from citewise.records import SectionKind

__all__ = ["JsonlParser"]

# Optional text fields -> ParsedDocument fields (two spellings each for URL and licence).
_TEXT_FIELDS = {
    "issuing_authority": "issuing_authority",
    "official_publisher": "official_publisher",
    "origin_url": "origin_url",
    "url": "origin_url",
    "licence": "licence",
    "license": "licence",
    "language": "language",
    "version_label": "version_label",
}
_DATE_FIELDS = ("promulgated_on", "effective_on")
_SCALARS = (str, int, float, bool)


def _doc_id(row: dict[str, Any], where: str) -> str:
    """The row's id from ``_id`` or ``doc_id``: a non-empty string (integers are accepted as text)."""
    value = row.get("_id")
    if value is None:
        value = row.get("doc_id")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise ParseError("missing '_id' (or 'doc_id'): every line needs a non-empty id", path=where)
    return value.strip()


def _metadata(value: object, where: str) -> dict[str, str]:
    """``metadata`` as a flat mapping of strings; numbers and booleans are kept as their text."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ParseError(f"'metadata' must be an object, got {type(value).__name__}", path=where)
    metadata = {}
    for key, item in value.items():
        if item is None:
            continue
        if not isinstance(item, _SCALARS):
            raise ParseError(f"metadata {key!r} must be a string, got {type(item).__name__}", path=where)
        metadata[key] = item if isinstance(item, str) else json.dumps(item)
    return metadata


def _document(row: object, source: str) -> ParsedDocument:
    """Turn one decoded row into a document, or raise a ParseError naming what is wrong."""
    if not isinstance(row, dict):
        raise ParseError(f"expected a JSON object, got {type(row).__name__}", path=source)
    doc_id = _doc_id(row, source)
    text = row.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ParseError(f"missing 'text' for {doc_id!r}: every line needs non-empty text", path=source)
    title = row.get("title")
    if title is not None and not isinstance(title, str):
        raise ParseError(f"'title' must be a string, got {type(title).__name__}", path=source)
    fields: dict[str, Any] = {}
    for key, target in _TEXT_FIELDS.items():
        value = row.get(key)
        if value is None or target in fields:
            continue
        if not isinstance(value, str):
            raise ParseError(f"{key!r} must be a string, got {type(value).__name__}", path=source)
        fields[target] = value.strip() or None
    for key in _DATE_FIELDS:
        fields[key] = as_date(row.get(key), repr(key), source)
    title = (title or "").strip() or doc_id
    if "\x00" in text or "\x00" in title:
        raise ParseError(f"NUL character (\\u0000) in the text or title of {doc_id!r}: remove it", path=source)
    return ParsedDocument(
        doc_id=doc_id,
        title=title,
        format="jsonl",
        text=text,
        sections=(ParsedSection("body", title, text, kind=SectionKind.BODY),),
        metadata=_metadata(row.get("metadata"), source),
        source=source,
        **fields,
    )


def _parse_line(raw: bytes, source: str) -> ParsedDocument:
    """Decode and parse one line."""
    if (at := raw.find(b"\x00")) >= 0:
        raise ParseError(f"NUL byte at column {at + 1}: a JSON line cannot hold one; remove it", path=source)
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})", path=source
        ) from None
    check_json_depth(line, source)
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg} at column {exc.colno}", path=source) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply to read; flatten the row", path=source) from None
    return _document(row, source)


def _bom_encoding(data: bytes) -> str | None:
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return None


class JsonlParser(Parser):
    """JSON Lines: one document per line; bad lines are yielded as ParseError values."""

    name = "jsonl"
    suffixes = (".jsonl", ".ndjson")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument | ParseError]:  # type: ignore[override]
        """Yield a document for every good line and a ParseError for every bad one.

        A file that is not JSONL at all (empty, UTF-16/32) raises instead: there are no lines to
        keep. A NUL byte fails only its own line.
        """
        where = str(path)
        if not data.strip():
            raise ParseError("empty file: there is no text to ingest", path=where)
        wide = _bom_encoding(data) or guess_wide_encoding(data)
        if wide:
            message = f"JSON Lines must be UTF-8; this looks like {wide.upper()}: pass --encoding {wide}"
            raise ParseError(message, path=where)
        data = data.removeprefix(codecs.BOM_UTF8)
        first_line: dict[str, int] = {}
        for number, raw in enumerate(data.split(b"\n"), start=1):
            checkpoint()
            if not raw.strip():
                continue
            source = f"{where}:{number}"
            try:
                document = _parse_line(raw, source)
            except ParseError as exc:
                yield exc
                continue
            if document.doc_id in first_line:
                yield ParseError(
                    f"duplicate id {document.doc_id!r} (first on line {first_line[document.doc_id]})",
                    path=source,
                )
                continue
            first_line[document.doc_id] = number
            yield document
