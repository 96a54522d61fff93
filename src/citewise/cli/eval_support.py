"""``citewise eval support``: how well the support checks tell supported claims from unsupported ones."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, console, emit_json, handle_errors
from citewise.errors import ConfigError

__all__ = ["support"]


def _model() -> tuple[Any, str]:
    from citewise.llm import ChatClient

    model = os.environ.get("PLANNER_MODEL")
    if not model:
        raise ConfigError("--llm needs a model: set PLANNER_MODEL (and COMETAPI_KEY)")
    return ChatClient.from_env(), model


@handle_errors
def support(
    pairs: Annotated[
        Path,
        typer.Option(
            "--pairs",
            help='JSONL: {"id","question"?,"claim","evidence","label":"supported"|"unsupported",'
            '"kind"?,"split"?,"set"?}',
        ),
    ],
    llm: Annotated[
        bool, typer.Option("--llm", help="Also ask the model (PLANNER_MODEL, COMETAPI_KEY) for each pair.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Share of unsupported claims flagged and of supported claims passed, on labelled pairs, overall
    and per kind, split and set (support by meaning when an embedder is configured)."""
    from citewise.eval.support import evaluate_support, load_pairs

    loaded = load_pairs(pairs)
    if llm:
        client, model = _model()
        with client:
            report = evaluate_support(loaded, client=client, model=model)
    else:
        report = evaluate_support(loaded)
    if json_out:
        emit_json(report)
        return
    table = Table("pairs", "unsupported flagged", "supported passed", "support", "judge", box=None)
    table.add_row(
        str(report.pairs),
        f"{report.unsupported_flagged:.1%} of {report.unsupported_rows}",
        f"{report.supported_passed:.1%} of {report.supported_rows}",
        report.support,
        report.judge,
    )
    console.print(table)
    if report.support == "lexical":
        console.print("no embedder (CITEWISE_EMBEDDER=none or not installed): support decided by the lexical rule")
    if report.groups:
        groups = Table("group", "pairs", "unsupported flagged", "supported passed", box=None)
        for g in report.groups:
            groups.add_row(
                f"{g.grouping}={g.value}",
                str(g.pairs),
                f"{g.unsupported_flagged:.1%} of {g.unsupported_rows}" if g.unsupported_rows else "-",
                f"{g.supported_passed:.1%} of {g.supported_rows}" if g.supported_rows else "-",
            )
        console.print(groups)
    wrong = [r for r in report.results if not r.correct]
    if wrong:
        console.print(f"{len(wrong)} rows decided against their label, e.g. {wrong[0].id}: {wrong[0].reason}")
