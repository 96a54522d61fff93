"""What every run event shares: its kind (the closed set of names) and the payload schema version."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

__all__ = ["SCHEMA_VERSION", "Event", "EventKind"]

SCHEMA_VERSION = 1
"""Version of the stored event payloads (``"v"`` in each one); payloads without it are legacy."""


class EventKind(str, enum.Enum):
    """What an event records; stored as the event's ``kind``."""

    RUN_CONFIGURED = "run_configured"
    PLAN_MADE = "plan_made"
    ROUND_STARTED = "round_started"
    ATTEMPT_STARTED = "attempt_started"
    ATTEMPT_ENDED = "attempt_ended"
    ATTEMPT_INTERRUPTED = "attempt_interrupted"
    SKIPPED = "skipped"
    SOURCE_STORED = "source_stored"
    COLLECTION_ENDED = "collection_ended"
    MODEL_CALL_STARTED = "model_call_started"
    MODEL_CALL_ENDED = "model_call_ended"
    MODEL_CALL_INTERRUPTED = "model_call_interrupted"
    MODEL_RETRIED = "model_retried"
    REVIEW_MADE = "review_made"
    DRAFT_MADE = "draft_made"
    DRAFT_DROPPED = "draft_dropped"
    REPAIR_ASKED = "repair_asked"
    ROUND_ENDED = "round_ended"
    RUN_RESUMED = "run_resumed"
    REPORT_MADE = "report_made"
    RUN_FAILED = "run_failed"
    ASK_PLANNED = "ask_planned"
    CANDIDATES_RETRIEVED = "candidates_retrieved"
    GATE_DECIDED = "gate_decided"
    RANKED = "ranked"
    ANSWER_GIVEN = "answer_given"
    VERIFIED = "verified"
    CLAIM_REVIEWED = "claim_reviewed"
    LEGACY_STEP = "legacy_step"
    EXTRACT_FELL_BACK = "extract_fell_back"
    MIRROR_FOUND = "mirror_found"
    RECHECKED = "rechecked"
    ENGINE_SEARCHED = "engine_searched"
    ENGINE_TOOL_FAILED = "engine_tool_failed"
    ENGINE_CALL_FAILED = "engine_call_failed"
    ENGINE_ANSWERED = "engine_answered"
    ENGINE_REDIRECT_RESOLVED = "engine_redirect_resolved"
    ENGINE_CITATIONS_CHECKED = "engine_citations_checked"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``kind`` says which one it is."""

    kind: ClassVar[EventKind]
