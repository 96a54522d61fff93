"""reStructuredText, split at section titles; directives stay in the section text.

Sections follow the shared rules in :mod:`citewise.ingest.sections`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.limits import checkpoint
from citewise.ingest.sections import Heading, headed_document

__all__ = ["RstParser", "plain_title"]

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


_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]*)`")
_TARGETED = re.compile(r"^(.*?)\s*<[^<>]*>$")
_LITERAL = re.compile(r"``([^`]+)``")
_REFERENCE = re.compile(r"`([^`]+)`__?")
_EMPHASIS = re.compile(r"(\*\*?)(\S(?:.*?\S)?)\1")


def _role_text(match: re.Match[str]) -> str:
    content = match.group(1)
    targeted = _TARGETED.match(content)
    if targeted and targeted.group(1):
        return targeted.group(1)  # :ref:`the text <target>`
    if content.startswith("~"):
        return content[1:].rsplit(".", 1)[-1]  # :meth:`~pathlib.Path.glob` reads "glob"
    return content.lstrip("!")


def plain_title(text: str) -> str:
    """A title's reStructuredText markup as a reader sees it rendered.

    >>> plain_title(":mod:`ipaddress` --- IPv4/IPv6 manipulation library")
    'ipaddress — IPv4/IPv6 manipulation library'
    >>> plain_title("The ``*`` operator and :ref:`its uses <star>` -- *briefly*")
    'The * operator and its uses – briefly'
    """
    text = _ROLE.sub(_role_text, text)
    literals: list[str] = []

    def keep(match: re.Match[str]) -> str:  # a literal's content is not markup
        literals.append(match.group(1))
        return f"\x00{len(literals) - 1}\x00"

    text = _LITERAL.sub(keep, text)
    text = _EMPHASIS.sub(lambda m: m.group(2), _REFERENCE.sub(lambda m: m.group(1), text))
    text = text.replace(" --- ", " — ").replace(" -- ", " – ")
    return re.sub("\x00(\\d+)\x00", lambda m: literals[int(m.group(1))], text)


class RstParser(Parser):
    """reStructuredText, split at section titles; directives stay in the section text."""

    name = "rst"
    suffixes = (".rst",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.rst`` and ``.rst.txt`` (how Sphinx publishes page sources)."""
        return path.name.lower().endswith((".rst", ".rst.txt"))

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a reStructuredText file, titled by its first title as rendered
        (section headings keep their source text: they are hashed, and name their sections)."""
        document = headed_document(self.name, path, data, _rst_headings)
        yield replace(document, title=plain_title(document.title))
