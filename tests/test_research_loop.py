"""The research loop end to end (SPEC 2, 4, 5.1): real Tavily and OpenAI clients against loopback fakes.

Every test scripts a whole run — planner, web, reviewer, writer — and checks what citewise did:
why it stopped, what it searched and read, which sources got which ids, what the report says, and
what the audit record holds. The fakes answer from the request body (the query, the URLs, the
prompt), so the order in which concurrent calls arrive cannot change an outcome.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from citewise.audit.events import DraftDropped, EventKind, ModelCallEnded
from citewise.export.run import run_data
from citewise.llm import ModelRateLimited, ModelReplyInvalid, ModelTruncated
from citewise.providers.local import LocalExtractor, LocalSearch
from citewise.providers.tavily import TavilyExtract
from citewise.records.budget import Budget
from citewise.records.research import CoverageStatus, StopReason
from citewise.research.loop import research, resume
from citewise.research.planner import PlanRejected, key_words
from citewise.research.review import ReviewRejected
from citewise.research.settings import ResearchSettings
from citewise.research.writer import cited_ids
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing.fake_openai import FakeError, FakeReply
from citewise.testing.fake_tavily import FakeTavilyError
from citewise.text.iri import readable_url
from tests.loop_harness import (
    MODEL_KEY,
    PLANNER,
    QUESTION,
    TAVILY_KEY,
    TOPICS,
    WRITER,
    Brain,
    Env,
    attempts,
    covered,
    draft_citing,
    drop,
    failure_of,
    page,
    payloads,
    plan_reply,
    report_body,
    report_of,
    stages,
    title_of,
    two_pages,
    verdict,
)
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name

pytestmark = pytest.mark.integration


# -- 1. coverage passes in round one --------------------------------------------------------------


def test_coverage_passes_in_round_one(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2", extra="\n\nRead more at https://invented.example/deposits."))
    env.brain.script("revise", drop)

    result = env.run()

    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    assert result.usage.rounds == "1/3" and result.usage.searches == "1/8"
    assert result.usage.extractions == "2/12"
    assert [(s.source_id, s.url, s.query, s.round) for s in result.sources] == [
        ("S1", a, "rental deposit law", 1),
        ("S2", b, "rental deposit law", 1),
    ]
    assert result.plan.topics == tuple(TOPICS) and result.plan.planner == PLANNER
    assert len(result.reviews) == 1 and result.reviews[0].passed
    assert all(q.verified for item in result.reviews[0].items for q in item.quotes)
    md = result.markdown
    assert md.startswith(f"# {QUESTION}\n")
    assert "Deposits are protected here [S1]." in md and "[S2]" in md
    assert "## Sources" in md
    assert f"[S1] {title_of(a)} — {a} (retrieved " in md and f"[S2] {title_of(b)} — {b} (retrieved " in md
    assert "invented.example" not in md  # the writer's URL is stripped, and reported
    assert result.problems == ("removed URL not from citewise's records: https://invented.example/deposits",)
    assert "None: every required sub-question is answered by a supported claim of this report." in md
    assert f"planner {PLANNER}, writer {WRITER}" in md and "Stopped because every required sub-question" in md
    # the searches and reads: once each, and the model saw no URL
    assert env.searched() == ["rental deposit law"] and env.extracted() == [a, b]
    # the stripped URL left "Read more at." behind, a claim that cites nothing: the writer revises once
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write", "revise"]
    (revision,) = env.brain.calls("revise")
    assert [f["sentence"] for f in revision["sentences"]] == ["Read more at."]
    # the writer removed it: it is not in the report, and it is listed as taken out, with the reason
    assert "Read more at" not in (result.body or "") and [f.sentence for f in result.removed] == ["Read more at."]
    assert result.acceptance is not None and result.acceptance.accepted and md.count("**Accepted**") == 1
    assert a not in json.dumps(env.brain.seen) and b not in json.dumps(env.brain.seen)
    # the audit record
    record = env.record(result.run_id)
    assert record.kind == "research" and record.status == "finished" and record.outcome == "report"
    kinds = stages(record)
    head, rest = kinds[: kinds.index("round_start")], kinds[kinds.index("round_start") :]
    # the query's search started as the streamed plan named it, before the plan was recorded; its end
    # may come before or after the plan call's, but before the round starts
    assert head[0] == "settings" and head.index("attempt_start") < head.index("model_call") < head.index("plan")
    assert sorted(head) == ["attempt", "attempt_start", "model_call", "plan", "settings"]
    assert rest == [
        "round_start",
        "attempt_start",
        "attempt_start",
        "attempt",
        "attempt",
        "source",
        "source",
        "collected",
        "model_call",
        "review",
        "model_call",
        "draft",
        "round_end",
        "model_call",
        "draft",
        "report",
        "verified",
    ]
    assert [p["purpose"] for p in payloads(record, "model_call")] == ["plan", "review", "draft", "revise"]
    assert all(p["outcome"] == "ok" and p["prompt_tokens"] > 0 for p in payloads(record, "model_call"))
    report = report_of(record)
    assert report.stop_reason is StopReason.COVERAGE_PASSED
    assert [p["source"]["source_id"] for p in payloads(record, "source")] == ["S1", "S2"]
    assert report.queries == ("rental deposit law",)
    assert report.path == "model" and report.writer == WRITER
    versions = {"plan": "plan-v2", "review": "review-v7", "write": "write-v3", "revise": "revise-v3"}
    assert report.prompt_versions == versions
    assert report.markdown == md and report.status == "report"
    assert [p["source"]["url"] for p in payloads(record, "source")] == [a, b]


# -- 2. a gap leads to a follow-up that closes it -------------------------------------------------


def test_gap_follow_up_closes_it_in_round_two(env: Env) -> None:
    a, b = two_pages(env)
    c = "https://court.example/ruling"
    env.web.hits["X deposit return deadline"] = [c]
    env.web.pages[c] = page("the ruling")
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "X deposit return deadline"}), covered)
    env.brain.script("write", draft_citing("S1"), draft_citing("S1", "S3"))

    result = env.run()

    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    assert env.searched() == ["rental deposit law", "X deposit return deadline"]
    assert env.extracted() == [a, b, c]
    assert result.usage.rounds == "2/3" and result.usage.searches == "2/8"
    assert [(s.source_id, s.url, s.round) for s in result.sources] == [("S1", a, 1), ("S2", b, 1), ("S3", c, 2)]
    first, second = result.reviews
    assert [i.status for i in first.items] == [CoverageStatus.COVERED, CoverageStatus.MISSING]
    assert first.items[1].follow_up == "X deposit return deadline" and not first.passed
    assert second.passed and second.round == 2
    # round 2's reviewer saw every source and the queries already tried
    assert [s["id"] for s in env.brain.calls("review")[1]["sources"]] == ["S1", "S2", "S3"]
    assert set(env.brain.calls("review")[1]["already_tried_queries"]) == {
        "rental deposit law",
        "x deposit return deadline",
    }
    # round 1 asked for more searching, so only round 2, the one the loop stopped after, is drafted
    # (beside its review from round 1's coverage, dropped since the coverage changed, then again)
    assert [d.round for d in result.drafts] == [2] and result.drafts[-1].source_ids == ("S1", "S3")
    record = env.record(result.run_id)
    assert [p["queries"] for p in payloads(record, "round_start")] == [
        ["rental deposit law"],
        ["X deposit return deadline"],
    ]
    assert [p["stop"] for p in payloads(record, "round_end")] == [None, None]
    md = result.markdown
    assert f"[S3] {title_of(c)} — {c}" in md and f"[S1] {title_of(a)} — {a}" in md
    assert f"— {b} (" not in md  # S2 was not cited: not listed


# -- 3. budgets: each one exhausted, failures counted ---------------------------------------------


def test_failed_search_consumes_the_search_budget(env: Env) -> None:
    env.web.search_errors["first query"] = [FakeTavilyError(500, "internal error")]
    env.brain.script("plan", plan_reply(queries=["first query", "second query"]))

    result = env.run(budget=Budget(max_searches=1))

    assert env.searched() == ["first query"]  # the failure used the only search; no second call
    assert env.extracted() == []
    assert result.status == "no_evidence" and result.sources == ()
    assert result.usage.searches == "1/1"
    assert "**No evidence.**" in result.markdown
    record = env.record(result.run_id)
    (search,) = attempts(record, "search")
    assert search["target"] == "first query" and not search["ok"] and search["error_type"] == "ProviderUnavailable"
    assert [p["stop"] for p in payloads(record, "round_end")] == ["searches_exhausted"]
    assert [p["purpose"] for p in payloads(record, "model_call")] == ["plan"]  # no review of nothing
    assert record.status == "finished" and record.outcome == "no_evidence"


def test_no_evidence_run_still_says_which_budget_stopped_it(env: Env) -> None:
    env.web.search_errors["first query"] = [FakeTavilyError(500, "internal error")]
    env.brain.script("plan", plan_reply(queries=["first query", "second query"]))

    result = env.run(budget=Budget(max_searches=1))

    assert result.status == "no_evidence"
    assert result.stop_reason is StopReason.SEARCHES_EXHAUSTED


def test_search_budget_exhausted_with_evidence(env: Env) -> None:
    a, b = two_pages(env, "second query")
    env.web.search_errors["first query"] = [FakeTavilyError(500, "internal error")]
    env.brain.script("plan", plan_reply(queries=["first query", "second query"]))
    env.brain.script("review", lambda d: verdict(d, missing={1: "a third query"}))
    env.brain.script("write", draft_citing("S1"))

    result = env.run(budget=Budget(max_searches=2))

    assert result.stop_reason is StopReason.SEARCHES_EXHAUSTED and result.status == "report"
    assert sorted(env.searched()) == ["first query", "second query"]  # "a third query" never searched
    assert [s.url for s in result.sources] == [a, b]
    assert result.usage.searches == "2/2" and result.usage.rounds == "2/3"
    record = env.record(result.run_id)
    assert [(x["target"], x["ok"]) for x in attempts(record, "search")] == [
        ("first query", False),
        ("second query", True),
    ]
    assert [p["stop"] for p in payloads(record, "round_end")] == [None, "searches_exhausted"]
    assert "Stopped because the search budget was used up" in result.markdown
    assert (
        f"**{TOPICS[1]}** — the sources citewise read do not answer it; missing: no primary source" in result.markdown
    )  # the gap stays visible


def test_extraction_budget_exhausted(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return rules"}))
    env.brain.script("write", draft_citing("S1"))

    result = env.run(budget=Budget(max_extractions=1))

    assert result.stop_reason is StopReason.EXTRACTIONS_EXHAUSTED and result.status == "report"
    assert env.extracted() == [a]  # the second hit got no attempt
    assert [(s.source_id, s.url) for s in result.sources] == [("S1", a)]
    assert result.usage.extractions == "1/1" and result.usage.rounds == "1/3"
    assert env.searched() == ["rental deposit law"]  # the follow-up was not run
    record = env.record(result.run_id)
    assert [x["target"] for x in attempts(record, "extract")] == [a]
    assert [p["stop"] for p in payloads(record, "round_end")] == ["extractions_exhausted"]
    gaps = result.markdown.split("## Gaps and limitations")[1].split("## Sources")[0]
    assert f"**{TOPICS[1]}** — the sources citewise read do not answer it; missing: no primary source" in gaps


def test_round_budget_exhausted_when_the_reviewer_is_never_satisfied(env: Env) -> None:
    counter = iter(range(1, 100))
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: f"follow up {next(counter)}"}))
    env.brain.script("write", draft_citing("S1"))

    result = env.run(budget=Budget(max_rounds=2))

    assert result.stop_reason is StopReason.ROUNDS_EXHAUSTED and result.status == "report"
    assert env.searched() == ["rental deposit law", "follow up 1"]  # follow up 2 was never searched
    assert [s.round for s in result.sources] == [1, 2]
    assert result.usage.rounds == "2/2"
    seen = [p for p, _ in env.brain.seen]
    # round 1 goes on to round 2, so it is not drafted; the last round drafts while it reviews (from
    # the first round's review, whose coverage it keeps)
    assert seen[:2] == ["plan", "review"] and sorted(seen[2:]) == ["review", "write"]
    record = env.record(result.run_id)
    purposes = [e.purpose.value for e in record.of(ModelCallEnded)]
    assert purposes[-2:] in (["review", "speculative_draft"], ["speculative_draft", "review"])  # no draft after
    assert not record.of(DraftDropped) and [d.round for d in result.drafts] == [2]
    assert len(payloads(record, "round_start")) == 2 and report_of(record).stop_reason is StopReason.ROUNDS_EXHAUSTED
    assert "Stopped because the round budget was used up" in result.markdown


def test_token_budget_exhausted_stops_the_loop_and_blocks_the_repair(env: Env) -> None:
    # The cap is checked before each call with its estimated prompt plus a reply of at least 1,024
    # tokens: plan, review and draft fit in 2,400; the second round's review and the repair do not.
    two_pages(env)
    usage = {"prompt_tokens": 30, "completion_tokens": 20}
    env.brain.script("plan", FakeReply(json.dumps(plan_reply()), usage={"prompt_tokens": 10, "completion_tokens": 5}))
    env.brain.script("review", lambda d: FakeReply(json.dumps(verdict(d, missing={1: "more on returns"})), usage=usage))
    # an unknown id: would need a repair
    env.brain.script("write", FakeReply("A claim [S7].", usage={"prompt_tokens": 300, "completion_tokens": 100}))

    result = env.run(budget=Budget(max_tokens=2400))

    assert result.stop_reason is StopReason.TOKENS_EXHAUSTED
    assert result.usage.tokens == 15 + 50 + 400 <= 2400 and result.usage.rounds == "2/3"
    # the follow-up was collected (its evidence is kept), but its review would have crossed the cap
    assert env.searched() == ["rental deposit law", "more on returns"]
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write"]  # no review 2, no repair past the cap
    assert "citations not repaired: token budget exhausted" in " ".join(result.problems)
    # the only sentence cites no stored source and is dropped; the report comes from verified quotes
    assert result.status == "report" and "[S7]" in " ".join(result.problems)
    record = env.record(result.run_id)
    assert report_of(record).salvaged and report_of(record).path == "deterministic"
    assert "A claim" not in (result.body or "") and '"Fact about' in (result.body or "")
    assert [p["purpose"] for p in payloads(record, "model_call")] == ["plan", "review", "draft"]
    assert sum(p["prompt_tokens"] + p["completion_tokens"] for p in payloads(record, "model_call")) == 465


def test_no_model_call_starts_once_the_token_cap_is_reached(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", FakeReply(json.dumps(plan_reply()), usage={"prompt_tokens": 90, "completion_tokens": 30}))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run(budget=Budget(max_tokens=1600))

    assert [p for p, _ in env.brain.seen] == ["plan"]
    assert result.stop_reason is StopReason.TOKENS_EXHAUSTED and result.usage.tokens == 120
    # the plan went out with its reply cap lowered to what the cap left after its estimated prompt
    (started,) = [e.event for e in env.record(result.run_id).events if e.event.kind is EventKind.MODEL_CALL_STARTED]
    sent = env.model.requests[0].json["max_completion_tokens"]
    assert sent == started.max_reply_tokens == 1600 - started.estimated_prompt_tokens < 8192


# -- 4. failed and empty extractions ----------------------------------------------------------------


def test_failed_and_empty_pages_get_no_source_id(env: Env) -> None:
    broken, good1 = "https://broken.example/a", "https://good-one.example/1"
    empty, good2 = "https://empty.example/b", "https://good-two.example/2"  # two sites: both read
    env.web.hits.update({"query one": [broken, good1], "query two": [empty, good2]})
    env.web.pages.update({good1: page("one"), good2: page("two"), empty: ""})
    env.brain.script("plan", plan_reply(queries=["query one", "query two"]))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    assert result.status == "report"
    assert [(s.source_id, s.url, s.query) for s in result.sources] == [
        ("S1", good1, "query one"),
        ("S2", good2, "query two"),
    ]
    assert all("SNIPPET" not in s.page_text for s in result.sources)
    assert sorted(env.extracted()) == sorted([broken, good1, empty, good2])
    assert result.usage.extractions == "4/12"  # failures consumed budget
    record = env.record(result.run_id)
    by_url = {x["target"]: x for x in attempts(record, "extract")}
    assert by_url[good1]["ok"] and by_url[good2]["ok"] and by_url[good1]["error_type"] is None
    assert by_url[broken]["ok"] is False and by_url[broken]["error_type"] == "extract_failed"
    assert by_url[broken]["error"] == "Failed to fetch url"
    # Tavily's adapter reports an empty page as a failure, so it is counted as extract_failed
    assert by_url[empty]["ok"] is False and by_url[empty]["error_type"] == "extract_failed"
    assert by_url[empty]["error"] == "no text extracted (empty page)"
    assert [p["source"]["url"] for p in payloads(record, "source")] == [good1, good2]
    # the reviewer was only shown the usable pages
    assert [s["id"] for s in env.brain.calls("review")[0]["sources"]] == ["S1", "S2"]
    assert broken not in result.markdown and empty not in result.markdown


# -- 5. one URL found by two queries ---------------------------------------------------------------


def test_url_found_by_two_queries_is_extracted_once(env: Env) -> None:
    shared, other1, other2 = "https://shared.example/law", "https://one.example/x", "https://two.example/y"
    env.web.hits.update({"query one": [shared, other1], "query two": ["HTTPS://Shared.example/law#part-2", other2]})
    env.web.pages.update({shared: page("shared"), other1: page("one"), other2: page("two")})
    env.brain.script("plan", plan_reply(queries=["query one", "query two"]))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S3"))

    result = env.run()

    assert sorted(env.extracted()) == sorted([shared, other1, other2])
    assert env.extracted().count(shared) == 1
    assert [(s.source_id, s.url) for s in result.sources] == [("S1", shared), ("S2", other1), ("S3", other2)]
    record = env.record(result.run_id)
    skips = [p["skip"] for p in payloads(record, "skip")]
    assert skips == [
        {
            "kind": "extract",
            "target": "HTTPS://Shared.example/law#part-2",
            "round": 1,
            "reason": "already_tried",
            "detail": "https://shared.example/law",
            "query": "query two",
        }
    ]
    assert result.usage.extractions == "3/12"


# -- 6. an invalid plan stops the run ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "searched"),
    [
        ("this is not JSON at all", []),
        # the streamed reply named a whole query before the plan failed validation: it was searched
        (json.dumps({"topics": ["only one topic?"], "queries": ["q"]}), ["q"]),
        (json.dumps({"topics": ["a?", "b?"], "queries": []}), []),
    ],
    ids=["not-json", "one-topic", "no-query"],
)
def test_invalid_plan_fails_the_run_before_any_read(env: Env, reply: str, searched: list[str]) -> None:
    env.brain.script("plan", reply)

    with pytest.raises(PlanRejected) as caught:
        env.run()

    assert isinstance(caught.value.__cause__, ModelReplyInvalid)
    assert env.searched() == searched and env.extracted() == []  # no page is read
    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert record.status == "failed" and record.outcome is None
    assert failure_of(record) == "PlanRejected"
    early = ["attempt_start", "attempt"] if searched else []
    kinds = stages(record)
    assert kinds[0] == "settings" and kinds[-1] == "failed"
    assert sorted(kinds[1:-1]) == sorted(["model_call", *early])  # the search's end is recorded before the failure
    assert payloads(record, "model_call")[0]["outcome"] == "ModelReplyInvalid"


# -- 7. the writer invents a citation id -----------------------------------------------------------


def test_invented_citation_gets_one_repair_that_is_used(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", "Deposits are protected [S1]. Returns take a month [S9].")
    repaired = "Deposits are protected [S1]. Fact about deposit returns: deposits are protected here [S2]."
    env.brain.script("repair", repaired)

    result = env.run()

    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write", "repair"]
    repair = env.brain.calls("repair")[0]
    assert repair["draft"] == "Deposits are protected [S1]. Returns take a month [S9]."
    assert any("[S9]" in p and "not a stored source" in p for p in repair["problems"])
    assert "Fact about deposit returns: deposits are protected here [S2]." in result.markdown
    assert "[S9]" not in result.markdown and "a month" not in result.markdown
    assert result.drafts[-1].source_ids == ("S1", "S2") and result.problems == ()
    assert f"[S2] {title_of(b)} — {b}" in result.markdown
    record = env.record(result.run_id)
    # the repair comes after the loop, and the repaired draft is recorded
    assert stages(record)[-6:] == ["round_end", "repair", "model_call", "draft", "report", "verified"]
    (repair_event,) = payloads(record, "repair")
    assert any("[S9]" in p for p in repair_event["problems"])
    assert [p["purpose"] for p in payloads(record, "model_call")] == ["plan", "review", "draft", "repair"]
    assert record.outcome == "report"


def test_invented_citation_twice_salvages_the_report_from_verified_quotes(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", "UNIQUE-DRAFT-TEXT deposits are protected [S9].")
    env.brain.script("repair", "UNIQUE-REPAIR-TEXT deposits are protected [S12].")

    result = env.run()

    # the repaired draft's only sentence cites no stored source: it is dropped (and listed), and the
    # deterministic writer composes the report from the review's verified quotes
    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write", "repair"]  # one repair only
    assert any("[S12]" in p and "not a stored source" in p for p in result.problems)
    md = result.markdown
    assert "UNIQUE-DRAFT-TEXT" not in report_body(md) and "UNIQUE-REPAIR-TEXT" not in report_body(md)
    assert "composed from verified quotes by the deterministic writer" in md
    assert '"Fact about the deposit act: deposits are protected here." [S1.2]' in md  # the cited sentence
    assert [f.reason for f in result.removed] == ["cites [S12], which is not a stored source"]
    record = env.record(result.run_id)
    assert record.status == "finished" and record.outcome == "report"
    assert report_of(record).salvaged and report_of(record).problems == result.problems


# -- 8. the reviewer invents a quote ---------------------------------------------------------------


def test_invented_quote_downgrades_the_topic_and_the_loop_follows_up(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, invented=[1]), covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    first = result.reviews[0]
    topic = first.items[1]
    assert topic.claimed_status is CoverageStatus.COVERED and topic.status is CoverageStatus.MISSING
    assert [q.verified for q in topic.quotes] == [False]
    assert any("quote not found in S2" in p for p in first.problems) and not first.passed
    follow_up = " ".join(key_words(TOPICS[1]))  # the reviewer gave none: one made from the topic
    assert topic.follow_up == follow_up
    assert env.searched() == ["rental deposit law", follow_up]
    assert result.stop_reason is StopReason.COVERAGE_PASSED and len(result.reviews) == 2
    # the invented quote never reached the writer as evidence
    first_write = env.brain.calls("write")[0]
    assert first_write["topics"][1]["quotes"] == [] and first_write["topics"][1]["status"] == "missing"


def test_a_review_reply_that_is_no_review_is_asked_for_once_more_on_the_record(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", "The sources look fine to me; nothing else is needed.", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    record = env.record(result.run_id)
    reviews = [c for c in payloads(record, "model_call") if c["purpose"] == "review"]
    assert [c["outcome"] for c in reviews] == ["ModelReplyInvalid", "ok"]  # both calls counted
    (retry,) = payloads(record, "model_retry")
    assert (retry["purpose"], retry["error"]) == ("review", "ModelReplyInvalid")
    assert len(env.brain.calls("review")) == 2 and env.extracted() == [a, b]  # nothing collected again


def test_a_second_unusable_review_reply_fails_the_run_with_the_evidence_kept(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", "Looks fine.", "Still fine, I think.")

    with pytest.raises(ReviewRejected, match="not a usable review"):
        env.run()

    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert record.status == "failed" and failure_of(record) == "ReviewRejected"
    assert len(env.brain.calls("review")) == 2 and len(payloads(record, "model_retry")) == 1  # one retry, no more
    assert [p["source"]["url"] for p in payloads(record, "source")] == [a, b]


# -- 9. truncated replies --------------------------------------------------------------------------


def test_truncated_review_fails_the_run_and_resume_keeps_the_evidence(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", FakeReply('{"topics": [{"topic": "Which', finish_reason="length"))

    with pytest.raises(ReviewRejected) as caught:
        env.run()

    assert isinstance(caught.value.__cause__, ModelTruncated)
    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert record.status == "failed" and failure_of(record) == "ReviewRejected"
    assert [p["source"]["url"] for p in payloads(record, "source")] == [a, b]  # the evidence is in the record
    last_call = payloads(record, "model_call")[-1]
    assert (last_call["purpose"], last_call["outcome"]) == ("review", "ModelTruncated")

    env.brain.steps["review"] = deque([covered])
    env.brain.script("write", draft_citing("S1", "S2"))
    resumed = resume(env.store, run.run_id, env.settings())

    assert resumed.status == "report" and resumed.stop_reason is StopReason.COVERAGE_PASSED
    assert [(s.source_id, s.url) for s in resumed.sources] == [("S1", a), ("S2", b)]
    assert env.searched() == ["rental deposit law"] and env.extracted() == [a, b]  # nothing repeated
    assert env.record(run.run_id).status == "finished"


def test_truncated_draft_fails_the_run_with_the_review_recorded(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", FakeReply("Deposits are protected [S1]. Returns", finish_reason="length"))

    with pytest.raises(ModelTruncated):
        env.run()

    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert record.status == "failed" and failure_of(record) == "ModelTruncated"
    assert len(payloads(record, "source")) == 2 and len(payloads(record, "review")) == 1
    assert payloads(record, "draft") == [] and "round_end" not in stages(record)


def test_resume_after_a_truncated_draft_in_the_last_round_writes_the_report(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", FakeReply("Deposits are protected [S1]. Returns", finish_reason="length"))
    with pytest.raises(ModelTruncated):
        env.run(budget=Budget(max_rounds=1))
    (run,) = RunStore(env.store).list()

    env.brain.steps["write"] = deque([draft_citing("S1", "S2")])
    resumed = resume(env.store, run.run_id, env.settings(Budget(max_rounds=1)))

    assert resumed.status == "report"
    assert resumed.stop_reason is StopReason.COVERAGE_PASSED


def test_resume_after_a_truncated_draft_does_not_repeat_the_review(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", FakeReply("Deposits are protected [S1]. Returns", finish_reason="length"))
    with pytest.raises(ModelTruncated):
        env.run()
    (run,) = RunStore(env.store).list()

    env.brain.steps["write"] = deque([draft_citing("S1", "S2")])
    resumed = resume(env.store, run.run_id, env.settings())

    assert resumed.status == "report"
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write", "write"]


# -- 10. rate limits -------------------------------------------------------------------------------


def test_tavily_429_is_retried_once_inside_the_budget(env: Env) -> None:
    a, b = two_pages(env)
    env.web.search_errors["rental deposit law"] = [
        FakeTavilyError(429, "Rate limit exceeded", headers={"retry-after": "0"})
    ]
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    assert env.searched() == ["rental deposit law", "rental deposit law"]
    assert result.status == "report" and [s.url for s in result.sources] == [a, b]
    assert result.usage.searches == "2/8"  # the retry was a counted attempt
    record = env.record(result.run_id)
    assert [(x["target"], x["ok"], x["error_type"]) for x in attempts(record, "search")] == [
        ("rental deposit law", False, "ProviderRateLimited"),
        ("rental deposit law", True, None),
    ]


def test_tavily_429_is_not_retried_without_budget(env: Env) -> None:
    env.web.search_errors["rental deposit law"] = [
        FakeTavilyError(429, "Rate limit exceeded", headers={"retry-after": "0"})
    ]
    env.brain.script("plan", plan_reply())

    result = env.run(budget=Budget(max_searches=1))

    assert env.searched() == ["rental deposit law"]
    assert result.status == "no_evidence" and result.usage.searches == "1/1"


def test_model_429_is_retried_once_by_the_loop_then_fails_the_run(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", FakeError(429, "slow down", "rate_limit_error", headers={"retry-after": "0"}))
    env.brain.script("review", FakeError(429, "slow down", "rate_limit_error", headers={"retry-after": "0"}))

    with pytest.raises(ModelRateLimited):
        env.run()

    # the client never retries on its own; the loop retries once, recorded, then gives up
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "review"]
    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert record.status == "failed" and failure_of(record) == "ModelRateLimited"
    assert payloads(record, "model_call")[-1]["outcome"] == "ModelRateLimited"
    assert [p["source"]["url"] for p in payloads(record, "source")] == [a, b]


# -- 11. a crash in the middle of a run, then resume ----------------------------------------------


class CrashingExtractor:
    """An extractor whose ``crash_on``-th call raises, before or after the real call was made."""

    def __init__(self, inner: TavilyExtract, crash_on: int, *, after_call: bool = False) -> None:
        self.inner, self.crash_on, self.after_call, self.calls = inner, crash_on, after_call, 0
        self.name, self.options = inner.name, inner.options

    def extract(self, urls: Sequence[str]) -> Any:
        self.calls += 1
        if self.calls == self.crash_on and not self.after_call:
            raise RuntimeError("simulated crash")
        response = self.inner.extract(urls)
        if self.calls == self.crash_on:
            raise RuntimeError("simulated crash after the provider answered")
        return response


def test_crash_then_resume_repeats_no_call(env: Env) -> None:
    a, b = two_pages(env)
    c = "https://late.example/page"
    env.web.hits["deposit return deadline"] = [c]
    env.web.pages[c] = page("late")
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}))
    env.brain.script("write", draft_citing("S1"))
    crashing = CrashingExtractor(env.extract, crash_on=2)

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, env.settings(extractor=crashing, concurrent=False))

    (run,) = RunStore(env.store).list()
    before = env.record(run.run_id)
    assert before.status == "failed" and failure_of(before) == "RuntimeError"
    assert [p["source"]["source_id"] for p in payloads(before, "source")] == ["S1", "S2"]
    assert env.searched() == ["rental deposit law", "deposit return deadline"]
    assert env.extracted() == [a, b]  # the crash came before round 2's extract call
    model_calls_before = len(env.model.requests)

    env.brain.steps["review"] = deque([covered])
    env.brain.steps["write"] = deque([draft_citing("S1", "S2")])
    resumed = resume(env.store, run.run_id, env.settings(concurrent=False))

    searched, extracted = env.searched(), env.extracted()
    assert len(searched) == len({s.casefold() for s in searched})  # no query searched twice
    assert len(extracted) == len(set(extracted))  # no URL extracted twice
    assert len(env.brain.calls("plan")) == 1  # no re-planning
    assert resumed.status == "report"
    assert [(s.source_id, s.url) for s in resumed.sources[:2]] == [("S1", a), ("S2", b)]
    assert resumed.plan.topics == tuple(TOPICS)
    assert len(env.model.requests) > model_calls_before
    after = env.record(run.run_id)
    assert after.status == "finished" and after.outcome == "report"
    (resume_event,) = payloads(after, "resume")
    assert resume_event == {"from_round": 2, "sources": 2, "interrupted_attempts": 1, "interrupted_model_calls": 0}
    # the record keeps both halves: the two sources of the first attempt appear once
    assert [p["source"]["source_id"] for p in payloads(after, "source")][:2] == ["S1", "S2"]
    assert len([p for p in payloads(after, "source") if p["source"]["url"] == a]) == 1


def test_crash_after_an_extract_call_keeps_that_call_in_the_record(env: Env) -> None:
    a = "https://one.example/a"
    b = "https://two.example/b"
    env.web.hits.update({"query one": [a], "query two": [b]})
    env.web.pages.update({a: page("one"), b: page("two")})
    env.brain.script("plan", plan_reply(queries=["query one", "query two"]))
    crashing = CrashingExtractor(env.extract, crash_on=2, after_call=True)

    with pytest.raises(RuntimeError):
        research(env.store, QUESTION, env.settings(extractor=crashing, concurrent=False))

    assert env.extracted() == [a, b]  # Tavily read (and billed) both pages
    (run,) = RunStore(env.store).list()
    record = env.record(run.run_id)
    assert [x["target"] for x in attempts(record, "extract")] == [a]  # the first call is in the record


# -- 12. keyless: local store, deterministic planner and writer ------------------------------------


def test_keyless_run_over_the_local_corpus(sample_store_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "s.sqlite"
    copy.write_bytes(sample_store_file.read_bytes())
    question = "사용자가 근로자를 해고하려면 해고 예고는 언제까지 해야 하나요?"
    with EvidenceStore.open(str(copy)) as store:
        settings = ResearchSettings(search=LocalSearch(store), extractor=LocalExtractor(store))
        assert not settings.uses_models
        result = research(store, question, settings)
        record = RunStore(store).get(result.run_id)

    assert result.status == "report", result.markdown
    assert result.plan.planner == "deterministic"
    assert "deterministic planner, reviewer and writer (no model key)" in result.markdown
    assert "search: local" in result.markdown
    stored = {s.source_id for s in result.sources}
    cited = cited_ids(result.markdown)
    assert cited and set(cited) <= stored
    assert all(s.url.startswith("citewise://") and s.provider == "local" for s in result.sources)
    assert any("근로기준법" in s.title for s in result.sources)
    assert "해고" in report_body(result.markdown)
    for source_id in cited:
        (source,) = [s for s in result.sources if s.source_id == source_id]
        listed = result.markdown.split("## Sources")[1]
        assert f"[{source_id}] " in listed and readable_url(source.url) in listed
        assert "%EC" in source.url and "%EC" not in listed  # the section id is shown as written: 제26조
    assert record.status == "finished" and report_of(record).path == "deterministic"
    assert report_of(record).writer == "deterministic" and report_of(record).prompt_versions is None
    assert all(p["planner_model"] == "deterministic" for p in payloads(record, "settings"))
    assert "model_call" not in stages(record)


# -- 13. secrets -----------------------------------------------------------------------------------


def test_keys_never_reach_the_run_record(env: Env) -> None:
    two_pages(env)
    # a provider error that echoes the key back must not carry it into the record either
    env.web.search_errors["rental deposit law"] = [
        FakeTavilyError(429, f"Rate limit for key {TAVILY_KEY}", headers={"retry-after": "0"})
    ]
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", "Deposits are protected [S1]. Returns [S9].")
    env.brain.script("repair", draft_citing("S1", "S2"))

    result = env.run()

    assert result.status == "report"
    assert all(r.headers["authorization"] == f"Bearer {MODEL_KEY}" for r in env.model.requests)
    record = env.record(result.run_id)
    assert {"settings", "plan", "attempt", "source", "review", "draft", "model_call", "repair"} <= set(stages(record))
    everything = json.dumps(run_data(record), ensure_ascii=False)
    for key in (TAVILY_KEY, MODEL_KEY):
        assert key not in everything
        assert key not in result.markdown and key not in repr(result)
    failed = attempts(record, "search")[0]
    assert failed["error_type"] == "ProviderRateLimited"
    assert (payloads(record, "settings")[0]["search_options"]["base_url"]) == env.tavily.base_url


# -- a small self-check of the harness -------------------------------------------------------------


def test_harness_serves_scripted_steps_in_order_and_repeats_the_last() -> None:
    brain = Brain()
    brain.script("plan", "first", "second")
    body: dict[str, Any] = {
        "messages": [{"role": "system", "content": "You plan web research ..."}, {"role": "user", "content": "{}"}]
    }
    replies = [brain(body) for _ in range(3)]
    assert [r.content for r in replies if isinstance(r, FakeReply)] == ["first", "second", "second"]
