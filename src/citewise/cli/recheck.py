"""``citewise recheck``: read a report's cited sources again and say how each claim stands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from citewise.cli.common import ExitCode, JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown
from citewise.records.research import RecheckStatus

if TYPE_CHECKING:
    from citewise.research.recheck import Recheck

__all__ = ["print_recheck", "recheck"]

_COLOURS = {
    RecheckStatus.UNCHANGED: "green",
    RecheckStatus.PAGE_CHANGED: "yellow",
    RecheckStatus.QUOTE_GONE: "red",
    RecheckStatus.PAGE_GONE: "red",
}


@handle_errors
def recheck(
    run_id: Annotated[str, typer.Argument(help="Research run id (see `citewise runs list`).")],
    fresh: Annotated[bool, typer.Option("--fresh", help="Fetch every page again, bypassing the cache.")] = False,
    extract: Annotated[
        str | None,
        typer.Option("--extract", help="Read with this extractor (tavily, own) instead of the one the run used."),
    ] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Extract every source the run's report cites again (through the cache unless --fresh), compare
    content hashes, re-run the claim ledger against the new text, and report per claim: unchanged,
    page changed (quote still there), quote gone, page gone. Recorded on the run.

    Exit codes: 0 every claim still stands (unchanged, quote still there, or still supported);
    3 some claim's quote or page is gone; 2 bad input; 1 the extractor failed (nothing recorded)."""
    with open_api(store) as api:
        result = api.recheck(run_id, fresh=fresh, extract=extract)
    code = ExitCode.ACCEPTED if result.holds else ExitCode.NOT_ACCEPTED
    if json_out:
        emit_json({"run_id": result.run_id, "holds": result.holds, **_data(result), "exit_code": int(code)})
    else:
        print_recheck(result)
    if code is not ExitCode.ACCEPTED:
        raise typer.Exit(int(code))


def _data(result: Recheck) -> dict[str, object]:
    event = result.rechecked
    return {"extractor": event.extractor, "fresh": event.fresh, "sources": event.sources, "claims": event.claims}


def print_recheck(result: Recheck) -> None:
    """Sources, then claims, then the counts."""
    event = result.rechecked
    sources = Table("source", "page", "read", "url", box=None)
    for s in event.sources:
        read = "cache" if s.cached else ("-" if s.error else "fetched")
        note = shown(s.url) + (f"\n[dim]{shown(s.error)}[/]" if s.error else "")
        sources.add_row(s.source_id, f"[{_COLOURS[s.status]}]{s.status.value}[/]", read, note)
    console.print(sources)
    claims = Table("claim", "status", "before", "now", "claim text / quote", box=None)
    for c in event.claims:
        quote = f"\n[dim]{shown(c.source_id or '')} “{shown((c.quote or '')[:200])}”[/]" if c.quote else ""
        note = shown(c.text) + quote
        status = f"[{_COLOURS[c.status]}]{c.status.value}[/]"
        claims.add_row(c.claim_id, status, c.decision_before.value, c.decision_now.value, note)
    console.print(claims)
    counts = ", ".join(f"{result.count(s)} {s.value.replace('_', ' ')}" for s in RecheckStatus)
    verdict = "[green]every claim still stands[/]" if result.holds else "[red]some claims no longer stand[/]"
    console.print(f"{verdict}: {counts}")
