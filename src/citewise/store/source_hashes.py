"""Re-deriving the hashes of research sources: their page text and the excerpt given to models.

A research source is stored once, in its run's ``source_stored`` event, with ``page_text_hash`` and
``content_hash`` computed when it was built (:func:`citewise.research.extraction.build_source`).
:func:`verify_sources` reads every such event and hashes the stored text again, so an edited page
text or excerpt shows up in ``citewise store verify`` beside the documents' and sections' hashes.
Sources recorded before hashes were kept are counted as unhashed: there is nothing to compare.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlalchemy as sa

from citewise.audit.events import EventKind, SourceStored, decode
from citewise.errors import StoreError
from citewise.hashing import content_hash
from citewise.serial import SerialError
from citewise.store.evidence import EvidenceStore
from citewise.store.schema import run_events

__all__ = ["SourceHashMismatch", "SourceHashReport", "verify_sources"]


@dataclass(frozen=True, slots=True)
class SourceHashMismatch:
    """A research source's stored hash that no longer matches its stored text."""

    run_id: str
    """The run that stored the source."""
    source_id: str
    """``S1``, ``S2``, ... within that run."""
    field: str
    """``page_text`` or ``content`` (the excerpt)."""
    stored: str
    """The hash recorded when the source was built."""
    derived: str
    """The hash of the text as stored now."""


@dataclass(frozen=True, slots=True)
class SourceHashReport:
    """What :func:`verify_sources` checked."""

    page_texts: int = 0
    """Page-text hashes re-derived."""
    excerpts: int = 0
    """Excerpt (``content``) hashes re-derived."""
    unhashed: int = 0
    """Sources recorded before hashes were kept (nothing to compare)."""
    mismatches: tuple[SourceHashMismatch, ...] = ()
    """Every hash that no longer matches."""


def verify_sources(store: EvidenceStore) -> SourceHashReport:
    """Re-derive the page-text and excerpt hashes of every stored research source."""
    query = (
        sa.select(run_events.c.run_id, run_events.c.seq, run_events.c.payload)
        .where(run_events.c.stage == EventKind.SOURCE_STORED.value)
        .order_by(run_events.c.run_id, run_events.c.seq)
    )
    page_texts = excerpts = unhashed = 0
    mismatches: list[SourceHashMismatch] = []
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    for run_id, seq, payload in rows:
        event = _source_event(run_id, seq, payload)
        if event is None:
            continue
        source = event.source
        checks = (
            ("page_text", source.page_text_hash, source.page_text),
            ("content", source.content_hash, source.content),
        )
        if all(stored is None for _, stored, _ in checks):
            unhashed += 1
            continue
        for field, stored, text in checks:
            if stored is None:
                continue
            if field == "page_text":
                page_texts += 1
            else:
                excerpts += 1
            derived = content_hash(text)
            if derived != stored:
                mismatches.append(SourceHashMismatch(run_id, source.source_id, field, stored, derived))
    return SourceHashReport(page_texts, excerpts, unhashed, tuple(mismatches))


def _source_event(run_id: str, seq: int, payload: str) -> SourceStored | None:
    data = json.loads(payload)
    if "v" not in data:  # a run written before typed events kept no source hashes
        return None
    try:
        event = decode(EventKind.SOURCE_STORED.value, data)
    except SerialError as exc:
        raise StoreError(f"run {run_id} event {seq} (source_stored) cannot be read: {exc}") from exc
    return event if isinstance(event, SourceStored) else None
