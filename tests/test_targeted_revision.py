"""Targeted revision (issue 21): the revision call sends only the sentences that failed, each with
the stored sentences it cites and the reason, and asks for a replacement or a removal; the
replacements are put into the draft and verified again. Real clients against the shipped fakes."""

from __future__ import annotations

from typing import Any

import pytest

from citewise.audit.events import ModelCallEnded
from citewise.records.verify import GapReason
from tests import test_research_loop as loop
from tests.loop_harness import TOPICS, Env, covered, plan_reply, revise_by, revision_lines, two_pages

pytestmark = pytest.mark.integration

env = loop.env

LAW, RETURN = TOPICS
BAD = "Deposits are returned by the central bank within 3 days [S2]."
FILLER = [f"Deposits are protected here [S1.{n}]." for n in (2,)]
DRAFT = (
    f"## {LAW}\n\n" + "\n\n".join(["Deposits are protected here [S1].", *FILLER] * 6) + f"\n\n## {RETURN}\n\n{BAD}\n"
)


def _quote_fact(data: dict[str, Any]) -> str:
    """The writer replaces each failed sentence by a quote of the evidence sentence given with it."""
    revisions = []
    for item in data["sentences"]:
        fact = next(i for i, text in item["evidence"].items() if text.startswith("Fact about"))
        revisions.append((item["id"], f"{{{{{fact}}}}}."))  # a quote, then a full stop
    return revision_lines(revisions)


def _script_draft(env: Env) -> None:
    """Two pages, a plan, a review that covers every topic, and DRAFT with its one bad sentence."""
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", DRAFT)


def _completion_tokens(env: Env, run_id: str, purpose: str) -> int:
    return sum(e.completion_tokens or 0 for e in env.record(run_id).of(ModelCallEnded) if e.purpose == purpose)


def test_the_revision_replaces_only_the_failed_sentence_and_the_replacement_is_verified(env: Env) -> None:
    _script_draft(env)
    env.brain.script("revise", _quote_fact)

    result = env.run()

    (revision,) = env.brain.calls("revise")
    assert [item["sentence"] for item in revision["sentences"]] == [BAD]  # nothing else is sent back
    assert set(revision) == {"question", "sentences"}  # no draft, no sources, no topics
    body = result.body or ""
    assert "central bank" not in body and "Fact about deposit returns: deposits are protected here." in body
    assert result.acceptance is not None and result.acceptance.accepted, result.acceptance.reasons
    assert result.removed == ()  # the replacement survived verification: nothing had to be removed
    draft, revise = _completion_tokens(env, result.run_id, "draft"), _completion_tokens(env, result.run_id, "revise")
    assert 0 < revise <= draft / 4, (revise, draft)


def test_a_removal_or_a_replacement_citing_an_unknown_source_takes_the_sentence_out(env: Env) -> None:
    _script_draft(env)
    env.brain.script("revise", revise_by(lambda sentence: "Deposits come back within a day [S9]."))

    result = env.run()

    body = result.body or ""
    assert "[S9]" not in body and "central bank" not in body
    assert [f.sentence for f in result.removed] == [BAD]
    assert result.acceptance is not None and not result.acceptance.accepted  # RETURN is now a gap
    (gap,) = result.acceptance.gaps
    assert gap.topic == RETURN and gap.reason is GapReason.NOT_VERIFIED  # the writer's removal is why


def _fact_of(item: dict[str, Any]) -> str:
    return next(i for i, text in item["evidence"].items() if text.startswith("Fact about"))


@pytest.mark.parametrize(
    "reply",
    [
        lambda data: "R1: -\nR9: -",  # an id that was never sent
        lambda data: "R1: -\nR1: -",  # one sentence answered twice
        lambda data: "",  # nothing at all
        lambda data: '{"revisions": [{"id": "R1", "replacement": null}]}',  # not the line format
        lambda data: "Here is the revision:\nR1: -",  # commentary around the lines
    ],
    ids=["invented-id", "twice", "empty", "json", "commentary"],
)
def test_a_revision_reply_that_is_not_one_valid_line_per_sentence_is_rejected_whole(env: Env, reply: Any) -> None:
    _script_draft(env)
    env.brain.script("revise", reply)

    result = env.run()

    (ended,) = [e for e in env.record(result.run_id).of(ModelCallEnded) if e.purpose == "revise"]
    assert ended.outcome != "ok", ended  # the reply was refused, and recorded as refused
    body = result.body or ""
    assert "central bank" not in body and "Fact about deposit returns" not in body  # nothing from the reply
    assert [f.sentence for f in result.removed] == [BAD]  # the first draft's failed sentence is taken out


@pytest.mark.parametrize(
    "replacement",
    [
        lambda fact: f"{{{{{fact}}}}}. Deposits are also insured by the central bank [{fact}].",  # two sentences
        lambda fact: f"Deposits are returned, see https://evil.example/x [{fact}].",  # a URL
        lambda fact: "Deposits are returned [S1.1].",  # an id outside its evidence
    ],
    ids=["extra-sentence", "url", "id-outside-evidence"],
)
def test_a_replacement_that_says_more_than_one_sentence_of_its_evidence_is_a_removal(
    env: Env, replacement: Any
) -> None:
    _script_draft(env)
    env.brain.script(
        "revise", lambda data: revision_lines([(i["id"], replacement(_fact_of(i))) for i in data["sentences"]])
    )

    result = env.run()

    body = result.body or ""
    assert "central bank" not in body and "evil.example" not in body and "[S1.1]" not in body
    assert [f.sentence for f in result.removed] == [BAD]
    assert result.acceptance is not None and not result.acceptance.accepted  # RETURN lost its only sentence


def test_the_revision_reply_is_a_line_per_sentence_far_shorter_than_the_json_envelope(env: Env) -> None:
    _script_draft(env)
    env.brain.script("revise", _quote_fact)

    result = env.run()

    (revision,) = env.brain.calls("revise")
    (item,) = revision["sentences"]
    # what the writer sent back is "R1: {{S2.n}}." — the id, and the quote by reference
    assert _completion_tokens(env, result.run_id, "revise") <= len(f"{item['id']}: {{{{{_fact_of(item)}}}}}.") // 4 + 1
