"""Hard budgets for a research run, counted before each call; failures consume budget too.

>>> budget = Budget(max_searches=1)
>>> usage = BudgetUsage(budget)
>>> usage.spend("searches")
>>> usage.spend("searches")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
citewise.research.budget.BudgetExhausted: search budget exhausted: 1 of 1 used
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.errors import InputError, RunError

__all__ = ["Budget", "BudgetExhausted", "BudgetUsage"]

_LABELS = {"rounds": "round", "searches": "search", "extractions": "page-extraction"}


class BudgetExhausted(RunError):
    """A budget would be exceeded by the next attempt."""

    def __init__(self, kind: str, used: int, limit: int) -> None:
        self.kind, self.used, self.limit = kind, used, limit
        super().__init__(f"{_LABELS.get(kind, kind)} budget exhausted: {used} of {limit} used")


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
    """Money, when capped (needs a price table)."""
    excerpt_chars: int = 6000
    """Characters of each source given to models."""

    def __post_init__(self) -> None:
        for name in ("max_rounds", "max_searches", "max_extractions", "excerpt_chars"):
            if getattr(self, name) < 1:
                raise InputError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise InputError("max_tokens must be at least 1")
        if self.max_cost_usd is not None and self.max_cost_usd <= 0:
            raise InputError("max_cost_usd must be positive")


@dataclass
class BudgetUsage:
    """What a run has used of its budget. Not thread-safe by design: the loop controller alone
    spends, in a fixed order, so budget accounting is the same with and without concurrency."""

    budget: Budget
    rounds: int = 0
    searches: int = 0
    extractions: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
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
        """Add model tokens (counted after each call: their number is known only then)."""
        self.tokens += count

    def tokens_exhausted(self) -> bool:
        """True once the token cap (if any) is reached."""
        return self.budget.max_tokens is not None and self.tokens >= self.budget.max_tokens
