"""The lines a cost ledger is made of: what a cost is for, the tokens of model calls, one priced item."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

__all__ = ["ZERO", "Component", "CostLine", "TokenCount", "plain", "summed"]

ZERO = Decimal(0)


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
            "quantity": plain(self.quantity),
            "unit": self.unit,
            "amount": None if self.amount is None else plain(self.amount),
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


def summed(lines: Iterable[CostLine]) -> tuple[CostLine, ...]:
    """Lines with the same component, item, unit and note merged, in component then first-seen order."""
    merged: dict[tuple[Component, str, str, str | None], CostLine] = {}
    for line in lines:
        key = line._key
        merged[key] = merged[key].merge(line) if key in merged else line
    order = list(Component)
    return tuple(sorted(merged.values(), key=lambda line: order.index(line.component)))


def plain(value: Decimal) -> str:
    """A decimal as plain digits without trailing zeros (``23.86``, ``100``, never ``1E+2``)."""
    return format(value.normalize(), "f")
