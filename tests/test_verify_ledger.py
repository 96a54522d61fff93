"""The claim ledger, conflicts, acceptance and its human override, on recorded runs (SPEC 5)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.result import AskSettings
from citewise.audit.events import ClaimReviewed, ReportMade, SourceStored, UsageSummary, Verified
from citewise.config import Secret
from citewise.errors import InputError, NotFoundError
from citewise.evidence.plan import RetrievalPlan
from citewise.llm import ChatClient, ModelSettings
from citewise.records.research import ReportStatus, Source, StopReason
from citewise.records.verify import ClaimKind, Decision, LedgerAction
from citewise.serial import from_data
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from citewise.testing import FakeOpenAIServer
from citewise.verify.acceptance import VERIFIER_VERSION
from citewise.verify.service import review_claim, verify_run
from tests.conftest import REPO

pytestmark = pytest.mark.integration

SAMPLE = REPO / "examples" / "corpus"
QUESTION = "해고 예고는 며칠 전에 해야 하나요?"
QUOTE = "적어도 30일 전에 예고를 하여야 하고"


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "verify.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


def _model_answer(store: EvidenceStore, answer: str, quote: str = QUOTE) -> str:
    """An ask run whose (validated) model answer is ``answer``; returns the run id."""
    reply = {"answer": answer, "covered": True, "citations": [{"id": "E1", "quote": quote}]}
    with FakeOpenAIServer() as server:
        server.enqueue_reply(json.dumps(reply, ensure_ascii=False))
        settings = ModelSettings(api_key=Secret("sk-verify"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            # verify=False: these tests exercise `citewise verify` on an answer delivered unchecked
            settings = AskSettings(client=client, model="writer-1", verify=False)
            result = ask(store, QUESTION, RetrievalPlan(), settings)
    assert result.outcome.value == "model_answer_accepted", result.provenance
    return result.run_id


def test_a_supported_answer_is_accepted_and_the_decision_is_recorded(store: EvidenceStore) -> None:
    run_id = _model_answer(store, "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].")
    result = verify_run(store, run_id)
    [entry] = result.entries
    assert entry.decision is Decision.SUPPORTED and entry.action is LedgerAction.ACCEPT
    assert entry.quote and QUOTE in entry.quote and entry.source_url and entry.source_url.startswith("file://")
    assert result.acceptance.accepted and result.acceptance.decided_by == "citewise"
    record = RunStore(store).get(run_id)
    (verified,) = record.of(Verified)  # appended to the run's events; nothing earlier rewritten
    assert verified.acceptance.accepted is True and verified.entries[0].decision is Decision.SUPPORTED
    assert [e.event.kind.value for e in record.events][-2:] == ["answer_given", "verified"]


def test_a_wrong_number_is_unsupported_and_blocks_acceptance(store: EvidenceStore) -> None:
    run_id = _model_answer(store, "사용자는 해고하려면 적어도 60일 전에 예고를 하여야 한다 [E1].")
    result = verify_run(store, run_id)
    [entry] = result.entries
    assert entry.decision is Decision.UNSUPPORTED and "60일" in " ".join(
        entry.checks[0].missing + (entry.checks[0].reason,)
    )
    assert entry.action in (LedgerAction.NARROW, LedgerAction.REMOVE)
    assert not result.acceptance.accepted and any("C1" in r for r in result.acceptance.reasons)


def test_an_overstated_scope_is_unsupported_and_a_reviewer_can_override_it(store: EvidenceStore) -> None:
    run_id = _model_answer(store, "모든 경우에 사용자는 해고하려면 항상 30일 전에 예고를 하여야 한다 [E1].")
    first = verify_run(store, run_id)
    assert first.entries[0].decision is Decision.UNSUPPORTED and not first.acceptance.accepted
    reviewed = review_claim(store, run_id, "C1", "supported", reviewer="Kim", reason="exceptions are out of scope here")
    entry = reviewed.entries[0]
    assert entry.decision is Decision.SUPPORTED and entry.reviewer == "Kim" and entry.review_reason
    assert reviewed.acceptance.accepted and "Kim" in reviewed.acceptance.decided_by
    record = RunStore(store).get(run_id)
    rows = [(r.reviewer, r.decision.value) for r in record.of(ClaimReviewed)]
    assert rows == [("Kim", "supported")] and len(record.of(Verified)) == 2  # history kept


def test_an_inference_is_labelled_and_does_not_block_acceptance(store: EvidenceStore) -> None:
    answer = (
        "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1]. "
        "따라서 근로자는 새 일자리를 구할 시간을 얻는 것으로 보인다 [E1]."
    )
    result = verify_run(store, _model_answer(store, answer))
    kinds = {e.claim.claim_id: (e.claim.kind, e.action) for e in result.entries}
    assert kinds["C2"] == (ClaimKind.INFERENCE, LedgerAction.LABEL_AS_INFERENCE)
    assert result.acceptance.accepted


def _report(body: str) -> ReportMade:
    usage = UsageSummary(1, "1/3", "1/8", "2/12", 0)
    return ReportMade(ReportStatus.REPORT, StopReason.COVERAGE_PASSED, body, body, (), usage, "model", "p", "w")


def _research_run(store: EvidenceStore, body: str, pages: dict[str, str]) -> str:
    runs = RunStore(store)
    run_id = runs.create("research", "How much did Seoul rents rise in 2023?")
    for i, (url, text) in enumerate(pages.items(), start=1):
        source = {
            "source_id": f"S{i}",
            "url": url,
            "normalized_url": url,
            "title": f"page {i}",
            "query": "q",
            "retrieved_at": datetime.now(UTC).isoformat(),
            "page_text": text,
            "content": text,
            "provider": "tavily",
            "round": 1,
            "published_at": None,
            "publication_date_source": None,
            "injection_flags": [],
        }
        runs.append(run_id, SourceStored(from_data(Source, source)))
    runs.append(run_id, _report(body))
    runs.finish(run_id, status=RunStatus.FINISHED, outcome=ReportStatus.REPORT)
    return run_id


def test_conflicting_sources_are_shown_side_by_side_and_need_a_reviewer(store: EvidenceStore) -> None:
    pages = {
        "https://a.example/rents": "In 2023 Seoul's average rent rose 5.2% according to the ministry.",
        "https://b.example/rents": "In 2023 Seoul's average rent rose 3.1% according to a survey.",
    }
    body = "In 2023 Seoul's average rent rose 5.2% [S1]. In 2023 Seoul's average rent rose 3.1% [S2]."
    run_id = _research_run(store, body, pages)
    result = verify_run(store, run_id)
    assert all(e.decision is Decision.SUPPORTED for e in result.entries)  # each matches its own source
    [conflict] = result.conflicts
    assert {conflict.first_value, conflict.second_value} == {"5.2%", "3.1%"}  # both values, never averaged
    assert not result.acceptance.accepted and any("conflict" in r for r in result.acceptance.reasons)
    review_claim(store, run_id, "C1", "supported", reviewer="Lee", reason="ministry figure is official")
    settled = review_claim(store, run_id, "C2", "supported", reviewer="Lee", reason="survey covers another population")
    assert settled.acceptance.accepted


def test_a_claim_citing_no_stored_source_is_untraceable(store: EvidenceStore) -> None:
    run_id = _research_run(store, "Rents rose 5.2% [S7].", {"https://a.example": "Rents rose 5.2% in 2023."})
    result = verify_run(store, run_id)
    assert result.entries[0].decision is Decision.UNSUPPORTED
    assert any("no stored source" in r for r in result.acceptance.reasons)


def test_runs_without_an_answer_are_never_accepted(store: EvidenceStore) -> None:
    result = ask(store, "제2조는 무엇을 정하나요?", RetrievalPlan())  # a clarification
    verification = verify_run(store, result.run_id)
    assert not verification.acceptance.accepted and "clarification" in verification.acceptance.reasons[0]


def test_review_errors_are_clear(store: EvidenceStore) -> None:
    run_id = _model_answer(store, "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].")
    with pytest.raises(NotFoundError, match="no run"):
        verify_run(store, "research-nope")
    with pytest.raises(NotFoundError, match="C1"):
        review_claim(store, run_id, "C9", "supported", reviewer="Kim", reason="x")
    with pytest.raises(InputError, match="valid"):
        review_claim(store, run_id, "C1", "fine", reviewer="Kim", reason="x")
    with pytest.raises(InputError, match="--reviewer"):
        review_claim(store, run_id, "C1", "supported", reviewer="", reason="x")


def test_the_cli_verifies_reviews_and_exports_the_ledger(store: EvidenceStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    run_id = _model_answer(store, "모든 경우에 사용자는 항상 30일 전에 예고를 하여야 한다 [E1].")
    monkeypatch.setenv("CITEWISE_STORE", store.url)
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()
    denied = runner.invoke(app, ["verify", run_id, "--json"])
    assert denied.exit_code == 1 and json.loads(denied.output)["acceptance"]["accepted"] is False
    args = [
        "review",
        "claims",
        run_id,
        "--claim",
        "C1",
        "--decision",
        "supported",
        "--reviewer",
        "Kim",
        "--reason",
        "ok",
    ]
    assert runner.invoke(app, args).exit_code == 0
    accepted = runner.invoke(app, ["verify", run_id])
    assert accepted.exit_code == 0 and "accepted" in accepted.output
    exported = runner.invoke(app, ["runs", "export", run_id, "--format", "md"]).output
    assert "## Claim ledger" in exported and "**Acceptance:** accepted" in exported


def test_cost_per_accepted_report_counts_verified_runs(store: EvidenceStore) -> None:
    from citewise.cost import cost_report, load_prices

    accepted = _model_answer(store, "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].")
    rejected = _model_answer(store, "사용자는 해고하려면 적어도 60일 전에 예고를 하여야 한다 [E1].")
    verify_run(store, accepted)
    verify_run(store, rejected)
    report = cost_report(store, load_prices(REPO / "examples" / "prices.yaml"))
    assert report.accepted == 1 and report.runs == 2
    assert report.cost_per_accepted_report == report.total


def _judged(store: EvidenceStore, run_id: str, decision: str, span: str) -> object:
    from citewise.verify.service import model_judge

    verdict = {"decision": decision, "reason": "judged", "span": span}
    with FakeOpenAIServer() as server:
        server.enqueue_reply(json.dumps(verdict, ensure_ascii=False))
        settings = ModelSettings(api_key=Secret("sk-judge"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            return verify_run(store, run_id, model_judge(client, "judge-1"), "judge-1")


def test_a_model_judge_can_make_a_verdict_stricter_but_never_rescue_one(store: EvidenceStore) -> None:
    run_id = _model_answer(store, "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].")
    stricter = _judged(store, run_id, "unsupported", QUOTE)
    entry = stricter.entries[0]  # type: ignore[attr-defined]
    assert entry.decision is Decision.UNSUPPORTED and entry.checks[0].judge == "judge-1"
    # The tests run with CITEWISE_EMBEDDER=none: the lexical rule set of this verifier version.
    assert VERIFIER_VERSION == "verify-17"
    assert stricter.acceptance.verifier_version == "verify-17-lexical+judge:judge-1"  # type: ignore[attr-defined]
    invented = _judged(store, run_id, "unsupported", "a span that is nowhere in the page")
    assert invented.entries[0].decision is Decision.SUPPORTED  # type: ignore[attr-defined]  # discarded judgement
    wrong = _model_answer(store, "사용자는 해고하려면 적어도 60일 전에 예고를 하여야 한다 [E1].")
    rescued = _judged(store, wrong, "supported", QUOTE)  # a model saying "supported" does not rescue it
    assert rescued.entries[0].decision is Decision.UNSUPPORTED  # type: ignore[attr-defined]
