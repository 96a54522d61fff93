"""Named provisions (issue 10, point 3): a question naming a law and/or an article gets that article
first, still through the gate; an article named without its law, found in several laws, is a
clarification."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.provisions import resolve_named
from citewise.evidence.plan import RetrievalPlan
from citewise.records.answer import AskOutcome
from citewise.review import decide
from citewise.store.evidence import EvidenceStore
from citewise.text.articles import article_references

pytestmark = pytest.mark.integration

HOUSING = "kr-law-001248"
LABOUR = "kr-law-001872"


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "named.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


@pytest.mark.parametrize(
    ("question", "refs"),
    [
        ("근로기준법 제2조의 정의는?", ["제2조"]),
        ("주택임대차보호법 제3조의3 에 따른 신청", ["제3조의3"]),
        ("제 3 조 의 2 와 제4조", ["제3조의2", "제4조"]),
        ("What does § 757a say, and Article 7?", ["757a", "7"]),
    ],
)
def test_article_references_in_korean_and_english(question: str, refs: list[str]) -> None:
    assert article_references(question) == refs


def test_a_named_law_and_article_resolve_to_that_section_in_every_version(store: EvidenceStore) -> None:
    named = resolve_named(store, "주택임대차법 제3조의3에 따라 무엇을 신청하나요")  # a common short name
    assert [law.doc_id for law in named.laws] == [HOUSING]
    assert {(r.doc_id, r.version, r.section_id) for r in named.refs} == {
        (HOUSING, 1, "제3조의3"),
        (HOUSING, 2, "제3조의3"),
    }


def test_the_named_article_is_cited_first(store: EvidenceStore) -> None:
    result = ask(store, "근로기준법 제2조의 정의는 무엇인가요?", RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK, result.text
    assert (result.evidence[0].doc_id, result.evidence[0].section_id) == (LABOUR, "제2조")
    assert result.citations and result.citations[0].section_id == "제2조"


def test_the_named_article_still_goes_through_the_gate(store: EvidenceStore) -> None:
    decide(store, LABOUR, "reject", reviewer="Lee", reason="garbled", section_id="제2조")
    result = ask(store, "근로기준법 제2조의 정의는 무엇인가요?", RetrievalPlan())
    assert all((e.doc_id, e.section_id) != (LABOUR, "제2조") for e in result.evidence)


def test_an_article_without_its_law_in_several_laws_is_a_clarification(store: EvidenceStore) -> None:
    result = ask(store, "제2조의 정의는 무엇인가요?", RetrievalPlan())
    assert result.outcome is AskOutcome.CLARIFICATION
    assert {o.doc_id for o in result.options} >= {HOUSING, LABOUR}
