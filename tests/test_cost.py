"""Cost (SPEC 6): the price table, each run's cost ledger, and the cost per accepted report.

The worked example of the issue is reproduced exactly: per run, planning and review 10,000 input +
2,000 output tokens at $0.20 / $0.80 per million = $0.0036; drafting 20,000 + 3,000 at $2.00 / $8.00
= $0.0640; 5 search credits at $0.005 = $0.0250; 8 extracted pages at $0.002 = $0.0160;
infrastructure $0.0100; maintenance $20 a month over 1,000 runs = $0.0200; human review 12 s at $30
an hour = $0.1000; total $0.2386 per run; 100 runs with 80 accepted = $0.29825 per accepted report.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from citewise.audit import legacy
from citewise.audit.events import Verified
from citewise.cli.cost import cost
from citewise.cost import (
    PRICES_ENV,
    Component,
    PriceTable,
    cost_report,
    ledger_for_run,
    load_prices,
    parse_prices,
)
from citewise.cost.money import money
from citewise.cost.pricing import ESTIMATED_BROKEN, ESTIMATED_INTERRUPTED
from citewise.errors import ConfigError
from citewise.records.runs import run_outcome
from citewise.records.verify import Acceptance
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from tests.conftest import REPO

pytestmark = pytest.mark.integration

D = Decimal

WORKED_PRICES: dict[str, Any] = {
    "models": {
        "planner-small": {"input": 0.20, "output": 0.80},
        "writer-large": {"input": 2.00, "output": 8.00, "cached_input": 0.50},
    },
    "tavily_credit": 0.005,
    "extraction_per_page": 0.002,
    "assumptions": {
        "infrastructure_per_run": 0.01,
        "maintenance_per_month": 20,
        "runs_per_month": 1000,
        "human_review_seconds_per_run": 12,
        "human_review_rate_per_hour": 30,
    },
}


def _prices(**changes: Any) -> PriceTable:
    return parse_prices({**WORKED_PRICES, **changes})


def _model_call(
    purpose: str, model: str, prompt: int | None, completion: int | None, cached: int = 0
) -> dict[str, Any]:
    """A ``model_call`` event payload as the research loop records it."""
    return {
        "purpose": purpose,
        "requested_model": model,
        "model": f"{model}-2025-01-01",
        "outcome": "ok",
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cached_tokens": cached if prompt is not None else None,
        "latency_s": 0.5,
    }


def _attempt(
    kind: str, credits: float | None, *, ok: bool = True, error_type: str | None = None, cached: bool = False
) -> dict[str, Any]:
    """An ``attempt`` event payload as the research collector records it."""
    attempt = {
        "kind": kind,
        "target": "x",
        "round": 1,
        "ok": ok,
        "started_at": "2025-01-01T00:00:00+00:00",
        "error_type": error_type,
        "error": None,
        "cached": cached,
        "credits": credits,
        "latency_s": 0.1,
    }
    return {"attempt": attempt, "query": "q"}


def _record(runs: RunStore, run_id: str, stage: str, payload: dict[str, Any]) -> None:
    """Append the typed event of a ``model_call`` / ``attempt`` payload of the shape above."""
    runs.append(run_id, legacy.decode_step(stage, payload))


def _finish(
    runs: RunStore,
    run_id: str,
    *,
    outcome: str,
    answer: dict[str, Any],
    result: dict[str, Any],
    status: str = "finished",
) -> None:
    """Close a run with its outcome, as the loop and ask record it, and an acceptance decision if given."""
    kind = runs.get(run_id).kind
    for _, event in legacy.run_events(
        kind=kind, outcome=outcome, retrieval={}, answer=answer, result=result, ledgers=[], reviews=[]
    ):
        runs.append(run_id, event)
    acceptance = result.get("acceptance")
    if acceptance is not None:
        decision = Acceptance(acceptance["accepted"], tuple(acceptance["reasons"]), "verify-1")
        runs.append(run_id, Verified("verify-1", (), (), decision))
    runs.finish(run_id, status=RunStatus(status), outcome=run_outcome(kind, outcome))


def _worked_run(runs: RunStore, accepted: bool | None, status: str = "finished") -> str:
    """One research run with the worked example's usage; accepted None means no acceptance recorded."""
    run_id = runs.create("research", "What does the statute require?")
    # planning and review: 10,000 input + 2,000 output tokens in all
    _record(runs, run_id, "model_call", _model_call("plan", "planner-small", 6_000, 1_200))
    _record(runs, run_id, "model_call", _model_call("review", "planner-small", 4_000, 800))
    # drafting: 20,000 + 3,000
    _record(runs, run_id, "model_call", _model_call("write", "writer-large", 20_000, 3_000))
    # 5 search credits: four searches, one an advanced search (2 credits); a failed search bills none
    for credits in (1, 1, 1, 2):
        _record(runs, run_id, "attempt", _attempt("search", credits))
    _record(runs, run_id, "attempt", _attempt("search", None, ok=False, error_type="ProviderTimeout"))
    _record(runs, run_id, "attempt", _attempt("search", 1, cached=True))  # served from a cache: free
    # 8 pages read by a non-credit extractor, one of them empty; a raised extractor call read nothing
    for _ in range(7):
        _record(runs, run_id, "attempt", _attempt("extract", None))
    _record(runs, run_id, "attempt", _attempt("extract", None, ok=False, error_type="empty_page"))
    _record(runs, run_id, "attempt", _attempt("extract", None, ok=False, error_type="ProviderUnavailable"))
    result: dict[str, Any] = {"status": "report"}
    if accepted is not None:
        result["acceptance"] = {"accepted": accepted, "reasons": []}
    _finish(runs, run_id, outcome="report", answer={"path": "model"}, result=result, status=status)
    return run_id


