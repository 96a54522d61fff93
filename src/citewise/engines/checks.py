"""Each engine citation against citewise's own records (spec 5): a URL none of the engine's searches
returned is flagged, a ``cited_text`` that is not on the page citewise read is flagged, and a page
citewise could not read makes its citation ``unreviewed`` — its claims reach no reader as supported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from citewise.engines.citations import PlacedCitation
from citewise.records.engines import CitationCheck, CitationFlag, CitationStatus, EngineAnswer
from citewise.records.research import Source
from citewise.text.quotes import MIN_QUOTE_CHARS, normalise_for_match, quote_occurs
from citewise.text.urls import url_key

__all__ = ["check_citations"]

_ELLIPSES = ("...", "…")


def check_citations(
    answer: EngineAnswer,
    placed: Sequence[PlacedCitation],
    sources_by_url: Mapping[str, Source],
    final_urls: Mapping[str, str],
) -> tuple[CitationCheck, ...]:
    """One :class:`CitationCheck` per placed citation. ``sources_by_url`` maps a cited URL (as the
    engine gave it) to the stored source read for it; ``final_urls`` a redirect to its page."""
    searched = {url_key(u) for s in answer.searches for u in s.urls}
    checks = []
    for place in placed:
        citation = place.citation
        source = sources_by_url.get(citation.url)
        flags: list[CitationFlag] = []
        if answer.searched_urls_known and url_key(citation.url) not in searched:
            flags.append(CitationFlag.NOT_SEARCHED)
        if source is None:
            flags.append(CitationFlag.PAGE_UNREADABLE)
        elif citation.cited_text and not _on_page(citation.cited_text, source.page_text):
            flags.append(CitationFlag.CITED_TEXT_NOT_ON_PAGE)
        if not place.sentences:
            flags.append(CitationFlag.NO_SENTENCE)
        checks.append(
            CitationCheck(
                url=citation.url,
                status=CitationStatus.CHECKED if source is not None else CitationStatus.UNREVIEWED,
                source_id=source.source_id if source is not None else None,
                final_url=final_urls.get(citation.url),
                flags=tuple(flags),
                sentences=place.sentences,
                cited_text=citation.cited_text,
            )
        )
    return tuple(checks)


def _on_page(cited_text: str, page_text: str) -> bool:
    """Whether the engine's ``cited_text`` is on the page; Anthropic shortens long ones with a trailing
    ellipsis, so what precedes it must be there. A quote too short to mean anything is not judged."""
    text = normalise_for_match(cited_text)
    for ellipsis in _ELLIPSES:
        text = text.removesuffix(ellipsis).rstrip()
    if len(text) < MIN_QUOTE_CHARS:
        return True
    return quote_occurs(text, page_text)
