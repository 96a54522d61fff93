"""``citewise cost``: what the runs cost, by component, and the cost per accepted report."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, handle_errors, open_api, shown
from citewise.errors import InputError
from citewise.prices import PRICES_ENV, load_prices

if TYPE_CHECKING:
    from citewise.cost.ledger import CostLine, CostReport

__all__ = ["cost"]


@handle_errors
def cost(
    since: Annotated[
        str | None, typer.Option("--since", help="Only runs started on or after this date (YYYY-MM-DD, UTC).")
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(
            "--prices",
            envvar=PRICES_ENV,
            help="Price table (YAML or JSON; see examples/prices.yaml). Default: the built-in list prices.",
        ),
    ] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Cost of every run (failed runs and rejected drafts included) by component, with measured costs and
    stated assumptions apart, and the cost per accepted report (undefined when none was accepted)."""
    from citewise.cost.ledger import cost_report

    start = parse_since(since)
    table = load_prices(prices)
    with open_api(store) as api:
        report = cost_report(api.store, table, since=start)
    if json_out:
        emit_json(report.to_json())
        return
    _print(report)


def parse_since(value: str | None) -> date | datetime | None:
    """``--since``: a date (midnight UTC) or an ISO date-time (naive means UTC)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
    except ValueError as exc:
        raise InputError(f"--since must be a date (YYYY-MM-DD) or an ISO date-time, got {value!r}") from exc


def _quantity(line: CostLine) -> str:
    from citewise.cost.ledger import Component

    if line.tokens is not None and line.note != "usage not reported":
        t = line.tokens
        return f"{_calls(line.count)}: {t.input:,} in, {t.cached_input:,} cached in, {t.output:,} out"
    if line.component is Component.LLM:
        return _calls(line.count)
    return f"{line.quantity.normalize():,f} {line.unit}"


def _calls(count: int) -> str:
    return f"{count:,} call" + ("" if count == 1 else "s")


def _print(report: CostReport) -> None:
    from citewise.cost.money import money

    cur = report.currency
    period = f"since {report.since:%Y-%m-%d %H:%M} UTC" if report.since else "all runs"
    console.print(f"[bold]cost[/] ({period}; prices from {shown(report.prices)})", highlight=False)
    table = Table(box=None)
    for name in ("component", "item", "quantity", "cost", "note"):
        table.add_column(name, justify="right" if name == "cost" else "left")
    for line in (line for line in report.lines if not line.assumed):
        table.add_row(
            line.component.value, shown(line.item), _quantity(line), money(line.amount, cur), shown(line.note or "")
        )
    measured_label = "measured" if report.complete else "measured (known part)"
    table.add_row(f"[bold]{measured_label}[/]", "", "", f"[bold]{money(report.measured, cur)}[/]", "", end_section=True)
    for line in (line for line in report.lines if line.assumed):
        table.add_row(
            f"{line.component.value.replace('_', ' ')} (assumption)",
            shown(line.item),
            _quantity(line),
            money(line.amount, cur),
            shown(line.note or ""),
        )
    table.add_row("[bold]assumptions[/]", "", "", f"[bold]{money(report.assumed, cur)}[/]", "", end_section=True)
    total_label = "total (measured + assumptions)" if report.complete else "total, at least (some costs unknown)"
    table.add_row(f"[bold]{total_label}[/]", "", "", f"[bold]{money(report.total, cur)}[/]", "")
    console.print(table)
    per_accepted = report.cost_per_accepted_report
    if per_accepted is None:
        each_report = "undefined (no accepted reports)"
    else:
        each_report = money(per_accepted, cur) + ("" if report.complete else " (at least; some costs unknown)")
    console.print(f"runs: {report.runs}   accepted reports: {report.accepted}", highlight=False)
    console.print(f"cost per accepted report: {each_report}", highlight=False)
    engines = report.per_engine()
    if len(engines) > 1 or any(name != "citewise" for name in engines):
        for e in engines.values():
            per = e.cost_per_accepted_report
            each = "undefined (no accepted reports)" if per is None else money(per, cur)
            console.print(
                f"  {e.engine}: {e.runs} runs, {e.accepted} accepted, cost per accepted report {each}", highlight=False
            )
    for line in report.unknown:
        console.print(
            f"[yellow]unknown cost:[/] {shown(line.item)} ({_calls(line.count)}): {shown(line.note or '')}",
            highlight=False,
        )