@pytest.fixture
def runs(store: EvidenceStore) -> RunStore:
    return RunStore(store)


# -- the worked example ---------------------------------------------------------------------------


def test_worked_example_one_run_ledger_is_exact(runs: RunStore) -> None:
    ledger = ledger_for_run(runs.get(_worked_run(runs, accepted=True)), _prices())
    amounts = {(line.component, line.item): line.amount for line in ledger.lines}
    assert amounts == {
        (Component.LLM, "planner-small"): D("0.0036"),
        (Component.LLM, "writer-large"): D("0.064"),
        (Component.SEARCH, "tavily credits"): D("0.025"),
        (Component.EXTRACTION, "pages"): D("0.016"),
        (Component.INFRASTRUCTURE, "infrastructure"): D("0.01"),
        (Component.MAINTENANCE, "maintenance"): D("0.02"),
        (Component.HUMAN_REVIEW, "human review"): D("0.1"),
    }
    assert ledger.measured == D("0.1086")
    assert ledger.assumed == D("0.13")
    assert ledger.total == D("0.2386")
    assert ledger.accepted and ledger.complete


def test_worked_example_100_runs_80_accepted(runs: RunStore, store: EvidenceStore) -> None:
    for i in range(100):
        # the 20 unaccepted: rejected drafts, and failed runs with no acceptance at all
        accepted = True if i < 80 else (False if i % 2 else None)
        _worked_run(runs, accepted, status="finished" if accepted is not None else "failed")
    report = cost_report(store, _prices())
    assert (report.runs, report.accepted) == (100, 80)
    assert report.total == D("23.86")
    assert report.cost_per_accepted_report == D("0.29825")
    assert report.by_component() == {
        Component.LLM: D("6.76"),
        Component.SEARCH: D("2.5"),
        Component.EXTRACTION: D("1.6"),
        Component.INFRASTRUCTURE: D("1"),
        Component.MAINTENANCE: D("2"),
        Component.HUMAN_REVIEW: D("10"),
    }
    assert (report.measured, report.assumed) == (D("10.86"), D("13"))
    data = report.to_json()
    assert data["cost_per_accepted_report"] == "0.29825"
    assert data["total"] == "23.86"
    assert {c: v["assumed"] for c, v in data["by_component"].items()} == {
        "llm": False,
        "search": False,
        "extraction": False,
        "infrastructure": True,
        "maintenance": True,
        "human_review": True,
    }


