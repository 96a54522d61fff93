"""``citewise review``: approve or reject what ingestion staged."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown
from citewise.errors import InputError

__all__ = ["app"]

app = typer.Typer(help="Review staged documents: list, approve, reject, apply a manifest.", no_args_is_help=True)

Target = Annotated[str, typer.Argument(help="DOC or DOC@VERSION (default: the newest version).")]
Reviewer = Annotated[str, typer.Option("--reviewer", help="Who decides.")]
Reason = Annotated[str, typer.Option("--reason", help="Why.")]
SectionOpt = Annotated[str | None, typer.Option("--section", help="Decide one section only.")]


@app.command("list")
@handle_errors
def list_pending(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Versions and sections waiting for review."""
    with open_api(store) as api:
        items = api.pending_review()
    if json_out:
        emit_json(items)
        return
    if not items:
        console.print("nothing waits for review")
        return
    table = Table("document", "version", "title", "status", "pending sections", box=None)
    for p in items:
        table.add_row(
            shown(p.doc_id), str(p.version), shown(p.title), p.status.value, f"{p.pending_sections}/{p.section_count}"
        )
    console.print(table)


def _decide(
    decision: str, target: str, reviewer: str, reason: str, section: str | None, store: str | None, json_out: bool
) -> None:
    with open_api(store) as api:
        call = api.approve if decision == "approve" else api.reject
        made = call(target, reviewer=reviewer, reason=reason, section=section)
    if json_out:
        emit_json(made)
    else:
        where = f"{shown(made.doc_id)}@{made.version}" + (f" {shown(made.section_id)}" if made.section_id else "")
        by = shown(made.reviewer)
        console.print(f"{where}: {made.decision.value} by {by} ({made.decided_at:%Y-%m-%d %H:%M} UTC)")


@app.command()
@handle_errors
def approve(
    target: Target,
    reviewer: Reviewer,
    reason: Reason,
    section: SectionOpt = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Approve a version (and its pending sections) or one section."""
    _decide("approve", target, reviewer, reason, section, store, json_out)


@app.command()
@handle_errors
def reject(
    target: Target,
    reviewer: Reviewer,
    reason: Reason,
    section: SectionOpt = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Reject a version (and its pending sections) or one section."""
    _decide("reject", target, reviewer, reason, section, store, json_out)


@app.command("apply")
@handle_errors
def apply(
    manifest: Annotated[Path, typer.Argument(help="Review manifest (YAML or JSON).")],
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Apply the decisions listed in a review manifest (re-applying is a no-op)."""
    with open_api(store) as api:
        made = api.apply_review_manifest(manifest)
    if json_out:
        emit_json(made)
        return
    for d in made:
        section = " " + shown(d.section_id) if d.section_id else ""
        console.print(f"{shown(d.doc_id)}@{d.version}{section}: {d.decision.value}")
    console.print(f"{len(made)} decisions recorded by {shown(made[0].reviewer) if made else '-'}")


@app.command("claims")
@handle_errors
def claims(
    run_id: Annotated[str, typer.Argument(help="Run id whose claim ledger to review.")],
    claim: Annotated[str | None, typer.Option("--claim", help="Claim id to decide (e.g. C3).")] = None,
    decision: Annotated[
        str | None, typer.Option("--decision", help="supported, unsupported, conflicting or unreviewed.")
    ] = None,
    reviewer: Annotated[str | None, typer.Option("--reviewer", help="Who decides.")] = None,
    reason: Annotated[str | None, typer.Option("--reason", help="Why.")] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a run's claim ledger, or override one claim's decision (who, when, why); acceptance is
    decided again."""
    from citewise.cli.verify import print_verification
    from citewise.verify.service import review_claim, verify_run

    with open_api(store) as api:
        if claim is None:
            result = verify_run(api.store, run_id)
        else:
            if not decision:
                raise InputError("--claim needs --decision (supported, unsupported, conflicting, unreviewed)")
            result = review_claim(api.store, run_id, claim, decision, reviewer=reviewer or "", reason=reason or "")
    if json_out:
        emit_json(result)
    else:
        print_verification(result)
