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

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

from citewise.audit.events import (
    AnswerGiven,
    AttemptEnded,
    AttemptInterrupted,
    EngineAnswered,
    EngineCallFailed,
    ModelCallEnded,
    ModelCallInterrupted,
    RunConfigured,
    Verified,
)
from citewise.prices import PriceTable
from citewise.records.answer import AnswerPath
from citewise.records.research import Attempt, AttemptError, AttemptKind
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

ZERO = Decimal(0)
# Credit shares are floats in the record (a call's credits split over its URLs); the per-run sum is
# rounded so float noise (0.9999999999999999) never shows up as money.
_CREDIT_PLACES = Decimal("0.000001")


class Component(str, enum.Enum):
    """What a cost line is for."""

    LLM = "llm"
    SEARCH = "search"
    EXTRACTION = "extraction"
    INFRASTRUCTURE = "infrastructure"
    MAINTENANCE = "maintenance"
    HUMAN_REVIEW = "human_review"

    @property
    def assumed(self) -> bool:
        """True for costs stated in the price table rather than measured from the run."""
        return self in _ASSUMED


_ASSUMED = frozenset({Component.INFRASTRUCTURE, Component.MAINTENANCE, Component.HUMAN_REVIEW})


@dataclass(frozen=True, slots=True)
class TokenCount:
    """Tokens of one or more model calls, split the way they are billed."""

    input: int = 0
    """Prompt tokens not served from a cache."""
    cached_input: int = 0
    """Prompt tokens served from the provider's prompt cache."""
    output: int = 0
    """Completion tokens (reasoning included)."""

    def __add__(self, other: TokenCount) -> TokenCount:
        return TokenCount(self.input + other.input, self.cached_input + other.cached_input, self.output + other.output)

    @property
    def total(self) -> int:
        """All tokens."""
        return self.input + self.cached_input + self.output


