"""``citewise docs``: what the store holds, with status, versions and provenance."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown

__all__ = ["app"]

app = typer.Typer(help="List and show stored documents.", no_args_is_help=True)


@app.command("list")
@handle_errors
def list_docs(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Every document version with its review status."""
    with open_api(store) as api:
        versions = api.versions()
    if json_out:
        emit_json(versions)
        return
    table = Table(box=None)
    for name in ("document", "version", "title", "status", "sections", "effective", "format"):
        table.add_column(name, no_wrap=name != "title", min_width=24 if name == "title" else None)
    for v in versions:
        table.add_row(
            shown(v.doc_id),
            str(v.version),
            shown(v.title),
            v.status.value,
            str(v.section_count),
            str(v.provenance.effective_on or ""),
            shown(v.format),
        )
    console.print(table)


@app.command()
@handle_errors
def show(
    target: Annotated[str, typer.Argument(help="DOC or DOC@VERSION.")],
    sections: Annotated[bool, typer.Option("--sections", help="List the sections too.")] = False,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One document: its versions, provenance, review decisions (and sections)."""
    from citewise.review import parse_target

    doc_id, version = parse_target(target)
    with open_api(store) as api:
        chosen = api.store.version(doc_id, version)
        versions = api.versions(doc_id)
        decisions = api.decisions(doc_id)
        secs = api.sections(doc_id, chosen.version) if sections or json_out else []
    if json_out:
        emit_json({"version": chosen, "versions": versions, "decisions": decisions, "sections": secs})
        return
    p = chosen.provenance
    console.print(f"[bold]{shown(chosen.title)}[/]  {shown(chosen.doc_id)}@{chosen.version}  \\[{chosen.status.value}]")
    for label, value in (
        ("issuing authority", p.issuing_authority),
        ("official publisher", p.official_publisher),
        ("retrieval provider", p.retrieval_provider),
        ("origin", p.origin_url),
        ("retrieved at", p.retrieved_at),
        ("version label", p.version_label),
        ("promulgated", p.promulgated_on),
        ("effective", p.effective_on),
        ("language", p.language),
        ("licence", p.licence),
        ("permitted uses", ", ".join(p.permitted_uses)),
        ("content hash", chosen.content_hash),
        ("sections", chosen.section_count),
    ):
        console.print(f"  {label:<20} {shown(value) if value not in (None, '') else '-'}", highlight=False)
    console.print("versions: " + ", ".join(f"{v.version} ({v.status.value})" for v in versions))
    for d in decisions:
        console.print(
            f"  {d.decided_at:%Y-%m-%d %H:%M} {shown(d.reviewer)} {d.decision.value} @{d.version}"
            f"{' ' + shown(d.section_id) if d.section_id else ''}: {shown(d.reason)}",
            highlight=False,
        )
    if secs:
        table = Table("section", "heading", "status", "flags", box=None)
        for s in secs:
            flags = ", ".join(f for f, on in (("deleted", s.deleted), ("reserved", s.reserved)) if on)
            table.add_row(shown(s.section_id), shown(s.heading[:60]), s.status.value, flags)
        console.print(table)
