"""The analyzer on Korean: particles, conjugations, compounds, numbers, unknown words — and the
index is rebuilt when the analyzer (or the Kiwi release behind it) changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from citewise.text import analyze as analyzer
from citewise.text.analyze import (
    ANALYZERS,
    RUN_BIGRAM_MARK,
    analyze,
    analyze_many,
    analyzer_id,
    index_terms,
    query_terms,
    search_terms,
    use_analyzer,
)
from tests.conftest import make_doc

pytestmark = pytest.mark.unit


@pytest.fixture
def default_analyzer() -> Iterator[None]:
    """Put the default analyzer back after a test that switches analyzers."""
    yield
    use_analyzer(next(iter(ANALYZERS)))


def test_particles_are_dropped_and_the_noun_stays() -> None:
    for word in ("보증금을", "보증금의", "보증금은", "보증금에서부터"):
        assert "보증금" in analyze(word), word
    assert not {"을", "의", "은"} & set(analyze("보증금을 집주인의 세입자는"))


def test_conjugated_verbs_and_adjectives_become_their_stem() -> None:
    assert analyze("신청할") == analyze("신청하려면") == ["신청"]  # light verb 하다 leaves the noun
    assert "괴롭히" in analyze("괴롭히는") and "괴롭히" in analyze("괴롭혔다")
    assert "돌려주" in analyze("돌려줘요")
    assert "깨끗하" in analyze("깨끗한")


def test_a_compound_yields_its_parts_the_whole_and_bigrams_inside_the_parts() -> None:
    terms = analyze("임차권등기명령을")
    assert {"임차권", "등기", "명령", "임차권등기명령"} <= set(terms)
    assert {"임차", "차권", "권등", "기명"} <= set(terms)  # bigrams match other splits of the compound
    assert "청할" not in analyze("신청할")  # never across a stem and its ending


def test_numbers_stay_whole_tokens() -> None:
    assert "3" in analyze("3년") and "30" in analyze("30일 전에")
    assert [t for t in analyze("제3조의2제2항") if t.isdigit()] == ["3", "2", "2"]
    assert "삼십" in analyze("삼십일")  # a numeral in words is a term too


def test_an_unknown_word_is_matched_by_its_bigrams() -> None:
    terms = analyze("뷁쀍꿻을")
    assert {"뷁쀍", "쀍꿻"} <= set(terms)


def test_function_words_alone_yield_no_index_term_but_a_query_of_them_still_searches() -> None:
    assert analyze("할 수 있다") == []
    assert query_terms("것은?") == ["것은"]


def test_english_is_unchanged() -> None:
    assert analyze("The tenants were renting houses") == ["tenant", "rent", "hous"]


def test_a_batch_analyses_like_one_text_at_a_time() -> None:
    texts = ["임대인은 보증금을 돌려주어야 한다", "Tenants may renew", "외국인근로자의 취업활동 기간"]
    assert analyze_many(texts) == [analyze(t) for t in texts]


def test_the_analyzer_id_names_the_kiwi_and_model_versions() -> None:
    import kiwipiepy
    import kiwipiepy_model

    assert analyzer_id() == (
        f"{next(iter(ANALYZERS))}/kiwipiepy-{kiwipiepy.__version__}+model-{kiwipiepy_model.__version__}"
    )


def test_an_unknown_analyzer_fails_listing_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="cw-bigram-1"):
        use_analyzer("whitespace")


def test_the_bigram_analyzer_before_kiwi_is_still_there_for_comparison(default_analyzer: None) -> None:
    use_analyzer("cw-bigram-1")
    assert analyzer_id() == "cw-bigram-1"
    assert analyze("신청할") == ["신청할", "신청", "청할"]


@pytest.mark.integration
def test_the_index_is_rebuilt_when_the_analyzer_changes(tmp_path: Path, default_analyzer: None) -> None:
    url = str(tmp_path / "store.sqlite")
    doc = make_doc("lease", {"제3조의3": "임차인은 임차권등기명령을 신청할 수 있다."}, title="주택임대차보호법")
    with EvidenceStore.open(url) as store:
        store_document(store, doc, Path("lease.md"), IngestOptions(), {})
        assert search(store, "등기명령 신청하려면", k=1)
    use_analyzer("cw-bigram-1")
    with EvidenceStore.open(url) as store:  # opened under another analyzer: rebuilt before use
        with store.transaction() as conn:
            stored = conn.execute(sa.text("SELECT value FROM store_meta WHERE key = 'index_analyzer'")).scalar_one()
        assert stored == "cw-bigram-1"
        assert [h.section_id for h in search(store, "청할", k=1)] == ["제3조의3"]  # a cross-ending bigram
    use_analyzer("cw-kiwi-nbigram-1")
    with EvidenceStore.open(url) as store:
        assert search(store, "청할", k=1) == []  # Kiwi's morphemes have no bigram across 신청+할
    use_analyzer(next(iter(ANALYZERS)))
    with EvidenceStore.open(url) as store:
        with store.transaction() as conn:
            stored = conn.execute(sa.text("SELECT value FROM store_meta WHERE key = 'index_analyzer'")).scalar_one()
        assert stored == analyzer_id()
        assert [h.section_id for h in search(store, "청할", k=1)] == ["제3조의3"]  # the bigram field's


def test_the_index_and_the_search_add_a_bigram_field_beside_the_words(default_analyzer: None) -> None:
    text = "임차인은 신청할 수"
    fields = index_terms(text)
    assert fields[:2] == ["임차인", "신청"]  # the words (analyze also gives the rankers 임차, 차인)
    assert fields[2:] == [RUN_BIGRAM_MARK + b for b in ("임차", "차인", "인은", "신청", "청할", "수")]
    assert search_terms(text) == fields  # the query's terms are the index's
    assert search_terms("것은?") == ["것은", RUN_BIGRAM_MARK + "것은"]  # the query gets the field too
    assert query_terms("것은?") == ["것은"]
    use_analyzer("cw-kiwi-nbigram-1")  # an analyzer without the field: the index holds the morphemes
    assert index_terms(text) == analyze(text) and search_terms(text) == query_terms(text)


def test_the_index_counts_each_bigram_once_and_holds_no_one_syllable_word(default_analyzer: None) -> None:
    text = "임차권등기명령을 받을 수"
    words = [t for t in index_terms(text) if not t.startswith(RUN_BIGRAM_MARK)]
    assert words == ["임차권", "등기", "명령", "임차권등기명령"]  # no 임차, 차권 (the field's q임차, q차권), no 받
    assert RUN_BIGRAM_MARK + "임차" in index_terms(text) and RUN_BIGRAM_MARK + "받을" in index_terms(text)
    assert {"임차", "차권", "받"} <= set(analyze(text))  # what the rankers compare texts by is unchanged
    assert [t for t in search_terms("임차권등기명령을 받으려면") if not t.startswith(RUN_BIGRAM_MARK)] == words
    assert search_terms("집 돈") == ["집", "돈", RUN_BIGRAM_MARK + "집", RUN_BIGRAM_MARK + "돈"]  # no word: the query's
    use_analyzer("cw-kiwi-fused-1")  # the analyzer before: the bigrams inside the words in both fields
    assert index_terms(text) == analyze(text) + [
        RUN_BIGRAM_MARK + b for b in ("임차", "차권", "권등", "등기", "기명", "명령", "령을", "받을", "수")
    ]


@pytest.mark.integration
def test_a_section_sharing_several_facts_outranks_one_sharing_one_long_compound(
    tmp_path: Path, default_analyzer: None
) -> None:
    sections = {
        "제1조": "조세조약상 비과세를 적용받으려는 자는 신청서를 제출하여야 한다.",
        "제2조": "국내에 지점이 없는 외국법인에 소득을 지급하는 자는 원천징수하여야 한다.",
        "제3조": "거주자의 종합소득에 대하여 과세한다.",
    }
    question = "국내 지점이 없는 회사에 지급할 때 조세조약상 처리"  # 제2조: 국내, 지점, 없는, 지급; 제1조: 조세조약상

    def ranked(name: str) -> list[str]:
        use_analyzer(name)
        with EvidenceStore.open(str(tmp_path / "store.sqlite")) as store:  # rebuilt for the analyzer
            if not store.documents():
                store_document(store, make_doc("tax", sections, title="소득세법"), Path("t.md"), IngestOptions(), {})
            return [h.section_id for h in search(store, question, k=2, embedder=None)]

    assert ranked(next(iter(ANALYZERS))) == ["제2조", "제1조"]
    # The analyzer before counted the compound's word, parts and bigrams (ten terms) against the facts.
    assert ranked("cw-kiwi-fused-1") == ["제1조", "제2조"]


def test_runs_are_analysed_once_and_cached() -> None:
    analyze("임차권등기명령을 신청하려면")
    assert "임차권등기명령을" in analyzer._morpheme_cache
    assert "임차권등기명령을" in analyzer._run_terms


def test_a_cached_run_gets_the_terms_of_the_analyzer_now_active(default_analyzer: None) -> None:
    kiwi = analyze("신청할")
    use_analyzer("cw-bigram-1")
    assert analyze("신청할") == ["신청할", "신청", "청할"]  # the cross-ending bigram: not Kiwi's cached terms
    use_analyzer(next(iter(ANALYZERS)))
    assert analyze("신청할") == kiwi == ["신청"]


def test_emptied_caches_give_the_same_terms() -> None:
    text = "임차인은 The tenants 보증금을 돌려받으려면 2024 漢字"
    before = analyze(text), analyze(text, keep_stopwords=True), analyze_many([text, "보증금"]), index_terms(text)
    analyzer.clear_caches()
    assert not analyzer._run_terms and not analyzer._morpheme_cache and not analyzer._word_stems
    assert not analyzer._index_run_terms
    after = analyze(text), analyze(text, keep_stopwords=True), analyze_many([text, "보증금"]), index_terms(text)
    assert after == before


def test_a_run_forgotten_between_batching_and_lookup_is_analysed_again() -> None:
    pieces = analyzer._pieces("등기명령을 신청하려면")
    analyzer._learn_runs(p[0] for p in pieces)
    analyzer.clear_caches()  # as when the cache overflows while another thread analyses
    assert analyzer._terms(pieces, keep_stopwords=False) == ["등기", "명령", "등기명령", "기명", "신청"]


def test_kiwi_starts_without_the_dictionaries_a_single_run_cannot_use() -> None:
    # Multi-word expressions need a space, and runs have none; typo correction is off.
    kiwi = analyzer._kiwi()
    assert kiwi._load_multi_dict is False and kiwi._load_typo_dict is False
    assert analyze("임차권등기명령을") == ["임차권", "등기", "명령", "임차권등기명령", "임차", "차권", "권등", "기명"]
