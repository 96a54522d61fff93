"""Hard budgets for a research run, counted before each call; failures consume budget too.

Attempts (rounds, searches, page extractions) are counted before each call. Model tokens and money
are capped the same way: before each model call, :meth:`BudgetUsage.admit` takes a high estimate of
what the call can cost — the prompt it will send plus the reply cap it asks for, priced from the price
table for money — and lets it go only if that fits in what is left. The call's reply cap is lowered to
what the caps leave; when less than :data:`MIN_REPLY_TOKENS` would be left, the call is not made and
:class:`BudgetExhausted` (``tokens`` or ``cost``) says so. A run therefore never ends above a cap.

>>> budget = Budget(max_searches=1)
>>> usage = BudgetUsage(budget)
>>> usage.spend("searches")
>>> usage.spend("searches")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
citewise.records.budget.BudgetExhausted: search budget exhausted: 1 of 1 used

>>> usage = BudgetUsage(Budget(max_tokens=3000))
>>> usage.admit("m", prompt_tokens=1200, max_reply=8192).max_reply  # lowered to what the cap leaves
1800
>>> usage.admit("m", prompt_tokens=2500, max_reply=8192)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
citewise.records.budget.BudgetExhausted: token budget exhausted: 0 of 3,000 used; the next call needs up to 3,524
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Final

from citewise.config import env
from citewise.errors import ConfigError, InputError, RunError
from citewise.records.research import StopReason

if TYPE_CHECKING:  # a type only: the price table is handed in, never imported at run time
    from citewise.prices import ModelPrice, PriceTable

__all__ = [
    "BUDGET_ENVS",
    "MIN_REPLY_TOKENS",
    "Admitted",
    "Budget",
    "BudgetExhausted",
    "BudgetUsage",
    "ModelUsage",
    "budget_from_env",
]

MIN_REPLY_TOKENS: Final = 1024
"""The smallest reply cap a capped call is sent with: with less left, the call is not made (a reply
cut off at a few tokens would be paid for and useless)."""

BUDGET_ENVS: Final = {
    "max_rounds": "CITEWISE_MAX_ROUNDS",
    "max_searches": "CITEWISE_MAX_SEARCHES",
    "max_extractions": "CITEWISE_MAX_PAGES",
    "max_tokens": "CITEWISE_MAX_TOKENS",
    "max_cost_usd": "CITEWISE_MAX_COST",
}
"""The environment variable (or ``.env`` line) of each budget field; command-line options win."""

_LABELS = {
    "rounds": "round",
    "searches": "search",
    "extractions": "page-extraction",
    "tokens": "token",
    "cost": "money",
}


class BudgetExhausted(RunError):
    """A budget would be exceeded by the next attempt (or, for tokens and money, the next model call)."""

    def __init__(self, kind: str, used: int | Decimal, limit: int | Decimal, needed: int | Decimal | None = None):
        self.kind, self.used, self.limit, self.needed = kind, used, limit, needed
        text = f"{_LABELS.get(kind, kind)} budget exhausted: {_amount(kind, used)} of {_amount(kind, limit)} used"
        if needed is not None:
            text += f"; the next call needs up to {_amount(kind, needed)}"
        super().__init__(text)

    @property
    def stop_reason(self) -> StopReason | None:
        """The loop's stop reason for a token or money cap; None for attempt budgets."""
        return {"tokens": StopReason.TOKENS_EXHAUSTED, "cost": StopReason.COST_EXHAUSTED}.get(self.kind)


def _amount(kind: str, value: int | Decimal) -> str:
    if kind == "cost":
        return f"${Decimal(value).quantize(Decimal('0.0001')).normalize():f}"
    return f"{int(value):,}"


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one run (SPEC 4.5 defaults)."""

    max_rounds: int = 3
    """Collection rounds."""
    max_searches: int = 8
    """Search attempts, failed ones included."""
    max_extractions: int = 12
    """Page-extraction attempts, failed ones included."""
    max_tokens: int | None = None
    """Model tokens (prompt + completion), when capped."""
    max_cost_usd: float | None = None
    """Money spent on model calls (USD, priced from the price table), when capped."""
    excerpt_chars: int = 6000
    """Characters of each source given to models."""

    def __post_init__(self) -> None:
        for name in ("max_rounds", "max_searches", "max_extractions", "excerpt_chars"):
            if getattr(self, name) < 1:
                raise InputError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise InputError("max_tokens must be at least 1")
        if self.max_cost_usd is not None and not self.max_cost_usd > 0:
            raise InputError("max_cost_usd must be positive")


def budget_from_env(**given: int | float | None) -> Budget:
    """A :class:`Budget` from ``CITEWISE_MAX_ROUNDS``, ``CITEWISE_MAX_SEARCHES``, ``CITEWISE_MAX_PAGES``,
    ``CITEWISE_MAX_TOKENS`` and ``CITEWISE_MAX_COST`` (the environment, or ``.env`` once loaded), with
    the ``given`` fields (command-line options; None means not given) winning. A value that is not a
    whole number of at least 1 (or, for the cost, a positive amount) is a :class:`ConfigError` naming
    its variable.

    >>> budget_from_env(max_rounds=2).max_rounds
    2
    """
    unknown = set(given) - set(BUDGET_ENVS)
    if unknown:
        raise TypeError(f"unknown budget fields: {sorted(unknown)}")
    values: dict[str, int | float] = {}
    for name, variable in BUDGET_ENVS.items():
        if given.get(name) is not None:
            values[name] = given[name]  # type: ignore[assignment]
        elif (raw := env(variable)) is not None:
            values[name] = _cost(variable, raw) if name == "max_cost_usd" else _count(variable, raw)
    return Budget(**values)  # type: ignore[arg-type]


def _count(variable: str, raw: str) -> int:
    try:
        value = int(raw.replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise ConfigError(f"{variable} must be a whole number of at least 1, got {raw!r}")
    return value


def _cost(variable: str, raw: str) -> float:
    try:
        value = float(raw.strip().removeprefix("$"))
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise ConfigError(f"{variable} must be a positive amount of US dollars such as 0.50, got {raw!r}")
    return value


@dataclass(frozen=True, slots=True)
class ModelUsage:
    """The tokens of one model call, as the budget counts and prices them."""

    requested_model: str | None
    """The model id citewise asked for (the price is looked up by it first)."""
    model: str | None
    """The model id the endpoint reported."""
    prompt_tokens: int = 0
    """Prompt tokens, cached ones included (an estimate for a call cut off by a crash)."""
    cached_tokens: int = 0
    """Prompt tokens served from the provider's cache."""
    completion_tokens: int = 0
    """Completion tokens."""


