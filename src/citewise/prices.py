"""The price table: what a token, a credit, a page and a run cost.

The table is a YAML or JSON file given with ``--prices`` or ``CITEWISE_PRICES``; without either,
citewise uses its built-in table (:data:`DEFAULT_PRICES`: published list prices, dated, each with
its source), so ``citewise cost`` works out of the box. Prices change and differ by plan, reseller
and contract: for real figures keep your own table (``examples/prices.yaml`` is a starting point).
A model missing from the table in use is priced *unknown*, never free::

    currency: USD
    as_of: 2026-12-01                # optional: when the prices were read
    models:                          # rates in money per million tokens
      small-model:
        input: 0.20
        output: 0.80
        cached_input: 0.05           # optional; defaults to the input rate
        source: https://example.com/pricing (read 2026-12-01)   # optional note
        long_context:                # optional; prompts above `threshold` tokens use these rates
          threshold: 200000
          input: 0.40
          output: 1.60
    tavily_credit: 0.008             # money per Tavily credit (search and extraction)
    native_search_per_1000:          # optional: money per 1,000 native search tool calls, by engine
      openai: 10.00
    extraction_per_page: 0.0         # money per page read by an extractor that bills no credits
    assumptions:                     # not measured: stated here, reported apart from measured costs
      infrastructure_per_run: 0.01
      maintenance_per_month: 20
      runs_per_month: 1000
      human_review_seconds_per_run: 12
      human_review_rate_per_hour: 30

Money is :class:`~decimal.Decimal` throughout: a rate written ``0.20`` is exactly two tenths, so
sums and shares come out exact (a float table would turn $0.2386 into $0.23859999...).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from citewise.errors import ConfigError

__all__ = [
    "DEFAULT_PRICES",
    "PRICES_ENV",
    "Assumptions",
    "LongContextRates",
    "ModelPrice",
    "PriceTable",
    "TokenRates",
    "default_prices",
    "load_prices",
    "parse_prices",
]

PRICES_ENV = "CITEWISE_PRICES"
"""Environment variable naming the price table file."""
DEFAULT_PRICES = "data/prices.yaml"
"""The built-in table, inside the ``citewise`` package: used when no table is named."""

MILLION = Decimal(1_000_000)
SECONDS_PER_HOUR = Decimal(3600)

_TOP_KEYS = {
    "currency",
    "as_of",
    "models",
    "tavily_credit",
    "extraction_per_page",
    "assumptions",
    "native_search_per_1000",
}
_REQUIRED_TOP = _TOP_KEYS - {"currency", "as_of", "native_search_per_1000"}
_RATE_KEYS = {"input", "output", "cached_input"}
_MODEL_KEYS = _RATE_KEYS | {"long_context", "source"}
_LONG_KEYS = _RATE_KEYS | {"threshold"}
_ASSUMPTION_KEYS = {
    "infrastructure_per_run",
    "maintenance_per_month",
    "runs_per_month",
    "human_review_seconds_per_run",
    "human_review_rate_per_hour",
}


@dataclass(frozen=True, slots=True)
class TokenRates:
    """Money per million tokens."""

    input: Decimal
    """Uncached input (prompt) tokens."""
    output: Decimal
    """Output (completion) tokens, reasoning tokens included."""
    cached_input: Decimal
    """Input tokens served from the provider's prompt cache."""

    def cost(self, input_tokens: int, cached_input_tokens: int, output_tokens: int) -> Decimal:
        """Cost of one call's tokens; ``input_tokens`` excludes the cached ones.

        >>> TokenRates(Decimal("0.20"), Decimal("0.80"), Decimal("0.05")).cost(10_000, 0, 2_000)
        Decimal('0.0036')
        """
        return (
            input_tokens * self.input + cached_input_tokens * self.cached_input + output_tokens * self.output
        ) / MILLION


