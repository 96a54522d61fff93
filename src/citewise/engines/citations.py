"""From an engine's citations to a draft whose sentences cite ``[S#]`` ids of stored sources.

Providers locate citations differently: OpenAI by character offsets (the span is usually the
``([site](url))`` link the model wrote after the sentence), Anthropic by the text block a citation
is attached to, Gemini by UTF-8 **byte** offsets (:func:`byte_to_char` converts; Korean text makes
the two differ). Every citation becomes a span of characters of the answer (:class:`EngineCitation`);
here each span is attached to the sentences of the answer it overlaps, and each sentence gets the
ids of the stored sources its citations name. The engine's own link citations are cut out, and so
are the sentences in which the engine narrates its own searching ("Let me search for more specific
information.", :mod:`citewise.text.discourse`): they are not claims, and a citation never lands on
one. Anything in the engine's text shaped like a citewise marker (``[S1]``) or quote reference
(``{{S1.3}}``) is escaped, so the only citations in the draft are the ones citewise placed.

>>> byte_to_char("임대차 2년", 9), byte_to_char("abc", 2)
(3, 2)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citewise.records.engines import EngineCitation
from citewise.text.citations import MARKER, QUOTE_REF
from citewise.text.discourse import Discourse, discourse_kind
from citewise.text.sentences import split_sentences

__all__ = ["PlacedCitation", "byte_to_char", "place_citations"]

# An engine's own inline link citation, e.g. "([example.com](https://example.com/a?utm_source=openai))".
_LINK_ONLY = re.compile(r"\s*\(?\[[^\]\n]*\]\(\s*https?://[^)\s]*\s*\)\)?\s*")
_END_PUNCT = ".!?。"


def byte_to_char(text: str, byte_offset: int) -> int:
    """The character offset of UTF-8 byte offset ``byte_offset`` of ``text`` (clamped to the text; a
    byte inside a character counts as that character's start)."""
    if byte_offset <= 0:
        return 0
    encoded = text.encode("utf-8")
    if byte_offset >= len(encoded):
        return len(text)
    return len(encoded[:byte_offset].decode("utf-8", errors="ignore"))


@dataclass(frozen=True, slots=True)
class PlacedCitation:
    """Where one engine citation landed in the draft."""

    citation: EngineCitation
    """The citation as the engine gave it."""
    sentences: tuple[str, ...]
    """The answer's sentences it was attached to (as the engine wrote them)."""


def place_citations(
    text: str, citations: Sequence[EngineCitation], ids_by_url: Mapping[str, str]
) -> tuple[str, tuple[PlacedCitation, ...]]:
    """The draft: ``text`` with ``[S#]`` after each sentence a citation covers (ids from
    ``ids_by_url``, the cited URL -> stored source id; a URL without one adds no marker), the engine's
    link citations removed, marker-like and quote-like text escaped. Also where each citation landed."""
    spans = [(s.start, s.end) for s in split_sentences("A", text)]
    narration = {i for i, (a, b) in enumerate(spans) if discourse_kind(text[a:b]) is Discourse.NARRATION}
    cited: dict[int, list[str]] = {}
    placed: list[PlacedCitation] = []
    cuts: list[tuple[int, int]] = [_whole(text, *spans[i]) for i in sorted(narration)]
    for citation in citations:
        start, end = max(0, min(citation.start, len(text))), max(0, min(citation.end, len(text)))
        if end > start and _LINK_ONLY.fullmatch(text[start:end]):
            cut = start
            while cut > 0 and text[cut - 1] in " \t":
                cut -= 1
            cuts.append((cut, end))
            start = end = _before(text, start)
        hits = [i for i in _overlapping(spans, start, end) if i not in narration]
        placed.append(PlacedCitation(citation, tuple(text[spans[i][0] : spans[i][1]] for i in hits)))
        source_id = ids_by_url.get(citation.url)
        if source_id is None:
            continue
        for i in hits:
            if source_id not in cited.setdefault(i, []):
                cited[i].append(source_id)
    edits: list[tuple[int, int, str]] = [(a, b, "") for a, b in cuts]
    # Text that would read as a citewise citation marker ([S1], [E2, S3]) or a quote by reference
    # ({{S1.3}}) is escaped, inside kept as written: the engine's text is data.
    edits += [(m.start(), m.end(), "\\[" + m.group()[1:-1] + "\\]") for m in MARKER.finditer(text)]
    edits += [(m.start(), m.end(), "\\{\\{" + m.group()[2:-2] + "\\}\\}") for m in QUOTE_REF.finditer(text)]
    for i, ids in cited.items():
        s_start, s_end = spans[i]
        at = s_end - 1 if text[s_end - 1] in _END_PUNCT and s_end - 1 > s_start else s_end
        edits.append((at, at, f" [{', '.join(ids)}]"))
    return _apply(text, edits), tuple(placed)


def _whole(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of a sentence with the blank space after it, so that cutting it leaves no hole."""
    while end < len(text) and text[end] in " \t\n":
        end += 1
    return start, end


def _before(text: str, position: int) -> int:
    """The last non-space character before ``position`` (a link citation follows its sentence)."""
    i = position - 1
    while i > 0 and text[i].isspace():
        i -= 1
    return max(i, 0)


def _overlapping(spans: Sequence[tuple[int, int]], start: int, end: int) -> list[int]:
    if end <= start:  # a point: the sentence that contains it
        return [i for i, (a, b) in enumerate(spans) if a <= start < b][:1]
    return [i for i, (a, b) in enumerate(spans) if a < end and start < b]


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` applied; overlapping cuts keep the first."""
    out: list[str] = []
    cursor = 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < cursor:
            if start == end:  # an insertion inside a cut region lands after it
                out.append(replacement)
            continue
        out.append(text[cursor:start])
        out.append(replacement)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)
