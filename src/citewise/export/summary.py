"""A recorded run in brief: what was delivered, whether it was accepted and why, the claim ledger in
counts, the gaps left and the errors met — read from the run's typed events alone.

::

    summary = summarise(RunStore(store).get(run_id))
    summary.accepted, summary.ledger, summary.gaps, summary.errors

``citewise runs show`` renders it; the MCP server's ``get_run`` returns it as data.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from citewise.audit.events import (
    AnswerGiven,
    AttemptEnded,
    AttemptInterrupted,
    ClaimReviewed,
    ReportMade,
    ReviewMade,
    RunFailed,
    SourceStored,
    Verified,
)
from citewise.records.research import CoverageStatus
from citewise.records.runs import RunKind
from citewise.records.verify import Gap as DeliveredGap
from citewise.records.verify import GapReason
from citewise.store.runs import RunRecord

__all__ = ["AttemptFailures", "Gap", "RunSummary", "delivered_gaps", "reads_review_gaps", "summarise"]


@dataclass(frozen=True, slots=True)
class Gap:
    """A required sub-question the delivered text does not answer (or, for runs verified before
    gaps were read from the delivered text, one the last coverage review did not find covered)."""

    topic: str
    """The sub-question."""
    status: GapReason | CoverageStatus
    """Why it is a gap: not found, not verified, not answered (or the review's weak, missing, conflicting)."""
    gap: str | None
    """What is missing, as the review said."""


@dataclass(frozen=True, slots=True)
class AttemptFailures:
    """Failed searches or extractions of one kind and error, counted."""

    attempt_kind: str
    """``search`` or ``extract``."""
    error_kind: str
    """The error kind (``timeout``, ``extract_failed`` ...)."""
    count: int
    """How many attempts failed so."""
    example: str
    """One target (query or URL) that failed so."""


@dataclass(frozen=True, slots=True)
class RunSummary:
    """A run in brief (see the module docstring)."""

    run_id: str
    """The run."""
    kind: str
    """``ask`` or ``research``."""
    status: str
    """Running, finished, failed or interrupted."""
    question: str
    """The question."""
    outcome: str | None
    """The recorded outcome."""
    text: str | None
    """What the reader got: the report's Markdown, or the answer's text; None when nothing was delivered."""
    accepted: bool | None
    """The latest verification's decision; None when the run was not verified."""
    reasons: tuple[str, ...]
    """Why it was (not) accepted."""
    decided_by: str | None
    """``citewise`` or the person who overrode the decision."""
    ledger: dict[str, int]
    """Claims by decision (supported, unsupported, conflicting, unreviewed)."""
    conflicts: int
    """Conflicts the verification found."""
    claim_reviews: int
    """Decisions people recorded on claims."""
    sources: int
    """Sources stored (research) or evidence offered (ask)."""
    stop_reason: str | None
    """Why a research loop stopped."""
    usage: dict[str, str]
    """Budget used (research): rounds, searches, extractions, tokens."""
    gaps: tuple[Gap, ...]
    """Sub-questions left weak, missing or conflicting by the last review."""
    failures: tuple[AttemptFailures, ...]
    """Failed searches and extractions, by kind and error."""
    errors: tuple[str, ...]
    """The run's error (if it failed) and the problems its report recorded."""


def summarise(record: RunRecord) -> RunSummary:
    """The summary of ``record`` (a run with its events, as :meth:`RunStore.get` returns it)."""
    report, answer, verified = record.last(ReportMade), record.last(AnswerGiven), record.last(Verified)
    ledger = Counter(entry.decision.value for entry in verified.entries) if verified is not None else Counter()
    return RunSummary(
        run_id=record.run_id,
        kind=record.kind,
        status=record.status.value,
        question=record.question,
        outcome=record.outcome,
        text=report.markdown if report is not None else answer.text if answer is not None else None,
        accepted=verified.acceptance.accepted if verified is not None else None,
        reasons=verified.acceptance.reasons if verified is not None else (),
        decided_by=verified.acceptance.decided_by if verified is not None else None,
        ledger=dict(sorted(ledger.items())),
        conflicts=len(verified.conflicts) if verified is not None else 0,
        claim_reviews=len(record.of(ClaimReviewed)),
        sources=len(record.of(SourceStored))
        if record.kind is RunKind.RESEARCH
        else len(answer.evidence if answer else ()),
        stop_reason=report.stop_reason.value if report is not None else None,
        usage=_usage(report),
        gaps=_gaps(record),
        failures=_failures(record),
        errors=_errors(record, report),
    )


def _usage(report: ReportMade | None) -> dict[str, str]:
    if report is None:
        return {}
    u = report.usage
    return {"rounds": u.rounds, "searches": u.searches, "extractions": u.extractions, "tokens": str(u.tokens)}


def _gaps(record: RunRecord) -> tuple[Gap, ...]:
    delivered = delivered_gaps(record)
    if delivered is not None:
        return tuple(Gap(g.topic, g.reason, g.missing) for g in delivered)
    review = record.last(ReviewMade)
    if review is None:
        return ()
    items = review.review.items
    return tuple(Gap(i.topic, i.status, i.gap) for i in items if i.status is not CoverageStatus.COVERED)


def delivered_gaps(record: RunRecord) -> tuple[DeliveredGap, ...] | None:
    """The gaps acceptance found in the delivered text, or None for a run verified before gaps were
    read from the delivered text (``verify-1``) or not verified at all."""
    verified = record.last(Verified)
    if verified is None or reads_review_gaps(verified.acceptance.verifier_version):
        return None
    return verified.acceptance.gaps


_FIRST_RULE_SET = re.compile(r"verify-1(?![0-9])")


def reads_review_gaps(verifier_version: str) -> bool:
    """Whether a run verified under ``verifier_version`` took its gaps from the coverage review
    (rule set ``verify-1``, with or without a judge or ``-lexical``) rather than from the delivered
    text; ``verify-10`` and later are not ``verify-1``.

    >>> [reads_review_gaps(v) for v in ("verify-1", "verify-1+judge:gpt-4o", "verify-10", "verify-10-lexical")]
    [True, True, False, False]
    """
    return _FIRST_RULE_SET.match(verifier_version) is not None


def _failures(record: RunRecord) -> tuple[AttemptFailures, ...]:
    counted: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], str] = {}
    for attempt in (e.attempt for e in record.of(AttemptEnded) if not e.attempt.ok):
        error = attempt.error_kind.value if attempt.error_kind is not None else (attempt.error_type or "error")
        key = (attempt.kind.value, error)
        counted[key] += 1
        examples.setdefault(key, attempt.target)
    for e in record.of(AttemptInterrupted):  # its budget was spent and its result never recorded
        key = (e.attempt_kind.value, "interrupted")
        counted[key] += 1
        examples.setdefault(key, e.target)
    return tuple(AttemptFailures(kind, error, n, examples[(kind, error)]) for (kind, error), n in counted.items())


def _errors(record: RunRecord, report: ReportMade | None) -> tuple[str, ...]:
    errors = [f"{failed.error}: {failed.message}" for failed in record.of(RunFailed)]
    if report is not None:
        errors += list(report.problems)
    return tuple(errors)
