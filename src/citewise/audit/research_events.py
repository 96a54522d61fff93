"""Events of a research run: its set-up, plan, rounds, attempts, model calls, reviews, drafts and
report, and the own fetcher's fallbacks (:mod:`citewise.audit.events` is the closed set)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from citewise.audit.event_kinds import Event, EventKind
from citewise.records.budget import Budget
from citewise.records.providers import ExtractedPage, SearchResponse
from citewise.records.research import (
    Attempt,
    AttemptKind,
    CoverageReview,
    Draft,
    ModelPurpose,
    ReportStatus,
    ResearchPlan,
    SiteFigures,
    Skip,
    Source,
    StopReason,
)
from citewise.records.verify import Finding

__all__ = [
    "AttemptEnded",
    "AttemptInterrupted",
    "AttemptStarted",
    "CollectionEnded",
    "DraftDropped",
    "DraftMade",
    "DropReason",
    "ExtractFellBack",
    "MirrorFound",
    "ModelCallEnded",
    "ModelCallInterrupted",
    "ModelCallStarted",
    "ModelRetried",
    "PlanMade",
    "RepairAsked",
    "ReportMade",
    "ReviewMade",
    "RoundEnded",
    "RoundStarted",
    "RunConfigured",
    "RunFailed",
    "RunResumed",
    "Skipped",
    "SourceStored",
    "UsageSummary",
]


# -- research ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunConfigured(Event):
    """How a research run was set up (names and limits; never a key)."""

    kind: ClassVar[EventKind] = EventKind.RUN_CONFIGURED
    search: str
    """Search provider's registry name."""
    extract: str
    """Extractor's registry name."""
    planner_model: str
    """Planner model id, or ``deterministic``."""
    writer_model: str
    """Writer model id, or ``deterministic``."""
    budget: Budget
    """The run's hard limits."""
    concurrent: bool
    """Whether a step's provider calls ran in a thread pool."""
    pages_per_query: int
    """New pages tried per query at most."""
    search_options: dict[str, str] | None = None
    """The search provider's settings that change its answers (depth, topic ...)."""
    extract_options: dict[str, str] | None = None
    """The extractor's settings that change its answers."""
    engine: str | None = None
    """The native search engine that searched and wrote (``openai``, ``anthropic``, ``gemini``); None
    for citewise's own loop."""
    review_prompt: str | None = None
    """The reviewer's prompt version the run started with (``review-v5`` ...); None in records made
    before the field, whose runs were reviewed under ``review-v4``."""

    def __post_init__(self) -> None:
        # Records written before the engine had a field of their own named it in ``search`` as
        # "NAME (native)"; they are read into the same shape as new ones, so no reader parses it.
        if self.engine is None and self.search.endswith(" (native)"):
            engine = self.search.removesuffix(" (native)")
            object.__setattr__(self, "engine", engine)
            object.__setattr__(self, "search", engine)


@dataclass(frozen=True, slots=True)
class PlanMade(Event):
    """The planner's checklist."""

    kind: ClassVar[EventKind] = EventKind.PLAN_MADE
    plan: ResearchPlan
    """Sub-questions and first queries."""


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A collection round began (its round budget already spent)."""

    kind: ClassVar[EventKind] = EventKind.ROUND_STARTED
    round: int
    """Round number (1-based)."""
    queries: tuple[str, ...]
    """The queries the round was given."""


@dataclass(frozen=True, slots=True)
class AttemptStarted(Event):
    """Budget was spent on a search or extraction, before the call was made."""

    kind: ClassVar[EventKind] = EventKind.ATTEMPT_STARTED
    attempt_kind: AttemptKind
    """Search or extract."""
    target: str
    """The query, or the URL as the search provider returned it."""
    round: int
    """Round number."""
    normalized_url: str | None = None
    """For a URL: its normalised form (the dedupe key)."""
    query: str | None = None
    """For a URL: the query that found it."""
    ahead: bool = False
    """For a search: started before its round, as the planner's streamed reply named the query
    (:mod:`citewise.research.ahead`); its round uses the recorded answer instead of searching again."""


@dataclass(frozen=True, slots=True)
class AttemptEnded(Event):
    """A search or extraction answered (or failed), with what it returned, so a resumed run reuses it."""

    kind: ClassVar[EventKind] = EventKind.ATTEMPT_ENDED
    attempt: Attempt
    """The attempt, ok or not."""
    normalized_url: str | None = None
    """For a URL: its normalised form."""
    query: str | None = None
    """For a URL: the query that found it."""
    rank: int | None = None
    """For a URL: its rank in that query's answer."""
    search: SearchResponse | None = None
    """For a successful search: the hits (leads, not evidence)."""
    page: ExtractedPage | None = None
    """For a page read with usable text: the text as the extractor returned it."""
    answered_at: datetime | None = None
    """For an extraction that answered: when the answer arrived (it becomes ``retrieved_at``)."""
    ahead: bool = False
    """For a search made, or answered from the cache, before its round, as a streamed reply named
    the query (:mod:`citewise.research.ahead`; a cache hit has no start event): its round takes this
    answer."""


