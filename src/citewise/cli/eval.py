"""``citewise eval``: measure retrieval on the current store, support checks and injection flags."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown

__all__ = ["app"]

app = typer.Typer(
    help="Evaluate retrieval, support checks, injection flags, and models on the same evidence.", no_args_is_help=True
)


@app.command()
@handle_errors
def retrieval(
    queries: Annotated[Path, typer.Option("--queries", help='JSONL: {"id","query","gold":[DOC or DOC#SECTION]}')],
    k: Annotated[int, typer.Option("-k", help="Hits listed per query in --json output.")] = 10,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """recall@1, recall@5, recall@10 and MRR@10 of local search on gold queries."""
    with open_api(store) as api:
        report = api.eval_retrieval(queries, k)
    if json_out:
        emit_json(report)
        return
    table = Table("queries", "recall@1", "recall@5", "recall@10", "MRR@10", box=None)
    table.add_row(
        str(report.queries),
        f"{report.recall_at_1:.3f}",
        f"{report.recall_at_5:.3f}",
        f"{report.recall_at_10:.3f}",
        f"{report.mrr_at_10:.3f}",
    )
    console.print(table)
    off = " (no vectors of the configured embedder here, or CITEWISE_EMBEDDER=none)"
    hint = off if report.search == "lexical" else ""
    console.print(f"search: {report.search}{hint}", highlight=False)
    if report.missing_gold:
        named = ", ".join(report.missing_gold[:3]) + (", ..." if len(report.missing_gold) > 3 else "")
        console.print(
            f"[yellow]{report.unanswerable} of {report.queries} queries ask about documents this store does not "
            f"hold[/] ({len(report.missing_gold)} gold documents missing: {shown(named)}); recall counts them "
            "as misses — ingest those documents to measure search on them",
            highlight=False,
        )
    misses = [r for r in report.results if r.rank is None]
    if misses:
        console.print(f"{len(misses)} queries had no gold hit in the top 10, e.g. {misses[0].id}: {misses[0].query}")


@app.command()
@handle_errors
def injection(
    texts: Annotated[
        list[Path],
        typer.Option(
            "--texts", help='JSONL: {"id","text","label":"injection"|"benign","source"?,"split"?}; may repeat'
        ),
    ],
    families: Annotated[bool, typer.Option("--families", help="Also list the share flagged per family.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Share of injections flagged and of benign texts flagged by the injection flags of fetched pages."""
    from citewise.eval.injection import evaluate_injection, load_many

    report = evaluate_injection(load_many(texts))
    if json_out:
        emit_json(report)
        return
    table = Table("texts", "injections flagged", "benign flagged", box=None)
    table.add_row(
        str(report.texts),
        f"{report.injections_flagged:.1%} of {report.injection_rows}",
        f"{report.benign_flagged:.1%} of {report.benign_rows}",
    )
    console.print(table)
    if report.by_split:
        splits = Table("split", "injections flagged", "benign flagged", "patterns alone: inj. / benign", box=None)
        for name, f in report.by_split.items():
            splits.add_row(
                shown(name),
                f"{f.injections_flagged:.1%} of {f.injection_rows}",
                f"{f.benign_flagged:.1%} of {f.benign_rows}",
                f"{f.injections_by_patterns:.1%} / {f.benign_by_patterns:.1%}",
            )
        console.print(splits)
    if families:
        rows = Table("split", "label", "family", "texts", "flagged", box=None)
        for g in report.by_family:
            rows.add_row(shown(g.split), g.label, shown(g.family), str(g.rows), f"{g.flagged:.1%}")
        console.print(rows)
    else:
        for source, share in report.by_source.items():
            console.print(f"  {shown(source)}: {share:.1%} flagged", highlight=False)
    missed = [r for r in report.results if not r.correct]
    if missed:
        console.print(f"{len(missed)} texts misjudged, e.g. {shown(missed[0].id)} ({missed[0].label})", highlight=False)


def _register_support() -> None:
    # The support evaluation lives in its own module; it is one more command of this group.
    from citewise.cli.eval_support import support

    app.command("support")(support)


_register_support()


from citewise.cli.eval_experiments import end_to_end, history, same_evidence  # noqa: E402  (after app exists)

app.command("same-evidence")(same_evidence)
app.command("end-to-end")(end_to_end)
app.command("history")(history)
