"""The one token estimate: how many tokens a text will cost, erring high.

Caps are checked before a request is sent, when only its text is known, so the estimate must not be
below what the endpoint then reports: :data:`ASCII_CHARS_PER_TOKEN` characters a token for ASCII
text and :data:`TOKENS_PER_OTHER_CHAR` tokens for every other character (Hangul, CJK, accented
letters). Real tokenizers give English prose about four characters a token and Korean about one
token a syllable or less, so the estimate is above the count the endpoint reports.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = ["ASCII_CHARS_PER_TOKEN", "TOKENS_PER_OTHER_CHAR", "estimate_text_tokens"]

ASCII_CHARS_PER_TOKEN: Final = 3
"""ASCII characters per estimated token (tokenizers average about four for English prose)."""
TOKENS_PER_OTHER_CHAR: Final = 1.5
"""Estimated tokens per non-ASCII character (about one a Hangul syllable or CJK character, or less)."""


def estimate_text_tokens(text: str) -> int:
    """A high estimate of the tokens of ``text``.

    >>> estimate_text_tokens("deposits are protected")  # 22 ASCII characters
    8
    >>> estimate_text_tokens("보증금은 보호된다")  # 8 Hangul syllables and a space
    13
    """
    ascii_chars = sum(1 for ch in text if ch.isascii())
    other = len(text) - ascii_chars
    return math.ceil(ascii_chars / ASCII_CHARS_PER_TOKEN) + math.ceil(other * TOKENS_PER_OTHER_CHAR)
