"""A streaming writer (issue 26): the writer's draft is streamed and each line's claims are checked
as it arrives, so that verification at delivery reuses those checks and ends with the draft. Real
Tavily and OpenAI clients against the shipped loopback fakes (which stream server-sent events)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from citewise.records.research import Source
from citewise.research.deliver import cited_texts_of
from citewise.testing.fake_openai import FakeError
from citewise.verify.delivery import deliver
from citewise.verify.ledger import CheckCache, ledger_for_text
from tests import test_research_loop as loop
from tests.loop_harness import Env, covered, draft_citing, plan_reply, two_pages

pytestmark = pytest.mark.integration

env = loop.env

DRAFT = (
    "## Deposits\n\nDeposits are protected here [S1.2]. Deposits are insured by the central bank [S2].\n\n"
    "## Returns\n\n{{S2.2}}\n"
)


def _writes(env: Env) -> list[dict[str, object]]:
    return [r.json for r in env.model.requests if "You write a research report" in r.json["messages"][0]["content"]]


def _run(env: Env, **options: object) -> tuple[str | None, tuple[str, ...], bool]:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", DRAFT)
    env.brain.script("revise", lambda data: "\n".join(f"{s['id']}: -" for s in data["sentences"]))
    result = env.run(**options)
    accepted = result.acceptance is not None and result.acceptance.accepted
    return result.body, tuple(f.sentence for f in result.removed), accepted


def test_the_draft_is_streamed_and_delivers_what_an_unstreamed_draft_delivers(env: Env) -> None:
    streamed = _run(env)
    (write,) = _writes(env)
    assert write["stream"] is True and write["stream_options"] == {"include_usage": True}

    unstreamed = _run(env, stream=False)

    assert "stream" not in _writes(env)[-1]
    assert streamed == unstreamed  # the same body, the same removals, the same decision
    body, removed, _ = streamed
    assert removed == ("Deposits are insured by the central bank [S2].",) and "central bank" not in (body or "")


def test_lines_checked_as_they_stream_in_are_not_checked_again_at_delivery() -> None:
    now = datetime.now(UTC)
    sources = [
        Source("S1", "https://a.example/1", "https://a.example/1", "A", "q", now, "", "Rents rose. Fees fell.", "p", 1),
        Source("S2", "https://b.example/2", "https://b.example/2", "B", "q", now, "", "Deposits are held.", "p", 1),
    ]
    texts = cited_texts_of(sources)
    body = "## Findings\n\nFees fell [S1.2].\n\nDeposits are held [S2.1]. Deposits are burned [S2.1].\n"
    cache = CheckCache()
    for line in body.splitlines():  # as the writer's lines arrive
        if line.strip():
            ledger_for_text(line, texts, cache=cache)
    checked_early = cache.hits

    delivery = deliver(body, texts, kind="research", cache=cache)

    claims = len(delivery.entries) + len(delivery.removed)
    assert checked_early == 0 and cache.hits >= claims == 3  # every claim of the draft came from the cache
    uncached = deliver(body, texts, kind="research")
    assert (delivery.text, delivery.removed, delivery.acceptance) == (
        uncached.text,
        uncached.removed,
        uncached.acceptance,
    )


def test_an_endpoint_that_refuses_to_stream_is_asked_again_without_streaming(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    refused = FakeError(400, "Streaming is not supported for this model", "invalid_request_error", param="stream")
    env.brain.script("write", refused, draft_citing("S1", "S2"))

    result = env.run()

    writes = _writes(env)
    assert [w.get("stream", False) for w in writes] == [True, False]
    assert result.status == "report" and "Deposits are protected here [S1]" in (result.body or "")
