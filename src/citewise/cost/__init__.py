"""Cost: the price table (:mod:`~citewise.prices`) and the cost ledger of each run
(:mod:`~citewise.cost.ledger`), summed into a report with the cost per accepted report (SPEC 6)."""

from __future__ import annotations

from citewise.cost.ledger import (
    Component,
    CostLedger,
    CostLine,
    CostReport,
    TokenCount,
    cost_report,
    is_accepted,
    ledger_for_run,
)
from citewise.prices import (
    PRICES_ENV,
    Assumptions,
    LongContextRates,
    ModelPrice,
    PriceTable,
    TokenRates,
    load_prices,
    parse_prices,
)

__all__ = [
    "PRICES_ENV",
    "Assumptions",
    "Component",
    "CostLedger",
    "CostLine",
    "CostReport",
    "LongContextRates",
    "ModelPrice",
    "PriceTable",
    "TokenCount",
    "TokenRates",
    "cost_report",
    "is_accepted",
    "ledger_for_run",
    "load_prices",
    "parse_prices",
]
