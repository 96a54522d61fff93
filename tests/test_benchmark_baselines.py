"""Tests of the benchmark baselines, metric helpers, the ARES NQ loader and the
Korean statute question set."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise.errors import InputError  # noqa: E402
from citewise.eval.retrieval import load_queries  # noqa: E402
from tests.corpora import ARES_NQ_EXCERPT, KR_STATUTES  # noqa: E402

pytestmark = pytest.mark.unit

TOY = [
    ("a", "The quick brown fox jumps over the lazy dog."),
    ("b", "A lazy afternoon: the dog sleeps and the fox waits."),
    ("c", "Stock markets rallied on Tuesday after the rate cut."),
    ("d", "Quick recipes for a lazy dinner."),
]


# --- metrics ---------------------------------------------------------------


def test_recall_and_mrr() -> None:
    ranks = [1, 3, None, 12]
    assert baselines.recall_at(ranks, 1) == 0.25
    assert baselines.recall_at(ranks, 3) == 0.5
    assert baselines.recall_at(ranks, 20) == 0.75
    assert baselines.mrr_at(ranks, 10) == pytest.approx((1 + 1 / 3) / 4)
    assert baselines.mrr_at(ranks, 2) == pytest.approx(1 / 4)
    assert baselines.mrr_at(ranks, 20) == pytest.approx((1 + 1 / 3 + 1 / 12) / 4)


def test_metrics_reject_empty_or_bad_k() -> None:
    with pytest.raises(ValueError):
        baselines.recall_at([], 5)
    with pytest.raises(ValueError):
        baselines.mrr_at([1], 0)


def test_first_gold_rank_and_evaluate() -> None:
    assert baselines.first_gold_rank(["x", "y", "z"], ["z", "y"]) == 2
    assert baselines.first_gold_rank(["x"], ["q"]) is None
    figures = baselines.evaluate([["a", "b"], ["b", "a"], []], [["a"], ["a"], ["a"]], ks=(1, 2))
    assert figures == {"recall@1": pytest.approx(1 / 3), "recall@2": pytest.approx(2 / 3), "mrr@2": 0.5}


# --- keyword overlap -------------------------------------------------------


def test_keyword_overlap_ranks_by_shared_distinct_terms() -> None:
    (ranked,) = baselines.keyword_overlap(TOY, ["lazy lazy DOG fox"], k=10)
    # a and b share {lazy, dog, fox}; tie broken by unit order; d shares {lazy}; c nothing.
    assert ranked == ["a", "b", "d"]


def test_keyword_overlap_k_short_terms_and_no_match() -> None:
    results = baselines.keyword_overlap(TOY, ["lazy fox", "a an of", "rate cut", ""], k=1)
    assert results == [["a"], [], ["c"], []]
    assert baselines.terms("Hi, AB abc 2024 x1y2") == {"abc", "2024", "x1y2"}
    assert baselines.keyword_overlap(TOY, ["fox"], k=0) == [[]]


# --- bm25s -----------------------------------------------------------------


def test_bm25s_default_ranks_and_drops_zero_scores() -> None:
    results = baselines.bm25s_default(TOY, ["stock markets rally", "zebra", "lazy fox"], k=10)
    assert results[0][0] == "c"
    assert results[0] == ["c"]  # only c contains any query term
    assert results[1] == []  # unknown term: no zero-score filler
    assert set(results[2]) == {"a", "b", "d"}
    assert results[2][-1] == "d"  # d has lazy but not fox


def test_bm25s_default_clamps_k_and_handles_empty() -> None:
    (ranked,) = baselines.bm25s_default(TOY, ["the lazy dog"], k=1000)
    assert len(ranked) <= len(TOY)
    assert baselines.bm25s_default(TOY, ["dog"], k=1)[0] in (["a"], ["b"])
    assert baselines.bm25s_default([], ["dog"], k=5) == [[]]
    assert baselines.bm25s_default(TOY, [], k=5) == []


# --- statute splitter ------------------------------------------------------

OLD_FORMAT = """---
제목: 테스트법
법령ID: '000123'
공포일자: '2020-01-01'
---

# 테스트법

## 제1장 총칙

##### 제1조 (목적)

목적 조문.

##### 제3조 (대항력 등)

본조.

##### 제3조 (보증금의 회수)

첫째 가지조문.

##### 제3조 (임차권등기명령)

