"""What one run's audit record is charged, line by line: its model calls, search and extraction
attempts, native search tool calls, and the price table's assumptions (see :mod:`citewise.cost.ledger`
for what is counted and why)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

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
from citewise.cost.lines import ZERO, Component, CostLine, TokenCount, summed
from citewise.prices import PriceTable
from citewise.records.answer import AnswerPath
from citewise.records.research import Attempt, AttemptError, AttemptKind
from citewise.store.runs import RunRecord

__all__ = ["engine_of", "is_accepted", "run_lines"]

# Credit shares are floats in the record (a call's credits split over its URLs); the per-run sum is
# rounded so float noise (0.9999999999999999) never shows up as money.
_CREDIT_PLACES = Decimal("0.000001")


def run_lines(record: RunRecord, prices: PriceTable) -> list[CostLine]:
    """Every cost line of one run: measured lines first (llm by model, search, extraction), then the
    assumptions."""
    return [
        *_llm_lines(record, prices),
        *_attempt_lines(record, prices),
        *_native_search_lines(record, prices),
        *_assumption_lines(prices),
    ]


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
    return list(summed(lines))


def is_accepted(record: RunRecord) -> bool:
    """True when the run's latest verification accepted its report."""
    verified = record.last(Verified)
    return verified is not None and verified.acceptance.accepted


# -- llm ----------------------------------------------------------------------------------------


ESTIMATED_BROKEN = "tokens estimated: the stream broke off before the endpoint reported usage"
ESTIMATED_INTERRUPTED = "prompt tokens estimated: the run stopped while the call was in flight"


@dataclass(frozen=True, slots=True)
class _Call:
    requested_model: str | None
    model: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    cached_tokens: int | None = None
    estimated: str | None = None  # why the tokens are an estimate, when they are


def _llm_calls(record: RunRecord) -> list[_Call]:
    calls = [
        _Call(
            e.requested_model,
            e.model,
            e.prompt_tokens,
            e.completion_tokens,
            e.cached_tokens,
            ESTIMATED_BROKEN if e.estimated else None,
        )
        for e in record.of(ModelCallEnded)
        if e.outcome != "not_answered"
    ]
    # A call cut off by a crash may have been charged: priced at its estimated prompt, no output.
    calls += [
        _Call(e.model, None, e.estimated_prompt_tokens, 0, estimated=ESTIMATED_INTERRUPTED)
        for e in record.of(ModelCallInterrupted)
    ]
    answer = record.last(AnswerGiven)
    if not calls and answer is not None:
        # Ask runs record their one model call in the answer provenance.
        p = answer.provenance
        if p.requested_model or (p.path is AnswerPath.MODEL and p.model):
            calls.append(_Call(p.requested_model, p.model, p.prompt_tokens, p.completion_tokens))
    return calls


def _llm_lines(record: RunRecord, prices: PriceTable) -> list[CostLine]:
    lines = [_llm_line(call, prices) for call in _llm_calls(record)]
    return list(summed(lines))


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
        note = "not in the price table" + (f"; {call.estimated}" if call.estimated else "")
        return CostLine(Component.LLM, item, 1, Decimal(tokens.total), "tokens", None, tokens, note)
    amount = price.call_cost(int(prompt), cached, int(completion))
    return CostLine(Component.LLM, item, 1, Decimal(tokens.total), "tokens", amount, tokens, call.estimated)


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