# -- pricing rules --------------------------------------------------------------------------------


def test_money_is_exact_decimal_even_from_yaml_floats(tmp_path: Path, runs: RunStore, store: EvidenceStore) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(
        "models: {m: {input: 0.1, output: 0.2}}\ntavily_credit: 0\nextraction_per_page: 0\n"
        "assumptions: {infrastructure_per_run: 0, maintenance_per_month: 10, runs_per_month: 3,\n"
        "              human_review_seconds_per_run: 0, human_review_rate_per_hour: 0}\n",
        encoding="utf-8",
    )
    prices = load_prices(path)
    assert prices.models["m"].rates.input == D("0.1")
    run_id = runs.create("research", "q")
    _record(runs, run_id, "model_call", _model_call("plan", "m", 1_000_000, 1_000_000))
    ledger = ledger_for_run(runs.get(run_id), prices)
    assert ledger.measured == D("0.3")  # 0.1 + 0.2 in floats would be 0.30000000000000004
    assert all(isinstance(line.amount, Decimal) for line in ledger.lines)
    # 10 a month over 3 runs is not a terminating decimal: kept to Decimal precision, shown rounded
    assert ledger.assumed == D(10) / D(3)
    assert money(ledger.assumed, "USD") == "$3.333333"


def test_credit_shares_of_an_extract_call_sum_to_whole_credits(runs: RunStore) -> None:
    run_id = runs.create("research", "q")
    for _ in range(3):  # one Tavily Extract call of 3 URLs billed 1 credit, split as floats
        _record(runs, run_id, "attempt", _attempt("extract", 1 / 3))
    (line,) = [li for li in ledger_for_run(runs.get(run_id), _prices()).lines if li.component is Component.EXTRACTION]
    assert (line.item, line.count, line.quantity, line.amount) == ("tavily credits", 3, D("1"), D("0.005"))


def test_cached_input_tokens_use_the_cached_rate(runs: RunStore) -> None:
    run_id = runs.create("research", "q")
    # 10,000 prompt tokens of which 4,000 cached: 6,000 × $2.00 + 4,000 × $0.50 + 1,000 × $8.00
    _record(runs, run_id, "model_call", _model_call("write", "writer-large", 10_000, 1_000, cached=4_000))
    # no cached rate given for planner-small: cached tokens cost the input rate
    _record(runs, run_id, "model_call", _model_call("plan", "planner-small", 10_000, 0, cached=10_000))
    lines = {li.item: li for li in ledger_for_run(runs.get(run_id), _prices()).lines if li.component is Component.LLM}
    assert lines["writer-large"].amount == D("0.022")
    assert lines["writer-large"].tokens is not None
    assert (lines["writer-large"].tokens.input, lines["writer-large"].tokens.cached_input) == (6_000, 4_000)
    assert lines["planner-small"].amount == D("0.002")


def test_long_prompts_use_the_long_context_rates(runs: RunStore) -> None:
    prices = _prices(
        models={
            "long": {
                "input": 1,
                "output": 2,
                "long_context": {"threshold": 100_000, "input": 3, "output": 4, "cached_input": 1},
            }
        }
    )
    run_id = runs.create("research", "q")
    _record(runs, run_id, "model_call", _model_call("plan", "long", 100_000, 1_000))  # at the threshold: standard
    _record(runs, run_id, "model_call", _model_call("plan", "long", 200_000, 1_000, cached=100_000))
    (line,) = [li for li in ledger_for_run(runs.get(run_id), prices).lines if li.component is Component.LLM]
    standard = D("0.1") + D("0.002")
    long = D("0.3") + D("0.1") + D("0.004")
    assert line.amount == standard + long