둘째 가지조문.

## 제2장 기타

##### 제4조 (기간)

기간 조문.

##### 제5조

삭제 <2009.5.8>

##### 제5조의2 (명시적 가지)

명시적 가지조문.

## 부칙

부칙 <제1호,2020.1.1>

제1조 (시행일) 이 법은 공포한 날부터 시행한다.
"""


def test_split_articles_restores_branch_numbers() -> None:
    articles = baselines.split_articles(OLD_FORMAT)
    assert [a.section_id for a in articles] == [
        "제1조",
        "제3조",
        "제3조의2",
        "제3조의3",
        "제4조",
        "제5조",
        "제5조의2",
    ]
    by_id = {a.section_id: a for a in articles}
    assert by_id["제3조의2"].caption == "보증금의 회수"
    assert by_id["제3조의3"].body == "둘째 가지조문."
    assert by_id["제3조의3"].deleted is False
    assert by_id["제5조"].deleted is True and by_id["제5조"].caption == ""
    # chapter headings and 부칙 are not part of article bodies
    assert "제2장" not in by_id["제3조의3"].body
    assert by_id["제5조의2"].body == "명시적 가지조문."


# --- Korean question set ---------------------------------------------------

SECTION_RE = re.compile(r"^제\d+조(의\d+)?$")


def test_kr_questions_format_and_unique_ids() -> None:
    questions = baselines.load_questions()
    assert len(questions) >= 36
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids))
    for q in questions:
        assert set(q) == {"id", "query", "gold", "note"}, q["id"]
        assert re.fullmatch(r"kr-\d{2}", q["id"])
        assert q["query"].strip() and q["note"].strip()
        assert len(q["gold"]) == 1
        title, _, section = q["gold"][0].partition("#")
        assert title and SECTION_RE.match(section), q["gold"]


def test_kr_gold_articles_exist_and_are_not_deleted() -> None:
    statutes = baselines.load_statutes(KR_STATUTES)
    newest = {s.title: s for s in baselines.newest_versions(statutes)}
    questions = baselines.load_questions()
    for q in questions:
        title, _, section = q["gold"][0].partition("#")
        assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
        law_id = newest[title].law_id
        # the article must exist, undeleted, with the same number in every version
        for version in (s for s in statutes if s.law_id == law_id):
            found = {a.section_id: a for a in version.articles}
            assert section in found, f"{q['id']}: {section} missing from {version.path.name}"
            assert not found[section].deleted, f"{q['id']}: {section} deleted in {version.path.name}"
    # every statute of the corpus is asked about
    assert {q["gold"][0].partition("#")[0] for q in questions} == set(newest)


def test_kr_units_keys_unique() -> None:
    keys = [key for key, _text in baselines.kr_units(KR_STATUTES)]
    assert len(keys) == len(set(keys))
    assert "근로기준법#제76조의2" in keys  # branch written as a repeated heading (old format)
    assert "주택임대차보호법#제3조의7" in keys


# --- Korean ruling-style set -----------------------------------------------

RULING_ID_RE = re.compile(r"krr-(\d{3})")


def _longest_shared_run(a: str, b: str) -> str:
    """The longest common substring of ``a`` and ``b`` after removing all whitespace."""
    a, b = re.sub(r"\s+", "", a), re.sub(r"\s+", "", b)
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return a[m.a : m.a + m.size]


def test_longest_shared_run_ignores_whitespace() -> None:
    assert _longest_shared_run("1세대 1주택 비과세", "가 1세대1주택비과세를") == "1세대1주택비과세"
    assert _longest_shared_run("abc", "xyz") == ""


def test_kr_rulings_format_ids_and_splits() -> None:
    questions = baselines.load_questions(baselines.KR_RULINGS)
    assert len(questions) >= 160
    for number, q in enumerate(questions, start=1):
        assert set(q) == {"id", "query", "gold", "note", "split"}, q
        m = RULING_ID_RE.fullmatch(q["id"])
        assert m and int(m.group(1)) == number, f"ids run krr-001, krr-002, ...: {q['id']}"
        assert q["split"] == ("dev" if number % 2 else "test"), q["id"]
        assert q["query"].strip() and q["note"].strip(), q["id"]
        assert len(q["gold"]) == 1, q["id"]
        title, _, section = q["gold"][0].partition("#")
        assert title and SECTION_RE.match(section), q["gold"]
    assert len({q["id"] for q in questions}) == len(questions)
    # no article is gold for more than 4 questions; at most ~15% name an article number
    assert max(Counter(q["gold"][0] for q in questions).values()) <= 4
    assert sum(1 for q in questions if re.search(r"제\d+조", q["query"])) <= 0.15 * len(questions)
    # both halves cover every law asked about
    laws = {q["gold"][0].partition("#")[0] for q in questions}
    for split in baselines.SPLITS:
        half = baselines.load_questions(baselines.KR_RULINGS, split)
        assert {q["gold"][0].partition("#")[0] for q in half} == laws, split


def test_kr_ruling_gold_articles_exist_and_are_not_deleted() -> None:
    statutes = baselines.load_statutes(KR_STATUTES)
    newest = {s.title: s for s in baselines.newest_versions(statutes)}
    questions = baselines.load_questions(baselines.KR_RULINGS)
    for q in questions:
        title, _, section = q["gold"][0].partition("#")
        assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
        found = {a.section_id: a for a in newest[title].articles}
        assert section in found, f"{q['id']}: {section} missing from {newest[title].path.name}"
        assert not found[section].deleted, f"{q['id']}: {section} is deleted"
    laws = Counter(q["gold"][0].partition("#")[0] for q in questions)
    assert len(laws) >= 3
    assert laws.most_common(1)[0][0] == "소득세법"


def test_kr_ruling_queries_do_not_copy_their_gold_article() -> None:
    """No query shares a run of more than 20 characters (whitespace removed) with its gold
    article's heading and body."""
    units = dict(baselines.kr_units(KR_STATUTES))
    for q in baselines.load_questions(baselines.KR_RULINGS):
        run = _longest_shared_run(q["query"], units[q["gold"][0]])
        assert len(run) <= 20, f"{q['id']} copies {run!r} ({len(run)} characters)"


