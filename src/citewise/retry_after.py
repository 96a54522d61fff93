"""Reading how long a rate-limited service asks callers to wait (shared by every provider)."""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from datetime import UTC, datetime

__all__ = ["retry_after_seconds"]


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date); ``None`` when
    absent or unreadable. ``headers`` must look names up case-insensitively (as httpx and requests do).

    >>> retry_after_seconds({"retry-after": "2"})
    2.0
    >>> retry_after_seconds({"retry-after-ms": "1500"})
    1.5
    >>> retry_after_seconds({}) is None
    True
    """
    if value := headers.get("retry-after-ms"):
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
