"""``citewise runs``: the audit record of every ask and research run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown, shown_body
from citewise.export.when import local_time
from citewise.text.iri import readable_url

if TYPE_CHECKING:
    from citewise.audit.events import AnswerGiven, Verified

if TYPE_CHECKING:
    from citewise.export.summary import RunSummary

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
    from citewise.audit.events import Verified
    from citewise.export.run import run_data
    from citewise.store.runs import RunStore

    with open_api(store) as api:
        runs = RunStore(api.store)
        records = runs.list(limit)
        verified = runs.latest_of([r.run_id for r in records], Verified)
    if json_out:
        emit_json([{**run_data(r), "acceptance": _acceptance_data(verified.get(r.run_id))} for r in records])
        return
    # The run id is what `runs show` needs: never cut, at any width (piped output is 80 columns).
    # It starts with the run's kind, so the kind needs no column; the others wrap between words, and
    # no word is cut (a column is at least as wide as its longest word).
    rows = [
        (
            r.run_id,
            _status_cell(r.status.value, verified.get(r.run_id)),
            (r.outcome or "-").replace("_", " ") + ("" if r.mode == "active" else f" ({r.mode})"),
            local_time(r.created_at),
            shown(r.question[:60]),
        )
        for r in records
    ]
    names = ("run", "status", "outcome", "started", "question")
    widths = [
        max(cell_len(w) for w in [name, *(w for row in rows for w in _plain(row[n]).split())])
        for n, name in enumerate(names)
    ]
    widths[1:] = [min(w, 16) for w in widths[1:]]  # beyond 16 cells a long word may wrap
    if console.width < sum(widths) + 2 * (len(names) - 1):
        _print_stacked(rows)  # too narrow for columns: one block per run, its id on a line of its own
        return
    table = Table(box=None, pad_edge=False)
    for n, name in enumerate(names):
        if n == 0:
            table.add_column(name, no_wrap=True, min_width=widths[0])
        else:
            # fold, not ellipsis: Rich cuts a CJK line that fills its column exactly to the cell
            table.add_column(name, min_width=widths[n], ratio=1 if name == "question" else None, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(table)


def _print_stacked(rows: list[tuple[str, str, str, str, str]]) -> None:
    for run_id, status, outcome, started, question in rows:
        console.print(run_id, highlight=False, markup=False, crop=False, soft_wrap=True)
        console.print(f"  {status} · {outcome} · {started}", highlight=False)
        console.print(f"  {question}", highlight=False)


def _status_cell(status: str, verified: Verified | None) -> str:
    """A finished run by its acceptance (accepted, not accepted, not verified); others by status."""
    if status != "finished":
        return status
    if verified is None:
        return "[dim]not verified[/]"
    return "[green]accepted[/]" if verified.acceptance.accepted else "[yellow]not accepted[/]"


def _plain(cell: str) -> str:
    return Text.from_markup(cell).plain


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
    from citewise.audit.events import AnswerGiven, ReportMade, SourceStored
    from citewise.export.run import run_data
    from citewise.export.summary import summarise
    from citewise.store.runs import RunStore

    with open_api(store) as api:
        record = RunStore(api.store).get(run_id)
    if json_out:
        emit_json(run_data(record))
        return
    summary = summarise(record)
    console.print(
        f"[bold]{record.run_id}[/]  {record.kind} ({record.mode})  {record.status.value}"
        f"  outcome: {record.outcome or '-'}  started {local_time(record.created_at)}",
        highlight=False,
    )
    console.print(f"question: {shown(record.question)}", highlight=False)
    answer, report = record.last(AnswerGiven), record.last(ReportMade)
    if answer is not None:
        _show_answer(answer)
    if report is not None:
        console.print()
        from rich.markdown import Markdown

        # Display only: reports recorded before their Sources lines were written readable show the
        # same, `citewise://doc@2/제3조` rather than its escaped form.
        console.print(Markdown(readable_url(report.markdown)))
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
    p = answer.provenance
    tokens = (
        f"{p.prompt_tokens} prompt + {p.completion_tokens} completion"
        if p.prompt_tokens is not None and p.completion_tokens is not None
        else None
    )
    _show_fields(
        "answer provenance",
        {
            "path": p.path.value,
            "model": p.model or ("none" if p.requested_model is None else None),
            "requested model": p.requested_model if p.requested_model != p.model else None,
            "prompt version": p.prompt_version,
            "fallback reason": p.fallback_reason,
            "tokens": tokens,
            "lay readings": "; ".join(r.render() for r in p.readings) or None,
        },
    )
    exclusions = ", ".join(f"{n} {reason}" for reason, n in sorted((answer.exclusions or {}).items()))
    _show_fields(
        "retrieval provenance",
        {
            "gated on": answer.gated_on.isoformat() if answer.gated_on else None,
            "candidates": str(answer.candidates),
            "eligible": f"{len(answer.eligible)} passages",
            "excluded": exclusions or "none",
            "ranker": answer.ranker,
            "ranking": "its order was used"
            if answer.ranking_accepted
            else f"its order was discarded ({'; '.join(answer.ranking_violations) or 'contract violation'})",
            "evidence": ", ".join(f"{e.evidence_id} {e}" for e in answer.evidence) or "none",
        },
    )


def _show_fields(title: str, fields: dict[str, str | None]) -> None:
    """A heading and its ``name  value`` lines; a field with no value is left out, not shown as None."""
    console.print(f"[bold]{title}[/]")
    for name, value in fields.items():
        if value is not None:
            console.print(f"  {name:<18} {shown(value)}", highlight=False)


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
            console.print(f"  - {shown(gap.topic)} ({gap.status.value.replace('_', ' ')}){why}", highlight=False)
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
    from citewise.export.run import export_run
    from citewise.store.runs import RunStore

    with open_api(store) as api:
        text = export_run(RunStore(api.store).get(run_id), fmt)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        console.print(f"wrote {output}")
