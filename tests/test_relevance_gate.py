"""The relevance gate (issue 10, point 2): off-topic questions in both languages hand off with the gap
stated; the quick start's questions still answer."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.question import Intent, analyse_question
from citewise.answer.records import AskOutcome, Evidence
from citewise.answer.relevance import RELEVANCE_THRESHOLD, relevance
from citewise.evidence.plan import RetrievalPlan
from citewise.store.evidence import EvidenceStore

pytestmark = pytest.mark.integration


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "relevance.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of France?",
        "How do quantum computers entangle qubits?",
        "우주 정거장 도킹 절차",
        "김치찌개 맛있게 끓이는 방법",
    ],
)
def test_off_topic_questions_hand_off_with_the_gap_stated(store: EvidenceStore, question: str) -> None:
    result = ask(store, question, RetrievalPlan())
    assert result.outcome in (AskOutcome.HANDOFF, AskOutcome.NO_ELIGIBLE_EVIDENCE), result.text
    assert not result.citations
    if result.outcome is AskOutcome.HANDOFF:
        assert result.gap and "not found:" in result.gap


@pytest.mark.parametrize(
    "question",
    [
        "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요",
        "근로기준법 제2조의 정의는 무엇인가요?",
        "How do I check whether an IPv4 address is private?",
    ],
)
def test_on_topic_questions_still_answer(store: EvidenceStore, question: str) -> None:
    result = ask(store, question, RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK, result.text
    assert result.citations


def _evidence(text: str) -> Evidence:
    return Evidence("E1", "doc", 1, "§ 1", "Title", "§ 1", text, "sha256:x")


def test_the_score_is_the_share_of_content_terms_found() -> None:
    question = analyse_question("What is the capital of France?")
    assert question.terms == ("capit", "franc") and question.intent is Intent.DEFINITION
    measured = relevance(question, [_evidence("The capital stock of a corporation.")])
    assert measured.score == 0.5 and measured.missing == ("franc",)
    assert not measured.answers and measured.threshold == RELEVANCE_THRESHOLD
    korean = relevance(
        analyse_question("임차권등기명령은 언제 신청하나요"), [_evidence("임차권등기명령을 신청할 수 있다.")]
    )
    assert korean.answers, korean
