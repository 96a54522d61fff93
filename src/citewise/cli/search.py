"""``citewise search``: local search over the evidence store."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.padding import Padding

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown, shown_body

__all__ = ["search"]


@handle_errors
def search(
    query: Annotated[str, typer.Argument(help="What to look for (Korean or English).")],
    k: Annotated[int, typer.Option("-k", "--top", help="How many hits.")] = 10,
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
    for h in hits:
        flags = [
            f
            for f, on in (
                ("unapproved", h.unapproved),
                ("deleted", h.deleted),
                ("reserved", h.reserved),
                ("superseded", h.superseded),
                ("not yet in force", h.not_yet_in_force),
            )
            if on
        ]
        status = f"[yellow]{', '.join(flags)}[/]" if flags else "[green]approved[/]"
        console.print(
            f"[bold]{h.rank}.[/] [bold]{shown(h.title)}[/] {shown(h.heading)}  "
            f"[dim]{shown(h.doc_id)}@{h.version} score {h.score:.2f}[/]  {status}",
            highlight=False,
        )
        console.print(Padding(shown_body(h.snippet), (0, 0, 1, 4)), highlight=False)
