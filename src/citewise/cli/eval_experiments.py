"""``citewise eval same-evidence`` and ``citewise eval history``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, err_console, handle_errors, open_api, shown
from citewise.errors import ConfigError, InputError
from citewise.records.budget import Budget

if TYPE_CHECKING:
    from citewise.api import Citewise
    from citewise.batch.limits import Purse, RateLimiter
    from citewise.eval.experiment import Cell, ContenderSummary
    from citewise.eval.pack import EvidencePack
    from citewise.eval.questions import QuestionSet
    from citewise.research.settings import ResearchSettings

__all__ = ["end_to_end", "history", "same_evidence"]


@handle_errors
def same_evidence(
    questions: Annotated[Path, typer.Option("--questions", help="Question set (JSONL).")],
    writers: Annotated[str, typer.Option("--writers", help="Writer models, comma-separated: M1,M2,...")],
    planner: Annotated[
        str | None, typer.Option("--planner", help="Also run each writer with this planner (split pairs).")
    ] = None,
    evidence: Annotated[
        list[str] | None, typer.Option("--evidence", help="A run whose sources are a question's pack (repeatable).")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Cells run at once.")] = 4,
    rate: Annotated[
        list[str] | None,
        typer.Option("--rate", help="Shared rate limit NAME=N per s (or /m), e.g. model=2/s (CITEWISE_RATE_LIMITS)."),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds per cell.")] = 2,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", help="Token cap per cell.")] = None,
    prices: Annotated[str | None, typer.Option("--prices", help="Price table (default: built-in).")] = None,
    resume: Annotated[str | None, typer.Option("--resume", help="Continue a stored evaluation.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One frozen evidence pack per question, the identical pack for every model; every report
    verified by the same ledger; per model: support, citations, sub-questions, tokens, latency, cost."""
    from citewise.batch.limits import LimitedClient
    from citewise.eval.experiment import contenders, run_same_evidence, summarize
    from citewise.eval.questions import load_question_set
    from citewise.llm import ChatClient, model_configured
    from citewise.prices import load_prices
    from citewise.records.budget import Budget

    qset = load_question_set(questions)
    chosen = contenders(writers.split(","), planner)
    if not chosen:
        raise InputError("--writers names no model")
    if not model_configured():
        raise ConfigError(
            "the same-evidence experiment needs a model endpoint: set COMETAPI_KEY (or CITEWISE_LLM_API_KEY)"
        )
    table = load_prices(prices)
    budget = Budget(max_rounds=rounds, max_tokens=max_tokens)
    with open_api(store) as api, ChatClient.from_env() as raw_client:
        limiter, purse = _limits(api, rate)
        client = LimitedClient(raw_client, limiter, purse)
        given = list(evidence or [])
        if resume:  # the packs the experiment started with, from the runs they were taken from
            from citewise.store.evaluations import EvaluationStore

            recorded = EvaluationStore(api.store).get(resume).result.get("settings", {}).get("pack_runs", {})
            given += [r for r in recorded.values() if r and r not in given]
        packs = _packs(api, qset, given, planner or chosen[0].planner_model)
        evaluation_id, cells = run_same_evidence(
            api.store,
            qset,
            packs,
            chosen,
            client,
            budget=budget,
            prices=table,
            concurrency=concurrency,
            resume=resume,
            progress=None if json_out else _progress,
        )
    rows = summarize(cells, chosen)
    if json_out:
        emit_json({"evaluation_id": evaluation_id, "question_set": qset.digest, "contenders": rows, "cells": cells})
        return
    _print(evaluation_id, qset.digest, rows)


def _packs(api: Citewise, qset: QuestionSet, evidence: list[str], collector: str) -> dict[str, EvidencePack]:
    """A pack per question: from the given runs (matched by question), else collected once with the
    configured search and ``collector`` planning and writing."""
    from citewise.eval.pack import pack_from_run
    from citewise.research.configure import research_settings

    store = api.store
    packs: dict[str, EvidencePack] = {}
    by_question = {q.question: q.id for q in qset.questions}
    for run_id in evidence:
        pack = pack_from_run(api.run(run_id))
        if pack.question not in by_question:
            raise InputError(f"run {run_id} answered {pack.question!r}, which is not a question of the set")
        packs[by_question[pack.question]] = pack
    missing = [q for q in qset.questions if q.id not in packs]
    if missing:
        with research_settings(store, planner_model=collector, writer_model=collector, verify=False) as settings:
            for q in missing:
                err_console.print(f"collecting the evidence pack for {shown(q.id)}")
                result = api.research(q.question, settings)
                try:
                    packs[q.id] = pack_from_run(api.run(result.run_id))
                except InputError as exc:
                    err_console.print(f"[yellow]{shown(q.id)}: {shown(str(exc))}; left out[/]")
    return packs


