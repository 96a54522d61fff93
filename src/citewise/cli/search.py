"""``citewise search``: local search over the evidence store."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api

__all__ = ["search"]


@handle_errors
def search(
    query: Annotated[str, typer.Argument(help="What to look for (Korean or English).")],
    k: Annotated[int, typer.Option("-k", help="How many hits.")] = 10,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Search stored sections. Hits are flagged (unapproved, deleted, superseded), not filtered."""
    with open_api(store) as api:
        hits = api.search(query, k)
    if json_out:
        emit_json(hits)
        return
    if not hits:
        console.print("no matching sections")
        return
    table = Table("#", "score", "document", "section", "flags", "snippet", box=None, show_lines=False)
    for h in hits:
        flags = [
            f
            for f, on in (
                ("unapproved", h.unapproved),
                ("deleted", h.deleted),
                ("reserved", h.reserved),
                ("superseded", h.superseded),
            )
            if on
        ]
        table.add_row(
            str(h.rank),
            f"{h.score:.2f}",
            f"{h.title} ({h.doc_id}@{h.version})",
            h.heading,
            ", ".join(flags) or "[green]approved[/]",
            h.snippet,
        )
    console.print(table)
