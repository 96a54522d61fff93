"""The one sentence splitter (``citewise.text.sentences``) and what each of its callers relies on.

The extractive composer, passage selection and the search snippet each had a splitter of their own
that cut at every full stop followed by a space (or at every full stop), so a statute's amendment
date ``<개정 2015. 1. 6.>``, ``Art. 4`` and ``2.5 million`` were cut into pieces. They now all cut
where :func:`split_answer_sentences` cuts.
"""

from __future__ import annotations

import re

import pytest

from citewise.answer.deterministic import best_sentence, compose_extractive
from citewise.answer.question import analyse_question
from citewise.records.answer import Evidence
from citewise.research.select import select_passages
from citewise.search.local import snippet
from citewise.text.sentences import sentence_spans, split_answer_sentences

pytestmark = pytest.mark.unit

ARTICLE = (
    "① 임대차는 그 등기가 없는 경우에도 주민등록을 마친 때에는 그 다음 날부터 효력이 생긴다.<개정 2015. 1. 6.>\n"
    "② 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다.다만, 인도하지 아니하면 받을 수 없다.\n"
    "1.\n"
    "See Art. 4 for the fee of 2.5 million won."
)


def test_dates_abbreviations_and_numbers_do_not_end_a_sentence() -> None:
    assert split_answer_sentences(ARTICLE) == [
        "① 임대차는 그 등기가 없는 경우에도 주민등록을 마친 때에는 그 다음 날부터 효력이 생긴다.<개정 2015. 1. 6.>",
        "② 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다.",
        "다만, 인도하지 아니하면 받을 수 없다.",
        "See Art. 4 for the fee of 2.5 million won.",
    ]


def test_sentence_spans_cover_every_visible_character_once() -> None:
    spans = sentence_spans(ARTICLE)
    assert [ARTICLE[start:end] for start, end in spans] == [
        "① 임대차는 그 등기가 없는 경우에도 주민등록을 마친 때에는 그 다음 날부터 효력이 생긴다.<개정 2015. 1. 6.>",
        "② 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다.",
        "다만, 인도하지 아니하면 받을 수 없다.\n1.",  # the bare list number stays with the sentence before
        "See Art. 4 for the fee of 2.5 million won.",
    ]
    covered = "".join(ARTICLE[start:end] for start, end in spans)
    assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", ARTICLE)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in zip(spans, spans[1:], strict=False))


def test_sentence_spans_of_text_without_a_sentence() -> None:
    assert sentence_spans("  12 | 34  ") == [(2, 9)]
    assert sentence_spans(" --- ") == []  # punctuation alone is no sentence
    assert sentence_spans("   ") == []


def test_spans_and_sentences_agree() -> None:
    text = "Rent is due. It is 2.5% (cf. Art. 4).\nNext line! 다음 문장이다.그리고 또."
    assert [text[s:e] for s, e in sentence_spans(text)] == split_answer_sentences(text)


def test_the_extractive_answer_quotes_a_whole_sentence_with_its_date() -> None:
    # The composer used to cut at "2015. " and "2020. 3. ", quoting "1." or "3." fragments or a
    # sentence without its date; the quote must still be a verbatim substring of the passage.
    question = analyse_question("보증금은 언제 돌려받을 수 있나요?")
    score, sentence = best_sentence(question, "제3조의2(보증금의 회수)", ARTICLE)
    assert score > 0
    assert sentence == "② 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다."
    evidence = Evidence("E1", "doc", 1, "a3-2", "주택임대차보호법", "제3조의2", ARTICLE, "sha256:0")
    answer = compose_extractive("보증금은 언제 돌려받을 수 있나요?", [evidence])
    assert all(c.quote in ARTICLE for c in answer.citations)
    assert answer.citations[0].quote == sentence


def test_the_snippet_is_a_whole_sentence() -> None:
    text = "The scheme holds about 2.5 million deposits. See Art. 4 for the protection fee."
    assert snippet(text, ["protection", "fee"]) == "See Art. 4 for the protection fee."
    assert snippet(text, ["million"]) == "The scheme holds about 2.5 million deposits."


