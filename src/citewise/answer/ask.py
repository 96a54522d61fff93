"""``citewise ask``: retrieve, gate, rank, triage, compose — and record which path answered.

The flow::

    question -> local search (+ the plan's exact pairs) -> eligibility gate -> ranker (reorder only)
      -> no eligible evidence | clarification | handoff | compose (model, else deterministic)

Every ask is a run in the audit store: retrieval provenance (plan, candidates, decisions, ranking,
violations) and answer provenance (path, model, prompt version, fallback reason) are stored apart.
In **shadow** mode the existing answer is returned unchanged and the comparison is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from citewise.answer.compose import answer_from_evidence, record_run
from citewise.answer.deterministic import AnswerRanker, store_weights
from citewise.answer.meaning import SentenceMeaning
from citewise.answer.provisions import NamedProvisions, named_first, resolve_named
from citewise.answer.question import analyse_question
from citewise.answer.result import AskResult, AskSettings
from citewise.answer.verified import verify_answer
from citewise.audit.events import (
    AskPlanned,
    CandidateRef,
    CandidatesRetrieved,
    GateDecided,
    GateVerdict,
    Ranked,
    RankViolation,
    Verified,
)
from citewise.evidence.gate import EligibilityDecision, gate
from citewise.evidence.plan import RetrievalPlan
from citewise.evidence.rank import RankingOutcome, apply_ranker
from citewise.records.answer import Evidence, ReadingUsed
from citewise.records.gate import Candidate, SourceRef
from citewise.records.runs import RunKind
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.text.articles import strip_deleted_parts

__all__ = ["ask"]


def _evidence(candidates: Sequence[Candidate]) -> tuple[Evidence, ...]:
    return tuple(
        Evidence(
            evidence_id=f"E{i}",
            doc_id=c.section.doc_id,
            version=c.section.version,
            section_id=c.section.section_id,
            title=c.document.title,
            heading=c.section.heading,
            text=strip_deleted_parts(c.section.text),
            content_hash=c.section.content_hash,
            origin_url=c.document.provenance.origin_url,
            kind=c.section.kind,
        )
        for i, c in enumerate(candidates, start=1)
    )


def _retrieve(store: EvidenceStore, question: str, plan: RetrievalPlan, k: int, named: NamedProvisions) -> list[Any]:
    hits = named_first(search(store, question, k), named)
    seen = {(h.doc_id, h.section_id) for h in hits}
    # Sections the plan names exactly are candidates even if the search did not rank them.
    extra: list[Any] = []
    for doc_id, section_id in sorted(plan.pairs):
        if (doc_id, section_id) not in seen:
            for v in store.versions(doc_id):
                extra.append(SourceRef(doc_id, v.version, section_id))
    return [*hits, *extra]


def ask(store: EvidenceStore, question: str, plan: RetrievalPlan, settings: AskSettings | None = None) -> AskResult:
    """Answer ``question`` from eligible evidence only, and record the run."""
    settings = settings or AskSettings()
    runs = RunStore(store)
    run_id = runs.create(RunKind.ASK, question, settings.mode)
    runs.append(run_id, _planned(plan))
    named = resolve_named(store, question)
    items = _retrieve(store, question, plan, settings.candidates, named)
    runs.append(run_id, CandidatesRetrieved(tuple(_item_ref(i) for i in items)))
    gated = gate(store, plan, items, today=settings.today)
    runs.append(run_id, GateDecided(gated.on, tuple(_decision(d) for d in gated.decisions)))
    meaning = SentenceMeaning.for_store(store, question) if gated.eligible else None
    ranker = settings.ranker or AnswerRanker(frozenset((r.doc_id, r.section_id) for r in named.refs), meaning)
    ranking = apply_ranker(ranker, question, gated.eligible)
    runs.append(run_id, _ranked(ranking))
    evidence = _evidence(ranking.candidates[: settings.evidence])
    weights = store_weights(store, question) if evidence else None
    result = answer_from_evidence(
        store, question, plan, settings, run_id, gated, ranking, evidence, named, meaning, weights
    )
    result, delivery = verify_answer(result, settings, meaning, weights)
    result = _with_readings(result)
    record_run(runs, result, gated, ranking)
    if delivery is not None:
        acceptance = delivery.acceptance
        runs.append(run_id, Verified(acceptance.verifier_version, delivery.entries, delivery.conflicts, acceptance))
    return result


def _with_readings(result: AskResult) -> AskResult:
    """The result with the question's everyday words read as the statute's in its answer provenance."""
    readings = tuple(ReadingUsed(r.lay, r.statute) for r in analyse_question(result.question).readings)
    return replace(result, provenance=replace(result.provenance, readings=readings)) if readings else result


def _planned(plan: RetrievalPlan) -> AskPlanned:
    return AskPlanned(
        pairs=tuple(f"{doc}:{section}" for doc, section in sorted(plan.pairs)),
        docs=tuple(sorted(plan.docs)),
        origins=plan.origins,
        required_uses=plan.required_uses,
        as_of=plan.as_of,
        approval_required=plan.approval_required,
        rules=plan.rules,
    )


def _item_ref(item: Any) -> CandidateRef:
    if isinstance(item, SourceRef):
        return CandidateRef(item.doc_id, item.version, item.section_id)
    return CandidateRef(item.doc_id, item.version, item.section_id, item.score)


def _decision(d: EligibilityDecision) -> GateVerdict:
    duplicates = tuple(str(x) for x in (d.candidate.duplicates if d.candidate else ()))
    return GateVerdict(str(d.ref), d.eligible, tuple(d.reasons), duplicates)


def _ranked(ranking: RankingOutcome) -> Ranked:
    return Ranked(
        ranker=ranking.ranker,
        accepted=ranking.accepted,
        order=tuple(str(c.ref) for c in ranking.candidates),
        violations=tuple(RankViolation(v.kind.value, v.detail) for v in ranking.violations),
    )