@dataclass(frozen=True, slots=True)
class AttemptInterrupted(Event):
    """A call whose budget was spent but whose result was never recorded (the process died during
    it); found on resume. It stays spent, and the call is made again only inside the budget."""

    kind: ClassVar[EventKind] = EventKind.ATTEMPT_INTERRUPTED
    attempt_kind: AttemptKind
    """Search or extract."""
    target: str
    """The query or URL."""
    round: int
    """Round number."""
    noticed_at: datetime
    """When the resume found it (UTC)."""
    normalized_url: str | None = None
    """For a URL: its normalised form."""


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """A query or URL not tried, and why."""

    kind: ClassVar[EventKind] = EventKind.SKIPPED
    skip: Skip
    """What and why."""


@dataclass(frozen=True, slots=True)
class SourceStored(Event):
    """A page with usable text became a source (its id assigned now)."""

    kind: ClassVar[EventKind] = EventKind.SOURCE_STORED
    source: Source
    """The source, with its full page text and the excerpt given to models."""


@dataclass(frozen=True, slots=True)
class CollectionEnded(Event):
    """The searches and extractions of a round are done."""

    kind: ClassVar[EventKind] = EventKind.COLLECTION_ENDED
    round: int
    """Round number."""
    stop: StopReason | None = None
    """A budget that ran out during collection, if one did."""


@dataclass(frozen=True, slots=True)
class ModelCallStarted(Event):
    """A model call is about to be sent; if no :class:`ModelCallEnded` follows, the provider may still
    have charged for it (see :class:`ModelCallInterrupted`)."""

    kind: ClassVar[EventKind] = EventKind.MODEL_CALL_STARTED
    purpose: ModelPurpose
    """What the call is for."""
    model: str
    """The requested model id."""
    estimated_prompt_tokens: int
    """A conservative estimate of the prompt's tokens, from its characters."""
    max_reply_tokens: int | None = None
    """The reply cap sent with the call (lowered to what the token and money caps leave); None in
    records made before caps were checked per call."""


@dataclass(frozen=True, slots=True)
class ModelCallEnded(Event):
    """A model call answered or failed, with its usage."""

    kind: ClassVar[EventKind] = EventKind.MODEL_CALL_ENDED
    purpose: ModelPurpose
    """What the call was for."""
    requested_model: str | None
    """The model id citewise asked for."""
    model: str | None
    """The model id the endpoint reported."""
    outcome: str
    """``ok`` or the error kind."""
    prompt_tokens: int | None = None
    """Prompt tokens reported."""
    completion_tokens: int | None = None
    """Completion tokens reported."""
    cached_tokens: int | None = None
    """Cached prompt tokens reported."""
    latency_s: float | None = None
    """Wall time of the call."""
    estimated: bool = False
    """The token counts are citewise's estimate, not the endpoint's report: a streamed reply broke
    off part way without usage (the prompt as estimated when the call was admitted, the output that
    had arrived), counted in the budget and the cost ledger since the provider likely charged it."""


@dataclass(frozen=True, slots=True)
class ModelCallInterrupted(Event):
    """A model call cut off by a crash (started, never ended): counted in the token budget and the
    cost ledger with its estimated prompt tokens, since the provider may have charged for it."""

    kind: ClassVar[EventKind] = EventKind.MODEL_CALL_INTERRUPTED
    purpose: ModelPurpose
    """What the call was for."""
    model: str
    """The requested model id."""
    estimated_prompt_tokens: int
    """The estimate recorded when it started."""


@dataclass(frozen=True, slots=True)
class ModelRetried(Event):
    """A transient model failure is retried once, inside the budget."""

    kind: ClassVar[EventKind] = EventKind.MODEL_RETRIED
    purpose: ModelPurpose
    """What the call was for."""
    error: str
    """The failure's class name (for people reading the record)."""
    wait_s: float
    """Seconds waited before the retry."""


@dataclass(frozen=True, slots=True)
class ReviewMade(Event):
    """A round's coverage review, its quotes verified by citewise."""

    kind: ClassVar[EventKind] = EventKind.REVIEW_MADE
    review: CoverageReview
    """The review."""


@dataclass(frozen=True, slots=True)
class DraftMade(Event):
    """A draft composed after a review (or repaired after a failed citation check)."""

    kind: ClassVar[EventKind] = EventKind.DRAFT_MADE
    draft: Draft
    """The draft."""
    removed_sentences: tuple[str, ...] = ()
    """For a revision: the sentences the writer took out (so a resumed run delivers exactly it)."""


class DropReason(str, enum.Enum):
    """Why a speculative draft (written while its round's review ran) was not kept."""

    MORE_SEARCHING = "more_searching"  #: the review asked for another round: this round needs no draft
    COVERAGE_CHANGED = "coverage_changed"  #: the review differs from the coverage the draft was written from
    FAILED = "failed"  #: the draft's call failed or the budget stopped it (the call is recorded)


