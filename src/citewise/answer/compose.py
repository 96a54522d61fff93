"""Choosing the outcome and the composer for an ask, and writing the run record."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from citewise.answer.deterministic import Weights, compose_extractive
from citewise.answer.meaning import SentenceMeaning
from citewise.answer.provisions import NamedProvisions
from citewise.answer.result import AskResult, AskSettings, ShadowComparison
from citewise.answer.triage import clarify_or_handoff
from citewise.audit.events import AnswerGiven, EvidenceRef
from citewise.evidence.gate import GateOutcome
from citewise.evidence.plan import RetrievalPlan
from citewise.evidence.rank import RankingOutcome
from citewise.llm.admission import PendingRequest
from citewise.records.answer import AnswerPath, AnswerProvenance, AskOutcome, Evidence
from citewise.records.budget import BudgetExhausted, BudgetUsage
from citewise.records.versions import VersionNote
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore

__all__ = ["answer_from_evidence", "record_run"]


def _exclusion_counts(outcome: GateOutcome) -> dict[str, int]:
    counts: dict[str, int] = {}
    for d in outcome.excluded:
        for reason in d.reasons:
            counts[reason.reason.value] = counts.get(reason.reason.value, 0) + 1
    return counts


NO_MODEL = "no model configured (set COMETAPI_KEY and WRITER_MODEL to use one)"


def _no_evidence_text(exclusions: dict[str, int], candidates: int) -> str:
    if not candidates:
        return "No eligible evidence: the search found no candidate passages for this question."
    summary = ", ".join(f"{reason} {count}" for reason, count in sorted(exclusions.items()))
    return f"No eligible evidence: all {candidates} candidate passages were excluded by the gate ({summary})."


def _capped(settings: AskSettings) -> AbstractContextManager[None]:
    """The token and money caps of the model call, checked just before it is sent (a call that would
    cross one raises :class:`BudgetExhausted`; one that fits only with a smaller reply cap gets it)."""
    budget = settings.budget
    if budget is None or (budget.max_tokens is None and budget.max_cost_usd is None):
        return nullcontext()
    usage = BudgetUsage(budget)

    def admit(request: PendingRequest) -> int:
        tokens = request.estimated_prompt_tokens
        return usage.admit(
            request.model, prompt_tokens=tokens, max_reply=request.max_completion_tokens, prices=settings.prices
        ).max_reply

    admitting: AbstractContextManager[None] = settings.client.admitting(admit)
    return admitting


def _compose(
    question: str,
    evidence: Sequence[Evidence],
    settings: AskSettings,
    meaning: SentenceMeaning | None = None,
    named: frozenset[tuple[str, str]] = frozenset(),
    weights: Weights | None = None,
) -> tuple[AskOutcome, Any, AnswerProvenance]:
    """Model first when configured; the deterministic composer otherwise or when the model fails
    (``named``: the (document, section) pairs the question names, which it leads with)."""
    reason = NO_MODEL
    if settings.client is not None and settings.model:
        from citewise.answer.model import ModelAnswerFailed, compose_with_model

        try:
            with _capped(settings):
                composed, provenance = compose_with_model(settings.client, settings.model, question, evidence)
            return AskOutcome.MODEL_ANSWER, composed, provenance
        except ModelAnswerFailed as failed:
            if failed.code == "not_covered":
                return AskOutcome.HANDOFF, None, failed.provenance
            reason = f"model reply rejected: {failed.reason}"
            model_provenance = failed.provenance
        except BudgetExhausted as exhausted:  # the call would cross a cap: not made, so nothing to price
            reason = f"model {settings.model} not called: {exhausted}"
            model_provenance = AnswerProvenance(AnswerPath.NONE)
        fallback = AnswerProvenance(
            AnswerPath.DETERMINISTIC,
            requested_model=model_provenance.requested_model,
            prompt_version=model_provenance.prompt_version,
            fallback_reason=reason,
            prompt_tokens=model_provenance.prompt_tokens,
            completion_tokens=model_provenance.completion_tokens,
        )
    else:
        fallback = AnswerProvenance(AnswerPath.DETERMINISTIC, fallback_reason=reason)
    composed = compose_extractive(question, evidence, meaning=meaning, named=named, weights=weights)
    return AskOutcome.FALLBACK, composed, fallback


def answer_from_evidence(
    store: EvidenceStore,
    question: str,
    plan: RetrievalPlan,
    settings: AskSettings,
    run_id: str,
    gated: GateOutcome,
    ranking: RankingOutcome,
    evidence: tuple[Evidence, ...],
    named: NamedProvisions | None = None,
    meaning: SentenceMeaning | None = None,
    weights: Weights | None = None,
) -> AskResult:
    """Pick the outcome: no eligible evidence, clarification, handoff, or a composed answer (the
    deterministic composer weighing ``meaning`` and the question's terms by ``weights`` when given)."""
    exclusions = _exclusion_counts(gated)
    violations = tuple(f"{v.kind.value}: {v.detail}" for v in ranking.violations)
    common: dict[str, Any] = {
        "run_id": run_id,
        "question": question,
        "mode": settings.mode,
        "exclusions": exclusions,
        "ranking_violations": violations,
        "version_notes": _cited_notes(gated, evidence),
    }
    if not evidence:
        text = _no_evidence_text(exclusions, len(gated.decisions))
        return _shadowed(AskResult(outcome=AskOutcome.NO_ELIGIBLE_EVIDENCE, text=text, **common), settings)
    triaged = clarify_or_handoff(store, question, plan, evidence, settings.handoff_target, named)
    if triaged is not None:
        outcome, text, options, gap = triaged
        result = AskResult(outcome=outcome, text=text, evidence=evidence, options=options, gap=gap, **common)
        return _shadowed(result, settings)
    pairs = frozenset((r.doc_id, r.section_id) for r in named.refs) if named else frozenset()
    outcome, composed, provenance = _compose(question, evidence, settings, meaning, pairs, weights)
    if outcome is AskOutcome.HANDOFF:
        gap = "the model judged that the eligible evidence does not answer the question"
        text = f"The eligible evidence does not answer this question ({gap}). Handed off to {settings.handoff_target}."
        result = AskResult(outcome=outcome, text=text, evidence=evidence, provenance=provenance, gap=gap, **common)
        return _shadowed(result, settings)
    result = AskResult(
        outcome=outcome,
        text=composed.text,
        citations=composed.citations,
        evidence=evidence,
        provenance=provenance,
        **common,
    )
    return _shadowed(result, settings)


def _cited_notes(gated: GateOutcome, evidence: Sequence[Evidence]) -> tuple[VersionNote, ...]:
    """The gate's version notes about the documents the composer is offered."""
    offered = {e.doc_id for e in evidence}
    return tuple(n for n in gated.version_notes if n.doc_id in offered)


def _shadowed(result: AskResult, settings: AskSettings) -> AskResult:
    """In shadow mode the existing answer goes back unchanged; the new path is only compared."""
    if settings.mode != "shadow":
        return result
    from dataclasses import replace

    comparison = ShadowComparison(
        existing_answer=settings.existing_answer or "",
        new_outcome=result.outcome,
        new_answer=result.text,
        new_evidence=tuple(f"{e.doc_id}@{e.version}:{e.section_id}" for e in result.evidence),
    )
    return replace(result, text=settings.existing_answer or "", shadow=comparison)


def record_run(runs: RunStore, result: AskResult, gated: GateOutcome, ranking: RankingOutcome) -> None:
    """Record what the user was given, with retrieval and answer provenance kept apart, and close the run."""
    runs.append(
        result.run_id,
        AnswerGiven(
            outcome=result.outcome,
            text=result.text,
            provenance=result.provenance,
            evidence=tuple(EvidenceRef(e.evidence_id, e.doc_id, e.version, e.section_id) for e in result.evidence),
            citations=result.citations,
            options=result.options,
            gap=result.gap,
            gated_on=gated.on,
            candidates=len(gated.decisions),
            eligible=tuple(str(c.ref) for c in gated.eligible),
            exclusions=dict(result.exclusions),
            ranker=ranking.ranker,
            ranking_accepted=ranking.accepted,
            ranking_violations=result.ranking_violations,
            shadow=result.shadow,
            removed=result.removed,
            version_notes=result.version_notes,
        ),
    )
    runs.finish(result.run_id, status=RunStatus.FINISHED, outcome=result.outcome)
