"""No empty shells: a heading whose content verification removed is dropped, or says what is missing.

After unsupported sentences are removed, a section may be left with nothing under its heading (an
"Executive Summary" whose every sentence failed, a topic section whose only finding went). Such a
heading is dropped — unless it names a required sub-question that is now a gap: then it stays with
one line, ``*No verified finding: ...*``, saying why, so the reader sees the gap where the answer
would have been. A section counts as empty when neither it nor any heading nested in it has a line
of content left.

>>> print(drop_shells("# T\\n\\n## A\\n\\nKept [S1].\\n\\n## Summary\\n\\n## B\\n", {}, {}), end="")
# T
<BLANKLINE>
## A
<BLANKLINE>
Kept [S1].
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from citewise.records.verify import Gap, GapReason
from citewise.verify.claims import NO_FINDING

__all__ = ["drop_shells", "no_finding_line"]

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+\S")

_WHY: Mapping[GapReason, str] = {
    GapReason.NOT_FOUND: "the sources citewise read do not answer this",
    GapReason.NOT_VERIFIED: "what the draft said here did not survive verification (see “Removed before delivery”)",
    GapReason.NOT_ANSWERED: "no supported claim of this report answers this",
    GapReason.PARTIAL: "the sources citewise read support this only partly or indirectly",
}


def no_finding_line(gap: Gap) -> str:
    """The one line that stands under the heading of a gap (never read as a claim)."""
    return f"{NO_FINDING}: {_WHY[gap.reason]}.*"


def drop_shells(text: str, headings: Mapping[int, str], gaps: Mapping[str, Gap], hollow: Collection[int] = ()) -> str:
    """``text`` without empty sections; an empty section whose heading names a gap (``headings``:
    line index -> topic; ``gaps``: topic -> gap) keeps its heading over :func:`no_finding_line`.
    ``hollow`` lines (signposting only: no finding) do not count as content and go with their section."""
    lines = text.splitlines()
    levels = {i: len(m.group(1)) for i, line in enumerate(lines) if (m := _HEADING.match(line))}
    kept: dict[int, bool] = {}
    noted: set[int] = set()
    cleared: set[int] = set()  # lines of sections that go (or are replaced by the note)
    for index in sorted(levels, reverse=True):  # nested headings are decided before their parents
        end = next((i for i in range(index + 1, len(lines)) if i in levels and levels[i] <= levels[index]), len(lines))
        content = any(i not in levels and i not in hollow and lines[i].strip() for i in range(index + 1, end))
        children = any(kept.get(i, False) for i in range(index + 1, end) if i in levels)
        gap = headings.get(index, "") in gaps
        if not content and not children:
            cleared.update(range(index + 1, end))
            if gap:
                noted.add(index)
        kept[index] = content or children or gap
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in levels and not kept[index]:
            continue
        if index in cleared and index not in levels:
            continue
        out.append(line)
        if index in noted:
            out += ["", no_finding_line(gaps[headings[index]]), ""]
    return _tidy(out)


def _tidy(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n" if out else ""
