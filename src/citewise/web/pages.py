"""The pages: runs, one run (report, ledger and its override form), costs, documents and the
review queue. Reads go through :class:`~citewise.api.Citewise` and the run store, like the CLI."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from citewise.audit.events import Verified
from citewise.cost import cost_report, ledger_for_run
from citewise.cost.money import money
from citewise.errors import InputError
from citewise.export.html import run_html
from citewise.export.run import export_run
from citewise.records import ReviewStatus
from citewise.records.runs import RunKind
from citewise.store.runs import RunRecord, RunStatus, RunStore
from citewise.web.context import page, require_write, route, state_of

__all__ = ["PAGE_SIZE", "CostChart", "RunRow", "cost_chart", "cost_points", "routes"]

PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class RunRow:
    """One line of the runs list."""

    record: RunRecord
    accepted: bool | None
    """None when the run was never verified."""
    cost: Decimal
    """Total cost of the lines that could be priced."""
    cost_complete: bool
    """Whether every line could be priced; if not, ``cost`` is a lower bound ("at least")."""


def _field(form: Any, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


ROW_CACHE = 5000
"""Runs-list lines kept in memory (reading a run's events to price it is the slow part of a list)."""


def _rows(request: Request, records: tuple[RunRecord, ...]) -> list[RunRow]:
    serve = state_of(request)
    runs = RunStore(serve.api.store)
    rows = []
    for listed in records:
        beat = listed.heartbeat_at.isoformat() if listed.heartbeat_at else None
        key = (listed.run_id, beat, listed.status.value)
        row = serve.rows.get(key)
        if row is None:
            full = runs.get(listed.run_id)
            verified = full.last(Verified)
            ledger = ledger_for_run(full, serve.prices)
            accepted = None if verified is None else verified.acceptance.accepted
            row = RunRow(listed, accepted, ledger.total, ledger.complete)
            if len(serve.rows) >= ROW_CACHE:
                serve.rows.pop(next(iter(serve.rows)))
            serve.rows[key] = row
        rows.append(row)
    return rows


def runs_page(request: Request) -> HTMLResponse:
    params = request.query_params
    q, kind, status = params.get("q", "").strip(), params.get("kind", ""), params.get("status", "")
    number = int(params["page"]) if params.get("page", "").isdigit() and int(params["page"]) > 0 else 1
    if status and status not in {s.value for s in RunStatus}:
        raise InputError(f"unknown status {status!r}; valid: {', '.join(s.value for s in RunStatus)}")
    if kind and kind not in {k.value for k in RunKind}:
        raise InputError(f"unknown kind {kind!r}; valid: {', '.join(k.value for k in RunKind)}")
    total, shown = RunStore(state_of(request).api.store).page(
        offset=(number - 1) * PAGE_SIZE,
        limit=PAGE_SIZE,
        text=q or None,
        kind=RunKind(kind) if kind else None,
        status=RunStatus(status) if status else None,
    )
    return page(
        request,
        "runs.html",
        rows=_rows(request, shown),
        currency=state_of(request).prices.currency,
        total=total,
        page=number,
        pages=max(1, -(-total // PAGE_SIZE)),
        q=q,
        kind=kind,
        status=status,
        statuses=[s.value for s in RunStatus],
    )


def run_page(request: Request) -> HTMLResponse:
    record = state_of(request).api.run(request.path_params["run_id"])
    html = run_html(record, standalone=False, interactive=True, csrf=state_of(request).guard.csrf)
    return HTMLResponse(html)


def run_export(request: Request) -> Response:
    record = state_of(request).api.run(request.path_params["run_id"])
    return HTMLResponse(export_run(record, "html"))


async def review_claim(request: Request) -> Response:
    form = await require_write(request)
    run_id, claim_id = request.path_params["run_id"], request.path_params["claim_id"]
    api = state_of(request).api
    await run_in_threadpool(
        api.review_claim,
        run_id,
        claim_id,
        _field(form, "decision"),
        reviewer=_field(form, "reviewer"),
        reason=_field(form, "reason"),
    )
    return RedirectResponse(f"/runs/{run_id}#claim-{claim_id}", status_code=303)


def cost_points(report: Any) -> list[tuple[date, Decimal, Decimal | None]]:
    """(day, cumulative total cost, cumulative cost per accepted report) for each day with runs."""
    points: list[tuple[date, Decimal, Decimal | None]] = []
    total, accepted = Decimal(0), 0
    for ledger in report.ledgers:
        total += ledger.total
        accepted += int(ledger.accepted)
        day = ledger.created_at.date()
        per = total / accepted if accepted else None
        if points and points[-1][0] == day:
            points[-1] = (day, total, per)
        else:
            points.append((day, total, per))
    return points


def costs_page(request: Request) -> HTMLResponse:
    serve = state_of(request)
    report = cost_report(serve.api.store, serve.prices)
    points = cost_points(report)
    return page(request, "costs.html", report=report, points=points, chart=cost_chart(points, report.currency))


@dataclass(frozen=True, slots=True)
class CostChart:
    """The cost-per-accepted-report line in a 600x220 box, with its axes labelled."""

    points: tuple[tuple[float, float, str], ...]
    """(x, y, label) of each day with an accepted report so far."""
    y_ticks: tuple[tuple[float, str], ...]
    """(y, amount) of the horizontal grid lines, from zero to a round top."""
    x_ticks: tuple[tuple[float, str], ...]
    """(x, day) of the first and last day (one when they are the same)."""


_LEFT, _RIGHT, _TOP, _BOTTOM = 80.0, 580.0, 12.0, 184.0


def _round_top(value: float) -> float:
    """The smallest 1, 2 or 5 times a power of ten that is at least ``value`` (the axis top)."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= value * (1 - 1e-9))


def cost_chart(points: list[tuple[date, Decimal, Decimal | None]], currency: str) -> CostChart | None:
    """The chart of the cost per accepted report over time; None before any report is accepted."""
    values = [(d, p) for d, _, p in points if p is not None]
    if not values:
        return None
    top = _round_top(float(max(p for _, p in values)))

    def y(amount: float) -> float:
        return _BOTTOM - (_BOTTOM - _TOP) * amount / top

    def x(i: int) -> float:  # one day alone sits in the middle
        return (_LEFT + _RIGHT) / 2 if len(values) == 1 else _LEFT + i * (_RIGHT - _LEFT) / (len(values) - 1)

    shown = tuple((x(i), y(float(p)), f"{d.isoformat()}: {money(p, currency)}") for i, (d, p) in enumerate(values))
    ticks = tuple((y(top * n / 4), money(Decimal(str(top * n / 4)), currency)) for n in range(5))
    days = {0: values[0][0], len(values) - 1: values[-1][0]}
    return CostChart(shown, ticks, tuple((x(i), d.isoformat()) for i, d in days.items()))


def documents_page(request: Request) -> HTMLResponse:
    api = state_of(request).api
    queue = api.pending_review()
    staged = {}
    for item in queue:
        if item.pending_sections:
            sections = api.sections(item.doc_id, item.version)
            staged[(item.doc_id, item.version)] = [s for s in sections if s.status is ReviewStatus.REVIEW_REQUIRED][:50]
    return page(request, "documents.html", queue=queue, staged=staged, versions=api.versions())


def document_page(request: Request) -> HTMLResponse:
    api = state_of(request).api
    doc_id = request.path_params["doc_id"]
    raw = request.query_params.get("version", "")
    if raw and not raw.isdigit():
        raise InputError(f"bad version {raw!r}: expected a number")
    chosen = api.store.version(doc_id, int(raw) if raw else None)
    return page(
        request,
        "document.html",
        chosen=chosen,
        versions=api.versions(doc_id),
        decisions=api.decisions(doc_id),
        sections=api.sections(doc_id, chosen.version),
    )


async def review_document(request: Request) -> Response:
    form = await require_write(request)
    api = state_of(request).api
    decision, target, section = _field(form, "decision"), _field(form, "target"), _field(form, "section") or None
    if decision not in ("approve", "reject"):
        raise InputError(f"unknown decision {decision!r}; valid: approve, reject")
    act = api.approve if decision == "approve" else api.reject
    made = await run_in_threadpool(
        lambda: act(target, reviewer=_field(form, "reviewer"), reason=_field(form, "reason"), section=section)
    )
    return RedirectResponse(f"/documents/{made.doc_id}?version={made.version}", status_code=303)


def routes() -> list[Route]:
    """The page routes."""
    return [
        route("/", runs_page),
        route("/runs/{run_id}", run_page),
        route("/runs/{run_id}/export.html", run_export),
        route("/runs/{run_id}/claims/{claim_id}/review", review_claim, ("POST",)),
        route("/costs", costs_page),
        route("/documents", documents_page),
        route("/review", documents_page),  # the review queue heads the documents page; /review is where one looks
        route("/documents/review", review_document, ("POST",)),
        route("/documents/{doc_id}", document_page),
    ]
