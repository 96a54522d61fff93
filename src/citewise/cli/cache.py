"""``citewise cache``: what the search and extraction cache holds, and clearing it (SPEC 4.5a)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown

__all__ = ["app"]

app = typer.Typer(help="Inspect and clear the search and extraction cache.", no_args_is_help=True)


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at is not None else "-"


def _size(size: int) -> str:
    for unit, step in (("MB", 1_000_000), ("kB", 1_000)):
        if size >= step:
            return f"{size / step:.1f} {unit}"
    return f"{size} B"


@app.command()
@handle_errors
def stats(store: StoreOpt = None, json_out: JsonOpt = False) -> None:
    """Entries by provider and kind, hits recorded, size and the oldest entry."""
    with open_api(store) as api:
        found = api.cache_stats()
    if json_out:
        emit_json(
            {
                "entries": found.entries,
                "hits": found.hits,
                "size_bytes": found.size_bytes,
                "oldest": found.oldest,
                "groups": found.groups,
            }
        )
        return
    if not found.groups:
        console.print("the cache is empty")
        return
    table = Table("provider", "kind", "entries", "hits", "size", "oldest", "newest", box=None)
    for g in found.groups:
        table.add_row(
            shown(g.provider),
            g.kind,
            str(g.entries),
            str(g.hits),
            _size(g.size_bytes),
            _when(g.oldest),
            _when(g.newest),
        )
    console.print(table)
    console.print(
        f"{found.entries} entries, {found.hits} hits recorded, {_size(found.size_bytes)}, oldest {_when(found.oldest)}",
        highlight=False,
    )


@app.command()
@handle_errors
def clear(
    provider: Annotated[
        str | None, typer.Option("--provider", help="Only this provider's entries (e.g. tavily).")
    ] = None,
    older_than: Annotated[
        str | None, typer.Option("--older-than", help="Only entries retrieved longer ago than this: 7d, 24h, 30m.")
    ] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Delete cache entries (all of them, or those of a provider and/or older than a duration)."""
    with open_api(store) as api:
        deleted = api.clear_cache(provider=provider, older_than=older_than)
    if json_out:
        emit_json({"deleted": deleted, "provider": provider, "older_than": older_than})
    else:
        console.print(f"{deleted} cache entries deleted", highlight=False)
