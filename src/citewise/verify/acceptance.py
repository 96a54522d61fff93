"""The acceptance decision: a recorded judgement on a report, separate from "the loop finished".

A report is accepted when (SPEC 5.6):

1. its required sub-questions are resolved or explicitly listed as gaps (a research report whose body
   was validated always lists every uncovered topic under "Gaps and limitations"; an ask answer is a
   composed answer, not a clarification, handoff or "no eligible evidence");
2. its key claims are supported: every factual claim of the ledger is ``supported`` (recommendations
   and inferences are labelled, not required to be);
3. its citations are traceable: every cited id names a stored source;
4. no material conflict is left unexplained: every conflict found was resolved by a reviewer.
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.audit.events import AnswerGiven, ReportMade
from citewise.records.research import ReportStatus
from citewise.records.runs import RunKind
from citewise.records.verify import Acceptance, ClaimKind, Decision, LedgerEntry
from citewise.store.runs import RunRecord

__all__ = ["VERIFIER_VERSION", "decide_acceptance", "delivered_answer"]

VERIFIER_VERSION = "verify-1"

_ANSWERED = {"model_answer_accepted", "deterministic_evidence_fallback"}


def delivered_answer(record: RunRecord) -> tuple[bool, str]:
    """Whether the run delivered an answer to verify, and what it ended in."""
    if record.kind is RunKind.RESEARCH:
        report = record.last(ReportMade)
        status = report.status.value if report else "none"
        return report is not None and report.status is ReportStatus.REPORT, status
    answer = record.last(AnswerGiven)
    outcome = answer.outcome.value if answer else str(record.outcome)
    return answer is not None and outcome in _ANSWERED, outcome


def decide_acceptance(
    kind: str,
    answered: bool,
    entries: Sequence[LedgerEntry],
    unresolved_conflicts: int,
    decided_by: str = "citewise",
    ended_in: str = "",
) -> Acceptance:
    """Accept or reject a report (``kind`` research or ask; ``answered`` False when no validated report
    or answer was delivered, ``ended_in`` saying what it ended in instead), with every reason."""
    reasons: list[str] = []
    if kind == "research" and not answered:
        reasons.append(f"no validated report (status {ended_in or 'none'})")
    if kind == "ask" and not answered:
        reasons.append(f"the ask ended in {ended_in or 'no answer'}, not an answer")
    facts = [e for e in entries if e.claim.kind is ClaimKind.FACT]
    if not facts and not reasons:
        reasons.append("the report makes no factual claim that could be verified")
    unsupported = [e.claim.claim_id for e in facts if e.decision is not Decision.SUPPORTED]
    if unsupported:
        reasons.append(f"factual claims not supported: {', '.join(unsupported)}")
    untraceable = [e.claim.claim_id for e in entries for c in e.checks if not c.traceable]
    if untraceable:
        reasons.append(f"claims citing no stored source: {', '.join(sorted(set(untraceable)))}")
    if unresolved_conflicts:
        reasons.append(f"{unresolved_conflicts} material conflict(s) left unexplained")
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.decision.value] = counts.get(e.decision.value, 0) + 1
    accepted = not reasons
    return Acceptance(
        accepted=accepted,
        reasons=tuple(reasons) or ("every criterion met",),
        verifier_version=VERIFIER_VERSION,
        decided_by=decided_by,
        counts=counts,
    )
