"""``citewise runs``: the audit record of every ask and research run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.table import Table

from citewise.audit.events import AnswerGiven, ReportMade, SourceStored, Verified
from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown, shown_body
from citewise.export.run import export_run, run_data
from citewise.export.summary import RunSummary, summarise
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
        runs = RunStore(api.store)
        records = runs.list(limit)
        verified = runs.latest_of([r.run_id for r in records], Verified)
    if json_out:
        emit_json([{**run_data(r), "acceptance": _acceptance_data(verified.get(r.run_id))} for r in records])
        return
    table = Table(box=None)
    for name in ("run", "kind", "mode", "status", "outcome", "acceptance", "started (UTC)", "question"):
        table.add_column(name, no_wrap=name != "question")
    for r in records:
        table.add_row(
            r.run_id,
            r.kind,
            r.mode,
            r.status.value,
            r.outcome or "-",
            _acceptance_cell(verified.get(r.run_id)),
            f"{r.created_at:%Y-%m-%d %H:%M}",
            shown(r.question[:60]),
        )
    console.print(table)


def _acceptance_cell(verified: Verified | None) -> str:
    if verified is None:
        return "[dim]not verified[/]"
    return "[green]accepted[/]" if verified.acceptance.accepted else "[yellow]not accepted[/]"


def _acceptance_data(verified: Verified | None) -> dict[str, Any] | None:
    if verified is None:
        return None
    a = verified.acceptance
    return {"accepted": a.accepted, "reasons": list(a.reasons), "decided_by": a.decided_by}


@app.command()
@handle_errors
def show(
    run_id: Annotated[str, typer.Argument(help="Run id (see `citewise runs list`).")],
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One run: what was delivered (report or answer), acceptance and why, the claim ledger in counts,
    gaps, errors, and (for ask) answer and retrieval provenance."""
    with open_api(store) as api:
        record = RunStore(api.store).get(run_id)
    if json_out:
        emit_json(run_data(record))
        return
    summary = summarise(record)
    console.print(
        f"[bold]{record.run_id}[/]  {record.kind} ({record.mode})  {record.status.value}  outcome: {record.outcome}"
    )
    console.print(f"question: {shown(record.question)}", highlight=False)
    answer, report = record.last(AnswerGiven), record.last(ReportMade)
    if answer is not None:
        _show_answer(answer)
    if report is not None:
        console.print()
        console.print(Markdown(report.markdown))
    for stored in record.of(SourceStored):
        if stored.source.injection_flags:
            console.print(
                f"[bold yellow]warning:[/] {shown(f'[{stored.source.source_id}]')} reads like instructions to an AI "
                f"({shown(', '.join(stored.source.injection_flags))}); treated as data",
                highlight=False,
            )
    _show_summary(summary)
    console.print(
        f"[dim]{len(record.events)} events recorded (`citewise runs show {record.run_id} --json` lists them)[/]",
        highlight=False,
    )


def _show_answer(answer: AnswerGiven) -> None:
    console.print(f"\n{shown_body(answer.text)}\n", highlight=False)
    console.print("[bold]answer provenance[/]")
    for key, value in to_data(answer.provenance).items():
        console.print(f"  {key:<18} {shown(str(value))}", highlight=False)
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
        console.print(f"  {key:<18} {shown(str(value)[:300])}", highlight=False)


def _show_summary(s: RunSummary) -> None:
    """Acceptance and why, the ledger in counts, budget used, gaps and errors."""
    console.print()
    if s.accepted is None:
        console.print("[bold]acceptance[/]: not verified (`citewise verify RUN` decides it)")
    else:
        verdict = "[green]accepted[/]" if s.accepted else "[yellow]not accepted[/]"
        by = f" (decided by {shown(s.decided_by)})" if s.decided_by and s.decided_by != "citewise" else ""
        console.print(f"[bold]acceptance[/]: {verdict}{by}: {shown('; '.join(s.reasons))}", highlight=False)
        counts = ", ".join(f"{n} {decision}" for decision, n in s.ledger.items()) or "no claims"
        extra = f" · {s.conflicts} conflicts" if s.conflicts else ""
        extra += f" · {s.claim_reviews} claim reviews" if s.claim_reviews else ""
        console.print(f"[bold]claim ledger[/]: {counts}{extra}", highlight=False)
    if s.usage:
        u = s.usage
        console.print(
            f"[bold]stopped[/]: {shown(str(s.stop_reason))} · rounds {u['rounds']} · searches {u['searches']}"
            f" · pages {u['extractions']} · tokens {u['tokens']} · sources {s.sources}",
            highlight=False,
        )
    if s.gaps:
        console.print("[bold]gaps[/]")
        for gap in s.gaps:
            why = f": {shown(gap.gap)}" if gap.gap else ""
            console.print(f"  - {shown(gap.topic)} ({gap.status.value}){why}", highlight=False)
    if s.failures:
        console.print("[bold]failed attempts[/]")
        for f in s.failures:
            console.print(
                f"  - {f.count} {f.attempt_kind} {f.error_kind} (e.g. {shown(f.example[:100])})", highlight=False
            )
    if s.errors:
        console.print("[bold]errors[/]")
        for error in s.errors:
            console.print(f"  - {shown(error[:300])}", highlight=False)


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
