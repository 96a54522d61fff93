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
from typing import Any

from citewise.answer.compose import answer_from_evidence, record_run
from citewise.answer.deterministic import strip_deleted_parts
from citewise.answer.records import Evidence
from citewise.answer.result import AskResult, AskSettings
from citewise.evidence.gate import gate
from citewise.evidence.plan import RetrievalPlan
from citewise.evidence.rank import RankingOutcome, apply_ranker
from citewise.evidence.rules import Candidate, SourceRef
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore

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
        )
        for i, c in enumerate(candidates, start=1)
    )


def _retrieve(store: EvidenceStore, question: str, plan: RetrievalPlan, k: int) -> list[Any]:
    hits = search(store, question, k)
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
    run_id = runs.create("ask", question, settings.mode)
    runs.append(run_id, "plan", plan.describe())
    items = _retrieve(store, question, plan, settings.candidates)
    runs.append(run_id, "retrieve", {"candidates": [_item_ref(i) for i in items]})
    gated = gate(store, plan, items, today=settings.today)
    runs.append(run_id, "gate", {"on": gated.on.isoformat(), "decisions": [_decision(d) for d in gated.decisions]})
    ranking = apply_ranker(settings.ranker, question, gated.eligible)
    runs.append(run_id, "rank", _ranking_record(ranking))
    evidence = _evidence(ranking.candidates[: settings.evidence])
    result = answer_from_evidence(store, question, plan, settings, run_id, gated, ranking, evidence)
    record_run(runs, result, gated, ranking)
    return result


def _item_ref(item: Any) -> str:
    if isinstance(item, SourceRef):
        return f"{item} (plan pair)"
    return f"{item.doc_id}@{item.version}:{item.section_id} score={item.score}"


def _decision(d: Any) -> dict[str, Any]:
    return {
        "ref": str(d.ref),
        "eligible": d.eligible,
        "reasons": [{"reason": r.reason.value, "detail": r.detail} for r in d.reasons],
        "duplicates": [str(x) for x in (d.candidate.duplicates if d.candidate else ())],
    }


def _ranking_record(ranking: RankingOutcome) -> dict[str, Any]:
    return {
        "ranker": ranking.ranker,
        "accepted": ranking.accepted,
        "order": [str(c.ref) for c in ranking.candidates],
        "violations": [{"kind": v.kind.value, "detail": v.detail} for v in ranking.violations],
    }
