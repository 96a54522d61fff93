"""reStructuredText, split at section titles; directives stay in the section text.

Sections follow the shared rules in :mod:`citewise.ingest.sections`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.limits import checkpoint
from citewise.ingest.sections import Heading, headed_document

__all__ = ["RstParser"]

# Any non-alphanumeric printable ASCII character may adorn a section title.
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")


def _rst_title_at(lines: Sequence[str], i: int) -> tuple[str, str, bool, int] | None:
    """If a section title starts at line ``i``, return (text, char, overlined, end)."""
    if i > 0 and lines[i - 1].strip():
        return None  # a title follows a blank line (or starts the file)
    line = lines[i]
    if _RST_ADORNMENT.match(line) and i + 2 < len(lines):
        text, under = lines[i + 1], lines[i + 2]
        if text.strip() and not _RST_ADORNMENT.match(text) and under.rstrip() == line.rstrip():
            return text.strip(), line[0], True, i + 3
    if not line.strip() or line[0].isspace() or _RST_ADORNMENT.match(line) or i + 1 >= len(lines):
        return None
    under = lines[i + 1].rstrip()
    if not _RST_ADORNMENT.match(under):
        return None
    # docutils' own rule: an underline shorter than the title still counts if it is 4+ long.
    if len(under) < len(line.rstrip()) and len(under) < 4:
        return None
    return line.strip(), under[0], False, i + 2


def _rst_headings(lines: Sequence[str]) -> list[Heading]:
    """Find section titles; the level follows the order in which adornment styles first appear."""
    styles: list[tuple[str, bool]] = []
    headings: list[Heading] = []
    i = 0
    while i < len(lines):
        if not i % 256:
            checkpoint()
        found = _rst_title_at(lines, i)
        if found is None:
            i += 1
            continue
        text, char, overlined, end = found
        if (char, overlined) not in styles:
            styles.append((char, overlined))
        headings.append(Heading(i, end, text, styles.index((char, overlined)) + 1))
        i = end
    return headings


class RstParser(Parser):
    """reStructuredText, split at section titles; directives stay in the section text."""

    name = "rst"
    suffixes = (".rst",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.rst`` and ``.rst.txt`` (how Sphinx publishes page sources)."""
        return path.name.lower().endswith((".rst", ".rst.txt"))

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a reStructuredText file."""
        yield headed_document(self.name, path, data, _rst_headings)