def test_the_model_is_found_by_the_reported_id_when_the_requested_one_is_missing(runs: RunStore) -> None:
    prices = _prices(models={"planner-small-2025-01-01": {"input": 0.20, "output": 0.80}})
    run_id = runs.create("research", "q")
    _record(runs, run_id, "model_call", _model_call("plan", "planner-small", 10_000, 2_000))
    (line,) = [li for li in ledger_for_run(runs.get(run_id), prices).lines if li.component is Component.LLM]
    assert (line.item, line.amount) == ("planner-small-2025-01-01", D("0.0036"))


def test_a_model_missing_from_the_table_is_unknown_not_zero(runs: RunStore, store: EvidenceStore) -> None:
    run_id = runs.create("research", "q")
    _record(runs, run_id, "model_call", _model_call("plan", "planner-small", 10_000, 2_000))
    _record(runs, run_id, "model_call", _model_call("write", "mystery-model", 5_000, 700, cached=1_000))
    _record(runs, run_id, "model_call", _model_call("write", "writer-large", None, None))  # usage not reported
    report = cost_report(store, _prices())
    unknown = {line.item: line for line in report.unknown}
    assert set(unknown) == {"mystery-model", "writer-large"}
    mystery = unknown["mystery-model"]
    assert mystery.amount is None and mystery.note == "not in the price table"
    assert mystery.tokens is not None
    assert (mystery.tokens.input, mystery.tokens.cached_input, mystery.tokens.output) == (4_000, 1_000, 700)
    assert unknown["writer-large"].note == "usage not reported"
    assert not report.complete
    assert report.by_component()[Component.LLM] is None
    assert report.measured == D("0.0036")  # the known part; the report says it is incomplete
    data = report.to_json()
    assert data["complete"] is False
    assert data["by_component"]["llm"]["amount"] is None
    assert {u["item"]: u["amount"] for u in data["unknown"]} == {"mystery-model": None, "writer-large": None}


def test_ask_runs_are_priced_from_their_answer_provenance(runs: RunStore) -> None:
    run_id = runs.create("ask", "q")
    answer = {
        "path": "deterministic",  # the model's answer was rejected: its tokens still cost money
        "requested_model": "planner-small",
        "prompt_tokens": 10_000,
        "completion_tokens": 2_000,
        "fallback_reason": "rejected",
    }
    _finish(runs, run_id, outcome="deterministic_evidence_fallback", answer=answer, result={})
    no_model = runs.create("ask", "q")
    _finish(runs, no_model, outcome="no_eligible_evidence", answer={"path": "none"}, result={})
    priced = ledger_for_run(runs.get(run_id), _prices())
    assert [(li.item, li.amount) for li in priced.lines if li.component is Component.LLM] == [
        ("planner-small", D("0.0036"))
    ]
    assert not [li for li in ledger_for_run(runs.get(no_model), _prices()).lines if li.component is Component.LLM]


def test_cost_per_accepted_report_is_undefined_when_none_was_accepted(runs: RunStore, store: EvidenceStore) -> None:
    _worked_run(runs, accepted=False)
    _worked_run(runs, accepted=None, status="failed")
    report = cost_report(store, _prices())
    assert (report.runs, report.accepted) == (2, 0)
    assert report.total == D("0.4772")  # still counted
    assert report.cost_per_accepted_report is None
    assert report.to_json()["cost_per_accepted_report"] is None


