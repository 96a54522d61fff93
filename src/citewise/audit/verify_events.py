"""Events appended after a run: verification, claim reviews, rechecks, and steps of older runs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from citewise.audit.event_kinds import Event, EventKind
from citewise.records.research import (
    RecheckStatus,
)
from citewise.records.verify import Acceptance, Conflict, Decision, LedgerEntry

__all__ = ["ClaimRecheck", "ClaimReviewed", "LegacyStep", "Rechecked", "SourceRecheck", "Verified"]


# -- after the run ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verified(Event):
    """A verification of the run's report: the claim ledger, conflicts and the acceptance decision.

    Re-verifying appends another; the latest one is in force."""

    kind: ClassVar[EventKind] = EventKind.VERIFIED
    verifier_version: str
    """Version of the verifier (and judge, if one was used)."""
    entries: tuple[LedgerEntry, ...]
    """The claim ledger."""
    conflicts: tuple[Conflict, ...]
    """Conflicts found, side by side."""
    acceptance: Acceptance
    """The decision."""


@dataclass(frozen=True, slots=True)
class ClaimReviewed(Event):
    """A person's decision on one claim (who, why; the event's time says when)."""

    kind: ClassVar[EventKind] = EventKind.CLAIM_REVIEWED
    claim_id: str
    """The claim (``C3``)."""
    decision: Decision
    """Their decision."""
    reviewer: str
    """Who."""
    reason: str
    """Why."""


@dataclass(frozen=True, slots=True)
class LegacyStep(Event):
    """A step of a run recorded before typed events, with no typed counterpart (shown, never read)."""

    kind: ClassVar[EventKind] = EventKind.LEGACY_STEP
    stage: str
    """The stage name it was filed under."""
    detail: str
    """Its payload as JSON text."""


# -- recheck (issue 12, point 5: `citewise recheck RUN`) ---------------------------------------------
# (A cache hit is not an event of its own: it is an AttemptEnded whose attempt has cached=True and no
# AttemptStarted before it, so it spends no budget; see citewise.research.collect.)


@dataclass(frozen=True, slots=True)
class SourceRecheck:
    """One cited source read again."""

    source_id: str
    """The source (``S1``)."""
    url: str
    """Its stored URL, the one read again."""
    status: RecheckStatus
    """Unchanged, page changed or page gone (quotes are judged per claim)."""
    stored_hash: str
    """Content hash of the page text the report was verified against."""
    new_hash: str | None
    """Content hash of the text read now; None when the page is gone."""
    retrieved_at: datetime | None
    """When the text compared was retrieved (for a cache hit: its original retrieval time)."""
    cached: bool = False
    """True when the text came from the cache (no call made)."""
    error: str | None = None
    """Why the page could not be read, when it is gone."""


@dataclass(frozen=True, slots=True)
class ClaimRecheck:
    """One claim of the delivered report against the pages read again."""

    claim_id: str
    """The claim (``C3``), numbered as in the claim ledger."""
    text: str
    """The claim as written."""
    status: RecheckStatus
    """What became of the page and the quote the claim rests on."""
    source_id: str | None
    """The source whose quote supported it (None when no cited source did)."""
    quote: str | None
    """That quote, as found in the stored page text."""
    decision_before: Decision
    """The ledger's decision against the stored text."""
    decision_now: Decision
    """The ledger's decision re-run against the text read now."""

    @property
    def holds(self) -> bool:
        """True when the claim stands: its page is unchanged, its quote is still there, or the text
        read now still supports it."""
        return self.status in (RecheckStatus.UNCHANGED, RecheckStatus.PAGE_CHANGED) or (
            self.decision_now is Decision.SUPPORTED
        )


@dataclass(frozen=True, slots=True)
class Rechecked(Event):
    """The run's cited sources were read again and its report's claims checked against them
    (``citewise recheck``). Appended; every earlier event stays as it was."""

    kind: ClassVar[EventKind] = EventKind.RECHECKED
    extractor: str
    """The extractor's registry name (the one the run used)."""
    fresh: bool
    """True when the cache was bypassed (``--fresh``): every page was fetched again."""
    sources: tuple[SourceRecheck, ...]
    """Every cited source, in id order."""
    claims: tuple[ClaimRecheck, ...]
    """Every claim that cites a stored source, in report order."""

    @property
    def holds(self) -> bool:
        """True when every claim still stands (``citewise recheck`` exits 0)."""
        return all(c.holds for c in self.claims)
