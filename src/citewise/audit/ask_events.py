"""Events of an ``ask`` run: the plan, the candidates, the gate, the ranking and the answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from citewise.audit.event_kinds import Event, EventKind
from citewise.records.answer import (
    AnswerProvenance,
    AskOutcome,
    Citation,
    ClarificationOption,
    ShadowComparison,
)
from citewise.records.gate import Exclusion
from citewise.records.verify import Finding
from citewise.records.versions import VersionNote

__all__ = [
    "AnswerGiven",
    "AskPlanned",
    "CandidateRef",
    "CandidatesRetrieved",
    "EvidenceRef",
    "GateDecided",
    "GateVerdict",
    "RankViolation",
    "Ranked",
]


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
