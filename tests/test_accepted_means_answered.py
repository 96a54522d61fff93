"""Accepted means answered (issue 21): acceptance is decided on the delivered text. Every delivered
claim is mapped to the required sub-questions it answers (in the ledger); a sub-question left with
no supported claim is a gap — not accepted, named in the reasons and under "Gaps and limitations",
which come from the delivered text; headings emptied by verification are dropped or name their gap;
signposting is not a finding; a report with no supported claim left is not delivered as one.

Real Tavily and OpenAI clients against the shipped loopback fakes (tests.test_research_loop)."""

from __future__ import annotations

import pytest

from citewise.audit.events import ReportMade, Verified
from citewise.cli.common import ExitCode
from citewise.cli.research import exit_code
from citewise.eval.metrics import score_run
from citewise.prices import load_prices
from citewise.records.research import ReportStatus
from citewise.records.verify import ClaimKind, Criterion, GapReason, LedgerAction
from citewise.verify.ledger import CitedText, ledger_for_text
from citewise.verify.service import verify_run
from tests import test_research_loop as loop
from tests.loop_harness import TOPICS, Env, covered, insist, plan_reply, two_pages, verdict

pytestmark = pytest.mark.integration

env = loop.env  # the loop's harness: real clients against the shipped fakes

LAW, RETURN = TOPICS
ON_LAW = "Deposits are protected here [S1]."  # S1 is the source the review checked for LAW
ON_RETURN_BAD = "Deposits are returned by the central bank within 3 days [S2]."  # S2 says no such thing
SIGNPOST = "These are covered in detail in the following sections."

DRAFT = f"""## Executive Summary

The central bank insures every deposit up to 90 million won [S2].

## {LAW}

{ON_LAW}

## {RETURN}

{ON_RETURN_BAD} {SIGNPOST}

## Conclusion

The central bank guarantees all deposits [S2].
"""


def _gaps_part(markdown: str) -> str:
    return markdown.split("## Gaps and limitations")[1].split("## Sources")[0]


def test_a_sub_question_whose_only_claim_was_removed_is_a_gap_and_the_report_is_not_accepted(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)  # the review found both topics covered, before verification
    env.brain.script("write", DRAFT)
    env.brain.script("revise", insist)  # the writer insists

    result = env.run()

    acceptance = result.acceptance
    assert acceptance is not None and not acceptance.accepted
    assert exit_code(result) is ExitCode.NOT_ACCEPTED
    assert Criterion.QUESTIONS_ANSWERED in acceptance.unmet
    (gap,) = acceptance.gaps
    assert gap.topic == RETURN and gap.reason is GapReason.NOT_VERIFIED and gap.claim_ids
    assert any(RETURN in reason for reason in acceptance.reasons)
    assert "**Not accepted**" in result.markdown and "every criterion met" not in result.markdown
    gaps = _gaps_part(result.markdown)
    assert RETURN in gaps and LAW not in gaps and "None:" not in gaps  # computed from the delivered text
    verified = env.record(result.run_id).last(Verified)
    assert verified is not None and verified.acceptance == acceptance
    answering = {e.claim.text: e.answers for e in verified.entries if e.answers}
    assert answering == {ON_LAW.replace(" [S1]", ""): (LAW,)}  # the mapping is in the ledger


