"""A stored text's hard-wrapped lines are one sentence; its blocks, items and table rows are not
(citewise.text.sentences.stored_sentences, unwrapped)."""

from __future__ import annotations

import pytest

from citewise.text.sentences import stored_sentences, unwrapped

WRAPPED = (
    "The Secretary, in accordance with any agreements entered into pursuant to section\n"
    "1(a) of this Act, is authorized to conduct such investigations. If *strict* is ``True`` and\n"
    "host bits are set, then\n:exc:`ValueError` is raised.\n"
)


def test_a_paragraph_wrapped_at_any_word_reads_as_its_sentences() -> None:
    assert stored_sentences(WRAPPED) == [
        "The Secretary, in accordance with any agreements entered into pursuant to section 1(a) of this Act, "
        "is authorized to conduct such investigations.",
        "If *strict* is ``True`` and host bits are set, then :exc:`ValueError` is raised.",
    ]
    flat = unwrapped(WRAPPED)
    assert len(flat) == len(WRAPPED) and flat.count("\n") == 1  # offsets kept: only the breaks became spaces


@pytest.mark.parametrize(
    "text",
    [
        "① 배당소득은 다음 각 호의 소득으로 한다.\n1. 이익의 배당\n2의2. 신탁재산으로부터 받는 배당금",  # Korean items
        "세율은 다음과 같다\n│ 과세표준 │ 세율 │\n│ 1천400만원 이하 │ 6퍼센트 │",  # a table drawn in text
        "## Network objects\nAll attributes are read-only.",  # a heading
        "The options are:\n- strict mode\n- lax mode",  # a Markdown list
        "That is all.\nThe next sentence stands on its own line.",  # a line that ends a sentence
    ],
)
def test_lines_that_open_blocks_or_follow_a_sentence_are_not_joined(text: str) -> None:
    assert unwrapped(text) == text
