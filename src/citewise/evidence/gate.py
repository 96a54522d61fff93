"""The eligibility gate: every candidate is checked against the plan before anything ranks it (SPEC 3.3).

Search flags, it never filters; the gate decides. It reloads each candidate from the store (the
flags on a :class:`~citewise.records.SearchHit` are not trusted), runs the plan's rules from
:data:`~citewise.evidence.rules.RULES`, then collapses duplicates among the eligible. Every
candidate gets an :class:`EligibilityDecision`; every exclusion carries its reasons. Similarity
orders eligible evidence afterwards; it never makes ineligible evidence eligible.

Example::

    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001248:제2조"])
    outcome = gate(store, plan, search(store, "주택 임대차 적용 범위", k=20))
    outcome.eligible      # candidates, in search order
    outcome.excluded      # decisions with reasons
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from citewise.errors import NotFoundError
from citewise.evidence.dedupe import collapse_duplicates
from citewise.evidence.plan import RetrievalPlan
from citewise.evidence.rules import RULES, GateContext
from citewise.records import DocumentVersion, SearchHit, Section
from citewise.records.gate import Candidate, Exclusion, ExclusionReason, SourceRef
from citewise.records.versions import VersionNote, version_notes
from citewise.store.evidence import EvidenceStore

__all__ = ["EligibilityDecision", "GateOutcome", "evaluate", "gate", "load_candidates"]


@dataclass(frozen=True, slots=True)
class EligibilityDecision:
    """The gate's verdict on one candidate."""

    ref: SourceRef
    """Which passage (document, version, section, content hash) was judged."""
    eligible: bool
    """True when no rule excluded it and it was not collapsed into another passage."""
    reasons: tuple[Exclusion, ...] = ()
    """Every reason it was excluded (empty when eligible)."""
    candidate: Candidate | None = None
    """The candidate as loaded from the store; None when its identity could not be established."""


@dataclass(frozen=True, slots=True)
class GateOutcome:
    """The result of gating one candidate set."""

    plan: RetrievalPlan
    """The plan that was applied."""
    on: date
    """The date versions were judged in force on (the plan's ``as_of``, or today)."""
    decisions: tuple[EligibilityDecision, ...]
    """One decision per candidate, in the order the candidates were given."""
    eligible: tuple[Candidate, ...]
    """Eligible candidates in the given order, each carrying the duplicates collapsed into it."""
    version_notes: tuple[VersionNote, ...] = ()
    """For the documents of the eligible candidates: an approved version that takes effect after
    ``on``, or an eligible text not yet in force on ``on`` (see :mod:`citewise.records.versions`)."""

    @property
    def excluded(self) -> tuple[EligibilityDecision, ...]:
        """The decisions that exclude."""
        return tuple(d for d in self.decisions if not d.eligible)

    def decision_for(self, doc_id: str, section_id: str, version: int | None = None) -> EligibilityDecision:
        """The decision about one section (the first one, when several versions were judged)."""
        for d in self.decisions:
            if (d.ref.doc_id, d.ref.section_id) == (doc_id, section_id) and version in (None, d.ref.version):
                return d
        raise NotFoundError(f"no candidate {doc_id}:{section_id} was gated")


