"""One price function for a model call (``ModelPrice.call_cost``), used by each place that prices one.

The cost ledger multiplied the rates itself, the progress counter repeated the budget's sum over
the run's calls, and the money-cap admission priced the prompt with its own arithmetic; they now
all go through :mod:`citewise.prices`, so a figure on screen, the cap and the ledger cannot differ.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any, cast

import pytest

from citewise.cost.pricing import _Call, _llm_line
from citewise.prices import ModelPrice, PriceTable, parse_prices
from citewise.records.budget import Budget, BudgetExhausted, BudgetUsage, ModelUsage
from citewise.research.progress import _model_cost
from citewise.research.state import ResearchState

pytestmark = pytest.mark.unit

D = Decimal
PRICES = parse_prices(
    {
        "models": {
            "long": {
                "input": 1,
                "output": 2,
                "cached_input": "0.5",
                "long_context": {"threshold": 100_000, "input": 3, "output": 4, "cached_input": 1},
            },
            "free-output": {"input": 1, "output": 0},
        },
        "tavily_credit": 0.005,
        "extraction_per_page": 0.002,
        "assumptions": {
            "infrastructure_per_run": 0,
            "maintenance_per_month": 0,
            "runs_per_month": 1,
            "human_review_seconds_per_run": 0,
            "human_review_rate_per_hour": 0,
        },
    }
)
CALLS = [
    ModelUsage("long", None, prompt_tokens=100_000, cached_tokens=0, completion_tokens=1_000),  # standard
    ModelUsage("long", None, prompt_tokens=200_000, cached_tokens=100_000, completion_tokens=1_000),  # long
    ModelUsage(None, "long", prompt_tokens=1_000, cached_tokens=5_000, completion_tokens=0),  # cached > prompt
]
EXPECTED = (D("0.1") + D("0.002")) + (D("0.3") + D("0.1") + D("0.004")) + D("0.0005")


def _price() -> ModelPrice:
    price = PRICES.model("long")
    assert price is not None
    return price


def test_a_call_is_priced_at_the_rates_its_prompt_selects() -> None:
    price = _price()
    assert [price.call_cost(c.prompt_tokens, c.cached_tokens, c.completion_tokens) for c in CALLS] == [
        D("0.102"),
        D("0.404"),
        D("0.0005"),  # every prompt token cached, none billed twice
    ]


def test_the_ledger_the_budget_and_the_progress_counter_agree() -> None:
    usage = BudgetUsage(Budget())
    for call in CALLS:
        usage.add_call(call)
    ledger = sum(
        (
            _llm_line(
                _Call(c.requested_model, c.model, c.prompt_tokens, c.completion_tokens, c.cached_tokens), PRICES
            ).amount
            or D(0)
            for c in CALLS
        ),
        D(0),
    )
    state = cast(ResearchState, SimpleNamespace(usage=usage))
    assert ledger == usage.spent_usd(PRICES) == _model_cost(state, PRICES) == EXPECTED


def test_the_progress_counter_shows_no_figure_for_an_unpriced_model() -> None:
    usage = BudgetUsage(Budget())
    usage.add_call(ModelUsage("mystery", None, 10, 0, 10))
    assert _model_cost(cast(ResearchState, SimpleNamespace(usage=usage)), PRICES) is None
    assert _model_cost(cast(ResearchState, SimpleNamespace(usage=usage)), None) is None


def _admit(budget: dict[str, Any], model: str, prompt: int, table: PriceTable = PRICES) -> int:
    usage = BudgetUsage(Budget(**budget))
    return usage.admit(model, prompt_tokens=prompt, max_reply=500_000, prices=table).max_reply


def test_the_money_cap_prices_a_long_prompt_at_its_long_rates() -> None:
    # $1 after a 200,000-token prompt at $3/M leaves $0.40: 100,000 tokens at $4/M output
    # (at the standard rates it would have been $0.80 left, 400,000 tokens).
    assert _price().affordable_completion(D(1), 200_000) == 100_000
    assert _admit({"max_cost_usd": 1}, "long", 200_000) == 100_000
    assert _admit({"max_cost_usd": 1}, "long", 100_000) == 450_000  # at the threshold: standard rates
    with pytest.raises(BudgetExhausted):
        _admit({"max_cost_usd": 0.5}, "long", 170_000)  # $0.51 for the prompt alone


def test_free_output_leaves_the_reply_cap_alone() -> None:
    assert _admit({"max_cost_usd": 1}, "free-output", 1_000) == 500_000
