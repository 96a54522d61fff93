"""``citewise runs``: the audit record of every ask (and, later, research run)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from citewise.audit.events import AnswerGiven, ReportMade, SourceStored
from citewise.audit.export import export_run, run_data
from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api
from citewise.serial import to_data
from citewise.store.runs import RunStore

__all__ = ["app"]

app = typer.Typer(help="List and show recorded runs.", no_args_is_help=True)


@app.command("list")
@handle_errors
def list_runs(
    limit: Annotated[int, typer.Option("--limit", help="How many, newest first.")] = 20,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Recent runs, newest first."""
    with open_api(store) as api:
        records = RunStore(api.store).list(limit)
    if json_out:
        emit_json([run_data(r) for r in records])
        return
    table = Table(box=None)
    for name in ("run", "kind", "mode", "status", "outcome", "started (UTC)", "question"):
        table.add_column(name, no_wrap=name != "question")
    for r in records:
        table.add_row(
            r.run_id,
            r.kind,
            r.mode,
            r.status.value,
            r.outcome or "-",
            f"{r.created_at:%Y-%m-%d %H:%M}",
            escape(r.question[:60]),
        )
    console.print(table)


@app.command()
@handle_errors
def show(
    run_id: Annotated[str, typer.Argument(help="Run id (see `citewise runs list`).")],
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One run: outcome, answer, answer provenance, retrieval provenance and its steps."""
    with open_api(store) as api:
        record = RunStore(api.store).get(run_id)
    if json_out:
        emit_json(run_data(record))
        return
    console.print(
        f"[bold]{record.run_id}[/]  {record.kind} ({record.mode})  {record.status.value}  outcome: {record.outcome}"
    )
    console.print(f"question: {escape(record.question)}", highlight=False)
    answer, report = record.last(AnswerGiven), record.last(ReportMade)
    if answer is not None:
        console.print(f"\n{escape(answer.text)}\n", highlight=False)
        console.print("[bold]answer provenance[/]")
        for key, value in to_data(answer.provenance).items():
            console.print(f"  {key:<18} {escape(str(value))}", highlight=False)
        console.print("[bold]retrieval provenance[/]")
        retrieval = {
            "gated_on": answer.gated_on,
            "candidates": answer.candidates,
            "eligible": ", ".join(answer.eligible),
            "exclusions": answer.exclusions,
            "ranker": answer.ranker,
            "ranking_accepted": answer.ranking_accepted,
            "evidence": ", ".join(f"{e.evidence_id}={e}" for e in answer.evidence),
        }
        for key, value in retrieval.items():
            console.print(f"  {key:<18} {escape(str(value))[:300]}", highlight=False)
    for stored in record.of(SourceStored):
        if stored.source.injection_flags:
            console.print(
                f"[bold yellow]warning:[/] {escape(f'[{stored.source.source_id}]')} reads like instructions to an AI "
                f"({escape(', '.join(stored.source.injection_flags))}); treated as data",
                highlight=False,
            )
    if report is not None:
        console.print(
            f"\nstatus: {report.status.value} · stopped: {report.stop_reason.value} · rounds {report.usage.rounds}"
            f" · searches {report.usage.searches} · pages {report.usage.extractions} · tokens {report.usage.tokens}",
            highlight=False,
        )
    console.print("[bold]events[/]: " + ", ".join(f"{e.seq}.{e.event.kind.value}" for e in record.events))


@app.command()
@handle_errors
def export(
    run_id: Annotated[str, typer.Argument(help="Run id (see `citewise runs list`).")],
    fmt: Annotated[str, typer.Option("--format", help="md, json or html.")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to a file instead of stdout.")] = None,
    store: StoreOpt = None,
) -> None:
    """Export a run (report, citations, provenance) as Markdown, JSON or HTML."""
    with open_api(store) as api:
        text = export_run(RunStore(api.store).get(run_id), fmt)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"wrote {output}")
