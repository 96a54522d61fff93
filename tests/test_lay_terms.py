"""Everyday Korean words read as the statute's (citewise.text.lay_terms), and every stage reading it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.deterministic import compose_extractive
from citewise.answer.question import analyse_question
from citewise.answer.relevance import relevance
from citewise.ingest.pipeline import ingest_paths
from citewise.records.answer import Evidence
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from citewise.text.analyze import index_terms, search_terms
from citewise.text.lay_terms import lay_readings, lay_terms, reading_search_terms
from tests.corpora import KR_STATUTES

# A made-up statute of three articles: the one on the landlord's duty says 임대인 and 임차인, never
# the everyday words a tenant asks with.
_STATUTE = """---
제목: 생활임대차시험법
법령구분: 법률
시행일자: '2026-01-02'
상태: 시행
출처: https://example.org/생활임대차시험법
---

# 생활임대차시험법

##### 제1조 (목적)

이 법은 생활 관계의 안정을 보장함을 목적으로 한다.

##### 제2조 (임대인의 의무)

임대인은 임차인에게 목적물을 인도하고 계약 존속 중 그 사용에 필요한 상태를 유지하여야 한다.

##### 제3조 (근로시간)

근로시간은 휴게시간을 제외하고 1주 간에 40시간을 초과할 수 없다.
"""

_QUESTION = "집주인이 연락을 안 받아요"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EvidenceStore]:
    source = tmp_path / "생활임대차시험법__법률__2026-01-02__MST1.md"
    source.write_text(_STATUTE, encoding="utf-8")
    with EvidenceStore.open(str(tmp_path / "store.sqlite")) as s:
        ingest_paths(s, [source])
        yield s


def test_an_everyday_word_finds_the_article_in_the_statutes_words_lexically(store: EvidenceStore) -> None:
    article = "임대인은 임차인에게 목적물을 인도하고 계약 존속 중 그 사용에 필요한 상태를 유지하여야 한다."
    # The question's own words are nowhere in the article: only the reading of 집주인 can find it.
    assert not set(search_terms(_QUESTION)) & set(index_terms(article))
    hits = search(store, _QUESTION, 3, embedder=None)
    assert hits and hits[0].section_id == "제2조"


def test_the_reading_is_recorded_on_the_typed_question() -> None:
    question = analyse_question(_QUESTION)
    assert [(r.lay, r.statute) for r in question.readings] == [("집주인", ("임대인",))]
    assert "임대인" not in question.terms  # added beside the terms, not into them
    owner = next(t for t in question.terms if t in question.readings[0].morphemes)
    assert question.alternatives(owner) == ("임대인",)
    assert question.alternatives("연락") == ()


def _evidence(section_id: str, text: str) -> Evidence:
    return Evidence(
        evidence_id="E1",
        doc_id="kr-test",
        version=1,
        section_id=section_id,
        title="생활임대차시험법",
        heading="",
        text=text,
        content_hash="h",
    )


def test_the_relevance_gate_and_the_composer_count_a_term_found_through_its_reading() -> None:
    question = analyse_question("세입자가 월급을 받으면")
    passage = _evidence("제9조", "임차인이 임금을 지급받은 때에는 그 사실을 신고한다.")
    measured = relevance(question, [passage])
    assert {"세입자", "월급"} <= set(measured.found)
    assert "read as the statute's: 세입자 as 임차인; 월급 as 임금" in measured.gap()  # what a handoff says
    composed = compose_extractive(question.text, [passage])
    assert "임차인이 임금을" in composed.text


def test_an_english_question_is_untouched() -> None:
    text = "Can my landlord keep the deposit when the lease ends?"
    assert lay_readings(text) == ()
    assert analyse_question(text).readings == ()
    assert reading_search_terms(lay_readings(text)) == []


def test_each_morpheme_is_read_once_longest_word_first() -> None:
    # 집주인 is read as 임대인; its 집 is not read again as 주택.
    assert [r.lay for r in lay_readings("집주인 집")] == ["집주인", "집"]
    assert [r.statute for r in lay_readings("집주인이 연락이 안 돼요")] == [("임대인",)]


def test_a_phrase_is_read_as_one_where_its_words_follow_one_another() -> None:
    # A new landlord is the statute's 양수인 (the buyer of the let house, 제3조 ④), which neither
    # 집주인 (임대인) nor 바뀌다 says alone; the phrase is read first, being longer, and its words once.
    readings = lay_readings("집주인이 바뀌면 세입자는 어떻게 되나요?")
    assert [(r.lay, r.statute) for r in readings] == [("집주인 바뀌다", ("양수인",)), ("세입자", ("임차인",))]
    assert readings[0].morphemes == ("집", "주인", "바뀌")
    # Apart, its words are read as themselves: a landlord who changes the terms is still the 임대인.
    assert [r.statute for r in lay_readings("집주인이 계약 조건을 바꾸려고 해요")] == [("임대인",), ("변경", "전환")]
    # Only in the table's order: "바뀐 집주인" is the words, not the phrase.
    assert [r.lay for r in lay_readings("바뀐 집주인")] == ["집주인"]


def test_a_verb_is_read_in_any_of_its_forms() -> None:
    for text in ("회사에서 잘렸어요", "잘리면 어떻게 하나요"):
        assert ("해고",) in [r.statute for r in lay_readings(text)]


def test_every_row_of_the_table_reads_an_everyday_word_as_other_statute_terms() -> None:
    rows = lay_terms()
    assert len(rows) > 50
    for row in rows:
        assert row.statute and row.lay not in row.statute
        assert row.field in {"housing", "labour", "immigration", "tax", "privacy", "general"}


def test_every_statute_term_of_the_table_occurs_in_the_statutes() -> None:
    # A term the statutes never write finds nothing and counts nothing found (its header says so). The
    # gate looks a term up in a passage's text without its spaces (연차유급휴가 in 연차 유급휴가); so here.
    # The statutes are the suite's own copy (tests/data), so a clone with nothing beside it checks too.
    files = sorted(p for p in KR_STATUTES.glob("*.md") if p.name != "SOURCE.md")
    assert len(files) == 11
    text = "".join(re.sub(r"\s+", "", p.read_text(encoding="utf-8")) for p in files)
    absent = [(row.lay, term) for row in lay_terms() for term in row.statute if term not in text]
    assert absent == []


def test_a_reading_adds_the_statute_terms_in_the_word_field_only() -> None:
    readings = lay_readings("알바도 되나요")
    assert readings[0].statute == ("단시간근로자",)
    added = reading_search_terms(readings)
    assert "근로자" in added and "단시간근로자" in added
    assert all(not t.startswith("q") for t in added)  # no bigram-field terms


def test_a_statute_noun_that_reads_as_a_verb_alone_is_still_searched_for() -> None:
    # Analysed alone, 차임 reads as 차 + 임 and 서면 as 서 + 면, leaving no word to search by; in the
    # statute's sentences each is the noun the index holds ("약정한 차임이나", "서면으로 통지").
    assert "차임" in reading_search_terms(lay_readings("월세를 올려달라고 해요"))
    assert "서면" in reading_search_terms(lay_readings("카톡으로 통보를 받았어요"))
    assert "양도" in reading_search_terms(lay_readings("집을 매매했어요"))
    assert "차임" in index_terms("약정한 차임이나 보증금")  # what the index holds


def test_a_word_in_latin_letters_is_read_in_a_korean_question_only() -> None:
    # CCTV, however it is written, is the statute's 영상정보처리기기; an English question is untouched.
    for question in ("사무실에 CCTV를 달아도 되나요?", "cctv 설치 기준이 있나요"):
        assert [(r.lay, r.statute) for r in lay_readings(question)] == [("CCTV", ("영상정보처리기기",))]
    assert lay_readings("Can I install CCTV in the office?") == ()
