"""``citewise store``: integrity checks and maintenance."""

from __future__ import annotations

import typer

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, err_console, handle_errors, open_api, shown

__all__ = ["app"]

app = typer.Typer(help="Verify and maintain the store.", no_args_is_help=True)


@app.command()
@handle_errors
def verify(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Re-derive every stored hash (documents, sections, research sources' page texts and excerpts) and
    report mismatches (exit 1 if any)."""
    with open_api(store) as api:
        report = api.verify_store()
    checked, mismatches, sources = report
    total, ok = report.total, report.ok
    if json_out:
        emit_json(
            {
                "checked": total,
                "checked_by_kind": {
                    "documents_and_sections": checked,
                    "source_page_texts": sources.page_texts,
                    "source_excerpts": sources.excerpts,
                },
                "sources_without_hashes": sources.unhashed,
                "mismatches": mismatches,
                "source_mismatches": sources.mismatches,
                "ok": ok,
            }
        )
    else:
        for m in mismatches:
            where = f"{m.doc_id}@{m.version}" + (f" {m.section_id}" if m.section_id else "")
            err_console.print(f"[red]mismatch[/] {shown(where)}: stored {m.stored}, text hashes to {m.derived}")
        for s in sources.mismatches:
            err_console.print(
                f"[red]mismatch[/] run {shown(s.run_id)} source {shown(s.source_id)} {s.field}: "
                f"stored {s.stored}, text hashes to {s.derived}"
            )
        console.print(
            f"{total} hashes checked: {checked} documents and sections, {sources.page_texts} source page texts, "
            f"{sources.excerpts} source excerpts; {len(mismatches) + len(sources.mismatches)} mismatches",
            highlight=False,
        )
        if sources.unhashed:
            console.print(f"{sources.unhashed} sources were recorded before hashes were kept (not checked)")
    if not ok:
        raise typer.Exit(1)


@app.command()
@handle_errors
def info(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Where the store is, its migrations and what it holds."""
    from citewise.store.migrations import applied

    with open_api(store) as api:
        data = {
            "store": api.store.url,
            "migrations": applied(api.store.engine),
            "documents": len(api.documents()),
            "versions": len(api.versions()),
        }
    if json_out:
        emit_json(data)
    else:
        for key, value in data.items():
            console.print(f"{key:<12} {value}", highlight=False)


@app.command()
@handle_errors
def reindex(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Rebuild the search index from the stored sections."""
    with open_api(store) as api:
        count = api.reindex()
    if json_out:
        emit_json({"indexed": count})
    else:
        console.print(f"{count} sections indexed")
