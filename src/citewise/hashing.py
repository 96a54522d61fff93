"""Text normalisation and content hashes.

Hashes are computed over *normalised* text so that formatting noise (line endings, trailing spaces,
Unicode composition) never creates a new version, while any change of wording does. Every hash names
its algorithm (``sha256:<hex>``) so a store can be re-verified later with :func:`verify_hash`.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

__all__ = ["canonical_json", "content_hash", "hash_json", "normalize_text", "verify_hash"]

_INNER_SPACE = re.compile(r"[ \t\u00a0\u3000]+")
# Runs are folded first, so this matches one space: a pattern for a whole trailing run would try
# every start inside a long run of spaces that does not end a line (quadratic).
_TRAILING_SPACE = re.compile(r" $", re.MULTILINE)
_BLANK_LINES = re.compile(r"\n{3,}")

HASH_ALGORITHM = "sha256"


def normalize_text(text: str) -> str:
    """Return ``text`` in the canonical form that content hashes are computed over.

    NFC composition, ``\\n`` line endings, runs of spaces folded to one, trailing spaces and
    surplus blank lines removed, leading/trailing blank space stripped.

    >>> normalize_text("제1조\\r\\n  목적  \\n\\n\\n\\n끝")
    '제1조\\n 목적\\n\\n끝'
    """
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INNER_SPACE.sub(" ", text)
    text = _TRAILING_SPACE.sub("", text)
    text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def content_hash(text: str) -> str:
    """``sha256:<hex>`` of the normalised text."""
    digest = hashlib.sha256(normalize_text(text).encode("utf-8")).hexdigest()
    return f"{HASH_ALGORITHM}:{digest}"


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no insignificant whitespace, for hashing structured values."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def hash_json(value: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``value``."""
    digest = hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
    return f"{HASH_ALGORITHM}:{digest}"


def verify_hash(expected: str, text: str) -> bool:
    """True when ``expected`` (``algorithm:hex``) matches ``text`` re-hashed."""
    algorithm, _, _ = expected.partition(":")
    if algorithm != HASH_ALGORITHM:
        return False
    return content_hash(text) == expected
