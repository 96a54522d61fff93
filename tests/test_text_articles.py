"""The one article-reference parser (``citewise.text.articles``) and what each former copy relied on.

Triage, named provisions, the question analyser and the section-id classifier of ingestion each had
their own regex; triage's had drifted: it did not know ``Art. 5``, so a question about "Art. 2" of
no named law was never offered a clarification although the same question's article was resolved
(and dropped from its topic terms) everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest

from citewise.answer.question import analyse_question
from citewise.answer.triage import ambiguous_sections
from citewise.evidence.plan import RetrievalPlan
from citewise.ingest.sections import _classify
from citewise.records import SectionKind
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.text.articles import (
    ARTICLE_REFERENCE,
    KOREAN_ARTICLE,
    article_references,
    asks_about_addenda,
    korean_article_id,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        ("근로기준법 제2조의 정의는?", ["제2조"]),  # 의 before a particle is no branch
        ("제 3 조 의 2 와 제4조, 제3조의2", ["제3조의2", "제4조"]),
        ("Art. 5, art.6, Sec. 7, SECTION 8, article 9 and §§ 555.11a", ["5", "6", "7", "8", "9", "555.11a"]),
        ("§ 2 and 제3조", ["제3조", "2"]),  # Korean ids first, as both former parsers returned them
        ("artist 5, sections 6, 2024년", []),
    ],
)
def test_article_references(text: str, refs: list[str]) -> None:
    assert article_references(text) == refs


def test_one_pattern_for_finding_and_for_heading_ids() -> None:
    match = KOREAN_ARTICLE.match("제 3 조 의 2 (보증금의 회수)")
    assert match is not None and korean_article_id(match) == "제3조의2"
    assert _classify("제3조의2 (보증금의 회수)") == (SectionKind.ARTICLE, "제3조의2")
    assert _classify("제 12 조(벌칙)") == (SectionKind.ARTICLE, "제12조")
    assert ARTICLE_REFERENCE.sub("|", "제2조와 Art. 4와 § 5") == "|와 |와 |"


def test_an_article_reference_is_no_topic_term() -> None:
    assert "5" not in analyse_question("What does Art. 5 of the tenancy act say?").terms
    assert analyse_question("제3조의2 보증금 회수").terms == analyse_question("보증금 회수").terms


class _TwoLaws:
    """A store in which section 2 exists in two documents."""

    def __init__(self) -> None:
        self.asked: list[Sequence[str]] = []

    def find_sections(self, section_ids: Sequence[str], **_: Any) -> list[SimpleNamespace]:
        self.asked.append(section_ids)
        return [
            SimpleNamespace(doc_id=doc, title=title, section_id="§ 2", heading="§ 2 Definitions")
            for doc, title in (("us-a", "Tenancy Act"), ("us-b", "Labour Act"))
            if "§ 2" in section_ids
        ]


@pytest.mark.parametrize("question", ["What does Art. 2 define?", "What does § 2 define?", "Section 2?"])
def test_triage_offers_a_clarification_for_every_form_of_reference(question: str) -> None:
    store = _TwoLaws()
    options = ambiguous_sections(cast(EvidenceStoreProtocol, store), RetrievalPlan(), question)
    assert {o.doc_id for o in options} == {"us-a", "us-b"}
    assert store.asked == [["§ 2", "Sec. 2", "2"]]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("이 법 시행 당시 존속 중인 임대차에도 적용되나요", True),
        ("개정법의 시행일은 언제인가요", True),
        ("계약갱신요구권은 언제부터 적용되나요", True),
        ("경과조치가 있나요", True),
        ("부칙 제2조의 적용례", True),
        ("종전의 규정에 따르는 경우", True),
        ("When is the effective date of the amendment?", True),
        ("Are there transitional rules?", True),
        ("종합부동산세법 시행령 제3조에 따른 합산배제 임대주택", False),  # 시행령 names a decree
        ("퇴사 후 종전 회사로 재입사한 경우 퇴직소득", False),  # 종전 alone is a fact
        ("남편한테 물려받은 집은 보유기간을 언제부터 세나요?", False),  # when a period starts, not a law
        ("임대차 계약의 갱신을 요구할 수 있는 기간", False),
    ],
)
def test_a_question_asks_about_addenda_only_by_the_words_for_them(question: str, asks: bool) -> None:
    assert asks_about_addenda(question) is asks
