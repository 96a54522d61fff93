"""review-v7: the review lines of review-v6 (the topics not covered first), each gap line giving its
follow-up query before its gap (``T2 missing | query: <query> | gap: <gap>``), so that a streamed
review hands the query over, and its search starts (citewise.research.ahead), as soon as the bar
after it arrives, before the gap is written. The parser reads v5, v6 and v7 lines alike; what a
review decides does not change. Real clients against the loopback fakes (tests.loop_harness)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from citewise.audit.events import AttemptEnded, ModelCallEnded, ModelCallStarted, ReviewMade
from citewise.records.budget import Budget
from citewise.records.research import CoverageStatus, ModelPurpose
from citewise.research.prompts import (
    REVIEW_PROMPT_VERSION,
    REVIEW_SYSTEM_PROMPT,
    REVIEW_V6,
    REVIEW_V6_SYSTEM_PROMPT,
    REVIEW_V7,
    REVIEW_V7_SYSTEM_PROMPT,
    build_review_messages,
)
from citewise.research.review_replies import parse_review_text
from tests.loop_harness import Env, covered, draft_citing, page, two_pages
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name
from tests.test_research_search_ahead import ahead_starts, index_of, queries_first

pytestmark = pytest.mark.integration

FOLLOW_UP = "deposit return deadline"
LONG_GAP = (
    "no primary source states the deadline by which a landlord must return the deposit after the lease "
    "ends, nor what happens when the landlord misses it, nor whether interest is owed on a late return"
)


def test_v7_asks_for_the_query_before_the_gap_and_keeps_v6s_rules() -> None:
    from tests.test_research_review import PLAN, QUESTION, SOURCES

    v7, v6 = (build_review_messages(QUESTION, PLAN, SOURCES, version=v) for v in (REVIEW_V7, REVIEW_V6))
    assert REVIEW_PROMPT_VERSION == REVIEW_V7 and REVIEW_SYSTEM_PROMPT == REVIEW_V7_SYSTEM_PROMPT  # the default
    assert v7[0]["content"] == REVIEW_V7_SYSTEM_PROMPT and v6[0]["content"] == REVIEW_V6_SYSTEM_PROMPT
    assert v7[1] == v6[1]  # the same data
    system = REVIEW_V7_SYSTEM_PROMPT
    assert "T2 missing | query: <follow-up query> | gap: <gap>" in system
    assert system.index("| query:") < system.index("| gap:") < system.index("T1 covered")
    # the same opening and the same rules for the parts of a line as v6, bar the line's order
    assert system[:200] == REVIEW_V6_SYSTEM_PROMPT[:200]
    rules = "- The status is"
    assert system[system.index(rules) :] == REVIEW_V6_SYSTEM_PROMPT[REVIEW_V6_SYSTEM_PROMPT.index(rules) :]


@pytest.mark.parametrize(
    ("v7_line", "v6_line"),
    [
        (
            "T2 missing | query: deposit return deadline | gap: no date",
            "T2 missing: no date | query: deposit return deadline",
        ),
        (
            "T3 weak S2.4 S1.1 | query: landlord fee cap | gap: one source",
            "T3 weak S2.4 S1.1: one source | query: landlord fee cap",
        ),
        (
            "T1 conflicting S1.2 S2.1 | query: which rule applies | gap: they disagree",
            "T1 conflicting S1.2 S2.1: they disagree | query: which rule applies",
        ),
    ],
)
def test_a_v7_line_says_what_the_v6_line_says(v7_line: str, v6_line: str) -> None:
    (seven,), (six,) = parse_review_text(v7_line), parse_review_text(v6_line)
    assert seven == six and seven.status is not CoverageStatus.COVERED and seven.follow_up_query


def test_a_v7_reply_with_its_covered_lines_reads_as_the_v6_reply() -> None:
    v7 = f"T2 missing | query: {FOLLOW_UP} | gap: no date\nT1 covered S1.1 S2.3"
    v6 = f"T2 missing: no date | query: {FOLLOW_UP}\nT1 covered S1.1 S2.3"
    assert parse_review_text(v7) == parse_review_text(v6)


REVIEW_TOKENS_PER_S = 40.0
"""How fast the reviewer of the next test writes: its long gap takes about 1.5 s to write."""


def long_gap_review(data: dict[str, Any]) -> dict[str, Any]:
    review = covered(data)
    review["topics"][1] |= {"status": "missing", "sentence_ids": [], "gap": LONG_GAP, "follow_up_query": FOLLOW_UP}
    return review


@pytest.mark.parametrize("version", [REVIEW_V7, REVIEW_V6])
def test_under_v7_the_follow_up_search_starts_before_the_gap_is_written(env: Env, version: str) -> None:
    two_pages(env)
    c = "https://late.example/deadline"
    env.web.hits[FOLLOW_UP], env.web.pages[c] = [c], page("late")
    env.brain.script("plan", queries_first())
    env.brain.script("review", long_gap_review, covered)
    env.brain.script("write", draft_citing("S1", "S3"))
    brain = env.model.responder
    assert brain is not None

    def paced(body: Any) -> Any:  # only the reviewer writes slowly; the others answer at once
        env.model.tokens_per_s = REVIEW_TOKENS_PER_S if "You review whether" in json.dumps(body) else None
        return brain(body)

    env.model.responder = paced
    result = env.run(budget=Budget(max_rounds=2), review_prompt=version)

    assert result.status == "report" and env.searched() == ["rental deposit law", FOLLOW_UP]
    assert [(s.round, s.url) for s in result.sources][-1] == (2, c)
    record = env.record(result.run_id)
    rows = record.events
    follow = ahead_starts(record)[1]
    assert (follow.target, follow.round) == (FOLLOW_UP, 2)
    started = next(i for i, r in enumerate(rows) if r.event == follow)
    ended = next(
        i for i, r in enumerate(rows) if isinstance(r.event, AttemptEnded) and r.event.attempt.target == FOLLOW_UP
    )
    review_start = index_of(record, ModelCallStarted, ModelPurpose.REVIEW)
    review_end = index_of(record, ModelCallEnded, ModelPurpose.REVIEW)
    reply = rows[review_end].event
    assert isinstance(reply, ModelCallEnded) and reply.completion_tokens
    writing_s = reply.completion_tokens / REVIEW_TOKENS_PER_S
    after_s = (rows[started].at - rows[review_start].at).total_seconds()
    assert review_start < started < ended < review_end < index_of(record, ReviewMade)  # both search as it streams
    if version == REVIEW_V7:  # the query comes first: searched before the long gap is written
        assert after_s < writing_s * 0.4
    else:  # v6: the query comes after the gap, so its search waits for the whole gap line
        assert after_s > writing_s * 0.6
    # the same judgement either way: topic 2 missing, with the long gap and its query
    (review,) = [r for r in record.of(ReviewMade) if r.review.round == 1]
    missing = [i for i in review.review.items if i.status is CoverageStatus.MISSING]
    assert [(i.gap, i.follow_up) for i in missing] == [(LONG_GAP, FOLLOW_UP)]