@dataclass(frozen=True, slots=True)
class CostLine:
    """One priced item of a ledger or a report: a model, Tavily credits, pages, or an assumption."""

    component: Component
    """What the cost is for."""
    item: str
    """Model id, ``tavily credits``, ``pages``, or the assumption's name."""
    count: int
    """Model calls, attempts, or runs the line covers."""
    quantity: Decimal
    """Billing units: tokens, credits, pages, runs or review seconds."""
    unit: str
    """Name of the billing unit."""
    amount: Decimal | None
    """Cost in the table's currency; None when it cannot be known (see ``note``)."""
    tokens: TokenCount | None = None
    """Token split of an ``llm`` line."""
    note: str | None = None
    """Why the amount is unknown, or how an assumption was allocated."""

    @property
    def assumed(self) -> bool:
        """True for an assumption rather than a measured cost."""
        return self.component.assumed

    def merge(self, other: CostLine) -> CostLine:
        """This line and ``other`` (same component, item and note) as one."""
        tokens = None if self.tokens is None and other.tokens is None else _tokens(self.tokens) + _tokens(other.tokens)
        amount = None if self.amount is None or other.amount is None else self.amount + other.amount
        return replace(
            self,
            count=self.count + other.count,
            quantity=self.quantity + other.quantity,
            amount=amount,
            tokens=tokens,
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values; money and quantities as exact decimal strings."""
        return {
            "component": self.component.value,
            "item": self.item,
            "assumed": self.assumed,
            "count": self.count,
            "quantity": _plain(self.quantity),
            "unit": self.unit,
            "amount": None if self.amount is None else _plain(self.amount),
            "tokens": None
            if self.tokens is None
            else {"input": self.tokens.input, "cached_input": self.tokens.cached_input, "output": self.tokens.output},
            "note": self.note,
        }

    @property
    def _key(self) -> tuple[Component, str, str, str | None]:
        return (self.component, self.item, self.unit, self.note)


def _tokens(tokens: TokenCount | None) -> TokenCount:
    return tokens if tokens is not None else TokenCount()


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
            "measured": _plain(self.measured),
            "assumed": _plain(self.assumed),
            "total": _plain(self.total),
            "complete": self.complete,
            "cost_per_accepted_report": None if per_accepted is None else _plain(per_accepted),
            "by_component": {
                c.value: {"amount": None if amount is None else _plain(amount), "assumed": c.assumed}
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
                    "measured": _plain(ledger.measured),
                    "assumed": _plain(ledger.assumed),
                    "total": _plain(ledger.total),
                    "complete": ledger.complete,
                }
                for ledger in self.ledgers
            ],
        }


def ledger_for_run(record: RunRecord, prices: PriceTable) -> CostLedger:
    """The cost ledger of one run (``record`` with its events, as :meth:`RunStore.get` returns it)."""
    lines = [
        *_llm_lines(record, prices),
        *_attempt_lines(record, prices),
        *_native_search_lines(record, prices),
        *_assumption_lines(prices),
    ]
    return CostLedger(
        run_id=record.run_id,
        kind=record.kind,
        status=record.status.value,
        created_at=record.created_at,
        accepted=is_accepted(record),
        lines=tuple(lines),
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
        lines=_summed(line for ledger in ledgers for line in ledger.lines),
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
            "total": _plain(self.total),
            "complete": self.complete,
            "cost_per_accepted_report": None if per is None else _plain(per),
        }


def engine_of(record: RunRecord) -> str:
    """The engine of a run: the native engine that answered, else ``citewise``."""
    answered = record.last(EngineAnswered) or record.last(EngineCallFailed)
    if answered is not None:
        return answered.engine
    configured = record.last(RunConfigured)
    return configured.engine if configured is not None and configured.engine is not None else "citewise"


def _native_search_lines(record: RunRecord, prices: PriceTable) -> list[CostLine]:
    lines = []
    for answered in record.of(EngineAnswered):
        calls = answered.usage.search_calls
        if not calls:
            continue
        rate = prices.native_search_per_1000.get(answered.engine)
        item = f"{answered.engine} search tool calls"
        if rate is None:
            unknown = CostLine(Component.SEARCH, item, 1, Decimal(calls), "calls", None, note="not in the price table")
            lines.append(unknown)
        else:
            lines.append(CostLine(Component.SEARCH, item, 1, Decimal(calls), "calls", calls * rate / 1000))
    return list(_summed(lines))


def is_accepted(record: RunRecord) -> bool:
    """True when the run's latest verification accepted its report."""
    verified = record.last(Verified)
    return verified is not None and verified.acceptance.accepted


# -- llm ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Call:
    requested_model: str | None
    model: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    cached_tokens: int | None = None


def _llm_calls(record: RunRecord) -> list[_Call]:
    calls = [
        _Call(e.requested_model, e.model, e.prompt_tokens, e.completion_tokens, e.cached_tokens)
        for e in record.of(ModelCallEnded)
        if e.outcome != "not_answered"
    ]
    # A call cut off by a crash may have been charged: priced at its estimated prompt, no output.
    calls += [_Call(e.model, None, e.estimated_prompt_tokens, 0) for e in record.of(ModelCallInterrupted)]
    answer = record.last(AnswerGiven)
    if not calls and answer is not None:
        # Ask runs record their one model call in the answer provenance.
        p = answer.provenance
        if p.requested_model or (p.path is AnswerPath.MODEL and p.model):
            calls.append(_Call(p.requested_model, p.model, p.prompt_tokens, p.completion_tokens))
    return calls


def _llm_lines(record: RunRecord, prices: PriceTable) -> list[CostLine]:
    lines = [_llm_line(call, prices) for call in _llm_calls(record)]
    return list(_summed(lines))


def _llm_line(call: _Call, prices: PriceTable) -> CostLine:
    requested, reported = call.requested_model, call.model
    price = prices.model(requested, reported)
    item = price.model if price is not None else str(requested or reported or "unknown model")
    prompt, completion = call.prompt_tokens, call.completion_tokens
    if prompt is None or completion is None:
        return CostLine(Component.LLM, item, 1, ZERO, "tokens", None, TokenCount(), "usage not reported")
    cached = min(int(call.cached_tokens or 0), int(prompt))
    tokens = TokenCount(input=int(prompt) - cached, cached_input=cached, output=int(completion))
    if price is None:
        return CostLine(Component.LLM, item, 1, Decimal(tokens.total), "tokens", None, tokens, "not in the price table")
    amount = price.call_cost(int(prompt), cached, int(completion))
    return CostLine(Component.LLM, item, 1, Decimal(tokens.total), "tokens", amount, tokens)


# -- search and extraction ------------------------------------------------------------------------


def _attempt_lines(record: RunRecord, prices: PriceTable) -> list[CostLine]:
    credits = {Component.SEARCH: ZERO, Component.EXTRACTION: ZERO}
    billed = {Component.SEARCH: 0, Component.EXTRACTION: 0}
    pages = 0
    components = {AttemptKind.SEARCH: Component.SEARCH, AttemptKind.EXTRACT: Component.EXTRACTION}
    for attempt in [e.attempt for e in record.of(AttemptEnded)] + _interrupted(record):
        component = components.get(attempt.kind)
        if attempt.cached or component is None:  # model attempts are priced from their model calls
            continue
        if attempt.credits is not None:
            credits[component] += Decimal(str(attempt.credits))
            billed[component] += 1
        elif component is Component.EXTRACTION and (attempt.error_kind is None or attempt.error_kind.billed):
            pages += 1
    lines = []
    for component in (Component.SEARCH, Component.EXTRACTION):
        if billed[component]:
            quantity = credits[component].quantize(_CREDIT_PLACES).normalize()
            lines.append(
                CostLine(
                    component, "tavily credits", billed[component], quantity, "credits", quantity * prices.tavily_credit
                )
            )
    if pages:
        lines.append(
            CostLine(Component.EXTRACTION, "pages", pages, Decimal(pages), "pages", pages * prices.extraction_per_page)
        )
    return lines


def _interrupted(record: RunRecord) -> list[Attempt]:
    """Calls cut off by a crash: the provider may have answered and charged."""
    return [
        Attempt(e.attempt_kind, e.target, e.round, False, e.noticed_at, error_kind=AttemptError.INTERRUPTED)
        for e in record.of(AttemptInterrupted)
    ]


# -- assumptions ----------------------------------------------------------------------------------


def _assumption_lines(prices: PriceTable) -> list[CostLine]:
    a, cur = prices.assumptions, prices.currency
    infrastructure = f"{a.infrastructure_per_run} {cur} per run"
    maintenance = f"{a.maintenance_per_month} {cur} a month over {a.runs_per_month} runs"
    review = f"{a.human_review_seconds_per_run} s per run at {a.human_review_rate_per_hour} {cur} an hour"
    one = Decimal(1)
    return [
        CostLine(
            Component.INFRASTRUCTURE, "infrastructure", 1, one, "runs", a.infrastructure_per_run, note=infrastructure
        ),
        CostLine(Component.MAINTENANCE, "maintenance", 1, one, "runs", a.maintenance_per_run, note=maintenance),
        CostLine(
            Component.HUMAN_REVIEW,
            "human review",
            1,
            a.human_review_seconds_per_run,
            "seconds",
            a.human_review_per_run,
            note=review,
        ),
    ]


# -- helpers --------------------------------------------------------------------------------------


def _summed(lines: Iterable[CostLine]) -> tuple[CostLine, ...]:
    """Lines with the same component, item, unit and note merged, in component then first-seen order."""
    merged: dict[tuple[Component, str, str, str | None], CostLine] = {}
    for line in lines:
        key = line._key
        merged[key] = merged[key].merge(line) if key in merged else line
    order = list(Component)
    return tuple(sorted(merged.values(), key=lambda line: order.index(line.component)))


def _plain(value: Decimal) -> str:
    """A decimal as plain digits without trailing zeros (``23.86``, ``100``, never ``1E+2``)."""
    return format(value.normalize(), "f")


def _start(since: date | datetime | None) -> datetime | None:
    if since is None:
        return None
    if isinstance(since, datetime):
        return _utc(since)
    return datetime.combine(since, time(0), tzinfo=UTC)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
