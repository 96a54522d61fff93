"""``citewise research``: a cited report from pages citewise itself extracted, inside hard budgets."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from citewise.cli.common import (
    ExitCode,
    JsonOpt,
    StoreOpt,
    console,
    emit_json,
    err_console,
    handle_errors,
    open_api,
    shown,
    to_jsonable,
)
from citewise.errors import CitewiseError, InputError
from citewise.records.research import ReportStatus, StopReason
from citewise.records.verify import UnsupportedAction

if TYPE_CHECKING:
    from citewise.prices import PriceTable

if TYPE_CHECKING:
    from citewise.api import Citewise
    from citewise.cli.progress import ResearchProgress
    from citewise.cost.ledger import CostLedger
    from citewise.research.context import ResearchResult

__all__ = ["research"]


@handle_errors
def research(
    question: Annotated[str | None, typer.Argument(help="The question (omit with --resume).")] = None,
    search: Annotated[
        str | None, typer.Option("--search", help="tavily or local (default: tavily with a key).")
    ] = None,
    extract: Annotated[
        str | None,
        typer.Option("--extract", help="tavily (default), own (citewise's fetcher) or none; local reads the store."),
    ] = None,
    extract_fallback: Annotated[
        str | None,
        typer.Option("--extract-fallback", help="The other extractor to retry unread pages with (inside --pages)."),
    ] = None,
    planner_model: Annotated[str | None, typer.Option("--planner-model", help="Default: PLANNER_MODEL.")] = None,
    writer_model: Annotated[str | None, typer.Option("--writer-model", help="Default: WRITER_MODEL.")] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Deterministic planner, reviewer and writer.")] = False,
    rounds: Annotated[int | None, typer.Option("--rounds", help="Round budget (CITEWISE_MAX_ROUNDS; 3).")] = None,
    searches: Annotated[
        int | None, typer.Option("--searches", help="Search-attempt budget (CITEWISE_MAX_SEARCHES; 8).")
    ] = None,
    pages: Annotated[
        int | None, typer.Option("--pages", help="Page-extraction budget (CITEWISE_MAX_PAGES; 12).")
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", help="Model token cap, never crossed (CITEWISE_MAX_TOKENS).")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="Model money cap in USD, never crossed (CITEWISE_MAX_COST).")
    ] = None,
    prices: Annotated[
        str | None, typer.Option("--prices", help="Price table for --max-cost (CITEWISE_PRICES; else built-in).")
    ] = None,
    sequential: Annotated[bool, typer.Option("--sequential", help="No concurrent calls within a round.")] = False,
    no_stream: Annotated[
        bool, typer.Option("--no-stream", help="Do not stream drafts (claims are then checked after each draft).")
    ] = False,
    no_speculate: Annotated[
        bool, typer.Option("--no-speculate", help="Draft only after each review, never beside it.")
    ] = False,
    draft_every_round: Annotated[
        bool, typer.Option("--draft-every-round", help="Also draft rounds whose review asks for more searching.")
    ] = False,
    no_search_ahead: Annotated[
        bool,
        typer.Option(
            "--no-search-ahead",
            help="Search each query only when its round starts, not as soon as the streamed plan or review names it.",
        ),
    ] = False,
    resume_run: Annotated[str | None, typer.Option("--resume", help="Continue a run that stopped part-way.")] = None,
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Deliver the draft without checking its claims (recorded).")
    ] = False,
    unsupported: Annotated[
        str, typer.Option("--unsupported", help="remove (default) or mark factual claims verification did not support.")
    ] = "remove",
    cache_ttl: Annotated[
        str | None,
        typer.Option("--cache-ttl", help="Reuse cached searches and pages this young: 24h, 30m, 0 = off (default 24h)"),
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the cache this run.")] = False,
    engine: Annotated[
        str | None,
        typer.Option("--engine", help="openai, anthropic or gemini: a native search engine (default: citewise)."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="The native engine's model id.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Plan, search, extract, review coverage, follow up on gaps, and write a cited report whose every
    claim is verified against the stored pages before you read it.

    With no keys it runs on the local evidence store with the deterministic planner and writer, and
    says so in the report."""
    from citewise.records.budget import budget_from_env
    from citewise.research.configure import research_settings

    started = time.monotonic()
    if (question is None) == (resume_run is None):
        raise InputError("give a QUESTION, or --resume RUN to continue a stopped run")
    action = unsupported_action(unsupported)
    ways = {"stream": not no_stream, "speculate": not no_speculate, "draft_every_round": draft_every_round}
    ways["search_ahead"] = not no_search_ahead
    budget = budget_from_env(
        max_rounds=rounds, max_searches=searches, max_extractions=pages, max_tokens=max_tokens, max_cost_usd=max_cost
    )
    if engine is not None or model is not None:
        if engine is None or question is None or search is not None or resume_run is not None:
            raise InputError("--engine ENGINE [--model ID] takes a QUESTION, without --search or --resume")
        options = (budget, prices, store, not sequential, not no_verify, action, json_out)
        _native(question, engine, model, extract, *options)
        return
    if resume_run:
        flags = {"--search": search, "--extract": extract, "--extract-fallback": extract_fallback}
        flags.update({"--planner-model": planner_model, "--writer-model": writer_model})
        switches = {"--no-model": no_model, "--sequential": sequential}
        limits: dict[str, int | float | None] = {"max_rounds": rounds, "max_searches": searches}
        limits["max_extractions"] = pages
        limits.update(max_tokens=max_tokens, max_cost_usd=max_cost)
        changes = _resume_changes(flags, switches, limits)
        _resume(resume_run, store, changes, prices, not no_verify, action, cache_ttl, no_cache, json_out, started, ways)
        return
    with (
        open_api(store) as api,
        research_settings(
            api.store,
            search=search,
            extract=extract,
            extract_fallback=extract_fallback,
            planner_model=planner_model,
            writer_model=writer_model,
            no_model=no_model,
            budget=budget,
            prices=prices,
            concurrent=not sequential,
            verify=not no_verify,
            unsupported=action,
            cache_ttl=cache_ttl,
            no_cache=no_cache,
            **ways,
        ) as settings,
        _display(json_out, settings.prices or _display_prices(prices)) as display,  # None with --json
    ):
        progress = display.update if display is not None else None
        assert question is not None
        result = api.research(question, settings, progress)
        cost = _run_cost(api, result.run_id, display.prices) if display is not None else None
    _show(result, json_out, cost, time.monotonic() - started)


