"""Ranking contract (SPEC 3.4): a ranker may only reorder. Each attack is recorded and the input
order is kept; a legitimate reorder is accepted."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from citewise.evidence import (
    Candidate,
    LexicalRanker,
    Ranker,
    RetrievalPlan,
    TermOverlapRanker,
    ViolationKind,
    apply_ranker,
    gate,
)
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from tests.test_evidence_gate import HOUSING, LABOUR, TODAY, approve, statute_store_file, statutes

pytestmark = pytest.mark.integration

__all__ = ["statute_store_file", "statutes"]  # fixtures shared with the gate tests

QUERY = "임차인 보증금 우선변제"


@pytest.fixture
def candidates(statutes: EvidenceStore) -> tuple[Candidate, ...]:
    approve(statutes, f"{HOUSING}@2", LABOUR)
    eligible = gate(statutes, RetrievalPlan(), search(statutes, QUERY, k=8), today=TODAY).eligible
    assert len(eligible) >= 4
    return eligible


@pytest.fixture
def outsider(statutes: EvidenceStore) -> Candidate:
    """An eligible passage that was not among the candidates."""
    return gate(statutes, RetrievalPlan(), search(statutes, "강제 근로 금지", k=1), today=TODAY).eligible[0]


class Scripted:
    """A ranker that does whatever ``script`` does with the candidates it is given."""

    def __init__(self, script: Callable[[list[Candidate]], list[Candidate]]) -> None:
        self.script = script

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        return self.script(list(candidates))


def _mutate_text(cs: list[Candidate]) -> list[Candidate]:
    first = cs[0]
    return [replace(first, section=replace(first.section, text=first.text + " 다만, 예외로 한다.")), *cs[1:]]


def _relabel(cs: list[Candidate]) -> list[Candidate]:
    first = cs[0]
    return [replace(first, section=replace(first.section, section_id="제99조")), *cs[1:]]


def _raise(cs: list[Candidate]) -> list[Candidate]:
    raise RuntimeError("reranker service unavailable")


def _touch_metadata(cs: list[Candidate]) -> list[Candidate]:
    cs[0].document.metadata["법령MST"] = "000000"  # frozen record, mutable dict: still caught
    return cs[::-1]


@pytest.mark.parametrize(
    ("script", "kind", "detail"),
    [
        (lambda cs: [*cs, cs[0]], ViolationKind.DUPLICATED, "returned more than once"),
        (_mutate_text, ViolationKind.ALTERED, "differs from the input candidate"),
        (_relabel, ViolationKind.ALTERED, "relabelled as kr-law-"),
        (lambda cs: [replace(cs[0], score=1e9), *cs[1:]], ViolationKind.ALTERED, "differs"),
        (_touch_metadata, ViolationKind.ALTERED, "differs"),
        (lambda cs: cs[1:], ViolationKind.DROPPED, "is missing from the output"),
        (_raise, ViolationKind.RAISED, "RuntimeError: reranker service unavailable"),
        (lambda cs: None, ViolationKind.NOT_A_LIST, "expected a list of Candidate"),
    ],
    ids=["duplicate", "mutate-text", "change-section-id", "change-score", "mutate-metadata", "drop", "raise", "none"],
)
def test_a_ranker_that_does_more_than_reorder_is_overruled(
    candidates: tuple[Candidate, ...],
    script: Callable[[list[Candidate]], list[Candidate]],
    kind: ViolationKind,
    detail: str,
) -> None:
    outcome = apply_ranker(Scripted(script), QUERY, candidates)
    assert not outcome.accepted
    assert kind in {v.kind for v in outcome.violations}
    assert any(detail in v.detail for v in outcome.violations if v.kind is kind)
    assert outcome.candidates == candidates  # the input order, untouched
    assert all(c.document.metadata.get("법령MST") != "000000" for c in outcome.candidates)


def test_an_injected_candidate_is_recorded(candidates: tuple[Candidate, ...], outsider: Candidate) -> None:
    assert outsider not in candidates
    outcome = apply_ranker(Scripted(lambda cs: [outsider, *cs]), QUERY, candidates)
    [violation] = outcome.violations
    assert violation.kind is ViolationKind.INJECTED and str(outsider.ref) in violation.detail
    assert outcome.candidates == candidates


def test_swapping_one_candidate_for_another_is_both_injection_and_drop(
    candidates: tuple[Candidate, ...], outsider: Candidate
) -> None:
    outcome = apply_ranker(Scripted(lambda cs: [outsider, *cs[1:]]), QUERY, candidates)
    assert {v.kind for v in outcome.violations} == {ViolationKind.INJECTED, ViolationKind.DROPPED}


def test_a_legitimate_reorder_is_accepted(candidates: tuple[Candidate, ...]) -> None:
    reverse = apply_ranker(Scripted(lambda cs: cs[::-1]), QUERY, candidates)
    assert reverse.accepted and reverse.candidates == candidates[::-1]

    overlap = apply_ranker(TermOverlapRanker(), QUERY, candidates)
    assert overlap.accepted and overlap.ranker == "TermOverlapRanker"
    assert sorted(c.ref.section_id for c in overlap.candidates) == sorted(c.ref.section_id for c in candidates)
    assert apply_ranker(TermOverlapRanker(), QUERY, candidates) == overlap  # deterministic


def test_lexical_ranker_keeps_the_search_order(candidates: tuple[Candidate, ...]) -> None:
    outcome = apply_ranker(LexicalRanker(), QUERY, candidates[::-1])
    assert outcome.accepted
    scores = [c.score for c in outcome.candidates]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.unit
def test_shipped_rankers_satisfy_the_protocol() -> None:
    assert isinstance(LexicalRanker(), Ranker) and isinstance(TermOverlapRanker(), Ranker)
