# ruff: noqa: E501  (statute sentences, one a line)
"""A statute's list items are quoted with the sentences that introduce them (citewise.text.lead_ins)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from citewise.text.lead_ins import follow_on, is_item, item_marker, lead_in, list_items, proviso
from citewise.text.sentences import split_answer_sentences

STATUTES = Path(__file__).parent / "data" / "corpora" / "kr-statutes"

RULE = "① 임대인은 임차인이 계약갱신을 요구할 경우 정당한 사유 없이 거절하지 못한다."
PROVISO = "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다."
LEASE = f"""{RULE} {PROVISO}

1. 임차인이 2기의 차임액에 해당하는 금액에 이르도록 차임을 연체한 사실이 있는 경우
2. 서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우
② 임차인은 계약갱신요구권을 1회에 한하여 행사할 수 있다."""


@pytest.mark.parametrize(
    ("sentence", "item"),
    [
        ("서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우", True),
        ("국외에서 받는 예금의 이자", True),
        ('슬롯머신 등을 이용하는 행위에 참가하여 받는 금품(이하 "당첨금품등"이라 한다)', True),  # a closing gloss
        ("제89조의2제1항에 따라 영주자격이 취소된 사람.", True),  # a full stop does not make a sentence
        ("임대차는 2년으로 본다.", False),
        ("임대차는 2년으로 본다. <개정 2020.3.24>", False),  # an amendment note after the predicate
        ("그 기간은 2년으로 한다(다만, 제2항의 경우는 제외한다).", False),
        ("<개정 2010.12.27>", False),
        ("가.", False),
        ("│A: 제55조에 따라 계산한 해당 과세기간의 종합소득산출세액     │", False),  # a table row
        ("The tenant may renew the lease", False),  # English items are left as they are
    ],
)
def test_an_item_is_korean_text_that_ends_in_no_predicate(sentence: str, item: bool) -> None:
    assert is_item(sentence) is item


def test_an_item_under_a_proviso_is_read_with_the_proviso_and_the_rule_it_excepts_from() -> None:
    sentences = split_answer_sentences(LEASE)
    second = sentences.index("서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우")
    assert lead_in(sentences, second, LEASE) == (RULE, PROVISO)
    assert item_marker(LEASE, sentences[second]) == "2."
    assert lead_in(sentences, sentences.index(PROVISO), LEASE) == (RULE,)  # a proviso, the rule it excepts from
    assert lead_in(sentences, 0, LEASE) == ()  # a rule needs nothing before it
    assert lead_in(sentences, len(sentences) - 1, LEASE) == ()  # nor does a paragraph's first sentence


def test_the_sentence_that_introduces_the_list_is_preferred_to_a_follow_on_after_it() -> None:
    text = """① 과세표준은 다음 각 호의 금액 중 큰 것으로 한다. 이 경우 배당소득은 이자소득으로 보지 아니한다.
1. 다음 각 목의 세액을 더한 금액
가. 이자소득등의 금액에 대한 산출세액
나. 그 밖의 종합소득금액에 대한 산출세액
② 다른 문장이다. 이 경우 그러하다.
1. 그 밖의 경우"""
    sentences = split_answer_sentences(text)
    nested = sentences.index("이자소득등의 금액에 대한 산출세액")
    # A nested item (가.) is read with the item that opens its list (1. 다음 각 목의 …) too.
    assert lead_in(sentences, nested, text) == (
        "① 과세표준은 다음 각 호의 금액 중 큰 것으로 한다.",
        "다음 각 목의 세액을 더한 금액",
    )
    assert item_marker(text, sentences[nested]) == "가."
    # A list in another paragraph is introduced there, not by the first paragraph's sentence; the
    # follow-on that introduces it leans on its own paragraph's rule.
    assert lead_in(sentences, len(sentences) - 1, text) == ("② 다른 문장이다.", "이 경우 그러하다.")


def test_every_item_of_a_real_statute_finds_a_lead_in_that_occurs_before_it() -> None:
    text = gzip.decompress(next(STATUTES.glob("소득세법__*.md.gz")).read_bytes()).decode("utf-8")
    # 제21조 (기타소득) as the store holds it: the paragraphs' numbers without Markdown's bold.
    start = text.index("##### 제21조 (기타소득)\n") + len("##### 제21조 (기타소득)\n")
    article = text[start : text.index("##### 제22조 (퇴직소득)")].replace("**", "")
    sentences = split_answer_sentences(article)
    items = [i for i, s in enumerate(sentences) if is_item(s)]
    assert len(items) > 20
    for index in items:
        found = lead_in(sentences, index, article)
        assert found, sentences[index]
        assert all(article.index(s) < article.index(sentences[index]) for s in found)
        assert found[0].startswith("①") or "다음 각" in found[0], found


def test_a_follow_on_or_a_proviso_leans_on_the_sentence_before_it_and_what_that_one_leans_on() -> None:
    text = """② 임차인은 계약갱신요구권을 1회에 한하여 행사할 수 있다. 이 경우 갱신되는 임대차의 존속기간은 2년으로 본다.