def _resume_changes(
    flags: Mapping[str, str | None], switches: Mapping[str, bool], limits: Mapping[str, int | float | None]
) -> dict[str, int | float]:
    """The budget limits ``--resume`` raises; a flag the run's record fixes is an input error."""
    changed = [name for name, value in flags.items() if value is not None]
    changed += [name for name, on in switches.items() if on]
    if changed:
        raise InputError(
            f"--resume continues with the run's recorded configuration; leave out {', '.join(changed)} "
            "(budget flags may raise a limit)"
        )
    return {name: value for name, value in limits.items() if value is not None}


def _resume(
    run_id: str,
    store: str | None,
    budget_changes: Mapping[str, int | float],
    prices: str | None,
    verify: bool,
    action: UnsupportedAction,
    cache_ttl: str | None,
    no_cache: bool,
    json_out: bool,
    started: float,
    ways: Mapping[str, bool],
) -> None:
    """``--resume RUN``: the run goes on with the configuration it recorded (``ways``: streaming,
    speculative and every-round drafts, searching ahead, which the record does not fix)."""
    with (
        open_api(store) as api,
        api.resume_settings(
            run_id,
            budget_changes=budget_changes,
            prices=prices,
            verify=verify,
            unsupported=action,
            cache_ttl=cache_ttl,
            no_cache=no_cache,
            **ways,
        ) as settings,
        _display(json_out, settings.prices or _display_prices(prices)) as display,  # None with --json
    ):
        result = api.resume(run_id, settings, display.update if display is not None else None)
        cost = _run_cost(api, result.run_id, display.prices) if display is not None else None
    _show(result, json_out, cost, time.monotonic() - started)


