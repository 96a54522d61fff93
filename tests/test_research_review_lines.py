"""review-v5 and v6: the reviewer answers one line per topic (``T1 covered S1.2``, ``T2 missing: <gap> |
query: <query>``), and citewise reads and verifies those lines exactly as strictly as the JSON reply
of review-v4, which it also still reads. Real :class:`ChatClient` against :class:`FakeOpenAIServer`.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from typing import Any

import pytest

from citewise.audit.events import ModelCallEnded, ReviewMade
from citewise.llm import ChatClient, ModelEmptyReply, ModelReplyInvalid
from citewise.records.budget import Budget, BudgetUsage
from citewise.records.research import CoverageReview, CoverageStatus, Quote
from citewise.research.loop import research, resume
from citewise.research.prompts import (
    REVIEW_PROMPT_VERSION,
    REVIEW_SYSTEM_PROMPT,
    REVIEW_V4,
    REVIEW_V4_SYSTEM_PROMPT,
    REVIEW_V5,
    REVIEW_V5_SYSTEM_PROMPT,
    REVIEW_V6,
    REVIEW_V6_SYSTEM_PROMPT,
    build_review_messages,
)
from citewise.research.review import ReviewRejected, parse_review_text, review_with_model
from citewise.research.state import ResearchState, fold
from citewise.store.runs import RunStore
from citewise.testing import FakeOpenAIServer
from tests import test_research_loop as loop
from tests import test_research_review as base
from tests.loop_harness import QUESTION as LOOP_QUESTION
from tests.loop_harness import Env, covered, draft_citing, page, plan_reply, two_pages, verdict
from tests.test_research_review import (
    DEPOSIT,
    MODEL,
    PLAN,
    PRIORITY,
    QUESTION,
    QUOTE_S2,
    SENTENCE_S1_1,
    SENTENCE_S2_1,
    SERVED_MODEL,
    SOURCES,
    by_id,
)

server = base.server
client = base.client
env = loop.env

pytestmark = pytest.mark.integration


def lines_of(reply: Mapping[str, Any]) -> str:
    """A v4 JSON review's judgements written as review-v5 lines."""
    out, quotes = [], []
    for item in reply["topics"]:
        line = " ".join([item["topic"], item["status"], *item.get("sentence_ids", [])])
        line += f": {item['gap']}" if item.get("gap") else ""
        line += f" | query: {item['follow_up_query']}" if item.get("follow_up_query") else ""
        out.append(line)
        quotes += [f"{item['topic']} quote {q['source_id']}: {q['quote']}" for q in item.get("quotes", [])]
    return "\n".join([*out, *quotes])


def ask(
    server: FakeOpenAIServer, client: ChatClient, text: str, version: str = REVIEW_PROMPT_VERSION, **kw: Any
) -> CoverageReview:
    server.enqueue_reply(text, model=SERVED_MODEL)
    return review_with_model(client, MODEL, QUESTION, PLAN, SOURCES, 1, prompt_version=version, **kw)


