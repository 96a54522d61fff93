"""What a run record is: which command made it, and the outcome it closed with, as types.

The store keeps both as text columns; these types are what every reader gets back, so nothing compares
``"research"`` or ``"report"`` strings.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

from citewise.records.answer import AskOutcome
from citewise.records.research import ReportStatus

__all__ = ["RunKind", "RunOutcome", "run_outcome"]


class RunKind(enum.StrEnum):
    """Which command a run record belongs to. A ``StrEnum``: it renders as its value in text."""

    RESEARCH = "research"  #: ``citewise research`` (the loop or a native engine)
    ASK = "ask"  #: ``citewise ask`` (document-grounded answer)


RunOutcome: TypeAlias = ReportStatus | AskOutcome
"""A research run closes with what the loop delivered; an ask run with its answer's outcome."""


def run_outcome(kind: RunKind, value: str | None) -> RunOutcome | None:
    """The typed outcome of a run of ``kind`` stored as ``value`` (None: the run has not closed).

    >>> run_outcome(RunKind.RESEARCH, "report")
    <ReportStatus.REPORT: 'report'>
    >>> run_outcome(RunKind.ASK, "no_eligible_evidence")
    <AskOutcome.NO_ELIGIBLE_EVIDENCE: 'no_eligible_evidence'>
    """
    if value is None:
        return None
    return ReportStatus(value) if kind is RunKind.RESEARCH else AskOutcome(value)