③ 갱신되는 임대차는 전 임대차와 동일한 조건으로 다시 계약된 것으로 본다. 다만, 차임과 보증금은 증감할 수 있다. 이 경우 증액청구는 1년 이내에는 하지 못한다."""
    sentences = split_answer_sentences(text)
    assert follow_on(sentences[1]) and proviso(sentences[3]) and not proviso(sentences[2])
    assert lead_in(sentences, 1, text) == ("② 임차인은 계약갱신요구권을 1회에 한하여 행사할 수 있다.",)
    assert lead_in(sentences, 4, text) == (  # a chain: the follow-on, the proviso before it, the rule
        "③ 갱신되는 임대차는 전 임대차와 동일한 조건으로 다시 계약된 것으로 본다.",
        "다만, 차임과 보증금은 증감할 수 있다.",
    )
    english = split_answer_sentences("The lessee may renew once. In this case the term is two years.")
    assert lead_in(english, 1) == ("The lessee may renew once.",)


def test_a_follow_on_after_a_list_leans_on_the_sentence_that_introduced_the_list() -> None:
    text = """① 사용자는 다음 각 호의 사항을 명시하여야 한다.
1. 임금의 구성항목
2. 근로시간에 관한 사항
이 경우 임금의 구성항목은 서면으로 명시하여야 한다."""
    sentences = split_answer_sentences(text)
    assert lead_in(sentences, len(sentences) - 1, text) == ("① 사용자는 다음 각 호의 사항을 명시하여야 한다.",)


def test_an_item_after_an_item_with_sentences_of_its_own_leans_on_the_sentence_that_introduced_the_list() -> None:
    # 소득세법 제119조's items hold sentences of their own ("이 경우 … 포함한다."): they are inside item 10,
    # not what item 11 leans on.
    text = """① 국내원천소득은 다음 각 호와 같이 구분한다.
1. 국내원천 이자소득
10. 국내원천 사용료소득: 자산을 사용하는 대가. 이 경우 기계ㆍ설비를 임대하는 대가를 포함한다.
11. 국내원천 유가증권양도소득"""
    sentences = split_answer_sentences(text)
    assert lead_in(sentences, len(sentences) - 1, text) == ("① 국내원천소득은 다음 각 호와 같이 구분한다.",)
    assert item_marker(text, sentences[-1]) == "11."


def test_a_sentence_that_leads_a_list_has_its_items_and_no_nested_ones() -> None:
    text = """① 임대인은 다음 각 호의 경우에 갱신을 거절할 수 있다.
1. 차임을 연체한 경우
2. 다음 각 목의 사유로 철거하는 경우
가. 노후ㆍ훼손 또는 일부 멸실
3. 실제 거주하려는 경우
② 임차인은 1회에 한하여 행사할 수 있다."""
    sentences = split_answer_sentences(text)
    assert list_items(sentences, 0, text) == ("차임을 연체한 경우", "다음 각 목의 사유로 철거하는 경우", "실제 거주하려는 경우")
    assert list_items(sentences, len(sentences) - 1, text) == ()  # leads no list
