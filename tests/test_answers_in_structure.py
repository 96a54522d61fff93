"""Answers that sit only in Markdown structure (issue 21, held out): a table cell, a list item, a
blockquote or a nested heading answers its sub-question exactly as a paragraph does, and an
unsupported one there is removed and named as a gap, just as in a paragraph. Real Tavily and OpenAI
clients against the shipped loopback fakes (tests.test_research_loop)."""

from __future__ import annotations

import pytest

from citewise.cli.common import ExitCode
from citewise.cli.research import exit_code
from citewise.records.verify import GapReason
from tests import test_research_loop as loop
from tests.loop_harness import TOPICS, Env, covered, insist, plan_reply, two_pages

pytestmark = pytest.mark.integration

env = loop.env

LAW, RETURN = TOPICS
GOOD = "Deposits are protected here"
BAD = "Deposits are returned by the central bank within 3 days"

SHAPES = {
    "table": "| Point | Finding |\n|---|---|\n| Law | {claim} [{sid}]. |",
    "list": "- {claim} [{sid}].",
    "numbered list": "1. {claim} [{sid}].",
    "blockquote": "> {claim} [{sid}].",
    "nested heading": "### In short\n\n#### Detail\n\n{claim} [{sid}].",
}


def _draft(shape: str, law_claim: str, return_claim: str) -> str:
    law = SHAPES[shape].format(claim=law_claim, sid="S1")
    back = SHAPES[shape].format(claim=return_claim, sid="S2")
    return f"## {LAW}\n\n{law}\n\n## {RETURN}\n\n{back}\n"


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_supported_answer_in_structure_answers_its_sub_question(env: Env, shape: str) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", _draft(shape, GOOD, GOOD))

    result = env.run()

    acceptance = result.acceptance
    assert acceptance is not None and acceptance.accepted, acceptance
    assert exit_code(result) is ExitCode.ACCEPTED
    assert (result.body or "").count(GOOD) == 2


@pytest.mark.parametrize("shape", list(SHAPES))
def test_an_unsupported_answer_in_structure_is_removed_and_named_as_a_gap(env: Env, shape: str) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", _draft(shape, GOOD, BAD))
    env.brain.script("revise", insist)

    result = env.run()

    acceptance = result.acceptance
    assert acceptance is not None and not acceptance.accepted
    assert exit_code(result) is ExitCode.NOT_ACCEPTED
    (gap,) = acceptance.gaps
    assert gap.topic == RETURN and gap.reason is GapReason.NOT_VERIFIED
    body = result.body or ""
    assert "central bank" not in body and GOOD in body


def test_an_unsupported_claim_in_a_table_beside_verified_prose_is_not_delivered_unchecked(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    table = f"| Step | Finding |\n|---|---|\n| Return | {BAD} [S2]. |"
    env.brain.script("write", f"## {LAW}\n\n{GOOD} [S1].\n\n## {RETURN}\n\n{table}\n")
    env.brain.script("revise", insist)

    result = env.run()

    assert "central bank" not in (result.body or "")
    acceptance = result.acceptance
    assert acceptance is not None and not acceptance.accepted
    assert [g.topic for g in acceptance.gaps] == [RETURN]


def test_a_revised_table_cell_is_edited_in_place_and_a_removed_one_takes_its_row() -> None:
    from citewise.verify.delivery import replace_sentences

    text = f"| Step | Finding |\n|---|---|\n| Law | {GOOD} [S1]. |\n| Return | {BAD} [S2] |\n"

    revised = replace_sentences(text, {f"{GOOD} [S1].": "Deposits are insured [S1].", f"{BAD} [S2].": None})

    assert revised == "| Step | Finding |\n|---|---|\n| Law | Deposits are insured [S1]. |\n"
