"""The two-stage search plan and the BM25 arithmetic both index backends share."""

from __future__ import annotations

import math

import pytest

from citewise.store.index import IndexStats, QueryPlan, TermHits, bm25_score, plan_query, rescore
from citewise.text import analyze

pytestmark = pytest.mark.unit

STATS = IndexStats(rows=100, tokens=2_000, hits={"rare": 2, "mid": 10, "common": 90, "also": 90})


def test_terms_no_section_holds_are_dropped_and_repeats_kept_once() -> None:
    assert plan_query(["absent", "rare", "rare", "mid"], STATS, budget=1_000) == QueryPlan(("rare", "mid"), None)
    assert plan_query(["absent", "zebra"], STATS) == QueryPlan((), None)


def test_a_query_within_the_budget_scores_every_matching_section() -> None:
    assert plan_query(["common", "rare"], STATS, budget=92).selective is None


def test_above_the_budget_the_rarest_terms_choose_the_candidates_in_query_order() -> None:
    plan = plan_query(["common", "mid", "rare", "also"], STATS, budget=20)
    assert plan == QueryPlan(("common", "mid", "rare", "also"), ("mid", "rare"))


def test_the_rarest_term_is_kept_even_when_it_alone_exceeds_the_budget() -> None:
    assert plan_query(["common", "also"], STATS, budget=5).selective == ("also",)  # a tie: by name


def test_idf_is_floored_for_terms_in_more_than_half_the_sections() -> None:
    assert STATS.idf("common") == 1e-6
    assert STATS.idf("rare") == pytest.approx(math.log(98.5 / 2.5))


def test_bm25_weighs_the_heading_double_and_saturates_with_repeats() -> None:
    once = bm25_score(["rare"], STATS, {"rare": (0, 0, 1)}, length=20)
    in_heading = bm25_score(["rare"], STATS, {"rare": (0, 1, 0)}, length=20)
    assert in_heading == bm25_score(["rare"], STATS, {"rare": (0, 0, 2)}, length=20) > once > 0
    many = bm25_score(["rare"], STATS, {"rare": (0, 0, 1_000)}, length=20)
    assert many < STATS.idf("rare") * 2.2  # (k1 + 1) bounds a term's contribution
    assert bm25_score(["rare"], STATS, {}, length=20) == 0.0


def test_rescoring_orders_by_score_then_row_id_and_keeps_the_limit() -> None:
    plan = QueryPlan(("rare",), ("rare",))
    same = {"rare": (0, 0, 1)}
    ranked = rescore(plan, STATS, [(9, same, 20), (3, same, 20), (5, {"rare": (1, 1, 1)}, 20), (7, {}, 20)], 3)
    assert [rowid for rowid, _ in ranked] == [5, 3, 9]


def test_term_counts_are_asked_once_per_index_state() -> None:
    asked: list[list[str]] = []

    def count(terms: list[str]) -> dict[str, int]:
        asked.append(terms)
        return {t: 4 for t in terms if t != "absent"}

    hits = TermHits()
    assert hits.stats(10, 100, ["a", "absent"], count).hits == {"a": 4, "absent": 0}
    assert hits.stats(10, 100, ["a", "b"], count).hits == {"a": 4, "b": 4}
    assert asked == [["a", "absent"], ["b"]]  # "a" was known
    hits.stats(11, 105, ["a"], count)  # the index grew: counted again
    assert asked[-1] == ["a"]
    assert hits.stats(0, 0, ["a"], count).hits == {}  # an empty index: nothing to ask


def test_forgotten_term_counts_are_asked_again() -> None:
    asked: list[list[str]] = []

    def count(terms: list[str]) -> dict[str, int]:
        asked.append(terms)
        return {t: 4 for t in terms}

    hits = TermHits()
    hits.stats(10, 100, ["a"], count)
    hits.clear()
    hits.stats(10, 100, ["a"], count)
    assert asked == [["a"], ["a"]]


def test_term_counts_of_another_analyzer_are_not_reused() -> None:
    hits = TermHits()
    hits.stats(10, 100, ["a"], lambda terms: {"a": 4})
    analyze.use_analyzer("cw-bigram-1")
    try:
        assert hits.stats(10, 100, ["a"], lambda terms: {"a": 7}).hits == {"a": 7}
    finally:
        analyze.use_analyzer(next(iter(analyze.ANALYZERS)))


def test_rescoring_gives_each_candidate_bm25_scores_doubles_when_sections_share_their_counts() -> None:
    plan = QueryPlan(("rare", "mid", "common"), ("rare",))
    shared = {"rare": (0, 1, 2), "common": (1, 0, 3)}  # one counts object: sections of identical text
    candidates = [(1, shared, 20), (2, shared, 35), (3, dict(shared), 20), (4, shared, 20)]
    ranked = dict(rescore(plan, STATS, candidates, 4))
    for rowid, counts, length in candidates:
        assert ranked[rowid] == bm25_score(plan.terms, STATS, counts, length)  # the same doubles
    assert ranked[1] == ranked[3] == ranked[4] != ranked[2]  # the longer section scores apart
