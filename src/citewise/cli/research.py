"""``citewise research``: a cited report from pages citewise itself extracted, inside hard budgets."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.markdown import Markdown
from rich.text import Text

from citewise.audit.events import Event, EventKind
from citewise.cli.common import (
    ExitCode,
    JsonOpt,
    StoreOpt,
    console,
    emit_json,
    err_console,
    handle_errors,
    open_api,
    to_jsonable,
)
from citewise.errors import InputError
from citewise.research.context import ResearchResult
from citewise.research.records import ReportStatus, StopReason
from citewise.research.state import ResearchState
from citewise.verify.records import UnsupportedAction

__all__ = ["research"]

# What the run is doing after each event (the step now under way, not the one just finished).
_NOW = {
    EventKind.RUN_CONFIGURED: "planning",
    EventKind.PLAN_MADE: "searching",
    EventKind.ROUND_STARTED: "searching",
    EventKind.ATTEMPT_STARTED: "searching and reading pages",
    EventKind.ATTEMPT_ENDED: "searching and reading pages",
    EventKind.SOURCE_STORED: "selecting passages",
    EventKind.COLLECTION_ENDED: "reviewing coverage",
    EventKind.MODEL_CALL_STARTED: "waiting for the model",
    EventKind.REVIEW_MADE: "drafting",
    EventKind.DRAFT_MADE: "checking the round",
    EventKind.REPAIR_ASKED: "repairing citations",
    EventKind.ROUND_ENDED: "next round",
    EventKind.REPORT_MADE: "done",
    EventKind.ENGINE_ANSWERED: "reading the cited pages",
    EventKind.ENGINE_CALL_FAILED: "the engine call failed",
}


@handle_errors
def research(
    question: Annotated[str | None, typer.Argument(help="The question (omit with --resume).")] = None,
    search: Annotated[
        str | None, typer.Option("--search", help="tavily or local (default: tavily with a key).")
    ] = None,
    extract: Annotated[
        str | None, typer.Option("--extract", help="tavily or none (local search reads the store).")
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
    resume_run: Annotated[str | None, typer.Option("--resume", help="Continue a run that stopped part-way.")] = None,
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Deliver the draft without checking its claims (recorded).")
    ] = False,
    unsupported: Annotated[
        str, typer.Option("--unsupported", help="remove (default) or mark factual claims verification did not support.")
    ] = "remove",
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
    from citewise.research.budget import budget_from_env
    from citewise.research.configure import research_settings
    from citewise.research.loop import research as run_research
    from citewise.research.loop import resume

    if (question is None) == (resume_run is None):
        raise InputError("give a QUESTION, or --resume RUN to continue a stopped run")
    action = unsupported_action(unsupported)
    budget = budget_from_env(
        max_rounds=rounds, max_searches=searches, max_extractions=pages, max_tokens=max_tokens, max_cost_usd=max_cost
    )
    if engine is not None or model is not None:
        if engine is None or question is None or search is not None or resume_run is not None:
            raise InputError("--engine ENGINE [--model ID] takes a QUESTION, without --search or --resume")
        options = (budget, prices, store, not sequential, not no_verify, action, json_out)
        _native(question, engine, model, extract, *options)
        return
    with (
        open_api(store) as api,
        research_settings(
            api.store,
            search=search,
            extract=extract,
            planner_model=planner_model,
            writer_model=writer_model,
            no_model=no_model,
            budget=budget,
            prices=prices,
            concurrent=not sequential,
            verify=not no_verify,
            unsupported=action,
        ) as settings,
        _progress(json_out) as progress,
    ):
        if resume_run:
            result = resume(api.store, resume_run, settings, progress)
        else:
            assert question is not None
            result = run_research(api.store, question, settings, progress)
    _show(result, json_out)


def _native(
    question: str, engine: str, model: str | None, extract: str | None, budget: Any, prices: str | None,
    store: str | None, concurrent: bool, verify: bool, action: UnsupportedAction, json_out: bool,
) -> None:
    """``--engine``: the native engine answers; citewise reads, checks and verifies (engines.run)."""
    from citewise.engines.registry import native_settings
    from citewise.engines.run import research_with_engine

    status = _progress(json_out)
    with (
        open_api(store) as api,
        native_settings(
            api.store, engine, model=model, extract=extract, budget=budget, prices=prices,
            concurrent=concurrent, verify=verify, unsupported=action,
        ) as (chosen, settings),
        status as progress,
    ):
        live = None if json_out else status.engine
        result = research_with_engine(api.store, question, chosen, settings, progress, live)
    _show(result, json_out)


def _show(result: ResearchResult, json_out: bool) -> None:
    code = exit_code(result)
    if json_out:
        emit_json({**to_jsonable(result), "exit_code": int(code)})
    else:
        console.print(Markdown(result.markdown))
        verdict = "not verified" if result.acceptance is None else (
            "accepted" if result.acceptance.accepted else "not accepted"
        )
        console.print(
            f"[dim]status: {result.status.value} · {verdict} · stopped: {result.stop_reason.value}"
            f" · run: {result.run_id}[/]"
        )
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


class _progress:
    """A live status line on stderr: round, budgets used, current step."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.live: Live | None = None
        self.started = time.monotonic()

    def __enter__(self) -> Any:
        if self.quiet:
            return None
        self.live = Live(Text("starting"), console=err_console, transient=True, refresh_per_second=8)
        self.live.__enter__()
        return self.update

    def update(self, event: Event, state: ResearchState) -> None:
        if event.kind not in _NOW:
            return
        u = state.usage
        b = u.budget
        elapsed = time.monotonic() - self.started
        line = (
            f"{elapsed:5.0f} s · round {state.round or 0} · searches {u.searches}/{b.max_searches}"
            f" · pages {u.extractions}/{b.max_extractions} · sources {len(state.collection.sources)}"
            f" · tokens {u.tokens}{f'/{b.max_tokens}' if b.max_tokens else ''} · {_NOW[event.kind]}"
        )
        if self.live is not None:
            self.live.update(Text(line))

    def engine(self, step: Any) -> None:
        """What a native engine is doing now (streamed calls report as they go)."""
        detail = f": {step.detail}" if step.detail else ""
        if self.live is not None:
            self.live.update(Text(f"{time.monotonic() - self.started:5.0f} s · engine {step.step}{detail}"))

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