SPLIT_ROWS = [
    {"id": "a", "query": "q1", "gold": ["법#제1조"], "split": "dev"},
    {"id": "b", "query": "q2", "gold": ["법#제2조"], "split": "test"},
    {"id": "c", "query": "q3", "gold": ["법#제3조"]},
]


def _write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_queries_picks_one_split(tmp_path: Path) -> None:
    path = _write_rows(tmp_path / "q.jsonl", SPLIT_ROWS)
    assert [q.id for q in load_queries(path)] == ["a", "b", "c"]  # the split field is accepted
    assert [q.id for q in load_queries(path, "dev")] == ["a"]
    assert [q.id for q in load_queries(path, "test")] == ["b"]
    assert [q["id"] for q in baselines.load_questions(path, "test")] == ["b"]
    assert [q["id"] for q in baselines.load_questions(path)] == ["a", "b", "c"]


def test_load_queries_split_errors(tmp_path: Path) -> None:
    path = _write_rows(tmp_path / "q.jsonl", SPLIT_ROWS)
    with pytest.raises(InputError, match="no queries with split 'holdout'"):
        load_queries(path, "holdout")
    with pytest.raises(ValueError, match="no questions with split 'holdout'"):
        baselines.load_questions(path, "holdout")
    # lines outside the chosen split are still validated, and ids are unique over the whole file
    dup = _write_rows(tmp_path / "dup.jsonl", [*SPLIT_ROWS, {"id": "a", "query": "q", "gold": ["x"], "split": "test"}])
    with pytest.raises(InputError, match="duplicate query id 'a'"):
        load_queries(dup, "test")
    bad_row = {"id": "d", "query": "q", "gold": [], "split": "dev"}
    broken = _write_rows(tmp_path / "broken.jsonl", [*SPLIT_ROWS, bad_row])
    with pytest.raises(InputError, match="broken.jsonl:4"):
        load_queries(broken, "test")
    bad_gold_row = {"id": "e", "query": "q", "gold": ["법#"], "split": "dev"}
    bad_gold = _write_rows(tmp_path / "gold.jsonl", [*SPLIT_ROWS, bad_gold_row])
    with pytest.raises(InputError, match="bad gold entry"):
        load_queries(bad_gold, "test")


# --- ARES NQ ---------------------------------------------------------------

