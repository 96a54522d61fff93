"""Quotes checked against stored text: the one normalisation every quote check uses.

A quote from a model occurs in a passage when, after Unicode NFKC and whitespace folding, and with the
quotation marks around it dropped, it is a substring of the passage folded the same way.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["MIN_QUOTE_CHARS", "QUOTE_MARKS", "normalise_for_match", "quote_occurs"]

MIN_QUOTE_CHARS: Final = 6
"""A shorter quote (after normalisation) supports nothing: ``"법"`` or ``"the"`` occurs anywhere."""

_WHITESPACE = re.compile(r"\s+")
QUOTE_MARKS: Final = "\"'“”‘’「」『』«»"


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
    wanted = normalise_for_match(quote).strip(QUOTE_MARKS).strip()
    return len(wanted) >= MIN_QUOTE_CHARS and wanted in normalise_for_match(content)
