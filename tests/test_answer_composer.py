"""The deterministic composer cites the sentences that answer the question (issue 10, point 6)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.deterministic import compose_extractive
from citewise.answer.records import AskOutcome, Evidence
from citewise.evidence.plan import RetrievalPlan
from citewise.store.evidence import EvidenceStore

pytestmark = pytest.mark.integration

QUICK_START = "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요"


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "composer.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


def test_the_quick_start_answer_cites_the_remedy_first(store: EvidenceStore) -> None:
    result = ask(store, QUICK_START, RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK
    first = result.citations[0]
    assert first.section_id == "제3조의3" and "임차권등기명령을 신청할 수 있다" in first.quote
    assert len(result.citations) <= 3


def test_a_definition_question_cites_the_definition(store: EvidenceStore) -> None:
    result = ask(store, "근로기준법 제2조의 정의는 무엇인가요?", RetrievalPlan())
    assert [c.section_id for c in result.citations] == ["제2조"]
    assert "용어의 뜻은" in result.citations[0].quote


def _e(i: int, heading: str, text: str) -> Evidence:
    return Evidence(f"E{i}", "doc", 1, f"§ {i}", "Act", heading, text, "sha256:x")


def test_a_passage_that_merely_shares_a_word_is_not_cited() -> None:
    evidence = [
        _e(1, "Capital stock", "The capital stock of a company is recorded at par."),
        _e(2, "Penalties", "Whoever violates the registration rules shall be fined not more than $500."),
    ]
    answer = compose_extractive("What is the penalty for violating the registration rules?", evidence)
    assert [c.evidence_id for c in answer.citations] == ["E2"]