def _progress(done: int, total: int, cell: Cell) -> None:
    outcome = "failed" if cell.score is None else ("accepted" if cell.score.accepted else "not accepted")
    err_console.print(f"[{done}/{total}] {shown(cell.question_id)} · {shown(cell.contender)}: {outcome}")


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _print(evaluation_id: str, digest: str, rows: list[ContenderSummary]) -> None:
    table = Table(title=f"same evidence · {evaluation_id}")
    for column in (
        "contender",
        "accepted",
        "citation support",
        "unsupported",
        "unmapped",
        "valid ids",
        "sub-questions",
        "sites/report",
        "largest site",
        "tokens",
        "latency s",
        "cost USD",
        "per accepted",
        "pack",
    ):
        table.add_column(column)
    for r in rows:
        per = "undefined" if r.cost_per_accepted_usd is None else f"{r.cost_per_accepted_usd:.4f}"
        table.add_row(
            shown(r.label),
            f"{r.accepted}/{r.questions}",
            _pct(r.citation_support_rate),
            str(r.unsupported),
            str(r.unmapped),
            _pct(r.valid_citation_rate),
            _pct(r.subquestions_answered),
            "n/a" if r.mean_sites is None else f"{r.mean_sites:.1f}",
            _pct(r.largest_site_share),
            str(r.tokens),
            f"{r.mean_latency_s:.1f}",
            f"{r.cost_usd:.4f}",
            per,
            ", ".join(d[7:19] for d in r.pack_digests),
        )
    console.print(table)
    console.print(f"question set {digest[:19]}… · every contender saw the packs listed in its row")


