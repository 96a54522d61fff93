"""Amounts of money as people read them, one rule for the terminal and the pages.

>>> from decimal import Decimal
>>> money(Decimal("0.048000"), "USD"), money(Decimal("12.5"), "USD"), money(Decimal("0.0000004"), "EUR")
('$0.048', '$12.50', '0.00 EUR')
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

__all__ = ["money"]

_SHOWN_PLACES = Decimal("0.000001")


def money(amount: Decimal | None, currency: str) -> str:
    """An amount as shown: at most six decimals, at least two, and ``unknown`` for None."""
    if amount is None:
        return "unknown"
    shown = amount.quantize(_SHOWN_PLACES, rounding=ROUND_HALF_EVEN).normalize()
    if -shown.as_tuple().exponent < 2:  # type: ignore[operator]
        shown = shown.quantize(Decimal("0.01"))
    prefix = "$" if currency == "USD" else ""
    suffix = "" if currency == "USD" else f" {currency}"
    return f"{prefix}{shown:,f}{suffix}"