def test_since_keeps_runs_started_on_or_after_the_date_utc(
    runs: RunStore, store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for moment, accepted in (
        (datetime(2025, 2, 28, 23, 59, tzinfo=UTC), True),
        (datetime(2025, 3, 1, 0, 0, tzinfo=UTC), True),
        (datetime(2025, 3, 5, 12, 0, tzinfo=UTC), False),
    ):
        monkeypatch.setattr("citewise.store.runs.utcnow", lambda moment=moment: moment)
        _worked_run(runs, accepted)
    report = cost_report(store, _prices(), since=date(2025, 3, 1))
    assert (report.runs, report.accepted) == (2, 1)
    assert report.since == datetime(2025, 3, 1, tzinfo=UTC)
    assert report.cost_per_accepted_report == D("0.4772")
    assert cost_report(store, _prices()).runs == 3
    assert cost_report(store, _prices(), since=datetime(2025, 3, 5, 12, 0)).runs == 1  # naive means UTC


# -- bad price files ------------------------------------------------------------------------------


def _without(key: str) -> dict[str, Any]:
    return {k: v for k, v in WORKED_PRICES.items() if k != key}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_without("models"), "missing keys in the price table: ['models']"),
        ({**WORKED_PRICES, "tavily": 0.008}, "unknown keys in the price table: ['tavily']"),
        ({**WORKED_PRICES, "models": {"m": {"input": 1, "output": 2, "cache": 1}}}, "unknown keys in models.m"),
        ({**WORKED_PRICES, "models": {"m": {"input": 1}}}, "missing keys in models.m: ['output']"),
        ({**WORKED_PRICES, "models": {"m": {"input": -0.1, "output": 2}}}, "models.m.input must not be negative"),
        ({**WORKED_PRICES, "models": {"m": {"input": "cheap", "output": 2}}}, "models.m.input must be a number"),
        ({**WORKED_PRICES, "models": {"m": {"input": True, "output": 2}}}, "models.m.input must be a number"),
        ({**WORKED_PRICES, "models": {"m": {"input": "nan", "output": 2}}}, "must be a finite number"),
        ({**WORKED_PRICES, "models": ["m"]}, "models must be a mapping"),
        ({**WORKED_PRICES, "tavily_credit": -1}, "tavily_credit must not be negative"),
        (
            {**WORKED_PRICES, "models": {"m": {"input": 1, "output": 2, "long_context": {"input": 2, "output": 3}}}},
            "missing keys in models.m.long_context: ['threshold']",
        ),
        (
            {**WORKED_PRICES, "assumptions": {**WORKED_PRICES["assumptions"], "runs_per_month": 0}},
            "runs_per_month must be greater than zero",
        ),
        (
            {**WORKED_PRICES, "assumptions": {"infrastructure_per_run": 0.01}},
            "missing keys in assumptions: ['human_review_rate_per_hour'",
        ),
        ([1, 2], "the price table must be a mapping"),
    ],
)
def test_bad_price_tables_are_config_errors_naming_the_key(tmp_path: Path, data: Any, message: str) -> None:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match="price table") as info:
        load_prices(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_unreadable_or_missing_price_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="cannot read price table"):
        load_prices(tmp_path / "nope.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("models: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot read price table"):
        load_prices(broken)
    monkeypatch.delenv(PRICES_ENV, raising=False)
    assert load_prices().origin.startswith("citewise built-in list prices")  # no table named: the built-in one


def test_the_environment_names_the_table_and_the_example_file_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    example = REPO / "examples" / "prices.yaml"
    monkeypatch.setenv(PRICES_ENV, str(example))
    prices = load_prices()
    assert prices.origin == str(example)
    assert prices.currency == "USD"
    assert prices.models and all(m.rates.input >= 0 for m in prices.models.values())
    assert prices.assumptions.runs_per_month > 0
    with pytest.raises(TypeError):
        prices.models["new"] = prices.models["gpt-4.1"]  # type: ignore[index]


# -- the command ----------------------------------------------------------------------------------


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv(PRICES_ENV, raising=False)
    app = typer.Typer()
    app.command()(cost)
    app.command("noop")(lambda: None)  # two commands, so `cost` is a subcommand as it is in citewise
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(WORKED_PRICES), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["cost", "--prices", str(prices), *args])
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    return run