@dataclass(frozen=True, slots=True)
class DraftDropped(Event):
    """A speculative draft that was not kept; its call stays recorded and counted in the budget and
    the cost like any other."""

    kind: ClassVar[EventKind] = EventKind.DRAFT_DROPPED
    round: int
    """The round it was written in."""
    reason: DropReason
    """Why it was dropped."""
    draft: Draft | None = None
    """The draft, when its call answered. A draft dropped without waiting for its call is recorded
    twice: at once without it, then with it once the loop has waited for the call."""


@dataclass(frozen=True, slots=True)
class RepairAsked(Event):
    """The final draft failed citation validation; the writer is asked once to repair it."""

    kind: ClassVar[EventKind] = EventKind.REPAIR_ASKED
    problems: tuple[str, ...]
    """What failed."""


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round is over."""

    kind: ClassVar[EventKind] = EventKind.ROUND_ENDED
    round: int
    """Round number."""
    stop: StopReason | None = None
    """Why the loop must stop after it, when a budget ran out in it."""


@dataclass(frozen=True, slots=True)
class RunResumed(Event):
    """The run was continued from its record after it stopped part-way."""

    kind: ClassVar[EventKind] = EventKind.RUN_RESUMED
    from_round: int
    """The round it continues in (or the next one)."""
    sources: int
    """Sources already stored."""
    interrupted_attempts: int = 0
    """Calls found started but never finished."""
    interrupted_model_calls: int = 0
    """Model calls found started but never finished."""


@dataclass(frozen=True, slots=True)
class UsageSummary:
    """What a run used of its budget."""

    round: int
    """Rounds started."""
    rounds: str
    """``used/limit``."""
    searches: str
    """``used/limit``."""
    extractions: str
    """``used/limit``."""
    tokens: int
    """Model tokens counted (interrupted calls included, estimated)."""


@dataclass(frozen=True, slots=True)
class ReportMade(Event):
    """What the research loop delivered (acceptance is decided later, by verification)."""

    kind: ClassVar[EventKind] = EventKind.REPORT_MADE
    status: ReportStatus
    """Report, rejected or no evidence."""
    stop_reason: StopReason
    """Why the loop stopped."""
    markdown: str
    """The whole report as delivered (body, gaps, sources, how it was made)."""
    body: str | None
    """The validated body (the final draft after citewise's checks); None when rejected."""
    problems: tuple[str, ...]
    """Why it was rejected, or what was removed from it."""
    usage: UsageSummary
    """Budget used."""
    path: str
    """``model``, ``deterministic`` or ``engine`` (a native engine): which path wrote the text."""
    planner: str
    """Model id that planned, or ``deterministic``."""
    writer: str
    """Model id that wrote, or ``deterministic``."""
    prompt_versions: dict[str, str] | None = None
    """Prompt versions by purpose (None without models)."""
    queries: tuple[str, ...] = ()
    """Every query searched in the run (their dedupe keys)."""
    verified: bool = False
    """True when the body was verified claim by claim before delivery (then a :class:`Verified`
    event follows); False for ``--no-verify`` and for runs recorded before verified delivery."""
    removed: tuple[Finding, ...] = ()
    """Claims taken out of the draft before delivery (unsupported, or citing no stored source)."""
    sites: SiteFigures | None = None
    """How the sources spread over sites; None for runs recorded before sites were kept."""
    marked: tuple[Finding, ...] = ()
    """Claims kept but marked as unverified (``--unsupported mark``)."""
    salvaged: bool = False
    """True when no written draft survived and the deterministic writer composed the report from
    verified quotes."""


@dataclass(frozen=True, slots=True)
class RunFailed(Event):
    """The run stopped with an error; everything recorded before it stays."""

    kind: ClassVar[EventKind] = EventKind.RUN_FAILED
    error: str
    """The error's class name."""
    message: str
    """Its message (keys never reach it: they live in redacted values)."""


# -- own fetcher: extractor fallback -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtractFellBack(Event):
    """Pages the configured extractor could not read, tried again with the fallback extractor; each
    try is a new extraction attempt, spent from the page budget before the call and recorded."""

    kind: ClassVar[EventKind] = EventKind.EXTRACT_FELL_BACK
    round: int
    """The round (1-based)."""
    primary: str
    """The extractor that could not read them (registry name)."""
    fallback: str
    """The extractor tried next (registry name)."""
    urls: tuple[str, ...]
    """The URLs given a fallback attempt, in order."""


@dataclass(frozen=True, slots=True)
class MirrorFound(Event):
    """A page read for a query has the same (or nearly the same) text as a stored source: it is
    kept as that source's mirror, not as a source of its own (two sites repeating one text are not
    two confirmations)."""

    kind: ClassVar[EventKind] = EventKind.MIRROR_FOUND
    source_id: str
    """The stored source the page repeats."""
    url: str
    """The mirror's URL, as the search provider returned it."""
    domain: str | None
    """The mirror's site."""
    similarity: float
    """Jaccard similarity of the two texts' shingles (1.0: the same text)."""
