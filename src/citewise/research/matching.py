"""Matching shared by both coverage reviewers (:mod:`citewise.research.review`).

Quotes are matched against a source's text after :func:`normalise_for_match`; follow-up queries are
compared with the queries already tried the same way, case folded (:func:`new_query`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final

from citewise.research.planner import FACET_SEPARATOR, key_words
from citewise.research.prompts import MAX_TEXT_CHARS

__all__ = ["MIN_QUOTE_CHARS", "new_query", "normalise_for_match", "quote_occurs", "topic_queries", "tried_key"]

MIN_QUOTE_CHARS: Final = 6
"""A shorter quote (after normalisation) supports nothing: ``"법"`` or ``"the"`` occurs anywhere."""

_WHITESPACE = re.compile(r"\s+")
_QUOTE_MARKS = "\"'“”‘’「」『』«»"


def normalise_for_match(text: str) -> str:
    """``text`` as quotes are compared: Unicode NFKC, whitespace runs as one space, stripped.

    >>> normalise_for_match("보증금을\\n  반환받을 때까지") == normalise_for_match("보증금을 반환받을 때까지")
    True
    >>> normalise_for_match("ＡＢＣ　１２")
    'ABC 12'
    """
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def quote_occurs(quote: str, content: str) -> bool:
    """Whether ``quote`` occurs in ``content`` after :func:`normalise_for_match`.

    Quotation marks around the quote are the reviewer's punctuation and are ignored; a quote
    shorter than :data:`MIN_QUOTE_CHARS` never matches.

    >>> quote_occurs('"제삼자에 대하여 효력이 생긴다"', "그 다음 날부터 제삼자에 대하여 효력이\\n생긴다.")
    True
    >>> quote_occurs("효력이 발생한다", "그 다음 날부터 제삼자에 대하여 효력이 생긴다.")
    False
    """
    wanted = normalise_for_match(quote).strip(_QUOTE_MARKS).strip()
    return len(wanted) >= MIN_QUOTE_CHARS and wanted in normalise_for_match(content)


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
