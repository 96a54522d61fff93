"""Events of a native search engine's answer: its searches, tool failures, call failures, the answer
and its citations' checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from citewise.audit.event_kinds import Event, EventKind
from citewise.records.engines import (
    CitationCheck,
    EngineCitation,
    EngineErrorKind,
    EngineSearch,
    EngineToolError,
    EngineUsage,
)

__all__ = [
    "EngineAnswered",
    "EngineCallFailed",
    "EngineCitationsChecked",
    "EngineRedirectResolved",
    "EngineSearched",
    "EngineToolFailed",
]


# -- native search engines (issue 13) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EngineSearched(Event):
    """A search (or fetch) the native engine's tool made inside its answer, with what it returned.
    Counted in the run's search budget."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_SEARCHED
    engine: str
    """``openai``, ``anthropic`` or ``gemini``."""
    search: EngineSearch
    """The tool, the query and the URLs returned."""


@dataclass(frozen=True, slots=True)
class EngineToolFailed(Event):
    """A tool call the engine reported as failed inside its answer (``max_uses_exceeded``,
    ``too_many_requests`` ...)."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_TOOL_FAILED
    engine: str
    """Which engine."""
    error: EngineToolError
    """The tool and the provider's error code."""


@dataclass(frozen=True, slots=True)
class EngineCallFailed(Event):
    """The engine call itself failed (a 429, a 5xx, a timeout ...); a retry, if any, follows."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_CALL_FAILED
    engine: str
    """Which engine."""
    error_kind: EngineErrorKind
    """Why, typed."""
    message: str
    """The error's message (keys never reach it)."""
    status_code: int | None = None
    """The HTTP status, when there was one."""
    retry_after: float | None = None
    """Seconds the provider asked to wait, when it said."""


@dataclass(frozen=True, slots=True)
class EngineAnswered(Event):
    """The engine's answer as it gave it: text, citations, usage (tokens are also in the
    :class:`ModelCallEnded` that follows, which the budget and the cost ledger read)."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_ANSWERED
    engine: str
    """Which engine."""
    requested_model: str
    """The model id citewise asked for."""
    model: str | None
    """The model id the provider reported."""
    text: str
    """The answer as written."""
    citations: tuple[EngineCitation, ...]
    """Its citations, in character offsets of ``text``."""
    usage: EngineUsage
    """Tokens and billed search calls."""
    latency_s: float
    """Wall time of the call."""
    searched_urls_known: bool = True
    """False when the provider did not list the URLs its searches returned."""
    response_id: str | None = None
    """The provider's response id."""


@dataclass(frozen=True, slots=True)
class EngineRedirectResolved(Event):
    """A cited redirect URL (Gemini grounding) and the page it led to."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_REDIRECT_RESOLVED
    redirect_url: str
    """The URL the engine cited."""
    final_url: str | None
    """The page it points at; None when it could not be resolved (then the redirect itself is read)."""
    error: str | None = None
    """Why it could not be resolved."""


@dataclass(frozen=True, slots=True)
class EngineCitationsChecked(Event):
    """Each engine citation against citewise's own records: which stored source it maps to, and what
    citewise found wrong with it."""

    kind: ClassVar[EventKind] = EventKind.ENGINE_CITATIONS_CHECKED
    checks: tuple[CitationCheck, ...]
    """One per citation, in answer order."""
