"""Generic Markdown: YAML front matter, ATX (``#``) and setext (underlined) headings.

Sections follow the shared rules in :mod:`citewise.ingest.sections`. The Korean-statute parser
(``kr-statute``) claims the statute Markdown files it recognises; this ``markdown`` parser is the
generic fallback for every other ``.md`` file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.limits import checkpoint, load_yaml
from citewise.ingest.sections import (
    Heading,
    as_date,
    build_sections,
    doc_id_from_path,
    file_stem,
    first_heading_text,
    normalise_newlines,
)

__all__ = ["MarkdownParser"]


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# The closing ``#`` sequence is stripped in Python (_atx_text): a pattern for it backtracks
# quadratically over a long run of spaces.
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*))?$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Lines that cannot be the text of a setext heading: list items, quotes, indented code.
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[-+*]|\d{1,9}[.)])(?:\s|$)| {0,3}>)")

# Front-matter keys -> ParsedDocument fields. Several spellings are common in the wild.
_FRONT_MATTER_FIELDS = {
    "title": "title",
    "doc_id": "doc_id",
    "id": "doc_id",
    "issuing_authority": "issuing_authority",
    "official_publisher": "official_publisher",
    "origin_url": "origin_url",
    "url": "origin_url",
    "licence": "licence",
    "license": "licence",
    "language": "language",
    "lang": "language",
    "version": "version_label",
    "version_label": "version_label",
    "promulgated_on": "promulgated_on",
    "published": "promulgated_on",
    "effective_on": "effective_on",
    "effective": "effective_on",
}
_DATE_FIELDS = frozenset({"promulgated_on", "effective_on"})


def _atx_text(content: str | None) -> str:
    """An ATX heading's text without its optional closing ``#`` sequence (``## a ##`` -> ``a``)."""
    text = (content or "").strip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")
    return text


def _markdown_headings(lines: Sequence[str], start: int) -> list[Heading]:
    """Find ATX (``#``) and setext (underlined) headings, skipping fenced code blocks.

    A setext heading takes only the one line above its underline as its text (CommonMark would
    take the whole paragraph); the lines before it stay in the previous section.
    """
    headings: list[Heading] = []
    fence: str | None = None
    paragraph_line = False  # is the previous line plain paragraph text?
    for i in range(start, len(lines)):
        if not i % 256:
            checkpoint()
        line = lines[i]
        fence_match = _FENCE.match(line)
        if fence is not None:
            marker = fence_match.group(1) if fence_match else ""
            closes = marker[:1] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker) :]
            fence = None if closes else fence
            paragraph_line = False
            continue
        if fence_match:
            fence, paragraph_line = fence_match.group(1), False
            continue
        if (underline := _SETEXT_UNDERLINE.match(line)) and paragraph_line:
            level = 1 if underline.group(1)[0] == "=" else 2
            headings.append(Heading(i - 1, i + 1, lines[i - 1].strip(), level))
            paragraph_line = False
            continue
        if atx := _ATX.match(line):
            headings.append(Heading(i, i + 1, _atx_text(atx.group(2)).strip(), len(atx.group(1))))
            paragraph_line = False
            continue
        paragraph_line = bool(line.strip()) and not _NOT_PARAGRAPH.match(line)
    return headings


def _front_matter(lines: Sequence[str], path: str) -> tuple[dict[str, Any], int]:
    """Read a leading ``---`` YAML block; return its mapping and the index of the first body line."""
    if not lines or lines[0].rstrip() != "---":
        return {}, 0
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise ParseError("broken front matter: the opening '---' line has no closing '---' line", path=path)
    try:
        loaded = load_yaml("\n".join(lines[1:end]), path)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 2})" if where is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ParseError(f"broken front matter: {problem}{line}", path=path) from exc
    if loaded is None:
        return {}, end + 1
    if not isinstance(loaded, dict):
        raise ParseError(f"broken front matter: expected 'key: value' lines, got a {type(loaded).__name__}", path=path)
    return {str(key): value for key, value in loaded.items()}, end + 1


def _scalar_text(value: object) -> str:
    """Front-matter value as text: lists joined with ``; ``, mappings as JSON."""
    if isinstance(value, list):
        return "; ".join(_scalar_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    return str(value).strip()


def _front_matter_fields(front: Mapping[str, Any], path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Split front matter into ParsedDocument fields and verbatim ``metadata``."""
    fields: dict[str, Any] = {}
    metadata: dict[str, str] = {}
    for key, value in front.items():
        target = _FRONT_MATTER_FIELDS.get(key.lower())
        if target is None:
            if value is not None:
                metadata[key] = _scalar_text(value)
        elif target in _DATE_FIELDS:
            fields[target] = as_date(value, f"front matter {key!r}", path)
        elif value is not None and _scalar_text(value):
            fields[target] = _scalar_text(value)
    return fields, metadata


class MarkdownParser(Parser):
    """Generic Markdown: YAML front matter, ATX and setext headings."""

    name = "markdown"
    suffixes = (".md", ".markdown")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a Markdown file."""
        source = str(path)
        text = normalise_newlines(decode_text(data, source))
        lines = text.split("\n")
        front, body_start = _front_matter(lines, source)
        fields, metadata = _front_matter_fields(front, source)
        headings = _markdown_headings(lines, body_start)
        sections = build_sections(lines, headings, start=body_start)
        if not sections:
            raise ParseError("no text after the front matter", path=source)
        if "doc_id" not in fields:
            fields.update(doc_id=doc_id_from_path(path), id_declared=False)
        fields.setdefault("title", first_heading_text(headings) or file_stem(path))
        # The front matter stays in the hashed text: a changed effective date is a changed document.
        yield ParsedDocument(format=self.name, text=text, sections=sections, metadata=metadata, source=source, **fields)