def test_headings_emptied_by_verification_are_dropped_or_name_their_gap(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", DRAFT)
    env.brain.script("revise", insist)

    body = env.run().body or ""

    assert "Executive Summary" not in body and "Conclusion" not in body  # nothing verified was left under them
    assert f"## {LAW}\n\n{ON_LAW}" in body
    after = body.split(f"## {RETURN}")[1].strip()
    assert after.startswith("*No verified finding:") and "\n" not in after  # one line, the gap's
    assert SIGNPOST not in body  # a signpost keeps no heading alive


def test_signposting_is_not_a_finding_and_cannot_answer_a_sub_question(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    signpost = "This is discussed in the next section [S2]."
    draft = f"## {LAW}\n\n{ON_LAW}\n\n## {RETURN}\n\n{signpost}\n"
    env.brain.script("write", draft)

    result = env.run()

    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write"]  # nothing failed: no revision
    assert result.acceptance is not None and not result.acceptance.accepted
    (gap,) = result.acceptance.gaps
    assert gap.topic == RETURN and gap.reason is GapReason.NOT_ANSWERED
    body = result.body or ""
    assert signpost not in body and body.split(f"## {RETURN}")[1].strip().startswith("*No verified finding:")
    texts = {s.source_id: CitedText(s.source_id, s.url, s.page_text, s.content) for s in result.sources}
    (entry,) = [e for e in ledger_for_text(draft, texts) if e.claim.kind is ClaimKind.SIGNPOST]
    assert entry.checks == () and entry.action is LedgerAction.KEEP_AS_STRUCTURE  # its citation maps nothing


def test_a_report_answering_every_sub_question_with_supported_claims_is_accepted(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", f"## {LAW}\n\n{ON_LAW}\n\n## {RETURN}\n\nDeposits are protected here [S2].\n")

    result = env.run()

    assert result.acceptance is not None and result.acceptance.accepted, result.acceptance
    assert result.acceptance.gaps == () and exit_code(result) is ExitCode.ACCEPTED
    assert "None: every required sub-question is answered" in _gaps_part(result.markdown)
    again = verify_run(env.store, result.run_id)  # `citewise verify` decides the same on the record
    assert again.acceptance.accepted and {t for e in again.entries for t in e.answers} == {LAW, RETURN}


def test_verify_on_the_record_names_the_same_gap(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", DRAFT)
    env.brain.script("revise", insist)

    result = env.run()
    again = verify_run(env.store, result.run_id)

    assert not again.acceptance.accepted and [g.topic for g in again.acceptance.gaps] == [RETURN]


def test_when_no_written_claim_survives_the_verified_quotes_answer_instead(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    bad = f"## {LAW}\n\nThe central bank guarantees all deposits [S1].\n\n## {RETURN}\n\n{ON_RETURN_BAD}\n"
    env.brain.script("write", bad)
    env.brain.script("revise", insist)

    result = env.run()

    report = env.record(result.run_id).last(ReportMade)
    assert report is not None and report.salvaged and result.status is ReportStatus.REPORT
    assert "central bank" not in (result.body or "")
    assert result.acceptance is not None and result.acceptance.accepted  # the quotes answer both topics


def test_a_report_with_no_supported_claim_left_is_not_delivered_as_a_report(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={0: None, 1: None}))  # no verified quote at all
    bad = f"## {LAW}\n\nThe central bank guarantees all deposits [S1].\n\n## {RETURN}\n\n{ON_RETURN_BAD}\n"
    env.brain.script("write", bad)
    env.brain.script("revise", insist)

    result = env.run()

    assert result.status is ReportStatus.NO_VERIFIED_FINDING and result.body is None
    assert exit_code(result) is ExitCode.NO_EVIDENCE
    assert "**No verified finding.**" in result.markdown
    before_removed = result.markdown.split("### Removed before delivery")[0]
    assert "central bank" not in before_removed and len(result.removed) == 2
    report = env.record(result.run_id).last(ReportMade)
    assert report is not None and report.status is ReportStatus.NO_VERIFIED_FINDING and report.body is None
    assert any("no claim survived verification" in p for p in result.problems)


def test_the_evaluation_counts_sub_questions_answered_from_the_delivered_text(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", DRAFT)
    env.brain.script("revise", insist)

    result = env.run()
    score = score_run(env.record(result.run_id), (LAW, RETURN, "Who won the 2022 World Cup?"), load_prices(None))

    # only LAW keeps a supported claim in what was delivered; the review had found both covered
    assert (score.subquestions, score.answered) == (3, 1) and not score.accepted
