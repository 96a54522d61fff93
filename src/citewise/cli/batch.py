"""``citewise batch``: one research run per line of a question file, on N worker processes;
``citewise worker``: one worker (started by ``batch``, or by hand on any machine reaching the store)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.live import Live
from rich.table import Table
from rich.text import Text

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
)
from citewise.config import CONCURRENCY_ENV, RATE_ENV, env, resolve_store_url
from citewise.errors import InputError
from citewise.records.batch import TERMINAL, BatchRecord, BatchStatus, ItemStatus
from citewise.records.budget import budget_from_env

if TYPE_CHECKING:
    from citewise.batch.runner import BatchSummary

__all__ = ["batch", "worker"]

_VERBS = ("status", "resume", "cancel", "list")

BATCH_HELP = (
    'Research every question of a JSONL file ({"id", "question", ...} per line), one run per line, on --workers '
    "processes over the store (no broker needed). Also: batch status BATCH, batch resume BATCH [--workers N], "
    "batch cancel BATCH, batch list. Exit codes: 0 every line done and accepted; 3 some line not accepted or "
    "failed; 1 lines left to run (batch resume); 2 bad input."
)


@handle_errors
def batch(
    target: Annotated[list[str], typer.Argument(help="QUESTIONS.jsonl, or status|resume|cancel BATCH, or list.")],
    workers: Annotated[int, typer.Option("--workers", "-w", help="Worker processes (default 2).")] = 2,
    search: Annotated[
        str | None, typer.Option("--search", help="tavily or local (default: tavily with a key).")
    ] = None,
    extract: Annotated[str | None, typer.Option("--extract", help="tavily or none.")] = None,
    planner_model: Annotated[str | None, typer.Option("--planner-model", help="Default: PLANNER_MODEL.")] = None,
    writer_model: Annotated[str | None, typer.Option("--writer-model", help="Default: WRITER_MODEL.")] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Deterministic planner, reviewer and writer.")] = False,
    rounds: Annotated[int | None, typer.Option("--rounds", help="Rounds per run.")] = None,
    searches: Annotated[int | None, typer.Option("--searches", help="Search attempts per run.")] = None,
    pages: Annotated[int | None, typer.Option("--pages", help="Page extractions per run.")] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", help="Model token cap per run.")] = None,
    run_max_cost: Annotated[float | None, typer.Option("--run-max-cost", help="Money cap per run (USD).")] = None,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="Money cap for the whole batch (USD), shared by all workers.")
    ] = None,
    rate: Annotated[
        list[str] | None,
        typer.Option("--rate", help=f"Shared rate limit NAME=N per s (or NAME=N/m), e.g. tavily=5/s ({RATE_ENV})."),
    ] = None,
    parallel: Annotated[
        list[str] | None,
        typer.Option("--parallel", help=f"Shared limit of calls in flight NAME=N, e.g. tavily=4 ({CONCURRENCY_ENV})."),
    ] = None,
    prices: Annotated[str | None, typer.Option("--prices", help="Price table for the money caps.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Research a file of questions on several workers, with shared rate limits and a money cap."""
    from citewise.batch.distributed import Takeover, broker_url, enqueue
    from citewise.batch.limits import parse_concurrency, parse_rates
    from citewise.batch.runner import create_batch, run_workers, summarize, watch
    from citewise.batch.worker import BatchConfig, line_abandoned
    from citewise.store.batches import BatchStore
    from citewise.store.runs import RunStore

    store_url = resolve_store_url(store)
    verb = target[0] if target[0] in _VERBS and (len(target) == 2 or target[0] == "list") else None
    with open_api(store_url) as api:
        if verb == "list":
            _print_list(BatchStore(api.store).list(), json_out)
            return
        if verb is None and len(target) != 1:
            raise InputError("give one QUESTIONS.jsonl file, or status|resume|cancel BATCH")
        if verb in ("status", "cancel"):
            batch_id = target[1]
            if verb == "cancel":
                cancelled = BatchStore(api.store).cancel(batch_id)
                err_console.print(f"cancelled {cancelled} lines not started yet; running lines finish")
            _finish(summarize(api.store, batch_id), json_out, exit_on_result=verb == "status")
            return
        if verb == "resume":
            batch_id = target[1]
            reopened = BatchStore(api.store).reopen(batch_id)
            if reopened:
                err_console.print(f"{reopened} cancelled lines are pending again")
        else:
            budget = budget_from_env(
                max_rounds=rounds,
                max_searches=searches,
                max_extractions=pages,
                max_tokens=max_tokens,
                max_cost_usd=run_max_cost,
            )
            config = BatchConfig(
                search=search,
                extract=extract,
                planner_model=planner_model,
                writer_model=writer_model,
                no_model=no_model,
                prices=prices,
                budget=_budget_data(budget),
                rates=parse_rates(rate if rate else env(RATE_ENV) or ""),
                parallel=parse_concurrency(parallel if parallel else env(CONCURRENCY_ENV) or ""),
            )
            batch_id = create_batch(api.store, Path(target[0]), config, max_cost)
            err_console.print(f"batch {batch_id}: {len(BatchStore(api.store).get(batch_id).items)} lines")
        broker = broker_url()
        with _Progress(json_out) as progress:
            if broker is None:
                run_workers(api.store, store_url, batch_id, workers, progress.update)
            else:  # distributed: queue the lines, let `citewise worker` processes anywhere take them
                lines = [i.line_no for i in BatchStore(api.store).get(batch_id).items if i.status not in TERMINAL]
                err_console.print(f"queued {enqueue(broker, batch_id, lines)} lines on the broker; waiting for workers")
                runs = RunStore(api.store)
                takeover = Takeover(broker, lambda item: line_abandoned(runs, item))
                watch(api.store, batch_id, progress.update, takeover=takeover, on_takeover=_said_requeued)
        _finish(summarize(api.store, batch_id), json_out, exit_on_result=True)


