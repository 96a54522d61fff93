"""Plain text, split at lines that look like headings; otherwise one ``BODY`` section.

Sections follow the shared rules in :mod:`citewise.ingest.sections`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.limits import checkpoint
from citewise.ingest.sections import (
    PROVISION_NUMBER,
    PROVISION_SECTION_SIGN,
    PROVISION_WORD,
    Heading,
    headed_document,
)
from citewise.text.articles import KOREAN_ARTICLE

__all__ = ["PlainTextParser"]


_TEXT_UNDERLINE = re.compile(r"^([=\-~*_^#])\1{2,}[ \t]*$")
_NUMBERED_LINE = re.compile(r"^\s*\d+(?:\.\d+)*[.)]?\s+\S")
_BARE_PROVISION = re.compile(r"(?:(?:Article|Section|Clause|Rule)\s+|§+\s*)\d+[A-Za-z]?(?:\.\d+)*\.?", re.I)
_MAX_HEADING_CHARS = 100


def _looks_like_text_heading(line: str, next_line: str) -> bool:
    """Guess whether a stand-alone line of plain text is a heading.

    Provisions (``Article 7``, ``§ 2``, ``제5조``) and ALL-CAPS lines are headings; a numbered line
    (``2.3 Scope``) is one unless the next line is numbered too (a tight list, not a heading). A line
    ending like a sentence is body text, except a bare provision number such as ``§ 2.``.
    """
    if line.endswith((",", ";", ":")) or (line.endswith(".") and not _BARE_PROVISION.fullmatch(line)):
        return False
    if PROVISION_WORD.match(line) or PROVISION_SECTION_SIGN.match(line) or KOREAN_ARTICLE.match(line):
        return True
    letters = [ch for ch in line if ch.isalpha()]
    if len(letters) >= 3 and all(ch.isupper() for ch in letters):
        return True
    if PROVISION_NUMBER.match(line):
        rest = line.split(None, 1)[1] if " " in line else ""
        return not rest[:1].islower() and not _NUMBERED_LINE.match(next_line)
    return False


def _text_headings(lines: Sequence[str]) -> list[Heading]:
    """Find heading lines in plain text: each stands after a blank line (or starts the file)."""
    headings: list[Heading] = []
    i = 0
    while i < len(lines):
        if not i % 256:
            checkpoint()
        line = lines[i]
        stripped = line.strip()
        standalone = i == 0 or not lines[i - 1].strip()
        if not standalone or not stripped or line[0].isspace() or len(stripped) > _MAX_HEADING_CHARS:
            i += 1
            continue
        next_line = lines[i + 1] if i + 1 < len(lines) else ""
        if _TEXT_UNDERLINE.match(next_line) and not _TEXT_UNDERLINE.match(line):
            headings.append(Heading(i, i + 2, stripped, 1))
            i += 2
            continue
        if _looks_like_text_heading(stripped, next_line):
            headings.append(Heading(i, i + 1, stripped, 2))
        i += 1
    return headings


class PlainTextParser(Parser):
    """Plain text, split at lines that look like headings; otherwise one ``BODY`` section."""

    name = "text"
    suffixes = (".txt",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.txt`` files, except ``.rst.txt`` ones (those are reStructuredText)."""
        name = path.name.lower()
        return name.endswith(".txt") and not name.endswith(".rst.txt")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a text file."""
        yield headed_document(self.name, path, data, _text_headings)