def _native(
    question: str,
    engine: str,
    model: str | None,
    extract: str | None,
    budget: Any,
    prices: str | None,
    store: str | None,
    concurrent: bool,
    verify: bool,
    action: UnsupportedAction,
    json_out: bool,
) -> None:
    """``--engine``: the native engine answers; citewise reads, checks and verifies (engines.run)."""
    from citewise.engines.registry import native_settings

    started = time.monotonic()
    with (
        open_api(store) as api,
        native_settings(
            api.store,
            engine,
            model=model,
            extract=extract,
            budget=budget,
            prices=prices,
            concurrent=concurrent,
            verify=verify,
            unsupported=action,
        ) as (chosen, settings),
        _display(json_out, settings.prices or _display_prices(prices)) as display,  # None with --json
    ):
        progress = display.update if display is not None else None
        live = display.engine if display is not None else None
        result = api.research_with_engine(question, chosen, settings=settings, progress=progress, engine_progress=live)
        cost = _run_cost(api, result.run_id, display.prices) if display is not None else None
    _show(result, json_out, cost, time.monotonic() - started)


def _show(result: ResearchResult, json_out: bool, cost: CostLedger | None, elapsed_s: float) -> None:
    code = exit_code(result)
    if json_out:
        emit_json({**to_jsonable(result), "exit_code": int(code)})
    else:
        _print_result(result, cost, elapsed_s)
    if code is not ExitCode.ACCEPTED:
        raise typer.Exit(int(code))


_BUDGET_STOPS = {
    StopReason.ROUNDS_EXHAUSTED,
    StopReason.SEARCHES_EXHAUSTED,
    StopReason.EXTRACTIONS_EXHAUSTED,
    StopReason.TOKENS_EXHAUSTED,
    StopReason.COST_EXHAUSTED,
}


def exit_code(result: ResearchResult) -> ExitCode:
    """The exit code of a research run (see :class:`~citewise.cli.common.ExitCode`)."""
    if result.status is ReportStatus.NO_EVIDENCE:
        return ExitCode.BUDGET_EXHAUSTED if result.stop_reason in _BUDGET_STOPS else ExitCode.NO_EVIDENCE
    if result.status is ReportStatus.NO_VERIFIED_FINDING:
        return ExitCode.NO_EVIDENCE  # no report was delivered: nothing the sources support survived
    if result.acceptance is not None and result.acceptance.accepted:
        return ExitCode.ACCEPTED
    return ExitCode.NOT_ACCEPTED


def unsupported_action(value: str) -> UnsupportedAction:
    """The ``--unsupported`` value as an action; a clear error naming the valid ones."""
    try:
        return UnsupportedAction(value)
    except ValueError:
        valid = ", ".join(a.value for a in UnsupportedAction)
        raise InputError(f"--unsupported must be one of: {valid} (got {value!r})") from None


# -- display ----------------------------------------------------------------------------------------


@contextmanager
def _display(quiet: bool, prices: PriceTable | None) -> Iterator[ResearchProgress | None]:
    """The step in progress on stderr (nothing with ``--json``)."""
    from citewise.cli.progress import ResearchProgress

    if quiet:
        yield None
        return
    with ResearchProgress(err_console, prices) as display:
        yield display


def _display_prices(path: str | None) -> PriceTable | None:
    """The price table the display prices model calls with; None when it cannot be read (the run
    itself reports a bad table only when a money cap needs it)."""
    from citewise.prices import load_prices

    try:
        return load_prices(path)
    except CitewiseError:
        return None


def _run_cost(api: Citewise, run_id: str, prices: PriceTable | None) -> CostLedger | None:
    from citewise.cost.ledger import ledger_for_run

    return ledger_for_run(api.run(run_id), prices) if prices is not None else None


def _print_result(result: ResearchResult, cost: CostLedger | None, elapsed_s: float) -> None:
    from rich.markdown import Markdown  # markdown-it loads only when a report is shown

    from citewise.cli.progress import research_summary

    console.print(Markdown(result.markdown))
    if result.acceptance is not None:
        reasons = "; ".join(result.acceptance.reasons)
        console.print(f"[bold]{'accepted' if result.acceptance.accepted else 'not accepted'}[/]: {shown(reasons)}")
    console.print(f"[dim]{shown(research_summary(result, cost, elapsed_s))}[/]", highlight=False)
