"""Verifying a recorded run: build its claim ledger, find conflicts, decide acceptance, and append all
of it to the run as a :class:`~citewise.audit.events.Verified` event — and let a person override claim
decisions (a :class:`~citewise.audit.events.ClaimReviewed` event: who, why, and when), which can
change acceptance. Nothing an earlier stage recorded is rewritten."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from citewise.audit.events import ClaimReviewed, PlanMade, ReviewMade, Verified
from citewise.errors import InputError, NotFoundError
from citewise.records.verify import Acceptance, Decision, Gap, LedgerEntry
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.verify.acceptance import decide_acceptance, delivered_answer
from citewise.verify.answers import map_answers, required_topics
from citewise.verify.conflicts import Conflict
from citewise.verify.delivery import conflicts_of
from citewise.verify.ledger import Judge, build_ledger, cited_texts, report_text

__all__ = ["Verification", "model_judge", "review_claim", "verify_run"]


@dataclass(frozen=True)
class Verification:
    """The result of verifying one run."""

    run_id: str
    """The run."""
    entries: tuple[LedgerEntry, ...]
    """The claim ledger."""
    conflicts: tuple[Conflict, ...]
    """Conflicts between claims/sources, shown side by side, never averaged."""
    acceptance: Acceptance
    """The recorded decision."""
    verifier_version: str
    """Version of the verifier."""


def _overrides(record: RunRecord) -> dict[str, tuple[str, str, str]]:
    """The latest reviewer decision on each claim."""
    return {r.claim_id: (r.decision.value, r.reviewer, r.reason) for r in record.of(ClaimReviewed)}


def model_judge(client: Any, model: str) -> Judge:
    """A :data:`Judge` that asks ``model`` (strict JSON) whether the span supports the claim."""
    from citewise.verify.support import judge_with_model

    def judge(claim: Any, check: Any, page_text: str) -> Any:
        return judge_with_model(client, model, claim, check.span, page_text=page_text, source_id=check.source_id)

    return judge


def verify_run(
    store: EvidenceStore, run_id: str, judge: Judge | None = None, judge_name: str | None = None
) -> Verification:
    """Build and persist the ledger and acceptance of ``run_id`` (re-running adds a new ledger row).

    ``judge`` adds a model's second opinion on deterministically supported claims (it can only make
    a verdict stricter); ``judge_name`` is recorded in the verifier version."""
    runs = RunStore(store)
    record = runs.get(run_id)
    texts = cited_texts(store, record)
    overrides = _overrides(record)
    entries = build_ledger(record, texts, overrides, judge)
    gaps: tuple[Gap, ...] = ()
    plan = record.last(PlanMade)
    if record.kind == "research" and plan is not None:
        review = record.last(ReviewMade)
        topics = required_topics(plan.plan.topics, review.review if review is not None else None)
        entries, gaps = map_answers(report_text(record), entries, topics)
    conflicts = conflicts_of(entries, texts)
    reviewed = {cid for cid in overrides}
    unresolved = [c for c in conflicts if not c.resolved and not _resolved(c, reviewed)]
    reviewers = sorted({o[1] for o in overrides.values()})
    answered, ended_in = delivered_answer(record)
    decided_by = ("citewise + " + ", ".join(reviewers)) if reviewers else "citewise"
    acceptance = decide_acceptance(record.kind, answered, entries, len(unresolved), decided_by, ended_in, gaps)
    if judge_name:
        acceptance = replace(acceptance, verifier_version=f"{acceptance.verifier_version}+judge:{judge_name}")
    runs.append(run_id, Verified(acceptance.verifier_version, tuple(entries), tuple(conflicts), acceptance))
    return Verification(run_id, tuple(entries), tuple(conflicts), acceptance, acceptance.verifier_version)


def _resolved(conflict: Conflict, reviewed: set[str]) -> bool:
    """A conflict is explained once a reviewer decided on both claims it involves."""
    return {conflict.first.claim_id, conflict.second.claim_id} <= reviewed


def review_claim(
    store: EvidenceStore, run_id: str, claim_id: str, decision: str, *, reviewer: str, reason: str
) -> Verification:
    """Record a person's decision on one claim, then re-verify (acceptance may change)."""
    if not reviewer.strip() or not reason.strip():
        raise InputError("a claim review needs --reviewer NAME and --reason TEXT")
    try:
        chosen = Decision(decision)
    except ValueError:
        valid = ", ".join(d.value for d in Decision)
        raise InputError(f"unknown decision {decision!r}; valid: {valid}") from None
    record = RunStore(store).get(run_id)
    known = {e.claim.claim_id for e in build_ledger(record, cited_texts(store, record))}
    if claim_id not in known:
        raise NotFoundError(f"run {run_id} has no claim {claim_id!r}; it has {', '.join(sorted(known)) or 'none'}")
    RunStore(store).append(run_id, ClaimReviewed(claim_id, chosen, reviewer.strip(), reason.strip()))
    return verify_run(store, run_id)
