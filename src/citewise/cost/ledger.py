"""The cost ledger of each run, and the cost report over a period.

A run's costs are re-derived from what its audit record holds, priced with a :class:`PriceTable`::

    report = cost_report(store, load_prices("prices.yaml"), since=date(2025, 1, 1))
    report.total                         # measured + assumed, known amounts only
    report.cost_per_accepted_report      # None (undefined) when nothing was accepted

What is counted, per run (failed runs and rejected drafts included — they cost the same):

- **llm**: every ``model_call`` event (research runs), or the answer provenance of an ask run that
  has none: uncached prompt tokens at the input rate, cached ones at the cached-input rate, completion
  tokens at the output rate, per million; a long prompt at the model's long-context rates. The model
  is looked up by the requested id, then by the id the endpoint reported. A model missing from the
  table, or a call whose usage was not reported, is a line with its tokens and an **unknown** amount,
  never zero; totals then say they are incomplete.
- **search**: Tavily credits of every search attempt, failed ones included; attempts served from a
  cache cost nothing, and an attempt without credits was made to an unbilled provider.
- **extraction**: Tavily credits of extract attempts (each URL carries its share of the call's
  credits); an extract attempt without credits is a page read by a non-credit extractor, charged at
  ``extraction_per_page`` — unless the extractor call itself raised (``Provider...`` error), which
  read nothing.
- **native search**: the billed search tool calls of a native engine's answer (``engine_answered``),
  at the table's ``native_search_per_1000`` rate for that engine; its tokens are an llm line. An
  engine the table does not price is an unknown amount.
- **assumptions** (stated in the table, reported apart from measured costs): infrastructure per run,
  maintenance per month divided over the stated runs per month, human review seconds at an hourly rate.

Prices are applied when the report is made: the record keeps usage in billing units, so a new table
re-prices old runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

from citewise.cost.lines import ZERO, Component, CostLine, TokenCount, plain, summed
from citewise.cost.pricing import engine_of, is_accepted, run_lines
from citewise.prices import PriceTable
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore

__all__ = [
    "Component",
    "EngineCost",
    "CostLedger",
    "CostLine",
    "CostReport",
    "TokenCount",
    "cost_report",
    "engine_of",
    "is_accepted",
    "ledger_for_run",
]


class _Totals:
    """Sums shared by a ledger and a report (both hold ``lines``)."""

    __slots__ = ()

    lines: tuple[CostLine, ...]

    @property
    def measured(self) -> Decimal:
        """Known measured costs (llm, search, extraction)."""
        return sum((line.amount for line in self.lines if not line.assumed and line.amount is not None), ZERO)

    @property
    def assumed(self) -> Decimal:
        """Stated assumptions (infrastructure, maintenance, human review)."""
        return sum((line.amount for line in self.lines if line.assumed and line.amount is not None), ZERO)

    @property
    def total(self) -> Decimal:
        """Measured plus assumed; a lower bound when :attr:`complete` is False."""
        return self.measured + self.assumed

    @property
    def unknown(self) -> tuple[CostLine, ...]:
        """Lines whose amount cannot be known (model not in the table, usage not reported)."""
        return tuple(line for line in self.lines if line.amount is None)

    @property
    def complete(self) -> bool:
        """True when every line has a known amount."""
        return not self.unknown

    def by_component(self) -> dict[Component, Decimal | None]:
        """Known total per component; None for a component with any unknown line."""
        totals: dict[Component, Decimal | None] = {}
        for line in self.lines:
            if line.component not in totals:
                totals[line.component] = ZERO
            current = totals[line.component]
            totals[line.component] = None if current is None or line.amount is None else current + line.amount
        return totals


@dataclass(frozen=True, slots=True)
class CostLedger(_Totals):
    """The priced costs of one run."""

    run_id: str
    """The run."""
    kind: str
    """``ask`` or ``research``."""
    status: str
    """``running``, ``finished`` or ``failed`` (all are counted)."""
    created_at: datetime
    """When the run started (UTC)."""
    accepted: bool
    """True when the verification layer recorded the run's report as accepted."""
    lines: tuple[CostLine, ...]
    """Measured lines first (llm by model, search, extraction), then the assumptions."""
    engine: str = "citewise"
    """Which engine answered: ``citewise`` (its own loop) or a native engine's name."""