@handle_errors
def history(
    questions: Annotated[Path, typer.Option("--questions", help="The question set whose history to show.")],
    chart: Annotated[Path | None, typer.Option("--chart", help="Write the chart as HTML here.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Every stored experiment over a question set, in time order, with a chart of drift."""
    from citewise.eval.history import chart_html
    from citewise.eval.history import history as load_history
    from citewise.eval.questions import load_question_set

    qset = load_question_set(questions)
    with open_api(store) as api:
        rows = load_history(api.store, qset.digest)
    if chart is not None:
        chart.write_text(chart_html(rows, f"citewise evaluation history · {questions.name}"), encoding="utf-8")
        err_console.print(f"chart written to {shown(str(chart))}")
    if json_out:
        emit_json({"question_set": qset.digest, "rows": rows})
        return
    table = Table(title=f"history · {shown(questions.name)}")
    for column in (
        "when",
        "evaluation",
        "kind",
        "contender",
        "accepted",
        "citation support",
        "sub-questions",
        "sites/report",
        "largest site",
        "per accepted USD",
    ):
        table.add_column(column)
    for r in rows:
        table.add_row(
            f"{r.at:%Y-%m-%d %H:%M}",
            r.evaluation_id,
            r.kind,
            shown(r.contender),
            f"{r.accepted}/{r.questions}",
            _pct(r.citation_support_rate),
            _pct(r.subquestions_answered),
            "n/a" if r.mean_sites is None else f"{r.mean_sites:.1f}",
            _pct(r.largest_site_share),
            "undefined" if r.cost_per_accepted_usd is None else f"{r.cost_per_accepted_usd:.4f}",
        )
    console.print(table if rows else "no stored evaluation over this question set yet")


@handle_errors
def end_to_end(
    questions: Annotated[Path, typer.Option("--questions", help="Question set (JSONL).")],
    engines: Annotated[str, typer.Option("--engines", help="citewise,openai,anthropic,gemini (any of them).")],
    model: Annotated[
        list[str] | None, typer.Option("--model", help="ENGINE=MODEL for a native engine (repeatable).")
    ] = None,
    searches: Annotated[int, typer.Option("--searches", help="Search budget per question, every engine.")] = 8,
    pages: Annotated[int, typer.Option("--pages", help="Page budget per question (citewise's loop).")] = 12,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds per question (citewise's loop).")] = 3,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Cells run at once.")] = 4,
    rate: Annotated[
        list[str] | None,
        typer.Option("--rate", help="Shared rate limit NAME=N per s (or /m), e.g. model=2/s (CITEWISE_RATE_LIMITS)."),
    ] = None,
    prices: Annotated[str | None, typer.Option("--prices", help="Price table (default: built-in).")] = None,
    resume: Annotated[str | None, typer.Option("--resume", help="Continue a stored evaluation.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Each engine retrieves its own evidence under comparable budgets; the same verification and
    metrics for all, plus search query relevance and sources per accepted report."""
    from contextlib import ExitStack

    from citewise.batch.limits import limited_settings
    from citewise.engines.registry import ENGINES
    from citewise.eval.experiment import Contender, run_end_to_end, summarize
    from citewise.eval.questions import load_question_set
    from citewise.prices import load_prices
    from citewise.research.configure import research_settings

    qset = load_question_set(questions)
    names = list(dict.fromkeys(e.strip().lower() for e in engines.split(",") if e.strip()))
    known = ("citewise", *ENGINES.names())
    if not names or any(n not in known for n in names):
        raise InputError(f"--engines takes {', '.join(known)} (got {engines!r})")
    models = dict(m.split("=", 1) for m in (model or []) if "=" in m)
    budget = Budget(max_rounds=rounds, max_searches=searches, max_extractions=pages)
    table = load_prices(prices)
    with open_api(store) as api, ExitStack() as stack:
        runners: dict[str, Callable[[str], str]] = {}
        for name in names:
            if name == "citewise":
                settings = stack.enter_context(research_settings(api.store, budget=budget))
                runners[name] = _loop_runner(api, limited_settings(settings, *_limits(api, rate)))
            else:
                native = getattr(api, "research_with_engine", None)
                if native is None:
                    raise ConfigError(f"engine {name!r}: native search engines are not available in this build")
                runners[name] = _native_runner(native, name, models.get(name), budget)
        settings_data = {
            "engines": names,
            "models": models,
            "budget": {"searches": searches, "pages": pages, "rounds": rounds},
        }
        evaluation_id, cells = run_end_to_end(
            api.store,
            qset,
            runners,
            prices=table,
            settings_data=settings_data,
            concurrency=concurrency,
            resume=resume,
            progress=None if json_out else _progress,
        )
    rows = summarize(cells, [Contender(n, n, n) for n in names])
    if json_out:
        emit_json({"evaluation_id": evaluation_id, "question_set": qset.digest, "engines": rows, "cells": cells})
        return
    out = Table(title=f"end to end · {evaluation_id}")
    for column in (
        "engine",
        "accepted",
        "citation support",
        "unsupported",
        "valid ids",
        "sub-questions",
        "query relevance",
        "sources/accepted",
        "sites/report",
        "largest site",
        "tokens",
        "latency s",
        "cost USD",
        "per accepted",
    ):
        out.add_column(column)
    for r in rows:
        per = "undefined" if r.cost_per_accepted_usd is None else f"{r.cost_per_accepted_usd:.4f}"
        out.add_row(
            r.label,
            f"{r.accepted}/{r.questions}",
            _pct(r.citation_support_rate),
            str(r.unsupported),
            _pct(r.valid_citation_rate),
            _pct(r.subquestions_answered),
            _pct(r.query_relevance),
            "n/a" if r.sources_per_accepted is None else f"{r.sources_per_accepted:.1f}",
            "n/a" if r.mean_sites is None else f"{r.mean_sites:.1f}",
            _pct(r.largest_site_share),
            str(r.tokens),
            f"{r.mean_latency_s:.1f}",
            f"{r.cost_usd:.4f}",
            per,
        )
    console.print(out)


def _loop_runner(api: Citewise, settings: ResearchSettings) -> Callable[[str], str]:
    def run(question: str) -> str:
        return api.research(question, settings).run_id

    return run


def _native_runner(native: Callable[..., Any], name: str, model: str | None, budget: Budget) -> Callable[[str], str]:
    def run(question: str) -> str:
        return str(native(question, name, model=model, budget=budget).run_id)

    return run


def _limits(api: Citewise, rate: list[str] | None) -> tuple[RateLimiter, Purse]:
    """Provider rate limits shared through the store (``--rate`` or ``CITEWISE_RATE_LIMITS``), by every
    concurrent cell and every other process using them; no money cap."""
    from citewise.batch.limits import RateLimiter, parse_rates, uncapped
    from citewise.config import RATE_ENV, env
    from citewise.store.batches import BatchStore

    rates = parse_rates(rate if rate else env(RATE_ENV) or "")
    batches = BatchStore(api.store)
    return RateLimiter(batches, rates), uncapped(batches)
