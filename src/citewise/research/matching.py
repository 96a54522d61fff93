"""Query matching shared by both coverage reviewers (:mod:`citewise.research.review`): follow-up
queries are compared with the queries already tried, normalised and case folded (:func:`new_query`).
Quotes are matched by :mod:`citewise.text.quotes`.
"""

from __future__ import annotations

from collections.abc import Iterable

from citewise.research.planner import FACET_SEPARATOR, key_words
from citewise.research.prompts import MAX_TEXT_CHARS
from citewise.text.quotes import normalise_for_match

__all__ = ["new_query", "topic_queries", "tried_key"]


def tried_key(query: str) -> str:
    """The form in which a query is compared with the queries already tried."""
    return normalise_for_match(query).casefold()


def topic_queries(topic: str) -> tuple[str, ...]:
    """Queries made from the topic itself: its key words, then its text."""
    base = topic.split(FACET_SEPARATOR)[0]
    return (" ".join(key_words(base)), base.rstrip("?？ "))


def new_query(candidates: Iterable[str | None], tried: set[str]) -> str | None:
    """The first candidate that is non-empty, short enough and not tried yet."""
    for candidate in candidates:
        if candidate is None:
            continue
        text = normalise_for_match(candidate)
        if text and len(text) <= MAX_TEXT_CHARS and tried_key(text) not in tried:
            return text
    return None
