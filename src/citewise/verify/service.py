"""Verifying a recorded run: build its claim ledger, find conflicts, decide acceptance, persist all
of it — and let a person override claim decisions (who, when, why), which can change acceptance."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

import sqlalchemy as sa

from citewise.errors import InputError, NotFoundError
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.runs import RunStore
from citewise.store.schema import claim_ledgers, claim_reviews, runs
from citewise.verify.acceptance import decide_acceptance
from citewise.verify.conflicts import Conflict, find_conflicts
from citewise.verify.ledger import Judge, build_ledger, cited_texts, entry_json
from citewise.verify.records import Acceptance, Decision, LedgerEntry

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


def _overrides(store: EvidenceStore, run_id: str) -> dict[str, tuple[str, str, str]]:
    query = sa.select(claim_reviews).where(claim_reviews.c.run_id == run_id).order_by(claim_reviews.c.id)
    with store.engine.connect() as conn:
        return {r.claim_id: (r.decision, r.reviewer, r.reason) for r in conn.execute(query)}


def _conflicts(entries: list[LedgerEntry]) -> list[Conflict]:
    return find_conflicts([(e.claim, e.checks) for e in entries])


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
    record = RunStore(store).get(run_id)
    texts = cited_texts(store, record)
    overrides = _overrides(store, run_id)
    entries = build_ledger(record, texts, overrides, judge)
    conflicts = _conflicts(entries)
    reviewed = {cid for cid in overrides}
    unresolved = [c for c in conflicts if not _resolved(c, reviewed)]
    reviewers = sorted({o[1] for o in overrides.values()})
    acceptance = decide_acceptance(
        record, entries, len(unresolved), decided_by=("citewise + " + ", ".join(reviewers)) if reviewers else "citewise"
    )
    if judge_name:
        acceptance = replace(acceptance, verifier_version=f"{acceptance.verifier_version}+judge:{judge_name}")
    _persist(store, run_id, entries, conflicts, acceptance)
    return Verification(run_id, tuple(entries), tuple(conflicts), acceptance, acceptance.verifier_version)


def _resolved(conflict: Conflict, reviewed: set[str]) -> bool:
    """A conflict is explained once a reviewer decided on both claims it involves."""
    return {conflict.first.claim_id, conflict.second.claim_id} <= reviewed


def _persist(
    store: EvidenceStore, run_id: str, entries: list[LedgerEntry], conflicts: list[Conflict], acceptance: Acceptance
) -> None:
    accepted = asdict(acceptance)
    with store.transaction() as conn:
        conn.execute(
            sa.insert(claim_ledgers).values(
                run_id=run_id,
                verifier_version=acceptance.verifier_version,
                created_at=utcnow().isoformat(),
                entries_json=json.dumps([entry_json(e) for e in entries], ensure_ascii=False, default=str),
                conflicts_json=json.dumps([asdict(c) for c in conflicts], ensure_ascii=False, default=str),
                acceptance_json=json.dumps(accepted, ensure_ascii=False),
            )
        )
        row = conn.execute(sa.select(runs.c.result_json).where(runs.c.id == run_id)).scalar_one()
        result = json.loads(row)
        result["acceptance"] = {**accepted, "decided_at": utcnow().isoformat()}
        result["ledger"] = [entry_json(e) for e in entries]
        conn.execute(
            sa.update(runs).where(runs.c.id == run_id).values(result_json=json.dumps(result, ensure_ascii=False))
        )


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
    with store.transaction() as conn:
        conn.execute(
            sa.insert(claim_reviews).values(
                run_id=run_id,
                claim_id=claim_id,
                decision=chosen.value,
                reviewer=reviewer.strip(),
                reason=reason.strip(),
                decided_at=utcnow().isoformat(),
            )
        )
    return verify_run(store, run_id)
