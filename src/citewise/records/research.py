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
    "SiteFigures",
    "ModelPurpose",
    "RecheckStatus",
    "Attempt",
    "AttemptError",
    "AttemptKind",
    "CoverageReview",
    "CoverageStatus",
    "Draft",
    "Quote",
    "ReportStatus",
    "ResearchPlan",
    "Skip",
    "SkipReason",
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


class AttemptError(str, enum.Enum):
    """Why an attempt produced no usable output (a typed field: code never reads the message)."""

    RATE_LIMITED = "rate_limited"  #: the provider answered 429
    TIMEOUT = "timeout"  #: no answer within the client's timeout
    UNAVAILABLE = "unavailable"  #: connection failed, or a 5xx
    BAD_REQUEST = "bad_request"  #: the provider refused the request as malformed
    AUTH = "auth"  #: the key was missing or refused
    FORBIDDEN = "forbidden"  #: the key may not do this
    QUOTA_EXCEEDED = "quota_exceeded"  #: the plan's limit is used up
    INVALID_RESPONSE = "invalid_response"  #: the answer could not be read
    PROVIDER_ERROR = "provider_error"  #: any other provider failure
    EXTRACT_FAILED = "extract_failed"  #: the extractor reported it could not read the page
    EMPTY_PAGE = "empty_page"  #: the page came back without any text
    INTERRUPTED = "interrupted"  #: the process stopped during the call; its result was never recorded

    @property
    def billed(self) -> bool:
        """True when a page extractor may have charged for the call: it answered (a page it could not
        read, an empty page), or the process died during it. A provider error is not billed."""
        return self in (AttemptError.EXTRACT_FAILED, AttemptError.EMPTY_PAGE, AttemptError.INTERRUPTED)


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
    """Exception class or failure kind (``ProviderRateLimited``, ``empty_page`` ...) when not ok; for
    people reading the record (code reads ``error_kind``)."""
    error: str | None = None
    """Short description of the failure (never contains a key)."""
    cached: bool = False
    """Served from the cache: it cost no provider budget."""
    credits: float | None = None
    """Provider billing units used, when known."""
    latency_s: float | None = None
    """Wall time of the call."""
    error_kind: AttemptError | None = None
    """Why it failed, typed; None when ok."""
    retry_after: float | None = None
    """Seconds the provider asked to wait (rate limits), when it said."""


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
    page_text_hash: str | None = None
    """``sha256:...`` of ``page_text`` (normalised), computed when the source was built; ``citewise store
    verify`` re-derives it. None for sources recorded before hashes were kept."""
    content_hash: str | None = None
    """``sha256:...`` of ``content`` (normalised), computed when the source was built; None for
    sources recorded before hashes were kept."""
    domain: str | None = None
    """The site the page is on: its registrable domain (public-suffix aware); None for a store
    reference and for sources recorded before sites were kept."""
    mirrors: tuple[str, ...] = ()
    """Other URLs found with the same (or nearly the same) text: one source, several sites. They are
    not independent confirmations of it."""


@dataclass(frozen=True, slots=True)
class SiteFigures:
    """How a run's sources spread over sites (SPEC 4.3, domain diversity)."""

    sources: int
    """Sources stored (each counted once, on its own site; mirrors are not sources)."""
    distinct_domains: int
    """Sites the sources come from."""
    largest_domain: str | None
    """The site that supplied the most sources (None without sources)."""
    largest_count: int
    """How many it supplied."""
    primary_count: int = 0
    """Sources from the sites named primary (the issuer's or official publisher's)."""

    @property
    def largest_share(self) -> float:
        """The largest site's share of the sources (0 without sources)."""
        return self.largest_count / self.sources if self.sources else 0.0

    @property
    def primary_share(self) -> float:
        """The primary sites' share of the sources (0 without sources)."""
        return self.primary_count / self.sources if self.sources else 0.0


