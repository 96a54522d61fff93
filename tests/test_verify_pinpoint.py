"""Sentence citations in the verifier: ``[S1.3]`` is parsed, and the claim is checked against exactly
that stored sentence (spec 5.2: the claim-to-span mapping is exact when the writer cites a sentence)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.claims import extract_claims
from citewise.verify.ledger import CitedText, ledger_for_text
from citewise.verify.pinpoint import check_cited_sentences

pytestmark = pytest.mark.unit

EXCERPT = (
    "# 임대차 안내\n\n"
    "임대차의 존속기간은 2년으로 본다. 다만, 임차인은 2년 미만으로 정한 기간이 유효함을 주장할 수 있다.\n\n"
    "보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다. 수수료는 임대인이 낸다."
)
# S1.1 heading, S1.2 존속기간 2년, S1.3 다만 ..., S1.4 보증금 30일, S1.5 수수료
TEXTS = {"S1": CitedText("S1", "https://law.example/1", EXCERPT, EXCERPT)}


def claim(markdown: str):  # type: ignore[no-untyped-def]
    (only,) = extract_claims(markdown)
    return only


def test_sentence_citations_are_parsed_as_sources_and_sentences() -> None:
    [first, second] = extract_claims("Rents rose 5% [S1.2][S2]. Fees fell [S1.4, S3.1].")

    assert (first.text, first.cited_ids, first.cited_sentences) == ("Rents rose 5%.", ("S1", "S2"), ("S1.2",))
    assert (second.cited_ids, second.cited_sentences) == (("S1", "S3"), ("S1.4", "S3.1"))
    assert claim("Plain citation [S1].").cited_sentences == ()


def test_the_cited_sentence_is_the_span() -> None:
    (check,) = check_cited_sentences(
        claim("보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다[S1.4]."), "S1", EXCERPT, ["S1.4"]
    )

    assert check.decision is Decision.SUPPORTED and check.span_found
    assert check.span == "보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다." and check.sentence_ids == ("S1.4",)


def test_a_proviso_after_the_cited_sentence_belongs_to_it() -> None:
    (check,) = check_cited_sentences(claim("임대차의 존속기간은 2년으로 본다[S1.2]."), "S1", EXCERPT, ["S1.2"])

    assert check.span is not None and check.span.startswith("임대차의 존속기간은") and "다만," in check.span


def test_neighbouring_sentences_are_one_span() -> None:
    text = "보증금은 30일 안에 돌려받고 수수료는 임대인이 낸다[S1.4][S1.5]."

    (check,) = check_cited_sentences(claim(text), "S1", EXCERPT, ["S1.4", "S1.5"])

    assert check.sentence_ids == ("S1.4", "S1.5") and check.span == EXCERPT[EXCERPT.index("보증금은") :]


def test_citing_the_wrong_sentence_is_unsupported_and_names_the_right_one() -> None:
    (check,) = check_cited_sentences(
        claim("보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다[S1.5]."), "S1", EXCERPT, ["S1.5"]
    )

    assert check.decision is Decision.UNSUPPORTED and check.sentence_ids == ("S1.5",)
    assert check.reason.endswith("the cited S1.5 does not state it, S1.4 does")


def test_an_invented_sentence_id_cannot_be_traced() -> None:
    entries = ledger_for_text("보증금은 30일 안에 돌려받는다[S1.9]. 수수료는 임대인이 낸다[S1.5][S1.8].", TEXTS)

    invented, partly = entries
    assert invented.decision is Decision.UNSUPPORTED
    assert [(c.traceable, c.sentence_ids) for c in invented.checks] == [(False, ("S1.9",))]
    assert invented.checks[0].reason == "cites S1.9, which the excerpt of S1 does not have (it has 5 sentences)"
    # a real sentence supports the second claim; the invented pin next to it is still on record
    assert partly.decision is Decision.SUPPORTED
    assert [(c.traceable, c.sentence_ids) for c in partly.checks] == [(True, ("S1.5",)), (False, ("S1.8",))]


def test_a_source_citation_still_finds_the_best_span() -> None:
    (entry,) = ledger_for_text("보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다[S1].", TEXTS)

    assert entry.decision is Decision.SUPPORTED and entry.checks[0].sentence_ids == ()
    assert entry.quote == "보증금은 임대차가 끝난 뒤 30일 안에 돌려받는다."
