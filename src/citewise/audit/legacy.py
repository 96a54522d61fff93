"""Reading runs recorded before typed events (release 0.1.0): their payloads as typed events.

Those runs filed untyped payloads under free-text stage names and kept the run's outcome in JSON
columns that verification rewrote. Nothing is rewritten on upgrade: the stored rows stay as they are
and are read here, once, into the same typed events new runs record, so every reader has one form to
handle. Ask-side retrieval steps have no typed counterpart worth rebuilding and are kept as
:class:`~citewise.audit.events.LegacyStep`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from citewise.audit.events import (
    AnswerGiven,
    AttemptEnded,
    AttemptStarted,
    ClaimReviewed,
    CollectionEnded,
    DraftMade,
    Event,
    EvidenceRef,
    LegacyStep,
    ModelCallEnded,
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
    Verified,
)
from citewise.records.answer import (
    AnswerPath,
    AnswerProvenance,
    AskOutcome,
    Citation,
    ClarificationOption,
    ShadowComparison,
)
from citewise.records.budget import Budget
from citewise.records.research import (
    Attempt,
    AttemptError,
    AttemptKind,
    CoverageReview,
    Draft,
    ModelPurpose,
    ReportStatus,
    ResearchPlan,
    Skip,
    Source,
    StopReason,
)
from citewise.records.verify import Acceptance, Conflict, Decision, LedgerEntry
from citewise.serial import from_data

__all__ = ["ERROR_KINDS", "decode_step", "run_events"]

ERROR_KINDS: dict[str, AttemptError] = {
    "ProviderRateLimited": AttemptError.RATE_LIMITED,
    "ProviderTimeout": AttemptError.TIMEOUT,
    "ProviderUnavailable": AttemptError.UNAVAILABLE,
    "ProviderBadRequest": AttemptError.BAD_REQUEST,
    "ProviderAuthError": AttemptError.AUTH,
    "ProviderForbidden": AttemptError.FORBIDDEN,
    "ProviderQuotaExceeded": AttemptError.QUOTA_EXCEEDED,
    "ProviderInvalidResponse": AttemptError.INVALID_RESPONSE,
    "ProviderError": AttemptError.PROVIDER_ERROR,
    "extract_failed": AttemptError.EXTRACT_FAILED,
    "empty_page": AttemptError.EMPTY_PAGE,
    "interrupted": AttemptError.INTERRUPTED,
}
"""The error kind of a legacy attempt, from the ``error_type`` it recorded."""


def _attempt(data: Mapping[str, Any]) -> Attempt:
    values = dict(data)
    error_type = values.get("error_type")
    if error_type and "error_kind" not in values:
        values["error_kind"] = ERROR_KINDS.get(error_type, AttemptError.PROVIDER_ERROR).value
    return from_data(Attempt, values)


def _settings(p: Mapping[str, Any]) -> Event:
    budget = {k: v for k, v in (p.get("budget") or {}).items() if v is not None}
    return RunConfigured(
        search=str(p.get("search")),
        extract=str(p.get("extract")),
        planner_model=str(p.get("planner_model")),
        writer_model=str(p.get("writer_model")),
        budget=from_data(Budget, budget),
        concurrent=bool(p.get("concurrent", True)),
        pages_per_query=int(p.get("pages_per_query", 2)),
        search_options={str(k): str(v) for k, v in (p.get("search_options") or {}).items()},
        extract_options={str(k): str(v) for k, v in (p.get("extract_options") or {}).items()},
    )


def _purpose(value: object) -> ModelPurpose:
    """A legacy row's purpose; one outside today's closed set (or none) is ``unknown``."""
    try:
        return ModelPurpose(str(value))
    except ValueError:
        return ModelPurpose.UNKNOWN


def _plan(p: Mapping[str, Any]) -> Event:
    if "topics" in p:
        return PlanMade(from_data(ResearchPlan, p))
    return _step("plan", p)


def _attempt_ended(p: Mapping[str, Any]) -> Event:
    return AttemptEnded(_attempt(p["attempt"]), p.get("normalized_url"), p.get("query"), p.get("rank"))


def _step(stage: str, p: Mapping[str, Any]) -> Event:
    return LegacyStep(stage, json.dumps(p, ensure_ascii=False, sort_keys=True))


_STEPS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "settings": _settings,
    "plan": _plan,
    "round_start": lambda p: RoundStarted(int(p["round"]), tuple(p["queries"])),
    "attempt_start": lambda p: AttemptStarted(
        AttemptKind(p["kind"]), p["target"], int(p["round"]), p.get("normalized_url"), p.get("query")
    ),
    "attempt": _attempt_ended,
    "skip": lambda p: Skipped(from_data(Skip, p["skip"])),
    "source": lambda p: SourceStored(from_data(Source, p["source"])),
    "collected": lambda p: CollectionEnded(int(p["round"]), StopReason(p["stop"]) if p.get("stop") else None),
    "review": lambda p: ReviewMade(from_data(CoverageReview, p)),
    "draft": lambda p: DraftMade(from_data(Draft, p)),
    "round_end": lambda p: RoundEnded(int(p["round"]), StopReason(p["stop"]) if p.get("stop") else None),
    "model_call": lambda p: ModelCallEnded(
        _purpose(p.get("purpose")),
        p.get("requested_model"),
        p.get("model"),
        str(p.get("outcome") or "ok"),
        p.get("prompt_tokens"),
        p.get("completion_tokens"),
        p.get("cached_tokens"),
        p.get("latency_s"),
    ),
    "model_retry": lambda p: ModelRetried(_purpose(p.get("purpose")), str(p.get("error")), float(p.get("wait_s") or 0)),
    "repair": lambda p: RepairAsked(tuple(p.get("problems") or ())),
    "resume": lambda p: RunResumed(int(p.get("from_round") or 0), int(p.get("sources") or 0)),
}


def decode_step(stage: str, payload: Mapping[str, Any]) -> Event:
    """The typed event of one legacy ``(stage, payload)`` row."""
    reader = _STEPS.get(stage)
    return reader(payload) if reader is not None else _step(stage, payload)


def run_events(
    *,
    kind: str,
    outcome: str | None,
    retrieval: Mapping[str, Any],
    answer: Mapping[str, Any],
    result: Mapping[str, Any],
    ledgers: Sequence[Mapping[str, Any]],
    reviews: Sequence[Mapping[str, Any]],
) -> list[tuple[datetime | None, Event]]:
    """The events a legacy run kept in its run row (outcome, verification, claim reviews), each with
    the time it was recorded when known (None: when the run finished)."""
    out: list[tuple[datetime | None, Event]] = []
    if result.get("error"):
        out.append((None, RunFailed(str(result["error"]), "recorded before typed events")))
    elif kind == "research" and result.get("status"):
        out.append((None, _report(retrieval, answer, result)))
    elif kind == "ask" and outcome:
        out.append((None, _answer(outcome, retrieval, answer, result)))
    for row in ledgers:
        out.append((datetime.fromisoformat(row["created_at"]), _verified(row)))
    for row in reviews:
        review = ClaimReviewed(row["claim_id"], Decision(row["decision"]), row["reviewer"], row["reason"])
        out.append((datetime.fromisoformat(row["decided_at"]), review))
    return out


def _report(retrieval: Mapping[str, Any], answer: Mapping[str, Any], result: Mapping[str, Any]) -> ReportMade:
    usage = dict(retrieval.get("usage") or {})
    return ReportMade(
        status=ReportStatus(result["status"]),
        stop_reason=StopReason(retrieval.get("stop_reason") or StopReason.NO_EVIDENCE.value),
        markdown=str(result.get("markdown") or ""),
        body=result.get("body"),
        problems=tuple(result.get("problems") or ()),
        usage=UsageSummary(
            round=int(usage.get("round") or 0),
            rounds=str(usage.get("rounds") or ""),
            searches=str(usage.get("searches") or ""),
            extractions=str(usage.get("extractions") or ""),
            tokens=int(usage.get("tokens") or 0),
        ),
        path=str(answer.get("path") or "deterministic"),
        planner=str(answer.get("planner") or "deterministic"),
        writer=str(answer.get("writer") or "deterministic"),
        prompt_versions=answer.get("prompt_versions"),
        queries=tuple(retrieval.get("queries") or ()),
    )


# The one place that still reads the old "E1=doc@3:section" strings: release 0.1.0 wrote them.
_EVIDENCE = re.compile(r"^(E\d+)=(.+)@(\d+):(.+)$")


def _answer(
    outcome: str, retrieval: Mapping[str, Any], answer: Mapping[str, Any], result: Mapping[str, Any]
) -> AnswerGiven:
    evidence = tuple(
        EvidenceRef(m.group(1), m.group(2), int(m.group(3)), m.group(4))
        for m in (_EVIDENCE.match(ref) for ref in retrieval.get("evidence") or [])
        if m is not None
    )
    provenance = dict(answer)
    provenance.setdefault("path", AnswerPath.NONE.value)
    shadow = result.get("shadow")
    return AnswerGiven(
        outcome=AskOutcome(outcome),
        text=str(result.get("text") or ""),
        provenance=from_data(AnswerProvenance, provenance),
        evidence=evidence,
        citations=tuple(from_data(Citation, c) for c in result.get("citations") or ()),
        options=tuple(from_data(ClarificationOption, o) for o in result.get("options") or ()),
        gap=result.get("gap"),
        gated_on=datetime.fromisoformat(retrieval["gated_on"]).date() if retrieval.get("gated_on") else None,
        candidates=int(retrieval.get("candidates") or 0),
        eligible=tuple(retrieval.get("eligible") or ()),
        exclusions={str(k): int(v) for k, v in (retrieval.get("exclusions") or {}).items()},
        ranker=retrieval.get("ranker"),
        ranking_accepted=bool(retrieval.get("ranking_accepted", True)),
        ranking_violations=tuple(retrieval.get("ranking_violations") or ()),
        shadow=from_data(ShadowComparison, shadow) if shadow else None,
    )


def _verified(row: Mapping[str, Any]) -> Verified:
    return Verified(
        verifier_version=row["verifier_version"],
        entries=tuple(from_data(LedgerEntry, e) for e in json.loads(row["entries_json"])),
        conflicts=tuple(from_data(Conflict, c) for c in json.loads(row["conflicts_json"])),
        acceptance=from_data(Acceptance, json.loads(row["acceptance_json"])),
    )