def test_selected_chunks_end_at_sentence_ends_only() -> None:
    sentence = "See Art. 4 of the 2020. 3. 24. act for the deposit rules that apply here. "
    paragraph = sentence * 40  # one paragraph longer than a chunk, cut into runs of whole sentences
    page = "Intro about deposits.\n\n" + paragraph + "\n\nUnrelated closing words."
    excerpt = select_passages(page, "deposit rules", "deposit rules", max_chars=1600)
    for chunk in excerpt.split("\n\n"):
        assert chunk.endswith("apply here.") or chunk in {"Intro about deposits.", "Unrelated closing words."}


@pytest.mark.parametrize(
    "text",
    [
        "George R.R. Martin wrote the novels.",
        "The commentary is by V.N. Shukla.",
        "The case was heard in St. Louis in 2001.",
        "Bill J. Moody sang it.",
        "T. A. P. S. is a television series.",
        "Dr. Kim and Mr. Lee met on Mt. Halla with Martin Luther King Jr. Day nearby.",
        "The U.S. Congress passed it, e.g. Fig. 3 and No. 5 show it, i.e. Python 3.11.2 and § 4.1 apply.",
        "It was contributed by Eric V. Smith.",
    ],
)
def test_initials_titles_and_numbers_do_not_end_a_sentence(text: str) -> None:
    assert split_answer_sentences(text) == [text]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("He moved in 1990. He left in 1995.", ["He moved in 1990.", "He left in 1995."]),
        # An acronym that ends a sentence before a word that opens one: cut (the opener decides).
        (
            "It is based in the U.S. The next office is in Seoul.",
            ["It is based in the U.S.", "The next office is in Seoul."],
        ),
        ("The winner was Plan B. The rest failed.", ["The winner was Plan B.", "The rest failed."]),
        (
            "It was written by Martin Luther King Jr. He gave it in 1963.",
            ["It was written by Martin Luther King Jr.", "He gave it in 1963."],
        ),
        (
            "It shipped in Python 3.11. The next release is 3.12.",
            ["It shipped in Python 3.11.", "The next release is 3.12."],
        ),
        ("We use C. It is fast.", ["We use C.", "It is fast."]),
        ("Tools include A, B, etc. This list is short.", ["Tools include A, B, etc.", "This list is short."]),
    ],
)
def test_real_sentence_ends_after_initials_and_numbers_still_cut(text: str, sentences: list[str]) -> None:
    assert split_answer_sentences(text) == sentences


def test_korean_sentences_cut_as_before_around_initials() -> None:
    # A Korean sentence after an initial is not a capitalised name: the cut stays.
    assert split_answer_sentences("등급은 A. 다음 등급은 B이다.") == ["등급은 A.", "다음 등급은 B이다."]
    assert split_answer_sentences("U.S. 정부는 2020. 3. 24. 발표했다.다음 문장이다.") == [
        "U.S. 정부는 2020. 3. 24. 발표했다.",
        "다음 문장이다.",
    ]


def test_a_year_and_month_inside_a_korean_sentence_does_not_end_it() -> None:
    # A ruling's fact pattern dates events by year and month ("2021.3.", "2021. 3."): the sentence
    # goes on after the date, which once cut it in two.
    text = "청구인은 2021.3. 소속 회사의 대표이사로 취임하였다. 그 뒤 2023. 11. 퇴직하였다."
    assert split_answer_sentences(text) == [
        "청구인은 2021.3. 소속 회사의 대표이사로 취임하였다.",
        "그 뒤 2023. 11. 퇴직하였다.",
    ]
    # Before an English sentence, or a number that is not a month, a full stop still ends one.
    assert split_answer_sentences("The rule of 2021.3. The next one.") == ["The rule of 2021.3.", "The next one."]
    assert split_answer_sentences("합계는 1234.56. 다음 문장이다.") == ["합계는 1234.56.", "다음 문장이다."]
