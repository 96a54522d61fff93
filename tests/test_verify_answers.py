"""Mapping delivered claims to the required sub-questions they answer (issue 21), read directly:
by the evidence the review checked, by the heading the claim sits under, by the topic's own terms —
in English and Korean — and never by a claim that is unsupported, advice or a signpost."""

from __future__ import annotations

from citewise.records.research import CoverageStatus, Quote
from citewise.records.verify import GapReason
from citewise.verify.answers import RequiredTopic, map_answers
from citewise.verify.ledger import CitedText, ledger_for_text

PAGE = (
    "주택임대차보호법 해설\n\n임대차 기간은 2년으로 본다. 임대차가 끝나면 임대인은 보증금을 반환하여야 한다.\n\n"
    "임차인은 임차권등기명령을 신청할 수 있다."
)
TEXTS = {"S1": CitedText("S1", "https://law.example/a", PAGE, PAGE)}
TERM, RETURN = "임대차 기간은 얼마인가요?", "보증금은 언제 돌려받나요?"


def _answers(report: str, topics: tuple[RequiredTopic, ...]) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    entries, gaps = map_answers(report, ledger_for_text(report, TEXTS), topics)
    return {e.claim.text: e.answers for e in entries}, [g.topic for g in gaps]


def test_english_headings_that_name_no_single_topic_name_none() -> None:
    topics = (
        RequiredTopic("Which law protects rental deposits?", status=CoverageStatus.COVERED),
        RequiredTopic("How is a deposit returned?", status=CoverageStatus.COVERED),
    )
    texts = {"S1": CitedText("S1", None, "Deposits are protected here.", "Deposits are protected here.")}
    report = "## Deposits\n\nDeposits are protected here [S1].\n"
    entries, gaps = map_answers(report, ledger_for_text(report, texts), topics)
    assert [e.answers for e in entries] == [()] and len(gaps) == 2


def test_korean_headings_name_their_topics_without_a_review() -> None:
    topics = (RequiredTopic(TERM, status=CoverageStatus.COVERED), RequiredTopic(RETURN, status=CoverageStatus.COVERED))
    report = (
        "## 임대차 기간\n\n임대차 기간은 2년으로 본다 [S1].\n\n"
        "## 보증금 반환\n\n임대차가 끝나면 임대인은 보증금을 반환하여야 한다 [S1].\n"
    )
    answers, gaps = _answers(report, topics)
    assert set(answers.values()) == {(TERM,), (RETURN,)} and gaps == []


def test_a_claim_resting_on_the_reviewed_quote_answers_its_topic_wherever_it_stands() -> None:
    quote = Quote("S1", "임대차가 끝나면 임대인은 보증금을 반환하여야 한다.", True)
    topics = (
        RequiredTopic(TERM, (Quote("S1", "임대차 기간은 2년으로 본다.", True),), CoverageStatus.COVERED),
        RequiredTopic(RETURN, (quote,), CoverageStatus.COVERED),
    )
    report = "## 요약\n\n임대차가 끝나면 임대인은 보증금을 반환하여야 한다 [S1].\n"
    answers, gaps = _answers(report, topics)
    assert list(answers.values()) == [(RETURN,)] and gaps == [TERM]


def test_advice_signposts_and_unsupported_claims_answer_nothing() -> None:
    reviewed = (Quote("S1", "임대차 기간은 2년으로 본다.", True),)
    topics = (
        RequiredTopic(TERM, reviewed, CoverageStatus.COVERED),
        RequiredTopic(RETURN, reviewed, CoverageStatus.WEAK),
    )
    report = (
        f"## {TERM}\n\n이 절에서는 임대차 기간을 살펴본다.\n\n임차인은 계약서를 확인해야 한다 [S1].\n\n"
        f"## {RETURN}\n\n보증금은 임대차가 끝나고 3일 안에 돌려받는다 [S1].\n"
    )
    entries, gaps = map_answers(report, ledger_for_text(report, TEXTS), topics)
    assert all(e.answers == () for e in entries)
    assert {g.topic: g.reason for g in gaps} == {TERM: GapReason.NOT_ANSWERED, RETURN: GapReason.NOT_ANSWERED}


def test_a_topic_the_review_found_no_evidence_for_is_a_gap_of_its_own_kind() -> None:
    topics = (
        RequiredTopic(TERM, (Quote("S1", "임대차 기간은 2년으로 본다.", True),), CoverageStatus.COVERED),
        RequiredTopic(RETURN, (), CoverageStatus.MISSING, "no primary source"),
    )
    report = "임대차 기간은 2년으로 본다 [S1].\n"
    _, gaps = map_answers(report, ledger_for_text(report, TEXTS), topics)
    (gap,) = gaps
    assert gap.topic == RETURN and gap.reason is GapReason.NOT_FOUND and gap.missing == "no primary source"


def test_a_topic_the_last_review_found_only_partly_supported_is_a_gap_though_claims_address_it() -> None:
    # The report itself says "only partial or indirect support was found" under such a topic: its
    # supported claims are part of an answer, and "Gaps and limitations" must say so, not "None".
    quote = Quote("S1", "임대차가 끝나면 임대인은 보증금을 반환하여야 한다.", True)
    topics = (
        RequiredTopic(TERM, (Quote("S1", "임대차 기간은 2년으로 본다.", True),), CoverageStatus.COVERED),
        RequiredTopic(RETURN, (quote,), CoverageStatus.WEAK, "when the deposit must be returned"),
    )
    report = f"## {TERM}\n\n임대차 기간은 2년으로 본다 [S1].\n\n## {RETURN}\n\n{quote.text[:-1]} [S1].\n"
    answers, _ = _answers(report, topics)
    assert set(answers.values()) == {(TERM,), (RETURN,)}  # the claims still address their topics
    _, gaps = map_answers(report, ledger_for_text(report, TEXTS), topics)
    (gap,) = gaps
    assert gap.topic == RETURN and gap.reason is GapReason.PARTIAL
    assert gap.missing == "when the deposit must be returned"