def _cli_runs(tmp_path: Path, accepted: list[bool | None]) -> None:
    with EvidenceStore.open(str(tmp_path / "cli.sqlite")) as s:
        runs = RunStore(s)
        for value in accepted:
            _worked_run(runs, value)


def test_cost_command_json_and_table(cli: Callable[..., str], tmp_path: Path) -> None:
    _cli_runs(tmp_path, [True, True, False, None])
    data = json.loads(cli("--json"))
    assert (data["runs"], data["accepted_reports"]) == (4, 2)
    assert data["total"] == "0.9544"
    assert data["cost_per_accepted_report"] == "0.4772"
    assert len(data["per_run"]) == 4
    out = cli()
    assert "infrastructure (assumption)" in out and "human review (assumption)" in out
    assert "total (measured + assumptions)" in out and "$0.9544" in out
    assert "cost per accepted report: $0.4772" in out
    assert "accepted reports: 2" in out


def test_cost_command_undefined_and_since(cli: Callable[..., str], tmp_path: Path) -> None:
    _cli_runs(tmp_path, [False])
    assert "cost per accepted report: undefined (no accepted reports)" in cli()
    assert json.loads(cli("--json"))["cost_per_accepted_report"] is None
    assert json.loads(cli("--since", "2999-01-01", "--json"))["runs"] == 0
    assert json.loads(cli("--since", "2000-01-01", "--json"))["runs"] == 1
    assert "--since must be a date" in cli("--since", "last week", code=2)


def test_cost_command_reports_unknown_costs_and_bad_tables(cli: Callable[..., str], tmp_path: Path) -> None:
    with EvidenceStore.open(str(tmp_path / "cli.sqlite")) as s:
        runs = RunStore(s)
        run_id = runs.create("research", "q")
        _record(runs, run_id, "model_call", _model_call("write", "mystery-model", 5_000, 700))
    out = cli()
    assert "unknown" in out and "mystery-model" in out and "total, at least" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("models: {}\n", encoding="utf-8")
    runner = CliRunner()
    app = typer.Typer()
    app.command()(cost)
    result = runner.invoke(app, ["--prices", str(bad)])
    assert result.exit_code == 2
    assert "missing keys in the price table" in result.output


def test_estimated_tokens_are_priced_on_lines_of_their_own_that_say_they_are_estimates(runs: RunStore) -> None:
    """A stream broken off before its usage, and a call in flight when the run stopped, are priced
    from citewise's estimate: the cost output says so, apart from the reported calls."""
    from citewise.audit.events import ModelCallEnded, ModelCallInterrupted
    from citewise.records.research import ModelPurpose

    run_id = runs.create("research", "q")
    runs.append(run_id, ModelCallEnded(ModelPurpose.DRAFT, "writer-large", "writer-large", "ok", 1_000, 100))
    broken = ModelCallEnded(ModelPurpose.DRAFT, "writer-large", None, "ModelStreamBroken", 1_000, 40, estimated=True)
    runs.append(run_id, broken)
    runs.append(run_id, ModelCallInterrupted(ModelPurpose.REVIEW, "writer-large", 2_000))
    lines = [li for li in ledger_for_run(runs.get(run_id), _prices()).lines if li.component is Component.LLM]
    by_note = {li.note: li for li in lines}
    assert set(by_note) == {None, ESTIMATED_BROKEN, ESTIMATED_INTERRUPTED}
    assert by_note[None].tokens is not None and by_note[None].tokens.output == 100
    assert by_note[ESTIMATED_BROKEN].tokens is not None and by_note[ESTIMATED_BROKEN].tokens.output == 40
    assert by_note[ESTIMATED_INTERRUPTED].amount == D("0.004")  # 2,000 × $2.00 per million, no output
    assert "estimated" in ESTIMATED_BROKEN and "estimated" in ESTIMATED_INTERRUPTED
