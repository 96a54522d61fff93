"""Native narration (issue 21): the text blocks in which an engine narrates its own searching are
not claims. Citations are mapped per text block; a narration line never merges into the cited
sentence after it (which would then fail and take its citation with it). Real SDKs against the
shipped fake native servers, pages read through the fake Tavily."""

from __future__ import annotations

import pytest

from citewise.audit.events import DraftMade, Verified
from citewise.records.verify import ClaimKind, Decision
from citewise.testing import FakeNativeServer, anthropic_web_answer, openai_web_answer
from tests import test_engine_native as native
from tests.test_engine_native import DEPOSIT, LEASE, Env

pytestmark = pytest.mark.integration

env = native.env  # the native engines' harness

CLAIM = "A lease of a dwelling runs for two years."
SECOND = "The tenant may end it earlier."


def _delivered(env: Env, server: FakeNativeServer) -> tuple[str, str, Verified]:
    result = env.run(server)
    record = env.record(result.run_id)
    draft, verified = record.last(DraftMade), record.last(Verified)
    assert draft is not None and verified is not None
    return draft.draft.markdown, result.body or "", verified


def test_anthropic_narration_blocks_stay_out_of_the_cited_sentences(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        server.enqueue_body(
            anthropic_web_answer(
                [
                    ("I'll search the documentation for this.", []),
                    (CLAIM, [(LEASE, "Act", "A lease of a dwelling runs for two years.")]),
                    ("Let me search for more specific information.", []),
                    (SECOND, [(LEASE, "Act", "The tenant may end it earlier.")]),
                ],
                searches=[("lease term", [(LEASE, "Act")]), ("lease end", [(LEASE, "Act")])],
            )
        )
        draft, body, verified = _delivered(env, server)
    assert draft.startswith("A lease of a dwelling runs for two years [S1].")
    assert "search" not in draft.casefold()  # the narration is not delivered, and took no citation
    facts = [e for e in verified.entries if e.claim.kind is ClaimKind.FACT]
    assert [e.decision for e in facts] == [Decision.SUPPORTED, Decision.SUPPORTED]
    assert CLAIM.rstrip(".") in body and SECOND.rstrip(".") in body
    assert verified.acceptance.accepted, verified.acceptance.reasons


def test_a_citation_over_a_narration_sentence_lands_only_on_the_claim(env: Env) -> None:
    text = f"Let me look this up. {CLAIM}"
    with FakeNativeServer("openai") as server:
        server.enqueue_body(openai_web_answer(text, [(0, len(text), LEASE, "Act")], searches=[("q", [LEASE])]))
        draft, _, verified = _delivered(env, server)
    assert draft.strip() == "A lease of a dwelling runs for two years [S1]."
    assert all(e.decision is Decision.SUPPORTED for e in verified.entries)


def test_a_block_boundary_after_a_finished_sentence_stays_a_sentence_boundary(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        server.enqueue_body(
            anthropic_web_answer(
                [
                    (
                        "The deposit is returned when the lease ends.",
                        [(DEPOSIT, "Deposits", "The deposit is returned")],
                    ),
                    (CLAIM, [(LEASE, "Act", "A lease of a dwelling runs for two years.")]),
                ],
                searches=[("q", [(LEASE, "Act"), (DEPOSIT, "Deposits")])],
            )
        )
        draft, _, verified = _delivered(env, server)
    assert "lease ends [S1]. A lease of a dwelling runs for two years [S2]." in draft
    assert [e.claim.cited_ids for e in verified.entries] == [("S1",), ("S2",)]