TOY_ROWS = [
    {"document_index": "7", "document": "Doc one.", "synthetic_query": "q1",
     "Context_Relevance_Label": "Yes", "generated_answer": "a1",
     "Answer_Faithfulness_Label": "Yes", "Answer_Relevance_Label": "Yes"},
    {"document_index": "9", "document": "Doc two.", "synthetic_query": "q2",
     "Context_Relevance_Label": "No", "generated_answer": "",
     "Answer_Faithfulness_Label": "", "Answer_Relevance_Label": ""},
    {"document_index": "8", "document": "Doc one.", "synthetic_query": "q1",
     "Context_Relevance_Label": "Yes", "generated_answer": "a2",
     "Answer_Faithfulness_Label": "No", "Answer_Relevance_Label": "No"},
]  # fmt: skip


def test_ares_retrieval_and_support_sets_on_toy_rows(tmp_path: Path) -> None:
    documents, queries = ares_nq.retrieval_set(TOY_ROWS)
    assert documents == [("nq-0", "Doc one."), ("nq-1", "Doc two.")]
    assert queries == [("nq-q0", "q1", "nq-0"), ("nq-q2", "q1", "nq-0")]
    support = ares_nq.support_set(TOY_ROWS)
    assert [(s["id"], s["label"], s["doc_id"]) for s in support] == [
        ("nq-q0", "Yes", "nq-0"),
        ("nq-q2", "No", "nq-0"),
    ]
    assert ares_nq.write_corpus_jsonl(tmp_path / "c.jsonl", TOY_ROWS) == 2
    assert ares_nq.write_queries_jsonl(tmp_path / "q.jsonl", TOY_ROWS) == 2
    corpus = [json.loads(x) for x in (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()]
    assert corpus[0] == {"_id": "nq-0", "title": "", "text": "Doc one."}
    first_query = json.loads((tmp_path / "q.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first_query == {"id": "nq-q0", "query": "q1", "gold": ["nq-0"]}


def test_ares_loader_on_the_shipped_excerpt_of_the_real_file() -> None:
    """The first 40 rows of the real TSV, byte for byte (tests/data/evalsets/README.md). The whole
    file's counts against its README are checked by ``python benchmarks/ares_nq.py``."""
    rows = ares_nq.load_rows(ARES_NQ_EXCERPT)
    found = ares_nq.counts(rows)
    assert (found["rows"], found["retrieval_queries"], found["documents"]) == (40, 28, 39)
    assert (found["support_yes"], found["support_no"], found["documents_with_titles"]) == (15, 13, 0)
    # rows 38 and 39 ask the same query of the same passage, with a faithful and an unfaithful answer
    assert rows[38]["synthetic_query"] == rows[39]["synthetic_query"]
    assert rows[38]["document"] == rows[39]["document"]
    assert [rows[38]["Answer_Faithfulness_Label"], rows[39]["Answer_Faithfulness_Label"]] == ["Yes", "No"]


# --- Korean hard ruling-style set --------------------------------------------

HARD_ID_RE = re.compile(r"krh-(\d{3})")


def test_kr_hard_format_ids_splits_and_several_gold() -> None:
    questions = baselines.load_questions(baselines.KR_HARD)
    assert 60 <= len(questions) <= 100
    for number, q in enumerate(questions, start=1):
        assert set(q) == {"id", "query", "gold", "note", "split"}, q
        m = HARD_ID_RE.fullmatch(q["id"])
        assert m and int(m.group(1)) == number, f"ids run krh-001, krh-002, ...: {q['id']}"
        assert q["split"] == ("dev" if number % 2 else "test"), q["id"]
        assert q["query"].strip() and q["note"].strip(), q["id"]
        assert 1 <= len(q["gold"]) <= 3 and len(set(q["gold"])) == len(q["gold"]), q["id"]
        for gold in q["gold"]:
            title, _, section = gold.partition("#")
            assert title and SECTION_RE.match(section), gold
        # article numbers are removed, as in the real rulings
        assert not re.search(r"제\s*\d+\s*조", q["query"]), q["id"]
    # most questions name several articles
    assert sum(1 for q in questions if len(q["gold"]) > 1) >= 0.75 * len(questions)


def test_kr_hard_gold_articles_exist_and_are_not_deleted() -> None:
    statutes = baselines.load_statutes(KR_STATUTES)
    newest = {s.title: s for s in baselines.newest_versions(statutes)}
    for q in baselines.load_questions(baselines.KR_HARD):
        for gold in q["gold"]:
            title, _, section = gold.partition("#")
            assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
            found = {a.section_id: a for a in newest[title].articles}
            assert section in found and not found[section].deleted, f"{q['id']}: {gold}"


def test_kr_hard_queries_do_not_copy_their_gold_articles() -> None:
    """No query shares a run of more than 15 characters (whitespace removed) with any of its gold
    articles (stricter than the ruling-style set's 20: these are meant to be harder)."""
    units = dict(baselines.kr_units(KR_STATUTES))
    for q in baselines.load_questions(baselines.KR_HARD):
        for gold in q["gold"]:
            run = _longest_shared_run(q["query"], units[gold])
            assert len(run) <= 15, f"{q['id']} copies {run!r} from {gold} ({len(run)} characters)"


def test_char_bigrams_and_bm25s_bigrams() -> None:
    assert baselines.char_bigrams("보증금을 A 돌려") == ["보증", "증금", "금을", "a", "돌려"]
    units = [("a", "임차인은 보증금을 돌려받는다"), ("b", "근로자는 임금을 받는다"), ("c", "과세기간")]
    ranked = baselines.bm25s_bigrams(units, ["보증금 반환", "없는말"], 10)
    assert ranked[0][0] == "a" and "c" not in ranked[0]
    assert ranked[1] == []  # no bigram in common: nothing, not zero-score noise


# --- second held-out hard set (test2) ----------------------------------------

HARD2_ID_RE = re.compile(r"krh2-(\d{3})")
LAW_TITLE_RE = re.compile(
    r"소득세법|근로기준법|주택임대차보호법|개인정보 ?보호법|출입국관리법|종합부동산세법|외국인근로자의 ?고용"
)


def test_kr_hard2_format_ids_split_and_several_gold() -> None:
    questions = baselines.load_questions(baselines.KR_HARD2)
    assert 50 <= len(questions) <= 80
    assert baselines.load_questions(baselines.KR_HARD2, "test2") == questions  # one held-out split
    for number, q in enumerate(questions, start=1):
        assert set(q) == {"id", "query", "gold", "note", "split"}, q
        m = HARD2_ID_RE.fullmatch(q["id"])
        assert m and int(m.group(1)) == number, f"ids run krh2-001, krh2-002, ...: {q['id']}"
        assert q["split"] == "test2" and q["query"].strip() and q["note"].strip(), q["id"]
        assert 1 <= len(q["gold"]) <= 3 and len(set(q["gold"])) == len(q["gold"]), q["id"]
        # article numbers and law titles are removed, as in the real rulings
        assert not re.search(r"제\s*\d+\s*조", q["query"]), q["id"]
        assert not LAW_TITLE_RE.search(q["query"]), q["id"]
    assert sum(1 for q in questions if len(q["gold"]) > 1) >= 0.75 * len(questions)
    # no id is shared with the first hard set
    assert not {q["id"] for q in questions} & {q["id"] for q in baselines.load_questions(baselines.KR_HARD)}


def test_kr_hard2_gold_articles_exist_and_are_not_deleted() -> None:
    newest = {s.title: s for s in baselines.newest_versions(baselines.load_statutes(KR_STATUTES))}
    for q in baselines.load_questions(baselines.KR_HARD2):
        for gold in q["gold"]:
            title, _, section = gold.partition("#")
            assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
            found = {a.section_id: a for a in newest[title].articles}
            assert section in found and not found[section].deleted, f"{q['id']}: {gold}"


def test_kr_hard2_queries_do_not_copy_their_gold_articles() -> None:
    units = dict(baselines.kr_units(KR_STATUTES))
    for q in baselines.load_questions(baselines.KR_HARD2):
        for gold in q["gold"]:
            run = _longest_shared_run(q["query"], units[gold])
            assert len(run) <= 15, f"{q['id']} copies {run!r} from {gold} ({len(run)} characters)"


# --- third hard set (dev and test halves) ------------------------------------

HARD3_ID_RE = re.compile(r"krh3-(\d{3})")


def test_kr_hard3_format_ids_splits_and_several_gold() -> None:
    questions = baselines.load_questions(baselines.KR_HARD3)
    assert 50 <= len(questions) <= 80
    for number, q in enumerate(questions, start=1):
        assert set(q) == {"id", "query", "gold", "note", "split"}, q
        m = HARD3_ID_RE.fullmatch(q["id"])
        assert m and int(m.group(1)) == number, f"ids run krh3-001, krh3-002, ...: {q['id']}"
        assert q["split"] == ("dev" if number % 2 else "test"), q["id"]
        assert q["query"].strip() and q["note"].strip(), q["id"]
        assert 1 <= len(q["gold"]) <= 3 and len(set(q["gold"])) == len(q["gold"]), q["id"]
        assert not re.search(r"제\s*\d+\s*조", q["query"]), q["id"]
        assert not LAW_TITLE_RE.search(q["query"]), q["id"]
    assert sum(1 for q in questions if len(q["gold"]) > 1) >= 0.75 * len(questions)
    earlier = baselines.load_questions(baselines.KR_HARD) + baselines.load_questions(baselines.KR_HARD2)
    assert not {q["id"] for q in questions} & {q["id"] for q in earlier}


def test_kr_hard3_gold_articles_exist_and_are_not_deleted() -> None:
    newest = {s.title: s for s in baselines.newest_versions(baselines.load_statutes(KR_STATUTES))}
    for q in baselines.load_questions(baselines.KR_HARD3):
        for gold in q["gold"]:
            title, _, section = gold.partition("#")
            assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
            found = {a.section_id: a for a in newest[title].articles}
            assert section in found and not found[section].deleted, f"{q['id']}: {gold}"


def test_kr_hard3_queries_do_not_copy_their_gold_articles() -> None:
    units = dict(baselines.kr_units(KR_STATUTES))
    for q in baselines.load_questions(baselines.KR_HARD3):
        for gold in q["gold"]:
            run = _longest_shared_run(q["query"], units[gold])
            assert len(run) <= 15, f"{q['id']} copies {run!r} from {gold} ({len(run)} characters)"


# --- ruling-length set (dev and test halves) ---------------------------------

LONG_ID_RE = re.compile(r"krl-(\d{3})")


def test_kr_long_format_ids_splits_and_length() -> None:
    questions = baselines.load_questions(baselines.KR_LONG)
    assert 50 <= len(questions) <= 80
    for number, q in enumerate(questions, start=1):
        assert set(q) == {"id", "query", "gold", "note", "split"}, q
        m = LONG_ID_RE.fullmatch(q["id"])
        assert m and int(m.group(1)) == number, f"ids run krl-001, krl-002, ...: {q['id']}"
        assert q["split"] == ("dev" if number % 2 else "test"), q["id"]
        assert q["note"].strip(), q["id"]
        # the length of a real ruling summary, which is what the set is for
        assert 200 <= len(q["query"]) <= 600, f"{q['id']}: {len(q['query'])} characters"
        assert 1 <= len(q["gold"]) <= 3 and len(set(q["gold"])) == len(q["gold"]), q["id"]
        assert not re.search(r"제\s*\d+\s*조", q["query"]), q["id"]
        assert not LAW_TITLE_RE.search(q["query"]), q["id"]
    assert sum(1 for q in questions if len(q["gold"]) > 1) >= 0.75 * len(questions)
    earlier = [baselines.KR_HARD, baselines.KR_HARD2, baselines.KR_HARD3, baselines.KR_RULINGS]
    assert not {q["id"] for q in questions} & {q["id"] for path in earlier for q in baselines.load_questions(path)}


def test_kr_long_gold_articles_exist_and_each_half_covers_every_law() -> None:
    newest = {s.title: s for s in baselines.newest_versions(baselines.load_statutes(KR_STATUTES))}
    laws: dict[str, set[str]] = {"dev": set(), "test": set()}
    for q in baselines.load_questions(baselines.KR_LONG):
        for gold in q["gold"]:
            title, _, section = gold.partition("#")
            assert title in newest, f"{q['id']}: {title} is not the newest title of a statute"
            found = {a.section_id: a for a in newest[title].articles}
            assert section in found and not found[section].deleted, f"{q['id']}: {gold}"
            laws[q["split"]].add(title)
    assert laws["dev"] == laws["test"] == set(newest)


def test_kr_long_queries_do_not_copy_their_gold_articles() -> None:
    units = dict(baselines.kr_units(KR_STATUTES))
    for q in baselines.load_questions(baselines.KR_LONG):
        for gold in q["gold"]:
            run = _longest_shared_run(q["query"], units[gold])
            assert len(run) <= 15, f"{q['id']} copies {run!r} from {gold} ({len(run)} characters)"
