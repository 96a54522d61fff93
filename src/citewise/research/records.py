"""Records of the research loop: plan, attempts, sources, coverage reviews, drafts, the report.

Three states are kept apart everywhere: evidence **retrieved** (a :class:`Source`), coverage review
**passed** (a :class:`CoverageReview` whose items are verified), final report **accepted** (a separate,
recorded decision made by the verification layer — never by the loop finishing).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

__all__ = [
    "Attempt",
    "AttemptKind",
    "CoverageReview",
    "CoverageStatus",
    "Draft",
    "Quote",
    "ResearchPlan",
    "Source",
    "StopReason",
    "TopicCoverage",
]


@dataclass(frozen=True, slots=True)
class ResearchPlan:
    """The planner's stable checklist for one question."""

    topics: tuple[str, ...]
    """2–5 required sub-questions; the report must resolve each or state it as a gap."""
    queries: tuple[str, ...]
    """1–3 focused search queries for the first round."""
    planner: str
    """Model id that planned, or ``deterministic``."""
    prompt_version: str | None = None
    """Version of the planning prompt (None for the deterministic planner)."""


class AttemptKind(str, enum.Enum):
    """What a budgeted attempt was."""

    SEARCH = "search"
    EXTRACT = "extract"
    MODEL = "model"


@dataclass(frozen=True, slots=True)
class Attempt:
    """One search, extraction or model call, counted before it was made; failures included."""

    kind: AttemptKind
    """Search, extract or model call."""
    target: str
    """The query, the URL, or the model id and purpose."""
    round: int
    """Round number (1-based)."""
    ok: bool
    """True when it produced usable output."""
    started_at: datetime
    """When it started (UTC)."""
    error_type: str | None = None
    """Exception class or failure kind (``ProviderRateLimited``, ``empty_page`` ...) when not ok."""
    error: str | None = None
    """Short description of the failure (never contains a key)."""
    cached: bool = False
    """Served from the cache: it cost no provider budget."""
    credits: float | None = None
    """Provider billing units used, when known."""
    latency_s: float | None = None
    """Wall time of the call."""


@dataclass(frozen=True, slots=True)
class Source:
    """A page citewise itself extracted and stored. Ids are assigned only after usable text exists."""

    source_id: str
    """``S1``, ``S2``, ... in a deterministic order."""
    url: str
    """The URL as the search provider returned it."""
    normalized_url: str
    """The URL used for dedupe (scheme and host lower-cased, fragment dropped)."""
    title: str
    """Page title."""
    query: str
    """The query that discovered it."""
    retrieved_at: datetime
    """When its text was extracted (UTC; a cache hit keeps the original time)."""
    page_text: str
    """The full extracted text, kept for audit."""
    content: str
    """The exact excerpt given to models (passage selection, page order kept)."""
    provider: str
    """Which extractor produced the text (``tavily``, ``local`` ...)."""
    round: int
    """Round that collected it."""
    published_at: str | None = None
    """Publication date, only when verified from the page or publisher metadata."""
    publication_date_source: str | None = None
    """Where ``published_at`` came from (``datePublished``, ``visible date``); None until verified."""
    injection_flags: tuple[str, ...] = ()
    """Instruction-like patterns found in the page (the page stays data; this is for the audit)."""


class CoverageStatus(str, enum.Enum):
    """How well the stored evidence covers one required sub-question."""

    COVERED = "covered"
    WEAK = "weak"
    MISSING = "missing"
    CONFLICTING = "conflicting"


@dataclass(frozen=True, slots=True)
class Quote:
    """A supporting quote the reviewer gave, and whether it occurs in the cited source's excerpt."""

    source_id: str
    """The source it claims to come from."""
    text: str
    """The quote as the reviewer wrote it."""
    verified: bool
    """True when it occurs in that source's ``content`` after whitespace/Unicode normalisation."""


@dataclass(frozen=True, slots=True)
class TopicCoverage:
    """The review of one sub-question."""

    topic: str
    """The sub-question, as planned."""
    status: CoverageStatus
    """Status after verification (a claimed ``covered`` with no verified quote is downgraded)."""
    claimed_status: CoverageStatus
    """What the reviewer said before verification."""
    source_ids: tuple[str, ...]
    """Sources the reviewer cited that exist."""
    quotes: tuple[Quote, ...]
    """Supporting quotes with their verification."""
    gap: str | None = None
    """What is missing (primary source, date, metric definition, independent comparison ...)."""
    follow_up: str | None = None
    """A targeted query for the gap."""


@dataclass(frozen=True, slots=True)
class CoverageReview:
    """One round's review of every sub-question against the stored evidence."""

    round: int
    """Round number."""
    items: tuple[TopicCoverage, ...]
    """One per planned topic."""
    reviewer: str
    """Model id, or ``deterministic``."""
    problems: tuple[str, ...] = ()
    """What verification rejected (unknown source ids, quotes not found)."""

    @property
    def passed(self) -> bool:
        """True when every topic is covered with verified support."""
        return bool(self.items) and all(i.status is CoverageStatus.COVERED for i in self.items)


@dataclass(frozen=True, slots=True)
class Draft:
    """The report draft composed after a review."""

    round: int
    """Round number."""
    markdown: str
    """The writer's Markdown (citing ``[S#]``), before citewise attaches sources and gaps."""
    source_ids: tuple[str, ...]
    """Source ids the draft cites."""
    writer: str
    """Model id, or ``deterministic``."""


class StopReason(str, enum.Enum):
    """Why the loop stopped."""

    COVERAGE_PASSED = "coverage_passed"
    NO_NEW_QUERIES = "no_new_queries"
    ROUNDS_EXHAUSTED = "rounds_exhausted"
    SEARCHES_EXHAUSTED = "searches_exhausted"
    EXTRACTIONS_EXHAUSTED = "extractions_exhausted"
    TOKENS_EXHAUSTED = "tokens_exhausted"
    COST_EXHAUSTED = "cost_exhausted"
    NO_EVIDENCE = "no_evidence"
