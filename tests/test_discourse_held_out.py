"""Signposting and narration in wordings the first tests did not use (issue 21): a sentence about
the text or about the engine's own searching is not a claim; a sentence stating a finding still is.
The engine cases run the real SDKs against the shipped fake native servers."""

from __future__ import annotations

import pytest

from citewise.records.verify import ClaimKind, Decision
from citewise.testing import FakeNativeServer, anthropic_web_answer, gemini_grounded_answer, openai_web_answer
from citewise.text.discourse import Discourse, discourse_kind
from tests import test_engine_native as native
from tests.test_engine_narration import CLAIM, SECOND, _delivered
from tests.test_engine_native import LEASE, Env

env = native.env

NARRATION = [
    "Searching for the latest guidance now.",
    "I'm searching for more details.",
    "Now I have enough information to answer.",
    "Good, now let me check the official docs.",
    "Perfect, let me search for the deadlines.",
    "검색해 보겠습니다.",
    "더 구체적인 정보를 찾아보겠습니다.",
    "관련 판례를 추가로 검색해 보겠습니다.",
]
SIGNPOSTS = [
    "The sections below explain the rules.",
    "The sections below explain how tenants are protected.",
    "Each of these is explained below.",
    "Details are in the table below.",
    "아래에서 자세히 살펴본다.",
    "다음 절에서 자세히 다룬다.",
]
CLAIMS = [
    "The landlord must return the deposit within 2 weeks.",
    "Searching a tenant's home requires a warrant.",
    "The sections below the title are numbered by the court.",
    "I found that the deadline is 14 days.",
    "The sections below explain that the deposit is returned in full.",
    "검색 결과 보증금은 2주 안에 반환된다.",
    "임차인은 주민등록을 마친 다음 날부터 대항력을 가진다.",
    "Details of the lease are set by the parties.",
]


@pytest.mark.parametrize("sentence", NARRATION)
def test_held_out_narration_is_narration(sentence: str) -> None:
    assert discourse_kind(sentence) is Discourse.NARRATION


@pytest.mark.parametrize("sentence", SIGNPOSTS)
def test_held_out_signposts_are_signposts(sentence: str) -> None:
    assert discourse_kind(sentence) is Discourse.SIGNPOST


@pytest.mark.parametrize("sentence", CLAIMS)
def test_a_sentence_that_states_a_finding_stays_a_claim(sentence: str) -> None:
    assert discourse_kind(sentence) is None


@pytest.mark.integration
def test_anthropic_held_out_narration_never_merges_into_a_cited_sentence(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        server.enqueue_body(
            anthropic_web_answer(
                [
                    ("Good, now let me check the official docs.", []),
                    (CLAIM, [(LEASE, "Act", "A lease of a dwelling runs for two years.")]),
                    ("Now I have enough information to answer.", []),
                    (SECOND, [(LEASE, "Act", "The tenant may end it earlier.")]),
                ],
                searches=[("lease term", [(LEASE, "Act")]), ("lease end", [(LEASE, "Act")])],
            )
        )
        draft, _, verified = _delivered(env, server)
    assert draft.startswith("A lease of a dwelling runs for two years [S1].")
    assert "docs" not in draft and "enough information" not in draft
    facts = [e for e in verified.entries if e.claim.kind is ClaimKind.FACT]
    assert [e.decision for e in facts] == [Decision.SUPPORTED, Decision.SUPPORTED]
    assert verified.acceptance.accepted, verified.acceptance.reasons


@pytest.mark.integration
def test_openai_held_out_narration_takes_no_citation(env: Env) -> None:
    text = f"Searching for the latest guidance now. {CLAIM}"
    with FakeNativeServer("openai") as server:
        server.enqueue_body(openai_web_answer(text, [(0, len(text), LEASE, "Act")], searches=[("q", [LEASE])]))
        draft, _, verified = _delivered(env, server)
    assert draft.strip() == "A lease of a dwelling runs for two years [S1]."
    assert all(e.decision is Decision.SUPPORTED for e in verified.entries)


@pytest.mark.integration
@pytest.mark.parametrize("narration", ["검색해 보겠습니다.", "더 구체적인 정보를 찾아보겠습니다."])
def test_gemini_korean_narration_under_a_grounding_span_takes_no_citation(env: Env, narration: str) -> None:
    env.web.pages[LEASE] = "# 주택임대차보호법\n\n임대차는 그 기간을 2년으로 본다. 보증금은 반환되어야 한다.\n"
    claim = "임대차는 그 기간을 2년으로 본다."
    text = f"{narration} {claim}"
    with FakeNativeServer("gemini") as server:
        chunk = [(server.redirect_to(LEASE), "law.example")]
        # one grounding span over the narration and the claim alike
        server.enqueue_body(gemini_grounded_answer(text, [(0, len(text), [0])], chunk, queries=["임대차"]))
        result = env.run(server, question="임대차 기간은?")
    body = result.body or ""
    assert "임대차는 그 기간을 2년으로 본다 [S1]." in body
    assert narration.rstrip(".") not in body
