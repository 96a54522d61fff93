"""The records of the provider cache: what one cached search answer or extracted page holds.

The store keeps them (:mod:`citewise.store.cache`); the cache wrappers make and read them
(:mod:`citewise.providers.cached`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

__all__ = ["CacheKind", "CacheRecord"]

CacheKind = Literal["search", "extract"]
"""What an entry holds: a search answer or an extracted page."""


@dataclass(frozen=True, slots=True)
class CacheRecord:
    """One cached answer, as the store keeps it."""

    key: str
    """``sha256:...`` of the kind, provider, settings and normalised target (see :func:`cache_key`)."""
    kind: CacheKind
    """Search answer or extracted page."""
    provider: str
    """The provider's registry name."""
    settings: str
    """The settings that shaped the answer, as canonical JSON (credentials left out)."""
    target: str
    """The normalised query or URL."""
    payload: str
    """The answer as JSON (a :class:`SearchResponse` or an :class:`ExtractedPage`)."""
    retrieved_at: datetime
    """When the provider gave the answer (UTC); the time-to-live counts from here."""