@dataclass(frozen=True, slots=True)
class CostReport(_Totals):
    """Costs of every run in a period, with the cost per accepted report."""

    since: datetime | None
    """Start of the period (UTC, inclusive); None for every run."""
    currency: str
    """Currency of every amount."""
    prices: str
    """Where the price table came from."""
    runs: int
    """Runs in the period, failed and unaccepted ones included."""
    accepted: int
    """Runs whose report was accepted."""
    lines: tuple[CostLine, ...]
    """Lines summed over the runs by component and item."""
    ledgers: tuple[CostLedger, ...]
    """Each run's ledger, oldest first."""

    @property
    def cost_per_accepted_report(self) -> Decimal | None:
        """Total cost of all runs / accepted reports; None (undefined) when none was accepted."""
        return self.total / self.accepted if self.accepted else None

    def per_engine(self) -> dict[str, EngineCost]:
        """Runs, accepted reports and cost per accepted report of each engine, in the same period."""
        out: dict[str, EngineCost] = {}
        for ledger in self.ledgers:
            seen = out.get(ledger.engine, EngineCost(ledger.engine, 0, 0, ZERO, True))
            out[ledger.engine] = EngineCost(
                ledger.engine,
                seen.runs + 1,
                seen.accepted + int(ledger.accepted),
                seen.total + ledger.total,
                seen.complete and ledger.complete,
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values; money as exact decimal strings."""
        per_accepted = self.cost_per_accepted_report
        return {
            "since": self.since.isoformat() if self.since else None,
            "currency": self.currency,
            "prices": self.prices,
            "runs": self.runs,
            "accepted_reports": self.accepted,
            "measured": plain(self.measured),
            "assumed": plain(self.assumed),
            "total": plain(self.total),
            "complete": self.complete,
            "cost_per_accepted_report": None if per_accepted is None else plain(per_accepted),
            "by_component": {
                c.value: {"amount": None if amount is None else plain(amount), "assumed": c.assumed}
                for c, amount in self.by_component().items()
            },
            "lines": [line.to_json() for line in self.lines],
            "unknown": [line.to_json() for line in self.unknown],
            "per_engine": [e.to_json() for e in self.per_engine().values()],
            "per_run": [
                {
                    "run_id": ledger.run_id,
                    "kind": ledger.kind,
                    "status": ledger.status,
                    "created_at": ledger.created_at.isoformat(),
                    "accepted": ledger.accepted,
                    "measured": plain(ledger.measured),
                    "assumed": plain(ledger.assumed),
                    "total": plain(ledger.total),
                    "complete": ledger.complete,
                }
                for ledger in self.ledgers
            ],
        }


def ledger_for_run(record: RunRecord, prices: PriceTable) -> CostLedger:
    """The cost ledger of one run (``record`` with its events, as :meth:`RunStore.get` returns it)."""
    return CostLedger(
        run_id=record.run_id,
        kind=record.kind,
        status=record.status.value,
        created_at=record.created_at,
        accepted=is_accepted(record),
        lines=tuple(run_lines(record, prices)),
        engine=engine_of(record),
    )


def cost_report(store: EvidenceStore, prices: PriceTable, since: date | datetime | None = None) -> CostReport:
    """Costs of every run started at or after ``since`` (a date means its midnight, UTC).

    >>> from citewise.prices import parse_prices
    >>> with EvidenceStore.open("sqlite://") as store:
    ...     report = cost_report(store, parse_prices({
    ...         "models": {}, "tavily_credit": 0, "extraction_per_page": 0,
    ...         "assumptions": {"infrastructure_per_run": 0, "maintenance_per_month": 0, "runs_per_month": 1,
    ...                         "human_review_seconds_per_run": 0, "human_review_rate_per_hour": 0}}))
    >>> report.runs, report.cost_per_accepted_report
    (0, None)
    """
    start = _start(since)
    run_store = RunStore(store)
    ledgers = tuple(ledger_for_run(run_store.get(run_id), prices) for run_id in run_store.ids_since(start))
    return CostReport(
        since=start,
        currency=prices.currency,
        prices=prices.origin,
        runs=len(ledgers),
        accepted=sum(1 for ledger in ledgers if ledger.accepted),
        lines=summed(line for ledger in ledgers for line in ledger.lines),
        ledgers=ledgers,
    )


@dataclass(frozen=True, slots=True)
class EngineCost:
    """What one engine's runs of a period cost, and per accepted report (spec 6)."""

    engine: str
    """``citewise`` or a native engine's name."""
    runs: int
    """Its runs, failed and unaccepted ones included."""
    accepted: int
    """Its accepted reports."""
    total: Decimal
    """Their total cost (known amounts)."""
    complete: bool
    """False when some amount of its runs is unknown."""

    @property
    def cost_per_accepted_report(self) -> Decimal | None:
        """Total / accepted; None (undefined) when none was accepted."""
        return self.total / self.accepted if self.accepted else None

    def to_json(self) -> dict[str, Any]:
        per = self.cost_per_accepted_report
        return {
            "engine": self.engine,
            "runs": self.runs,
            "accepted_reports": self.accepted,
            "total": plain(self.total),
            "complete": self.complete,
            "cost_per_accepted_report": None if per is None else plain(per),
        }


def _start(since: date | datetime | None) -> datetime | None:
    if since is None:
        return None
    if isinstance(since, datetime):
        return _utc(since)
    return datetime.combine(since, time(0), tzinfo=UTC)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