@dataclass(frozen=True, slots=True)
class Admitted:
    """What :meth:`BudgetUsage.admit` allows the next model call."""

    max_reply: int
    """The reply cap to send."""
    limited_by: str | None = None
    """``tokens`` or ``cost`` when a cap lowered the reply cap; None when the call asked for less."""


@dataclass
class BudgetUsage:
    """What a run has used of its budget. Not thread-safe by design: the loop controller alone
    spends, in a fixed order, so budget accounting is the same with and without concurrency."""

    budget: Budget
    rounds: int = 0
    searches: int = 0
    extractions: int = 0
    tokens: int = 0
    calls: list[ModelUsage] = field(default_factory=list)
    """Every model call's tokens, in order (what the money spent is priced from)."""
    log: list[str] = field(default_factory=list)

    def remaining(self, kind: str) -> int:
        """Attempts left of ``rounds``, ``searches`` or ``extractions``."""
        return getattr(self.budget, f"max_{kind}") - getattr(self, kind)

    def check_before(self, kind: str) -> None:
        """Raise :class:`BudgetExhausted` if one more ``kind`` attempt would exceed the limit."""
        if self.remaining(kind) < 1:
            raise BudgetExhausted(kind, getattr(self, kind), getattr(self.budget, f"max_{kind}"))

    def spend(self, kind: str) -> None:
        """Count one attempt before it is made."""
        self.check_before(kind)
        setattr(self, kind, getattr(self, kind) + 1)

    def add_tokens(self, count: int) -> None:
        """Add model tokens without a call to price them with (see :meth:`add_call`)."""
        self.tokens += count

    def add_call(self, call: ModelUsage) -> None:
        """Count one model call's tokens (known only once it ended, or estimated after a crash)."""
        self.calls.append(call)
        self.tokens += call.prompt_tokens + call.completion_tokens

    def tokens_exhausted(self) -> bool:
        """True once the token cap (if any) leaves no room for another call's reply."""
        cap = self.budget.max_tokens
        return cap is not None and cap - self.tokens < MIN_REPLY_TOKENS

    def spent_usd(self, prices: PriceTable) -> Decimal:
        """Money spent on model calls so far, priced from ``prices``."""
        total = Decimal(0)
        for c in self.calls:
            price = _price(prices, c.requested_model, c.model)
            total += price.call_cost(c.prompt_tokens, c.cached_tokens, c.completion_tokens)
        return total

    def admit(self, model: str, *, prompt_tokens: int, max_reply: int, prices: PriceTable | None = None) -> Admitted:
        """The reply cap the next call to ``model`` may ask for, given a high estimate of its prompt
        and the reply cap it wants; :class:`BudgetExhausted` when not even :data:`MIN_REPLY_TOKENS`
        (or ``max_reply``, if smaller) would fit. A money cap needs ``prices`` that price ``model``."""
        floor = min(MIN_REPLY_TOKENS, max_reply)
        admitted = Admitted(max_reply)
        cap = self.budget.max_tokens
        if cap is not None:
            left = cap - self.tokens - prompt_tokens
            if left < floor:
                raise BudgetExhausted("tokens", self.tokens, cap, prompt_tokens + floor)
            if left < admitted.max_reply:
                admitted = Admitted(left, "tokens")
        if self.budget.max_cost_usd is not None:
            admitted = self._admit_cost(model, prompt_tokens, floor, admitted, prices)
        return admitted

    def _admit_cost(
        self, model: str, prompt_tokens: int, floor: int, admitted: Admitted, prices: PriceTable | None
    ) -> Admitted:
        if prices is None:
            raise ConfigError("a money cap (--max-cost) needs a price table")
        cap = Decimal(str(self.budget.max_cost_usd))
        spent = self.spent_usd(prices)
        price = _price(prices, model)
        affordable = price.affordable_completion(cap - spent, prompt_tokens)
        if affordable is None:  # free output: the money cap does not limit the reply
            affordable = admitted.max_reply
        if affordable < floor:
            raise BudgetExhausted("cost", spent, cap, price.call_cost(prompt_tokens, 0, floor))
        return Admitted(affordable, "cost") if affordable < admitted.max_reply else admitted


def _price(prices: PriceTable, *ids: str | None) -> ModelPrice:
    price = prices.model(*ids)
    if price is None:
        shown = next((i for i in ids if i), "unknown model")
        raise ConfigError(
            f"model {shown!r} is not in the price table ({prices.origin}), so a money cap cannot be kept; "
            "add it to a table passed with --prices, or drop --max-cost"
        )
    return price
