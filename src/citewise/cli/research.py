"""``citewise research``: a cited report from pages citewise itself extracted, inside hard budgets."""

from __future__ import annotations

import time
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.markdown import Markdown
from rich.text import Text

from citewise.audit.events import Event, EventKind
from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, err_console, handle_errors, open_api
from citewise.errors import InputError
from citewise.research.state import ResearchState

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
    rounds: Annotated[int, typer.Option("--rounds", help="Round budget.")] = 3,
    searches: Annotated[int, typer.Option("--searches", help="Search-attempt budget.")] = 8,
    pages: Annotated[int, typer.Option("--pages", help="Page-extraction budget.")] = 12,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", help="Model token cap.")] = None,
    sequential: Annotated[bool, typer.Option("--sequential", help="No concurrent calls within a round.")] = False,
    resume_run: Annotated[str | None, typer.Option("--resume", help="Continue a run that stopped part-way.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Plan, search, extract, review coverage, follow up on gaps, and write a cited report.

    With no keys it runs on the local evidence store with the deterministic planner and writer, and
    says so in the report."""
    from citewise.research.budget import Budget
    from citewise.research.configure import research_settings
    from citewise.research.loop import research as run_research
    from citewise.research.loop import resume

    if (question is None) == (resume_run is None):
        raise InputError("give a QUESTION, or --resume RUN to continue a stopped run")
    budget = Budget(max_rounds=rounds, max_searches=searches, max_extractions=pages, max_tokens=max_tokens)
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
            concurrent=not sequential,
        ) as settings,_progress(json_out) as progress
    ):
        if resume_run:
            result = resume(api.store, resume_run, settings, progress)
        else:
            assert question is not None
            result = run_research(api.store, question, settings, progress)
    if json_out:
        emit_json(result)
        return
    console.print(Markdown(result.markdown))
    console.print(
        f"[dim]status: {result.status.value} · stopped: {result.stop_reason.value} · run: {result.run_id}[/]"
    )
    if result.status != "report":
        raise typer.Exit(1)


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
            f" · tokens {u.tokens} · {_NOW[event.kind]}"
        )
        if self.live is not None:
            self.live.update(Text(line))

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)