@dataclass(frozen=True, slots=True)
class LongContextRates:
    """Rates for a whole call whose prompt is longer than a threshold (as some providers bill)."""

    threshold: int
    """Prompt tokens (cached included) above which every token of the call is billed at ``rates``."""
    rates: TokenRates
    """The long-context rates."""


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """The rates of one model id."""

    model: str
    """Model id as requested (or as the endpoint reported it)."""
    rates: TokenRates
    """Standard rates."""
    long_context: LongContextRates | None = None
    """Rates for long prompts, when the model has them."""
    source: str | None = None
    """Where the rates were read, and when (a note from the table)."""

    def rates_for(self, prompt_tokens: int) -> TokenRates:
        """The rates that apply to a call with ``prompt_tokens`` input tokens (cached included)."""
        if self.long_context is not None and prompt_tokens > self.long_context.threshold:
            return self.long_context.rates
        return self.rates

    def call_cost(self, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> Decimal:
        """The cost of one call: ``prompt_tokens`` include the ``cached_tokens``; a long prompt is
        billed whole at the long-context rates.

        >>> price = ModelPrice("m", TokenRates(Decimal("0.20"), Decimal("0.80"), Decimal("0.05")))
        >>> price.call_cost(12_000, 2_000, 2_000)
        Decimal('0.0037')
        """
        cached = min(cached_tokens, prompt_tokens)
        return self.rates_for(prompt_tokens).cost(prompt_tokens - cached, cached, completion_tokens)

    def affordable_completion(self, amount: Decimal, prompt_tokens: int) -> int | None:
        """How many completion tokens ``amount`` buys in a call with an uncached prompt of
        ``prompt_tokens`` (negative when the prompt alone costs more); None when output is free.

        >>> price = ModelPrice("m", TokenRates(Decimal("0.20"), Decimal("0.80"), Decimal("0.05")))
        >>> price.affordable_completion(Decimal("0.0036"), 10_000), price.affordable_completion(Decimal("0"), 10)
        (2000, -2)
        """
        output = self.rates_for(prompt_tokens).output
        if output <= 0:
            return None
        return int((amount - self.call_cost(prompt_tokens, 0, 0)) * MILLION / output)


@dataclass(frozen=True, slots=True)
class Assumptions:
    """Costs citewise cannot measure, stated by the user and always reported as assumptions."""

    infrastructure_per_run: Decimal
    """Hosting, database and network, allocated per run."""
    maintenance_per_month: Decimal
    """Engineering upkeep per month, allocated over ``runs_per_month``."""
    runs_per_month: Decimal
    """How many runs a month share the maintenance (greater than zero)."""
    human_review_seconds_per_run: Decimal
    """Time a person spends reviewing one run's output."""
    human_review_rate_per_hour: Decimal
    """What that person's hour costs."""

    @property
    def maintenance_per_run(self) -> Decimal:
        """Maintenance allocated to one run.

        >>> Assumptions(Decimal(0), Decimal(20), Decimal(1000), Decimal(0), Decimal(0)).maintenance_per_run
        Decimal('0.02')
        """
        return self.maintenance_per_month / self.runs_per_month

    @property
    def human_review_per_run(self) -> Decimal:
        """Human review time of one run in money (seconds × hourly rate / 3600)."""
        # Multiply before dividing so that whole-cent results stay exact (12 s at $30/h is $0.1).
        return self.human_review_seconds_per_run * self.human_review_rate_per_hour / SECONDS_PER_HOUR


@dataclass(frozen=True, slots=True)
class PriceTable:
    """Prices for models, Tavily credits and extraction, and the stated assumptions.

    Build one with :func:`load_prices` (a file) or :func:`parse_prices` (a mapping).
    """

    models: Mapping[str, ModelPrice]
    """Model id -> rates (read-only)."""
    tavily_credit: Decimal
    """Money per Tavily credit."""
    extraction_per_page: Decimal
    """Money per page read by an extractor that bills no credits (the local or own fetcher)."""
    assumptions: Assumptions
    """Infrastructure, maintenance and human review: reported apart from measured costs."""
    currency: str = "USD"
    """Currency of every amount (a label; nothing is converted)."""
    origin: str = "<mapping>"
    """Where the table came from (a file path), for reports."""
    as_of: date | None = None
    """When its prices were read, if the table says."""
    native_search_per_1000: Mapping[str, Decimal] = field(default_factory=lambda: MappingProxyType({}))
    """Money per 1,000 native search tool calls, by engine (``openai``, ``anthropic``, ``gemini``)."""

    def model(self, *ids: str | None) -> ModelPrice | None:
        """The price of the first of ``ids`` in the table (requested id, then reported id), or None."""
        for model_id in ids:
            if model_id and model_id in self.models:
                return self.models[model_id]
        return None


def load_prices(path: Path | str | None = None) -> PriceTable:
    """Read the price table from ``path``, or from the file named by ``CITEWISE_PRICES``, or else
    the built-in one (:func:`default_prices`).

    ``.json`` files are read as JSON, anything else as YAML. Every problem is a
    :class:`~citewise.errors.ConfigError` naming the file and the key.
    """
    if path is None or str(path) == "":
        named = os.environ.get(PRICES_ENV, "").strip()
        if not named:
            return default_prices()
        path = named
    import yaml  # loaded when a table is read: starting the CLI does not need it

    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
        data = json.loads(raw) if path.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read price table {path}: {exc}") from exc
    return parse_prices(data, origin=str(path))


def default_prices() -> PriceTable:
    """The built-in table (:data:`DEFAULT_PRICES`): published list prices, dated, each with its source.

    >>> table = default_prices()
    >>> table.model("gpt-4o-mini").rates.input, table.model("no-such-model") is None
    (Decimal('0.15'), True)
    """
    import yaml

    resource = resources.files("citewise").joinpath(DEFAULT_PRICES)
    try:
        data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:  # a broken installation
        raise ConfigError(f"cannot read citewise's built-in price table: {exc}; pass --prices FILE") from exc
    table = parse_prices(data, origin="built-in prices")
    when = f", as of {table.as_of.isoformat()}" if table.as_of else ""
    return PriceTable(
        table.models,
        table.tavily_credit,
        table.extraction_per_page,
        table.assumptions,
        table.currency,
        f"citewise built-in list prices{when}",
        table.as_of,
        table.native_search_per_1000,
    )


def parse_prices(data: Any, *, origin: str = "<mapping>") -> PriceTable:
    """A :class:`PriceTable` from a mapping with the layout of the module docstring.

    >>> table = parse_prices({
    ...     "models": {"small": {"input": "0.20", "output": "0.80"}},
    ...     "tavily_credit": "0.005", "extraction_per_page": "0.002",
    ...     "assumptions": {"infrastructure_per_run": "0.01", "maintenance_per_month": 20, "runs_per_month": 1000,
    ...                     "human_review_seconds_per_run": 12, "human_review_rate_per_hour": 30}})
    >>> table.models["small"].rates.cached_input  # defaults to the input rate
    Decimal('0.20')
    """
    top = _mapping(data, "the price table", origin)
    _check_keys(top, _TOP_KEYS, _REQUIRED_TOP, "the price table", origin)
    models = _mapping(top["models"], "models", origin)
    assumptions = _mapping(top["assumptions"], "assumptions", origin)
    _check_keys(assumptions, _ASSUMPTION_KEYS, _ASSUMPTION_KEYS, "assumptions", origin)
    runs_per_month = _money(assumptions["runs_per_month"], "assumptions.runs_per_month", origin)
    if runs_per_month == 0:
        raise ConfigError(f"price table {origin}: assumptions.runs_per_month must be greater than zero")
    currency = top.get("currency", "USD")
    if not isinstance(currency, str) or not currency.strip():
        raise ConfigError(f"price table {origin}: currency must be a name such as USD, got {currency!r}")
    return PriceTable(
        models=MappingProxyType({str(k): _model(str(k), v, origin) for k, v in models.items()}),
        tavily_credit=_money(top["tavily_credit"], "tavily_credit", origin),
        extraction_per_page=_money(top["extraction_per_page"], "extraction_per_page", origin),
        assumptions=Assumptions(
            infrastructure_per_run=_money(
                assumptions["infrastructure_per_run"], "assumptions.infrastructure_per_run", origin
            ),
            maintenance_per_month=_money(
                assumptions["maintenance_per_month"], "assumptions.maintenance_per_month", origin
            ),
            runs_per_month=runs_per_month,
            human_review_seconds_per_run=_money(
                assumptions["human_review_seconds_per_run"], "assumptions.human_review_seconds_per_run", origin
            ),
            human_review_rate_per_hour=_money(
                assumptions["human_review_rate_per_hour"], "assumptions.human_review_rate_per_hour", origin
            ),
        ),
        currency=currency.strip(),
        origin=origin,
        as_of=_as_of(top.get("as_of"), origin),
        native_search_per_1000=MappingProxyType(
            {
                str(k): _money(v, f"native_search_per_1000.{k}", origin)
                for k, v in _mapping(top.get("native_search_per_1000") or {}, "native_search_per_1000", origin).items()
            }
        ),
    )


def _as_of(value: Any, origin: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise ConfigError(f"price table {origin}: as_of must be a date (YYYY-MM-DD), got {value!r}") from None


def _model(model_id: str, value: Any, origin: str) -> ModelPrice:
    where = f"models.{model_id}"
    entry = _mapping(value, where, origin)
    _check_keys(entry, _MODEL_KEYS, {"input", "output"}, where, origin)
    long_context = None
    if entry.get("long_context") is not None:
        long_where = f"{where}.long_context"
        long_entry = _mapping(entry["long_context"], long_where, origin)
        _check_keys(long_entry, _LONG_KEYS, {"threshold", "input", "output"}, long_where, origin)
        threshold = long_entry["threshold"]
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise ConfigError(
                f"price table {origin}: {long_where}.threshold must be a whole number of prompt tokens, "
                f"got {threshold!r}"
            )
        long_context = LongContextRates(threshold, _rates(long_entry, long_where, origin))
    source = entry.get("source")
    if source is not None and not isinstance(source, str):
        raise ConfigError(f"price table {origin}: {where}.source must be text, got {source!r}")
    return ModelPrice(model_id, _rates(entry, where, origin), long_context, source)


def _rates(entry: Mapping[str, Any], where: str, origin: str) -> TokenRates:
    input_rate = _money(entry["input"], f"{where}.input", origin)
    cached = entry.get("cached_input")
    return TokenRates(
        input=input_rate,
        output=_money(entry["output"], f"{where}.output", origin),
        cached_input=input_rate if cached is None else _money(cached, f"{where}.cached_input", origin),
    )


def _money(value: Any, where: str, origin: str) -> Decimal:
    """A finite, non-negative Decimal from a YAML/JSON number or a numeric string."""
    # str() first: a YAML 0.20 arrives as the float 0.2, whose shortest repr is the exact "0.2".
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ConfigError(f"price table {origin}: {where} must be a number, got {value!r}")
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation as exc:
        raise ConfigError(f"price table {origin}: {where} must be a number, got {value!r}") from exc
    if not amount.is_finite():
        raise ConfigError(f"price table {origin}: {where} must be a finite number, got {value!r}")
    if amount < 0:
        raise ConfigError(f"price table {origin}: {where} must not be negative, got {value!r}")
    return amount


def _mapping(value: Any, where: str, origin: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"price table {origin}: {where} must be a mapping, got {type(value).__name__}")
    return value


def _check_keys(entry: Mapping[str, Any], allowed: set[str], required: set[str], where: str, origin: str) -> None:
    unknown = sorted(str(k) for k in set(entry) - allowed)
    if unknown:
        raise ConfigError(f"price table {origin}: unknown keys in {where}: {unknown}; valid keys: {sorted(allowed)}")
    missing = sorted(required - set(entry))
    if missing:
        raise ConfigError(f"price table {origin}: missing keys in {where}: {missing}")
