"""``citewise verify``: the claim ledger and acceptance decision of a recorded run."""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown
from citewise.errors import ConfigError

if TYPE_CHECKING:
    from citewise.verify.service import Verification

__all__ = ["print_verification", "verify"]


@handle_errors
def verify(
    run_id: Annotated[str, typer.Argument(help="Run id (see `citewise runs list`).")],
    llm: Annotated[
        bool, typer.Option("--llm", help="Add a model's second opinion (VERIFIER_MODEL, else PLANNER_MODEL).")
    ] = False,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Split the run's report into claims, check each against the stored page text of its cited
    sources, find conflicts, and record the ledger and the acceptance decision (exit 1 if not accepted)."""
    from citewise.verify.service import verify_run

    with ExitStack() as stack, open_api(store) as api:
        judge, name = _judge(stack) if llm else (None, None)
        result = verify_run(api.store, run_id, judge, name)
    if json_out:
        emit_json(result)
    else:
        print_verification(result)
    if not result.acceptance.accepted:
        raise typer.Exit(1)


def _judge(stack: ExitStack) -> tuple[Any, str]:
    from citewise.llm import ChatClient
    from citewise.verify.service import model_judge

    model = os.environ.get("VERIFIER_MODEL") or os.environ.get("PLANNER_MODEL")
    if not model:
        raise ConfigError("--llm needs a model: set VERIFIER_MODEL (or PLANNER_MODEL) and COMETAPI_KEY")
    client = stack.enter_context(ChatClient.from_env())
    return model_judge(client, model), model


def print_verification(result: Verification) -> None:
    """The ledger as a table, conflicts side by side, then the decision."""
    table = Table("claim", "kind", "decision", "action", "source", "claim text / supporting quote", box=None)
    for e in result.entries:
        source = ", ".join(c.source_id for c in e.checks) or "-"
        note = shown(e.claim.text)
        if e.quote:
            note += f"\n[dim]“{shown(e.quote[:200])}”[/]"
        missing = [m for c in e.checks for m in c.missing]
        if missing:
            note += f"\n[yellow]not in the source: {shown(', '.join(missing))}[/]"
        if e.reviewer:
            note += f"\n[cyan]reviewed by {shown(e.reviewer)}: {shown(e.review_reason or '')}[/]"
        table.add_row(e.claim.claim_id, e.claim.kind.value, e.decision.value, e.action.value, source, note)
    console.print(table)
    failed = [(e.claim.claim_id, c) for e in result.entries for c in e.checks if c.judge_failure]
    if failed:
        console.print(
            f"[yellow]model judge:[/] no usable judgement for {len(failed)} check(s); the deterministic verdict stands",
            highlight=False,
        )
        for claim_id, check in failed:
            line = f"  - {claim_id} ({check.source_id}): {check.judge_failure}"
            console.print(shown(line), highlight=False)
    for c in result.conflicts:
        console.print(f"[red]conflict[/] {shown(c.describe())}", highlight=False)
    a = result.acceptance
    verdict = "[green]accepted[/]" if a.accepted else "[red]not accepted[/]"
    console.print(f"\n{verdict} ({shown(a.verified_by)}, decided by {shown(a.decided_by)})")
    for reason in a.reasons:
        console.print(f"  - {shown(reason)}", highlight=False)