class CoverageStatus(str, enum.Enum):
    """How well the stored evidence covers one required sub-question."""

    COVERED = "covered"
    WEAK = "weak"
    MISSING = "missing"
    CONFLICTING = "conflicting"


@dataclass(frozen=True, slots=True)
class Quote:
    """A supporting quote the reviewer gave, and whether it occurs in the cited source's excerpt.

    The reviewer either cites a sentence of the excerpt by id (``S1.3``) — then ``text`` is that
    sentence as stored, never the reviewer's words — or copies text, which is then looked up."""

    source_id: str
    """The source it claims to come from."""
    text: str
    """The quote as the reviewer wrote it; for a cited sentence id, the stored sentence (empty when
    the excerpt has no such sentence)."""
    verified: bool
    """True when it occurs in that source's ``content`` after whitespace/Unicode normalisation; for
    a sentence id, when the excerpt has that sentence."""
    sentence_id: str | None = None
    """The sentence id the reviewer cited (``S1.3``: the third sentence of ``S1``'s excerpt, see
    :mod:`citewise.text.sentences`); None for a quote given as text."""


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
    ENGINE_ANSWERED = "engine_answered"  #: a native engine answered (one call, its own searches)
    ENGINE_FAILED = "engine_failed"  #: the native engine's call failed (recorded, retried once)


class SkipReason(str, enum.Enum):
    """Why a query or URL was not tried (no budget was spent on it)."""

    EMPTY_QUERY = "empty_query"
    ALREADY_TRIED = "already_tried"  #: earlier in the run or the round
    UNUSABLE_URL = "unusable_url"  #: the URL could not be normalised or is not allowed
    SAME_SITE = "same_site"  #: its site already supplies a page this round, or its share, while others answer


@dataclass(frozen=True, slots=True)
class Skip:
    """A query or URL a round did not try, and why (no budget was spent on it)."""

    kind: AttemptKind
    """``search`` for a query, ``extract`` for a URL."""
    target: str
    """The query, or the URL as the search provider returned it (any ``user:password@`` removed)."""
    round: int
    """Round number."""
    reason: SkipReason
    """Empty query, already tried, or unusable URL."""
    detail: str | None = None
    """Why a URL is unusable, or which normalised URL was already tried."""
    query: str | None = None
    """For a URL: the query that found it."""


class ReportStatus(enum.StrEnum):
    """What the loop delivered (acceptance is a separate, later decision).

    A ``StrEnum``: it renders as its value in text."""

    REPORT = "report"  #: a draft whose citations citewise validated
    REJECTED = "rejected"  #: the draft's citations could not be validated
    NO_EVIDENCE = "no_evidence"  #: no usable page content was obtained
    NO_VERIFIED_FINDING = "no_verified_finding"  #: no claim survived verification: nothing to deliver as a report


class RecheckStatus(str, enum.Enum):
    """How a cited page, and a claim resting on it, stand when read again."""

    UNCHANGED = "unchanged"  #: the page reads as it did (same content hash)
    PAGE_CHANGED = "page_changed"  #: the page changed; the claim's quote is still in it
    QUOTE_GONE = "quote_gone"  #: the page changed and the claim's quote is no longer in it
    PAGE_GONE = "page_gone"  #: the page could not be read again (or came back empty)


class ModelPurpose(enum.StrEnum):
    """What a model call of a research run was for (the audit record's ``purpose``).

    A ``StrEnum``: it renders as its value in text."""

    PLAN = "plan"  #: the planner's checklist of sub-questions and queries
    REVIEW = "review"  #: a round's coverage review
    DRAFT = "draft"  #: the writer's report
    SPECULATIVE_DRAFT = "speculative_draft"  #: a draft written while the round's review runs (kept or dropped)
    REPAIR = "repair"  #: the writer asked again after its citations failed validation
    REVISE = "revise"  #: the writer asked to revise the sentences verification did not support
    ENGINE = "engine"  #: a native search engine's answer (searching and writing in one call)
    UNKNOWN = "unknown"  #: a call in a record written before purposes were recorded as this closed set
