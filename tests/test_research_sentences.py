"""Sentence ids of an excerpt (``S1.3``): sensible cuts in Korean and English, exact stored text, stable."""

from __future__ import annotations

import re

import pytest

from citewise.research.select import select_passages
from citewise.text.sentences import parse_sentence_id, sentence_of, sentence_text, split_sentences

pytestmark = pytest.mark.unit

STATUTE = """\
제3조(대항력 등) ① 임대차는 그 등기(登記)가 없는 경우에도 임차인(賃借人)이 주택의 인도(引渡)와 주민등록을
마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다. 이 경우 전입신고를 한 때에 주민등록이 된 것으로 본다.
② 전세임대주택을 지원하는 법인이 주택을 임차한 후 지정한 입주자가
그 주택을 인도받고 주민등록을 마쳤을 때에는 제1항을 준용한다.<개정 2015. 1. 6.>
제3조의2(보증금의 회수) 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다.다만, 인도하지 아니하면 받을 수 없다.
"""

GUIDE = """\
# Deposit protection

Tenants' deposits must be protected within 30 days. The scheme, e.g. the DPS, holds about 2.5 million
deposits; see Art. 4 for details.

- Landlords pay a fee of £15.
- tenants pay nothing

| Scheme | Fee |
|--------|-----|
| DPS | 0 |
---
Was the deposit returned? Ask the scheme!
"""


def texts(content: str) -> list[tuple[str, str]]:
    return [(s.sentence_id, sentence_text(s)) for s in split_sentences("S1", content)]


def test_korean_statute_sentences() -> None:
    assert texts(STATUTE) == [
        (
            "S1.1",
            "제3조(대항력 등) ① 임대차는 그 등기(登記)가 없는 경우에도 임차인(賃借人)이 주택의 인도(引渡)와 주민등록을 "
            "마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다.",
        ),  # a hard-wrapped line does not end a sentence
        ("S1.2", "이 경우 전입신고를 한 때에 주민등록이 된 것으로 본다."),
        (
            "S1.3",  # a numbered paragraph starts anew; an amendment date is no sentence end
            "② 전세임대주택을 지원하는 법인이 주택을 임차한 후 지정한 입주자가 "
            "그 주택을 인도받고 주민등록을 마쳤을 때에는 제1항을 준용한다.<개정 2015. 1. 6.>",
        ),
        ("S1.4", "제3조의2(보증금의 회수) 임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다."),
        ("S1.5", "다만, 인도하지 아니하면 받을 수 없다."),  # 다. run into the next
    ]


def test_english_sentences() -> None:
    assert texts(GUIDE) == [
        ("S1.1", "# Deposit protection"),
        ("S1.2", "Tenants' deposits must be protected within 30 days."),
        ("S1.3", "The scheme, e.g. the DPS, holds about 2.5 million deposits; see Art. 4 for details."),
        ("S1.4", "- Landlords pay a fee of £15."),
        ("S1.5", "- tenants pay nothing"),
        ("S1.6", "| Scheme | Fee |"),  # the |---| row under it holds no word: no sentence
        ("S1.7", "| DPS | 0 |"),
        ("S1.8", "Was the deposit returned?"),  # nor is the rule (---) before it
        ("S1.9", "Ask the scheme!"),
    ]


@pytest.mark.parametrize("content", [STATUTE, GUIDE, "", "   \n\n", "2024\n\n---", "한 문장뿐"])
def test_each_sentence_is_the_exact_stored_text_and_nothing_visible_is_lost(content: str) -> None:
    sentences = split_sentences("S7", content)

    assert [s.sentence_id for s in sentences] == [f"S7.{n}" for n in range(1, len(sentences) + 1)]
    assert all(content[s.start : s.end] == s.text and s.text == s.text.strip() for s in sentences)
    assert all(a.end <= b.start for a, b in zip(sentences, sentences[1:], strict=False))
    covered = "".join(s.text for s in sentences)
    # every letter and digit of the excerpt is in exactly one sentence (a rule line of dashes is not)
    assert re.sub(r"[\W_]", "", covered) == re.sub(r"[\W_]", "", content)


def test_ids_are_stable_and_name_their_source() -> None:
    first = split_sentences("S1", GUIDE)

    assert split_sentences("S1", GUIDE) == first  # a pure function of the stored excerpt
    assert [s.text for s in split_sentences("S4", GUIDE)] == [s.text for s in first]
    assert sentence_of("S1", GUIDE, 2) == first[1] and sentence_of("S1", GUIDE, 10) is None
    assert sentence_of("S1", GUIDE, 0) is None


def test_sentence_ids_parse() -> None:
    assert parse_sentence_id("S1.3") == ("S1", 3)
    assert parse_sentence_id(" S12.40 ") == ("S12", 40)
    for text in ("S1", "S1.", "S1.0", "S1.3.2", "1.3", "S1,3", "[S1.3]", ""):
        assert parse_sentence_id(text) is None, text


def test_sentence_ids_over_a_selected_korean_excerpt() -> None:
    # The excerpt models see is a selection of paragraphs joined by blank lines; ids count over it.
    filler = "\n\n".join(f"관계없는 문단 {n}입니다. 임대료 이야기는 없습니다." for n in range(40))
    page = f"{filler}\n\n{STATUTE}\n\n{filler}"
    excerpt = select_passages(page, "보증금은 언제 돌려받나요?", "보증금 회수", max_chars=1200)

    sentences = split_sentences("S2", excerpt)

    wanted = "임차인은 2020. 3. 24. 이후 보증금을 돌려받을 수 있다."
    hit = next(s for s in sentences if wanted in s.text)
    assert sentence_of("S2", excerpt, int(hit.sentence_id.split(".")[1])) == hit
    assert all(len(s.text) < 400 for s in sentences)