class _Loader:
    """Store look-ups for one gate run, cached per document and per version."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store
        self.versions: dict[str, tuple[DocumentVersion, ...]] = {}
        self._sections: dict[tuple[str, int], dict[str, Section]] = {}

    def document_versions(self, doc_id: str) -> tuple[DocumentVersion, ...]:
        if doc_id not in self.versions:
            self.versions[doc_id] = tuple(self.store.versions(doc_id))
        return self.versions[doc_id]

    def sections(self, doc_id: str, version: int) -> dict[str, Section]:
        key = (doc_id, version)
        if key not in self._sections:
            self._sections[key] = {s.section_id: s for s in self.store.sections(doc_id, version)}
        return self._sections[key]

    def load(self, claimed: SourceRef, score: float, rank: int) -> Candidate | EligibilityDecision:
        """The stored candidate, or an identity exclusion saying what does not exist as claimed."""
        versions = {v.version: v for v in self.document_versions(claimed.doc_id)}
        problem = None
        if not versions:
            problem = f"no document {claimed.doc_id!r} in the store"
        elif claimed.version not in versions:
            problem = f"{claimed.doc_id} has no version {claimed.version} (it has {sorted(versions)})"
        else:
            section = self.sections(claimed.doc_id, claimed.version).get(claimed.section_id)
            if section is None:
                problem = f"{claimed.doc_id}@{claimed.version} has no section {claimed.section_id!r}"
            elif claimed.content_hash is not None and claimed.content_hash != section.content_hash:
                problem = (
                    f"{claimed} claims hash {claimed.content_hash} but the stored section has {section.content_hash}"
                )
            else:
                return Candidate(versions[claimed.version], section, score=score, search_rank=rank)
        return EligibilityDecision(claimed, False, (Exclusion(ExclusionReason.IDENTITY, problem),))


def load_candidates(
    store: EvidenceStore, items: Sequence[SearchHit | SourceRef]
) -> tuple[list[Candidate | EligibilityDecision], dict[str, tuple[DocumentVersion, ...]]]:
    """Load each item from the store: a candidate, or an identity exclusion.

    A search hit stands for every version it collapsed (``also_in_versions``): each version is a
    candidate of its own, so the version policy can pick the one in force.
    """
    loader = _Loader(store)
    loaded: list[Candidate | EligibilityDecision] = []
    for item in items:
        if isinstance(item, SourceRef):
            loaded.append(loader.load(item, 0.0, 0))
            continue
        for version in (item.version, *item.also_in_versions):
            claimed = SourceRef(item.doc_id, version, item.section_id, item.content_hash)
            loaded.append(loader.load(claimed, item.score, item.rank))
    return loaded, loader.versions


def evaluate(
    plan: RetrievalPlan,
    loaded: Sequence[Candidate | EligibilityDecision],
    *,
    today: date,
    versions: Mapping[str, tuple[DocumentVersion, ...]],
) -> GateOutcome:
    """Run the plan's rules over loaded candidates, then collapse duplicates among the eligible."""
    context = GateContext(plan, today, versions)
    rules = [RULES[name] for name in plan.rules]
    verdicts: list[EligibilityDecision] = []
    for item in loaded:
        if isinstance(item, EligibilityDecision):
            verdicts.append(item)
            continue
        reasons = tuple(exclusion for rule in rules for exclusion in rule(item, context))
        verdicts.append(EligibilityDecision(item.ref, not reasons, reasons, item))
    passing = [d.candidate for d in verdicts if d.eligible and d.candidate is not None]
    kept, collapsed = collapse_duplicates(passing, plan.near_duplicate_threshold)
    dropped = {id(c.dropped): c.exclusion for c in collapsed}
    # kept is in the order of the survivors, so the two line up one to one.
    survivors = {id(c): k for c, k in zip((c for c in passing if id(c) not in dropped), kept, strict=True)}
    final = []
    for d in verdicts:
        if d.candidate is not None and id(d.candidate) in dropped:
            d = EligibilityDecision(d.ref, False, (dropped[id(d.candidate)],), d.candidate)
        elif d.candidate is not None and id(d.candidate) in survivors:
            d = EligibilityDecision(d.ref, True, (), survivors[id(d.candidate)])
        final.append(d)
    on = plan.as_of or today
    notes = version_notes(versions, (c.document.doc_id for c in kept), on) if "version" in plan.rules else ()
    return GateOutcome(plan, on, tuple(final), tuple(kept), notes)


def gate(
    store: EvidenceStore,
    plan: RetrievalPlan,
    items: Sequence[SearchHit | SourceRef],
    *,
    today: date | None = None,
) -> GateOutcome:
    """Decide the eligibility of search hits (or exact refs) under ``plan``; ``today`` defaults to now."""
    loaded, versions = load_candidates(store, items)
    return evaluate(plan, loaded, today=today or date.today(), versions=versions)
