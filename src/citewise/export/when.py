"""Dates and times as readers see them: minutes, with the time zone named.

Records keep UTC ``datetime`` values (ISO 8601 in JSON); what a person reads is rendered here. The
terminal shows the reader's local time, a page that may be read anywhere (the HTML export, the web
UI) shows UTC, and both say which it is.

>>> from datetime import datetime, timezone
>>> utc_time(datetime(2026, 12, 1, 22, 9, 40, tzinfo=timezone.utc))
'2026-12-01 22:09 UTC'
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["local_time", "utc_time"]


def _aware(moment: datetime) -> datetime:
    # Stored times are UTC; one written without a zone is read as UTC, not as local time.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def utc_time(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM UTC``."""
    return f"{_aware(moment).astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def local_time(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM`` in this machine's time zone, followed by the zone's name (or offset)."""
    local = _aware(moment).astimezone()
    zone = local.tzname() or f"{local:%z}"
    return f"{local:%Y-%m-%d %H:%M} {zone}"
