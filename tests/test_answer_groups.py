"""Quotes the extractive composer quotes together stand or fall together when the answer is verified.

A list item is quoted after the sentence that introduces its list, a description after the entry it
is under (``.. function:: ip_address(address)``): when verification removes the item or the
description, the lead-in left behind says nothing, or says it wrongly, and goes too."""

from __future__ import annotations

from citewise.answer.result import AskResult, AskSettings
from citewise.answer.verified import verify_answer
from citewise.records.answer import AskOutcome, Citation, Evidence

ARTICLE = (
    "① 임대인은 임차인이 계약갱신을 요구할 경우 정당한 사유 없이 거절하지 못한다. "
    "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.\n"
    "  1. 임차인이 2기의 차임액에 해당하는 금액에 이르도록 차임을 연체한 사실이 있는 경우\n"
    "  3. 서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우\n"
    "② 임차인은 제1항에 따른 계약갱신요구권을 1회에 한하여 행사할 수 있다."
)
RULE = "① 임대인은 임차인이 계약갱신을 요구할 경우 정당한 사유 없이 거절하지 못한다."
LEAD = "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다."
ONCE = "② 임차인은 제1항에 따른 계약갱신요구권을 1회에 한하여 행사할 수 있다."


def _result(lines: list[tuple[str, int]]) -> AskResult:
    evidence = Evidence("E1", "kr-law-001248", 2, "제6조의3", "주택임대차보호법", "계약갱신 요구", ARTICLE, "sha256:x")
    citations = tuple(Citation("E1", quote, "kr-law-001248", 2, "제6조의3", group=group) for quote, group in lines)
    text = "\n".join(f"{quote} [E1]" for quote, _ in lines)
    return AskResult(
        run_id="ask-test",
        question="집주인이 갱신을 거절할 수 있는 경우는?",
        mode="active",
        outcome=AskOutcome.FALLBACK,
        text=text,
        citations=citations,
        evidence=(evidence,),
    )


def test_a_removed_item_takes_its_lead_ins_with_it() -> None:
    # The item says 5기 where the statute says 2기: removed; the rule and "다만, …" quoted for it go too.
    wrong = "1. 임차인이 5기의 차임액에 해당하는 금액에 이르도록 차임을 연체한 사실이 있는 경우"
    delivered, delivery = verify_answer(_result([(RULE, 1), (LEAD, 1), (wrong, 1), (ONCE, 0)]), AskSettings())
    assert delivery is not None and delivery.acceptance.accepted
    assert delivered.text == f"{ONCE} [E1]"
    assert ["5기" in f.sentence for f in delivered.removed] == [True]  # the item alone: the others were not wrong


def test_a_removed_sentence_quoted_alone_takes_nothing_with_it() -> None:
    wrong = "② 임차인은 제1항에 따른 계약갱신요구권을 2회에 한하여 행사할 수 있다."
    item = "3. 서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우"
    delivered, _ = verify_answer(_result([(RULE, 1), (LEAD, 1), (item, 1), (wrong, 0)]), AskSettings())
    assert delivered.text.splitlines() == [f"{RULE} [E1]", f"{LEAD} [E1]", f"{item} [E1]"]


def test_when_every_group_falls_the_ask_is_a_handoff() -> None:
    wrong = "3. 서로 합의하여 임차인이 임대인에게 상당한 보상을 제공한 경우"  # roles swapped
    delivered, delivery = verify_answer(_result([(RULE, 1), (LEAD, 1), (wrong, 1)]), AskSettings())
    assert delivery is None and delivered.outcome is AskOutcome.HANDOFF
