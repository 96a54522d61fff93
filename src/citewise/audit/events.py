"""The run record's events: a closed set of frozen, documented records, one per thing that happens.

Every stage of ``ask`` and ``research`` appends events as it works; verification and reviews append
theirs afterwards (nothing rewrites an earlier event). Readers — resume, verify, cost, export, the
CLI, the Python API — get these typed records from the store and never read a payload by key.

Each event has a ``kind`` discriminator (:class:`EventKind`); :func:`encode` and :func:`decode` are
the one serialiser (:mod:`citewise.serial`), and every stored payload carries :data:`SCHEMA_VERSION`.
Runs written before typed events existed are read through :mod:`citewise.audit.legacy`.

The records live by stage — :mod:`~citewise.audit.event_kinds` (the kinds and the base),
:mod:`~citewise.audit.research_events`, :mod:`~citewise.audit.ask_events`,
:mod:`~citewise.audit.verify_events`, :mod:`~citewise.audit.engine_events` — and this module is the
closed set every reader imports them from.

::

    research: RunConfigured, PlanMade, (RoundStarted, AttemptStarted, AttemptEnded, Skipped,
              SourceStored, CollectionEnded, ModelCallStarted, ModelCallEnded, ReviewMade, DraftMade,
              DraftDropped, RoundEnded)*, RepairAsked?, ReportMade
    ask:      AskPlanned, CandidatesRetrieved, GateDecided, Ranked, AnswerGiven
    after:    Verified, ClaimReviewed, Rechecked (any number); RunResumed, AttemptInterrupted,
              ModelCallInterrupted, RunFailed where they happened
"""

from __future__ import annotations

from typing import Any

from citewise.audit.ask_events import (
    AnswerGiven,
    AskPlanned,
    CandidateRef,
    CandidatesRetrieved,
    EvidenceRef,
    GateDecided,
    GateVerdict,
    Ranked,
    RankViolation,
)
from citewise.audit.engine_events import (
    EngineAnswered,
    EngineCallFailed,
    EngineCitationsChecked,
    EngineRedirectResolved,
    EngineSearched,
    EngineToolFailed,
)
from citewise.audit.event_kinds import (
    SCHEMA_VERSION,
    Event,
    EventKind,
)
from citewise.audit.research_events import (
    AttemptEnded,
    AttemptInterrupted,
    AttemptStarted,
    CollectionEnded,
    DraftDropped,
    DraftMade,
    DropReason,
    ExtractFellBack,
    MirrorFound,
    ModelCallEnded,
    ModelCallInterrupted,
    ModelCallStarted,
    ModelRetried,
    PlanMade,
    RepairAsked,
    ReportMade,
    ReviewMade,
    RoundEnded,
    RoundStarted,
    RunConfigured,
    RunFailed,
    RunResumed,
    Skipped,
    SourceStored,
    UsageSummary,
)
from citewise.audit.verify_events import (
    ClaimRecheck,
    ClaimReviewed,
    LegacyStep,
    Rechecked,
    SourceRecheck,
    Verified,
)
from citewise.serial import SerialError, from_data, to_data

__all__ = [
    "EVENT_TYPES",
    "SCHEMA_VERSION",
    "AnswerGiven",
    "AskPlanned",
    "AttemptEnded",
    "AttemptInterrupted",
    "AttemptStarted",
    "CandidateRef",
    "CandidatesRetrieved",
    "ClaimRecheck",
    "ClaimReviewed",
    "CollectionEnded",
    "DraftDropped",
    "DraftMade",
    "DropReason",
    "EngineAnswered",
    "EngineCallFailed",
    "EngineCitationsChecked",
    "EngineRedirectResolved",
    "EngineSearched",
    "EngineToolFailed",
    "EvidenceRef",
    "ExtractFellBack",
    "Event",
    "EventKind",
    "GateDecided",
    "GateVerdict",
    "LegacyStep",
    "ModelCallEnded",
    "ModelCallInterrupted",
    "ModelCallStarted",
    "ModelRetried",
    "PlanMade",
    "RankViolation",
    "Ranked",
    "Rechecked",
    "RepairAsked",
    "ReportMade",
    "ReviewMade",
    "RoundEnded",
    "RoundStarted",
    "RunConfigured",
    "RunFailed",
    "RunResumed",
    "Skipped",
    "SourceRecheck",
    "SourceStored",
    "UsageSummary",
    "Verified",
    "decode",
    "encode",
    "MirrorFound",
]

EVENT_TYPES: dict[EventKind, type[Event]] = {
    cls.kind: cls
    for cls in (
        RunConfigured,
        PlanMade,
        RoundStarted,
        AttemptStarted,
        AttemptEnded,
        AttemptInterrupted,
        Skipped,
        SourceStored,
        CollectionEnded,
        ModelCallStarted,
        ModelCallEnded,
        ModelCallInterrupted,
        ModelRetried,
        ReviewMade,
        DraftMade,
        DraftDropped,
        RepairAsked,
        RoundEnded,
        RunResumed,
        ReportMade,
        RunFailed,
        AskPlanned,
        CandidatesRetrieved,
        GateDecided,
        Ranked,
        AnswerGiven,
        Verified,
        ClaimReviewed,
        LegacyStep,
        ExtractFellBack,
        MirrorFound,
        Rechecked,
        EngineSearched,
        EngineToolFailed,
        EngineCallFailed,
        EngineAnswered,
        EngineRedirectResolved,
        EngineCitationsChecked,
    )
}
"""Every event type by kind: the closed set."""


def encode(event: Event) -> tuple[str, dict[str, Any]]:
    """``(kind, payload)`` for storing ``event``; the payload carries the schema version."""
    data = to_data(event)
    data["v"] = SCHEMA_VERSION
    return event.kind.value, data


def decode(kind: str, payload: dict[str, Any]) -> Event:
    """The event stored as ``(kind, payload)``; :class:`~citewise.serial.SerialError` when it does not fit."""
    try:
        cls = EVENT_TYPES[EventKind(kind)]
    except ValueError:
        raise SerialError(f"unknown event kind {kind!r}") from None
    data = {k: v for k, v in payload.items() if k != "v"}
    return from_data(cls, data)