def _said_requeued(lines: list[int]) -> None:
    shown = ", ".join(str(n) for n in lines)
    err_console.print(f"re-queued line{'s' if len(lines) > 1 else ''} {shown}: the worker holding it stopped")


def _budget_data(budget: object) -> dict[str, object]:
    names = ("max_rounds", "max_searches", "max_extractions", "max_tokens", "max_cost_usd", "excerpt_chars")
    return {n: getattr(budget, n) for n in names if hasattr(budget, n)}


@handle_errors
def worker(
    batch_id: Annotated[
        str | None, typer.Option("--batch", help="Work on this batch (embedded); without it: a Celery worker.")
    ] = None,
    max_items: Annotated[int | None, typer.Option("--max-items", help="Stop after this many lines.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Celery worker processes.")] = 2,
    store: StoreOpt = None,
) -> None:
    """Work on a batch: claim lines, research them, record outcomes, until none is left. Without
    --batch, with CITEWISE_BROKER_URL set: a Celery worker taking any batch's queued lines and the
    embedding tasks of `ingest --distributed`."""
    from citewise.batch.distributed import BROKER_ENV, broker_url, start_worker
    from citewise.batch.worker import work

    if batch_id is None:
        broker = broker_url()
        if broker is None:
            raise InputError(f"give --batch BATCH, or set {BROKER_ENV} to start a distributed worker")
        start_worker(broker, concurrency)
        return
    with open_api(store) as api:
        report = work(api.store, batch_id, max_items=max_items, log=lambda line: err_console.print(shown(line)))
    err_console.print(
        f"worker {report.owner}: {len(report.done)} done, {len(report.failed)} failed, "
        f"{len(report.resumed)} taken over, {report.waited_s:.1f} s waiting for rate limits"
    )


class _Progress:
    """A live line on stderr: done / running / failed, money committed, elapsed time."""

    def __init__(self, quiet: bool) -> None:
        self.quiet, self.started = quiet, time.monotonic()
        self.live: Live | None = None

    def __enter__(self) -> _Progress:
        if not self.quiet:
            self.live = Live(Text("starting workers"), console=err_console, transient=True, refresh_per_second=4)
            self.live.__enter__()
        return self

    def update(self, record: BatchRecord) -> None:
        if self.live is None:
            return
        c = {s: record.count(s) for s in ItemStatus}
        line = (
            f"{time.monotonic() - self.started:5.0f} s · {c[ItemStatus.DONE]}/{len(record.items)} done · "
            f"{c[ItemStatus.RUNNING]} running · {c[ItemStatus.FAILED]} failed · "
            f"${record.committed_usd:.4f} committed"
            + (f" of ${record.max_cost_usd}" if record.max_cost_usd is not None else "")
        )
        self.live.update(Text(line))

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(None, None, None)


def _finish(summary: BatchSummary, json_out: bool, *, exit_on_result: bool) -> None:
    if json_out:
        emit_json(summary)
    else:
        _print_summary(summary)
    if not exit_on_result:
        return
    if summary.status is BatchStatus.OPEN and summary.counts.get("pending", 0) + summary.counts.get("running", 0):
        raise typer.Exit(int(ExitCode.RUN_ERROR))  # stopped before every line ran: `batch resume`
    if summary.accepted < summary.total:
        raise typer.Exit(int(ExitCode.NOT_ACCEPTED))


def _print_summary(summary: BatchSummary) -> None:
    table = Table(title=f"batch {summary.batch_id} · {summary.status.value}", show_lines=False)
    for column in ("line", "id", "status", "outcome", "cost USD", "run", "note"):
        table.add_column(column)
    for item in summary.items:
        note = item.error or ("taken over" if item.claims > 1 else "")
        table.add_row(
            str(item.line_no),
            shown(item.item_id),
            item.status.value,
            item.outcome or "",
            "" if item.cost_usd is None else f"{item.cost_usd:.4f}",
            item.run_id or "",
            shown(note),
        )
    console.print(table)
    per = (
        "undefined (none accepted)"
        if summary.cost_per_accepted_usd is None
        else f"${summary.cost_per_accepted_usd:.4f}"
    )
    counts = " · ".join(f"{n} {k}" for k, n in summary.counts.items() if n)
    console.print(
        f"{summary.total} lines: {counts} · {summary.accepted} accepted · cost ${summary.cost_usd:.4f}"
        f" · per accepted report {per}"
        + (f" · cap ${summary.max_cost_usd} (committed ${summary.committed_usd:.4f})" if summary.max_cost_usd else "")
    )


def _print_list(records: list[BatchRecord], json_out: bool) -> None:
    if json_out:
        emit_json(
            [
                {
                    "batch_id": r.batch_id,
                    "status": r.status.value,
                    "lines": len(r.items),
                    "done": r.count(ItemStatus.DONE),
                    "failed": r.count(ItemStatus.FAILED),
                    "created_at": r.created_at,
                    "source": r.source,
                }
                for r in records
            ]
        )
        return
    table = Table()
    for column in ("batch", "created", "status", "lines", "done", "failed", "source"):
        table.add_column(column)
    for r in records:
        table.add_row(
            r.batch_id,
            f"{r.created_at:%Y-%m-%d %H:%M}",
            r.status.value,
            str(len(r.items)),
            str(r.count(ItemStatus.DONE)),
            str(r.count(ItemStatus.FAILED)),
            shown(r.source),
        )
    console.print(table)