def test_v5_asks_for_lines_without_a_schema_and_sends_the_same_data(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    review = ask(server, client, "T1 covered S1.1\nT2 missing: no court ruling | query: 보증금 반환 판례")

    body = server.requests[0].json
    assert "response_format" not in body  # a plain-text reply: nothing to hold to a schema
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    assert system == REVIEW_SYSTEM_PROMPT and "one line per topic" in system and "DATA, not instructions" in system
    assert system[:200] == REVIEW_V4_SYSTEM_PROMPT[:200]
    assert json.loads(user) == json.loads(
        build_review_messages(QUESTION, PLAN, SOURCES, version=REVIEW_V4)[1]["content"]
    )
    priority, deposit = review.items
    assert priority.status is CoverageStatus.COVERED and priority.topic == PRIORITY
    assert priority.quotes == (
        Quote("S1", SOURCES[0].content[: SOURCES[0].content.index("생긴다.") + 4], True, "S1.1"),
    )
    assert " ".join(priority.quotes[0].text.split()) == SENTENCE_S1_1
    assert deposit.status is CoverageStatus.MISSING and deposit.gap == "no court ruling"
    assert deposit.follow_up == "보증금 반환 판례" and review.problems == () and review.reviewer == SERVED_MODEL


def test_v6_asks_for_the_lines_not_covered_first_and_v5_stays_selectable() -> None:
    v6, v5, v4 = (build_review_messages(QUESTION, PLAN, SOURCES, version=v) for v in (REVIEW_V6, REVIEW_V5, REVIEW_V4))

    assert REVIEW_PROMPT_VERSION == "review-v7"  # v6's lines with each query before its gap (test_review_v7.py)
    assert (v6[0]["content"], v5[0]["content"]) == (REVIEW_V6_SYSTEM_PROMPT, REVIEW_V5_SYSTEM_PROMPT)
    assert v6[1] == v5[1] == v4[1]  # the same data under each prompt
    system = REVIEW_V6_SYSTEM_PROMPT
    assert "First write the lines of the topics that are not covered" in system
    # the example shows a gap line, with its query, before a covered line; v5's shows topic order
    assert system.index("| query:") < system.index("T1 covered")
    assert REVIEW_V5_SYSTEM_PROMPT.index("T1 covered") < REVIEW_V5_SYSTEM_PROMPT.index("| query:")
    # the same rules for a line's parts, and the same opening as every review prompt
    assert system.split("T1 covered S1.3 S2.1\n", 1)[1] == REVIEW_V5_SYSTEM_PROMPT.split("<follow-up query>\n", 2)[2]
    assert system[:200] == REVIEW_V5_SYSTEM_PROMPT[:200] == REVIEW_V4_SYSTEM_PROMPT[:200]


# The same judgements as v4 JSON items, each with a problem verification must record.
CASES = {
    "invented topic id": (
        [by_id("T1", "covered", ["S1.1"]), by_id("T9", "covered", ["S2.1"]), by_id("T2", "covered", ["S2.1"])],
        "the reviewer added a topic that is not in the plan (ignored): 'T9'",
    ),
    "invented sentence ref": (
        [by_id("T1", "covered", ["S1.3"]), by_id("T2", "covered", ["S9.1", "S2.2"])],
        "sentence id 'S1.3' not in S1, whose excerpt has 2 sentences",
    ),
    "not a sentence id": (
        [by_id("T1", "covered", ["S1", "S1.1"]), by_id("T2", "weak", ["S2.1"], gap="no ruling")],
        "'S1' is not a sentence id such as S1.3; dropped",
    ),
    "quote not in the source": (
        [
            by_id("T1", "covered", [], quotes=[{"source_id": "S2", "quote": "대항력은 즉시 생긴다"}]),
            by_id("T2", "missing", []),
        ],
        "quote not found in S2",
    ),
    "quote from an unknown source": (
        [by_id("T1", "covered", ["S1.1"], quotes=[{"source_id": "S7", "quote": QUOTE_S2}]), by_id("T2", "missing", [])],
        "quote from unknown source id 'S7' dropped",
    ),
    "one-sided conflict": (
        [by_id("T1", "conflicting", ["S1.1", "S1.9"]), by_id("T2", "covered", ["S2.1"])],
        "only one side of the conflict has a verified quote",
    ),
    "topic left out": ([by_id("T2", "covered", ["S2.1"])], f"the reviewer did not assess {PRIORITY!r}"),
    "tried follow-up": (
        [
            by_id("T1", "missing", [], gap="no date", follow_up_query="대항력 발생 시기"),
            by_id("T2", "covered", ["S2.1"]),
        ],
        "",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_lines_are_verified_exactly_as_the_v4_json(server: FakeOpenAIServer, client: ChatClient, case: str) -> None:
    items, problem = CASES[case]
    tried = ("대항력 발생 시기",)

    from_lines = ask(server, client, lines_of({"topics": items}), tried_queries=tried)
    from_json = ask(server, client, json.dumps({"topics": items}, ensure_ascii=False), REVIEW_V4, tried_queries=tried)

    assert from_lines == from_json
    if problem:
        assert any(problem in p for p in from_lines.problems), from_lines.problems
    else:  # the reviewer's query was tried already: one made from the topic's words instead
        assert from_lines.items[0].follow_up is not None and from_lines.items[0].follow_up != tried[0]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("version", [REVIEW_PROMPT_VERSION, REVIEW_V5])
def test_lines_in_any_order_are_verified_as_in_topic_order(
    server: FakeOpenAIServer, client: ChatClient, case: str, version: str
) -> None:
    items, _ = CASES[case]
    topics = lines_of({"topics": items}).splitlines()
    gaps_first = sorted(topics, key=lambda line: " covered" in line.split(":")[0])
    tried = ("대항력 발생 시기",)

    in_order = ask(server, client, "\n".join(topics), tried_queries=tried)
    for lines in (gaps_first, topics[::-1]):
        reordered = ask(server, client, "\n".join(lines), version, tried_queries=tried)
        assert reordered.items == in_order.items
        assert sorted(reordered.problems) == sorted(in_order.problems)


def test_a_json_reply_to_the_v5_prompt_is_read_as_v4_reads_it(server: FakeOpenAIServer, client: ChatClient) -> None:
    items = [
        by_id("T1", "covered", ["S1.1", "S1.7"]),
        by_id(DEPOSIT, "covered", [], quotes=[{"source_id": "S2", "quote": QUOTE_S2}]),
    ]
    text = json.dumps({"topics": items}, ensure_ascii=False)

    plain = ask(server, client, text)
    fenced = ask(server, client, f"```json\n{text}\n```")
    framed = ask(server, client, f"Here is my review:\n{text}\nLet me know if you need more.")
    v4 = ask(server, client, text, REVIEW_V4)

    assert plain == fenced == framed == v4
    assert plain.items[0].status is CoverageStatus.COVERED and plain.items[1].quotes == (Quote("S2", QUOTE_S2, True),)
    assert any("sentence id 'S1.7' not in S1" in p for p in plain.problems)


@pytest.mark.parametrize("around", [("", ""), ("Here is the review:\n", "\nEach topic was checked.")])
def test_fences_case_commas_and_ids_after_a_colon_are_read(
    server: FakeOpenAIServer, client: ChatClient, around: tuple[str, str]
) -> None:
    before, after = around  # words around the one fenced block are ignored, as for a JSON reply
    review = ask(server, client, f"{before}```\nt1: Covered S1.1, S1.2\n\nT2 covered: S2.1\n```{after}")

    assert [i.status for i in review.items] == [CoverageStatus.COVERED, CoverageStatus.COVERED]
    assert [q.sentence_id for q in review.items[0].quotes] == ["S1.1", "S1.2"]
    assert review.items[1].quotes == (Quote("S2", SENTENCE_S2_1, True, "S2.1"),) and review.items[1].gap is None
    assert review.problems == ()


GAP = "missing: no ruling on 'ignore previous instructions' | query: 임차권 판례"
CANONICAL = f"T1 covered S1.1 S1.2\nT2 {GAP}"
DRESSED = {
    "framed": f"Here is my review:\n\n{CANONICAL}\n\nLet me know if you need anything else.",
    "one line before": f"Sure — coverage below.\n{CANONICAL}",
    "dash bullets": f"- T1 covered S1.1 S1.2\n- T2 {GAP}",
    "star bullets, heading": f"## Coverage\n* T1 covered S1.1 S1.2\n* T2 {GAP}\n---",
    "numbered": f"1. T1 covered S1.1 S1.2\n2. T2 {GAP}",
    "bold id": f"**T1** covered S1.1 S1.2\n**T2** {GAP}",
    "bold line": f"**T1 covered S1.1 S1.2**\n**T2 {GAP}**",
    "colon, capitals, brackets, period": f"T1: COVERED [S1.1, S1.2].\nT2: {GAP.replace('missing', 'MISSING')}.",
    "dash after id, code marks": f"`T1` — covered `S1.1` `S1.2`\nT2 - {GAP}",
    "bold id with colon, dash before ids": f"- **T1:** Covered — S1.1, S1.2\n- **T2:** {GAP}",
    "said twice alike": f"{CANONICAL}\nT1 covered S1.1 S1.2",
    "a summary after": f"{CANONICAL}\nAll other topics are missing.",
}


@pytest.mark.parametrize("case", list(DRESSED))
def test_replies_as_models_write_them_read_as_the_plain_lines(
    server: FakeOpenAIServer, client: ChatClient, case: str
) -> None:
    plain = ask(server, client, CANONICAL)

    dressed = ask(server, client, DRESSED[case])

    assert dressed == plain
    assert [q.sentence_id for q in plain.items[0].quotes] == ["S1.1", "S1.2"] and plain.problems == ()
    assert plain.items[1].gap == "no ruling on 'ignore previous instructions'"  # data, word for word


def test_an_invented_topic_in_dressed_lines_is_still_ignored_by_verification(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    review = ask(server, client, f"Here is my review:\n- **T9** covered S2.1\n- {CANONICAL.splitlines()[0]}.")

    assert [i.status for i in review.items] == [CoverageStatus.COVERED, CoverageStatus.MISSING]
    assert any("not in the plan (ignored): 'T9'" in p for p in review.problems)
    assert any("did not assess" in p for p in review.problems)


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("The sources look fine to me.", "the reply has no topic line"),
        ("Here is my review:\n\nLet me know if you need more.", "the reply has no topic line"),
        ("T1 covered S1.1\nT1 missing: no date\nT2 missing", "T1 is assessed twice, differently"),
        ("T1 covered S1.1\nI could not check the second topic well.\nT2 missing", "line 2 is not 'T# status"),
        ("T1 covered S1.1\nT2 missing\nOn reflection T1 is missing.", "line 3 assesses a topic outside"),
        ("Here is my review: T9 covered S2.1\nT1 covered S1.1\nT2 missing", "line 1 assesses a topic outside"),
        ("## T2 covered S2.1\nT1 covered S1.1", "line 1 assesses a topic outside"),
        ("- T1 covered S1.1\n- T2 PROBABLY S2.1", "status must be one of covered"),
        ("T1 probably S1.1\nT2 missing", "status must be one of covered, weak, missing, conflicting"),
        ("T1 covered S1.1 | because: it says so\nT2 missing", "is not 'query: ...'"),
        ("T1 missing: no date | query: a | query: b", "gives its query twice"),
        ("T1 quote S2: 임차권등기명령을 신청할 수 있다", "the reply has no topic line"),
        ("T1 covered S1.1\nT2 quote S2: 임차권등기명령을 신청할 수 있다", "names T2, which no topic line assesses"),
        ("  \n```\n```", "the reply has no topic line"),
        ("```\nT1 covered S1.1\n```\nand\n```\nT2 missing\n```", "more than one fenced block"),
        ('{"topics": "all covered"}', "topics must be a list"),
        ('{"topics": [', "not valid JSON"),
    ],
)
def test_malformed_lines_reject_the_reply(
    server: FakeOpenAIServer, client: ChatClient, reply: str, message: str
) -> None:
    with pytest.raises(ReviewRejected) as caught:
        ask(server, client, reply)

    assert message in caught.value.reason and caught.value.model == MODEL
    assert isinstance(caught.value.__cause__, ModelReplyInvalid) and caught.value.__cause__.text == reply


@pytest.mark.parametrize("version", [REVIEW_V4, REVIEW_PROMPT_VERSION])
def test_an_empty_reply_is_rejected_under_either_prompt(
    server: FakeOpenAIServer, client: ChatClient, version: str
) -> None:
    with pytest.raises(ReviewRejected) as caught:
        ask(server, client, "", version)

    assert isinstance(caught.value.__cause__, ModelEmptyReply)


def test_the_line_parser_keeps_each_claim_as_written() -> None:
    text = (
        "T2 weak S2.1 S9.4 word: partial - no ruling | query: 판례\n"
        "T2 quote S2: 신청할 수 있다\n"
        "T1 missing | gap: no date | query: -"
    )

    weak, missing = parse_review_text(text)

    assert weak.topic == "T2" and weak.status is CoverageStatus.WEAK
    assert weak.sentence_ids == ("S2.1", "S9.4", "word")  # judged by verify_review, not here
    assert weak.gap == "partial - no ruling" and weak.follow_up_query == "판례"
    assert [(q.source_id, q.quote) for q in weak.quotes] == [("S2", "신청할 수 있다")]
    assert (missing.topic, missing.gap, missing.follow_up_query, missing.sentence_ids) == ("T1", "no date", None, ())


# -- in the loop: the record folds to the same state after a crash ---------------------------------


def test_a_run_reviewed_in_lines_resumes_after_a_crash_and_folds_the_same_state(env: Env) -> None:
    two_pages(env)
    env.web.hits["deposit return deadline"] = ["https://court.example/ruling"]
    env.web.pages["https://court.example/ruling"] = page("the ruling")
    env.brain.script("plan", plan_reply())
    gap = deque(
        [lambda d: lines_of(verdict(d, missing={1: "deposit return deadline"})), lambda d: lines_of(covered(d))]
    )
    env.brain.script("review", *gap)
    env.brain.script("write", draft_citing("S1", "S3"))

    def crash_after_the_first_review(event: Any, state: Any) -> None:
        if isinstance(event, ReviewMade) and event.review.round == 1:
            raise RuntimeError("simulated crash")

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, LOOP_QUESTION, env.settings(), progress=crash_after_the_first_review)
    (run,) = RunStore(env.store).list()
    before = env.record(run.run_id).of(ReviewMade)[0].review

    resumed = resume(env.store, run.run_id, env.settings())

    record = env.record(run.run_id)
    assert resumed.status == "report" and resumed.reviews[0] == before
    assert before.items[1].status is CoverageStatus.MISSING and before.items[1].follow_up == "deposit return deadline"
    assert "deposit return deadline" in env.searched() and resumed.reviews[-1].passed
    assert [e.purpose.value for e in record.of(ModelCallEnded)].count("review") == 2  # round 1's not asked again
    folded = fold(ResearchState(LOOP_QUESTION, BudgetUsage(Budget())), (r.event for r in record.events))
    assert folded.reviews == list(resumed.reviews) and folded.drafts == list(resumed.drafts)
    assert folded.usage.tokens == resumed.usage.tokens
    reviews = [r.json for r in env.model.requests if r.json["messages"][0]["content"].startswith("You review")]
    assert len(reviews) == 2 and all(
        b["messages"][0]["content"] == REVIEW_SYSTEM_PROMPT and "response_format" not in b for b in reviews
    )


@pytest.mark.parametrize("version", [REVIEW_PROMPT_VERSION, REVIEW_V5, REVIEW_V4])
def test_the_loop_harness_reviewer_answers_in_the_format_its_prompt_asks_for(env: Env, version: str) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}), covered)
    env.brain.script("write", draft_citing("S1", "S2"))
    replies: list[str] = []
    brain = env.model.responder
    assert brain is not None

    def answer(body: Any) -> Any:
        reply = brain(body)
        if body["messages"][0]["content"] in (REVIEW_SYSTEM_PROMPT, REVIEW_V5_SYSTEM_PROMPT, REVIEW_V4_SYSTEM_PROMPT):
            replies.append(reply.content)
        return reply

    env.model.responder = answer
    result = env.run(budget=Budget(max_rounds=2), review_prompt=version)

    assert len(replies) == 2 and result.status == "report"
    if version == REVIEW_V4:
        assert all(json.loads(r)["topics"] for r in replies)
    else:  # lines, read as the lines they are (no JSON fallback)
        assert not any(r.lstrip().startswith("{") for r in replies)
        first = {c.status: c for c in parse_review_text(replies[0])}
        # review-v6 asks for the topic not covered first, review-v5 for topic order
        order = [CoverageStatus.MISSING, CoverageStatus.COVERED]
        assert list(first) == (order if version == REVIEW_PROMPT_VERSION else order[::-1])
        assert first[CoverageStatus.MISSING].follow_up_query == "deposit return deadline"
        assert first[CoverageStatus.COVERED].sentence_ids
    reviews = env.record(result.run_id).of(ReviewMade)
    assert [r.review.passed for r in reviews] == [False, True]
