"""Passage selection: the excerpt of a page that models are given (SPEC 4.3).

A page is split into paragraphs (blank lines); a very long paragraph is cut into chunks of whole
sentences. Each piece is scored by the question's and the query's terms it contains, with terms
weighted by how rare they are *within the page* (a term in every paragraph says little about which
paragraph matters). The best pieces are kept up to the character cap and written out **in page
order**, so the excerpt reads like the page, not like a ranking.

Terms come from :func:`citewise.text.analyze.analyze`, so Korean works: "보증금 반환" matches
"보증금을 반환받을" through particle stripping and character bigrams, which a ``[a-z0-9]{3,}`` keyword
overlap cannot do.

>>> page = "Opening hours are 9 to 5.\\n\\nThe deposit is returned within 30 days."
>>> select_passages(page, "When is the deposit returned?", "deposit return", max_chars=50)
'The deposit is returned within 30 days.'
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.errors import InputError
from citewise.text.analyze import analyze, query_terms
from citewise.text.sentences import sentence_spans

__all__ = ["DEFAULT_EXCERPT_CHARS", "select_passages", "selection_terms"]

DEFAULT_EXCERPT_CHARS = 6000
"""Characters of each source given to models (SPEC 4.5)."""
_CHUNK_CHARS = 1500
"""Paragraphs longer than this are cut into chunks of whole sentences of at most this size."""

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")


@dataclass(frozen=True, slots=True)
class _Piece:
    """A paragraph or a chunk of one, as a span of the page."""

    start: int
    end: int
    paragraph: int


def selection_terms(question: str, query: str) -> tuple[str, ...]:
    """The terms pages are scored by for ``question`` searched as ``query``: analysed once per query,
    then given to :func:`select_passages` for every page the query found."""
    return tuple(query_terms(f"{question}\n{query}"))


def select_passages(
    page_text: str,
    question: str,
    query: str,
    max_chars: int = DEFAULT_EXCERPT_CHARS,
    *,
    terms: Sequence[str] | None = None,
) -> str:
    """The most relevant paragraphs of ``page_text`` for ``question`` and ``query``, in page order,
    joined by blank lines; never longer than ``max_chars``. A page that fits is returned whole
    (without surrounding whitespace). ``terms``: :func:`selection_terms` of the two, when the caller
    selects from several pages for one query (the question is then not analysed again per page)."""
    if max_chars < 1:
        raise InputError(f"max_chars must be at least 1, got {max_chars}")
    text = page_text.strip()
    if len(text) <= max_chars:
        return text
    pieces = _pieces(text, min(_CHUNK_CHARS, max_chars))
    scores = _scores(text, pieces, list(terms) if terms is not None else list(selection_terms(question, query)))
    # Best first; ties (and pieces matching nothing) in page order, so leftover room is filled with
    # the page's opening context rather than at random.
    order = sorted(range(len(pieces)), key=lambda i: (-scores[i], i))
    chosen: list[int] = []
    for index in order:
        trial = sorted([*chosen, index])
        if len(_assemble(text, pieces, trial)) <= max_chars:
            chosen = trial
    return _assemble(text, pieces, chosen)


def _pieces(text: str, limit: int) -> list[_Piece]:
    pieces: list[_Piece] = []
    start = 0
    for number, match in enumerate([*_PARAGRAPH_BREAK.finditer(text), None]):
        end = match.start() if match else len(text)
        if end > start:
            pieces.extend(_chunks(text, start, end, limit, number))
        if match:
            start = match.end()
    return pieces


def _chunks(text: str, start: int, end: int, limit: int, paragraph: int) -> list[_Piece]:
    """The paragraph ``text[start:end]`` whole, or cut into runs of whole sentences of at most
    ``limit`` characters (a single longer sentence is cut at a space, or hard)."""
    if end - start <= limit:
        return [_Piece(start, end, paragraph)]
    sentences = [(start + left, start + right) for left, right in sentence_spans(text[start:end])]
    chunks: list[_Piece] = []
    chunk_start: int | None = None
    chunk_end = start
    for s_start, s_end in _split_long(text, sentences, limit):
        if chunk_start is not None and s_end - chunk_start > limit:
            chunks.append(_Piece(chunk_start, chunk_end, paragraph))
            chunk_start = None
        if chunk_start is None:
            chunk_start = s_start
        chunk_end = s_end
    if chunk_start is not None:
        chunks.append(_Piece(chunk_start, chunk_end, paragraph))
    return chunks


def _split_long(text: str, sentences: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for start, end in sentences:
        while end - start > limit:
            cut = text.rfind(" ", start + 1, start + limit + 1)
            cut = cut if cut > start else start + limit
            spans.append((start, cut))
            start = cut
            while start < end and text[start].isspace():
                start += 1
        if end > start:
            spans.append((start, end))
    return spans


def _scores(text: str, pieces: list[_Piece], terms: list[str]) -> list[float]:
    wanted = set(terms)
    found = [wanted.intersection(analyze(text[p.start : p.end])) for p in pieces]
    frequency = Counter(term for terms_in_piece in found for term in terms_in_piece)
    weight = {term: math.log(1 + len(pieces) / count) for term, count in frequency.items()}
    return [sum(weight[t] for t in terms_in_piece) for terms_in_piece in found]


def _assemble(text: str, pieces: list[_Piece], chosen: list[int]) -> str:
    """The chosen pieces in page order: chunks that follow each other in one paragraph keep the
    whitespace between them; anything else is separated by a blank line."""
    out: list[str] = []
    for position, index in enumerate(chosen):
        piece = pieces[index]
        if position:
            before = chosen[position - 1]
            adjacent = index == before + 1 and pieces[before].paragraph == piece.paragraph
            out.append(text[pieces[before].end : piece.start] if adjacent else "\n\n")
        out.append(text[piece.start : piece.end])
    return "".join(out)
