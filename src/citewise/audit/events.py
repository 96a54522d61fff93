"""The run record's events: a closed set of frozen, documented records, one per thing that happens.

Every stage of ``ask`` and ``research`` appends events as it works; verification and reviews append
theirs afterwards (nothing rewrites an earlier event). Readers — resume, verify, cost, export, the
CLI, the Python API — get these typed records from the store and never read a payload by key.

Each event has a ``kind`` discriminator (:class:`EventKind`); :func:`encode` and :func:`decode` are
the one serialiser (:mod:`citewise.serial`), and every stored payload carries :data:`SCHEMA_VERSION`.
Runs written before typed events existed are read through :mod:`citewise.audit.legacy`.

::

    research: RunConfigured, PlanMade, (RoundStarted, AttemptStarted, AttemptEnded, Skipped,
              SourceStored, CollectionEnded, ModelCallStarted, ModelCallEnded, ReviewMade, DraftMade,
              DraftDropped, RoundEnded)*, RepairAsked?, ReportMade
    ask:      AskPlanned, CandidatesRetrieved, GateDecided, Ranked, AnswerGiven
    after:    Verified, ClaimReviewed, Rechecked (any number); RunResumed, AttemptInterrupted,
              ModelCallInterrupted, RunFailed where they happened
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, ClassVar

from citewise.records.answer import (
    AnswerProvenance,
    AskOutcome,
    Citation,
    ClarificationOption,
    ShadowComparison,
)
from citewise.records.budget import Budget
from citewise.records.engines import (
    CitationCheck,
    EngineCitation,
    EngineErrorKind,
    EngineSearch,
    EngineToolError,
    EngineUsage,
)
from citewise.records.gate import Exclusion
from citewise.records.providers import ExtractedPage, SearchResponse
from citewise.records.research import (
    Attempt,
    AttemptKind,
    CoverageReview,
    Draft,
    ModelPurpose,
    RecheckStatus,
    ReportStatus,
    ResearchPlan,
    SiteFigures,
    Skip,
    Source,
    StopReason,
)
from citewise.records.verify import Acceptance, Conflict, Decision, Finding, LedgerEntry
from citewise.records.versions import VersionNote
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


# -- ask --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AskPlanned(Event):
    """The retrieval plan an ask ran under."""

    kind: ClassVar[EventKind] = EventKind.ASK_PLANNED
    pairs: tuple[str, ...]
    """Exact ``DOC:SECTION`` pairs allowed (empty: any)."""
    docs: tuple[str, ...]
    """Documents allowed (empty: any)."""
    origins: tuple[str, ...]
    """Origins allowed (empty: any)."""
    required_uses: tuple[str, ...]
    """Uses every eligible licence must permit."""
    as_of: date | None
    """The date whose version in force is used; None: latest."""
    approval_required: bool
    """Whether approval is required."""
    rules: tuple[str, ...]
    """Gate rules evaluated, in order."""


@dataclass(frozen=True, slots=True)
class CandidateRef:
    """One candidate offered to the gate."""

    doc_id: str
    """Document id."""
    version: int
    """Version number."""
    section_id: str
    """Section id."""
    score: float | None = None
    """Search score; None for a section the plan named exactly."""

    def __str__(self) -> str:
        return f"{self.doc_id}@{self.version}:{self.section_id}"


@dataclass(frozen=True, slots=True)
class CandidatesRetrieved(Event):
    """What search (and the plan's exact pairs) offered, before any gate."""

    kind: ClassVar[EventKind] = EventKind.CANDIDATES_RETRIEVED
    candidates: tuple[CandidateRef, ...]
    """In search order, then the plan's pairs."""


@dataclass(frozen=True, slots=True)
class GateVerdict:
    """The gate's decision on one candidate."""

    ref: str
    """``doc@version:section``."""
    eligible: bool
    """True when every rule passed."""
    reasons: tuple[Exclusion, ...] = ()
    """Every failed rule."""
    duplicates: tuple[str, ...] = ()
    """Passages collapsed into this one."""


@dataclass(frozen=True, slots=True)
class GateDecided(Event):
    """Every candidate's eligibility, decided before ranking."""

    kind: ClassVar[EventKind] = EventKind.GATE_DECIDED
    on: date
    """The date the version policy was evaluated for."""
    decisions: tuple[GateVerdict, ...]
    """One per candidate."""


@dataclass(frozen=True, slots=True)
class RankViolation:
    """Something a ranker did besides reordering."""

    kind: str
    """The violation kind (``injected``, ``duplicated``, ``altered`` ...)."""
    detail: str
    """What exactly."""


@dataclass(frozen=True, slots=True)
class Ranked(Event):
    """The ranker's order, or why it was discarded."""

    kind: ClassVar[EventKind] = EventKind.RANKED
    ranker: str
    """Ranker name."""
    accepted: bool
    """False when a contract violation discarded its order."""
    order: tuple[str, ...]
    """The order used."""
    violations: tuple[RankViolation, ...] = ()
    """Contract violations."""


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """An evidence id of an answer and the exact section behind it."""

    evidence_id: str
    """``E1``, ``E2`` ..."""
    doc_id: str
    """Document id."""
    version: int
    """Version number."""
    section_id: str
    """Section id."""

    def __str__(self) -> str:
        return f"{self.doc_id}@{self.version}:{self.section_id}"


@dataclass(frozen=True, slots=True)
class AnswerGiven(Event):
    """What the user was given by ``ask``, with answer provenance apart from retrieval provenance."""

    kind: ClassVar[EventKind] = EventKind.ANSWER_GIVEN
    outcome: AskOutcome
    """Which of the five outcomes."""
    text: str
    """The text shown."""
    provenance: AnswerProvenance
    """Which path produced the text, which model, which prompt version, why a fallback."""
    evidence: tuple[EvidenceRef, ...] = ()
    """The evidence ids the answer could cite."""
    citations: tuple[Citation, ...] = ()
    """Its citations with their quotes."""
    options: tuple[ClarificationOption, ...] = ()
    """For a clarification: what the user may have meant."""
    gap: str | None = None
    """For a handoff: what the evidence does not cover."""
    gated_on: date | None = None
    """The date the gate evaluated versions for."""
    candidates: int = 0
    """Candidates gated."""
    eligible: tuple[str, ...] = ()
    """Eligible passages."""
    exclusions: dict[str, int] | None = None
    """Exclusions counted by reason."""
    ranker: str | None = None
    """The ranker."""
    ranking_accepted: bool = True
    """Whether its order was used."""
    ranking_violations: tuple[str, ...] = ()
    """Its violations."""
    shadow: ShadowComparison | None = None
    """In shadow mode: the comparison with the existing answer."""
    removed: tuple[Finding, ...] = ()
    """Claims taken out of the composed answer before delivery (a :class:`Verified` event follows
    an answer that was verified)."""
    version_notes: tuple[VersionNote, ...] = ()
    """Shown beside the answer: an approved version of a cited document that takes effect later, or
    a cited text not yet in force on ``gated_on``."""


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
