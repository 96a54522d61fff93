"""Citing by reference through the whole loop: the reviewer and the writer quote and cite sentence ids
(``S1.2``), citewise puts in the stored text, and the ledger checks each claim against exactly the
sentence it cites — from the run record alone, as ``citewise verify`` does.

The harness (fake Tavily and OpenAI servers, the scripted ``Brain``) is the research loop tests'.
"""

from __future__ import annotations

from html import escape
from typing import Any

import pytest

from citewise.export.run import export_run
from citewise.records.research import CoverageStatus
from citewise.text.sentences import split_sentences
from citewise.verify.service import verify_run
from tests.loop_harness import Env, covered, plan_reply, title_of, two_pages, verdict
from tests.loop_harness import env as env  # noqa: F401 - the loop tests' fixture, by its name

pytestmark = pytest.mark.integration

FACT_S1 = "Fact about the deposit act: deposits are protected here."
FACT_S2 = "Fact about deposit returns: deposits are protected here."


def by_reference(data: dict[str, Any]) -> str:
    """A writer that cites one sentence and quotes another, by id only."""
    assert data["topics"][0]["evidence"] == ["S1.2"] and data["topics"][1]["evidence"] == ["S2.2"]
    assert data["sources"][0]["sentences"]["S1.2"] == FACT_S1
    return "## The act\n\nThe act protects deposits here [S1.2].\n\n## Returns\n\nThe return page says {{S2.2}}"


def test_cited_sentences_are_materialised_and_verified_exactly(env: Env) -> None:
    a, _ = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", by_reference)

    result = env.run()

    # the reviewer wrote ids; its quotes are the stored sentences
    quotes = [q for item in result.reviews[0].items for q in item.quotes]
    assert [(q.sentence_id, q.text, q.verified) for q in quotes] == [("S1.2", FACT_S1, True), ("S2.2", FACT_S2, True)]
    assert all(q.text in s.content for q, s in zip(quotes, result.sources, strict=True))
    # the writer's quote by id is the stored sentence, with its citation, in what the reader gets
    assert result.body is not None and f"The return page says “{FACT_S2}” [S2.2]" in result.body
    assert "{{" not in result.markdown and "[S2] " in result.markdown  # the source list names S2
    # the ledger maps each claim to exactly the sentence it cites, and it holds
    ledger = verify_run(env.store, result.run_id)
    assert [(e.claim.cited_ids, e.claim.cited_sentences, e.decision.value) for e in ledger.entries] == [
        (("S1",), ("S1.2",), "supported"),
        (("S2",), ("S2.2",), "supported"),
    ]
    assert [(c.source_id, c.sentence_ids, c.span) for e in ledger.entries for c in e.checks] == [
        ("S1", ("S1.2",), FACT_S1),
        ("S2", ("S2.2",), FACT_S2),
    ]
    assert ledger.acceptance.accepted
    # the HTML export links a sentence citation to its source and shows the sentence on hover
    html = export_run(env.record(result.run_id), "html")
    assert 'href="#S1" aria-describedby="tip-1" data-cite="S1.2">[S1.2]</a>' in html
    tip = html.split('id="tip-1">', 1)[1].split("</span></span>", 1)[0]
    assert f"<q>{escape(FACT_S1)}</q>" in tip and escape(title_of(a)) in tip


def test_an_invented_sentence_id_in_the_review_is_no_evidence(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, invented_ids=[1]), covered)
    env.brain.script(
        "write", "## A\n\nDeposits are protected here [S1.2].", "## A\n\nDeposits are protected here [S1.2]."
    )

    result = env.run()

    first = result.reviews[0]
    topic = first.items[1]
    assert topic.claimed_status is CoverageStatus.COVERED and topic.status is CoverageStatus.MISSING
    assert [(q.sentence_id, q.text, q.verified) for q in topic.quotes] == [("S2.99", "", False)]
    assert any("sentence id 'S2.99' not in S2, whose excerpt has 3 sentences" in p for p in first.problems)
    # the invented id never reached the writer as evidence, and the loop looked again
    assert env.brain.calls("write")[0]["topics"][1]["evidence"] == []
    assert len(result.reviews) == 2 and result.reviews[-1].passed


def test_an_invented_sentence_id_in_the_draft_is_repaired(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", "## A\n\nDeposits are protected here [S1.7]. {{S2.2}}")
    env.brain.script("repair", "## A\n\nDeposits are protected here [S1.2]. {{S2.2}}")

    result = env.run()

    (repair,) = env.brain.calls("repair")
    assert repair["problems"] == ["the draft cites [S1.7], but the excerpt of S1 has 3 sentences (S1.1 to S1.3)"]
    assert "{{S2.2}}" not in repair["draft"] and f"“{FACT_S2}” [S2.2]" in repair["draft"]  # already put in
    assert result.body is not None and "[S1.7]" not in result.body and "here [S1.2]." in result.body


KOREAN = (
    "# 주택임대차보호법\n\n"
    "제3조(대항력 등) ① 임대차는 그 등기가 없는 경우에도 임차인이 주택의 인도와 주민등록을 마친 때에는\n"
    "그 다음 날부터 제삼자에 대하여 효력이 생긴다.이 경우 전입신고를 한 때에 주민등록이 된 것으로 본다.\n\n"
    "제3조의2(보증금의 회수) 임차인은 임차주택을 인도한 후 보증금을 돌려받을 수 있다."
)


def test_korean_sources_are_cited_by_sentence(env: Env) -> None:
    url = "https://law.example.kr/housing"
    env.web.hits["대항력"] = [url]
    env.web.pages[url] = KOREAN
    topics = ["대항력은 언제 생기나요?", "보증금은 어떻게 돌려받나요?"]
    env.brain.script("plan", plan_reply(topics, ["대항력"]))

    def review(data: dict[str, Any]) -> dict[str, Any]:
        ids = list(data["sources"][0]["sentences"])
        assert ids == ["S1.1", "S1.2", "S1.3", "S1.4"]  # heading, 제3조 across its line break, 이 경우, 제3조의2
        items = [(topics[0], ["S1.2", "S1.3"]), (topics[1], ["S1.4"])]
        return {
            "topics": [
                {"topic": t, "status": "covered", "sentence_ids": s, "quotes": [], "gap": None, "follow_up_query": None}
                for t, s in items
            ]
        }

    env.brain.script("review", review)
    env.brain.script(
        "write",
        "## 대항력\n\n주택의 인도와 주민등록을 마친 다음 날부터 제삼자에 대하여 효력이 생긴다[S1.2].\n\n"
        "## 보증금\n\n{{S1.4}}",
    )

    result = env.run(question="주택임대차보호법상 대항력과 보증금 회수는?")

    sentences = split_sentences("S1", result.sources[0].content)
    assert [q.text for q in result.reviews[0].items[0].quotes] == [sentences[1].text, sentences[2].text]
    assert sentences[1].text.endswith("효력이 생긴다.") and "\n" in sentences[1].text
    assert result.body is not None and "“제3조의2(보증금의 회수) 임차인은 임차주택을 인도한 후" in result.body
    ledger = verify_run(env.store, result.run_id)
    assert [(e.claim.cited_sentences, e.decision.value) for e in ledger.entries] == [
        (("S1.2",), "supported"),
        (("S1.4",), "supported"),
    ]
