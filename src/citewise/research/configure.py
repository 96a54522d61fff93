"""Research settings from names and the environment, shared by the CLI and the Python API.

::

    with research_settings(store, search="local") as settings:
        result = research(store, "question", settings)

Search is Tavily when ``TAVILY_API_KEY`` is set and the local evidence store otherwise; models are the
OpenAI-compatible gateway's when a key and ``PLANNER_MODEL``/``WRITER_MODEL`` are set, and the
deterministic planner, reviewer and writer otherwise. Connections are closed on leaving.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from citewise.audit.events import RunConfigured
from citewise.errors import ConfigError, InputError
from citewise.prices import PRICES_ENV, PriceTable, load_prices
from citewise.records.budget import Budget, budget_from_env
from citewise.records.providers import ExtractFailure, ExtractResponse
from citewise.records.verify import UnsupportedAction
from citewise.research.caching import cache_ttl as cache_ttl_of
from citewise.research.caching import cached_extractor, cached_providers
from citewise.research.resume import recorded_review_prompt
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore

__all__ = ["NoExtraction", "WithFallback", "priced_models", "research_settings", "resume_settings"]


class NoExtraction:
    """``--extract none``: no page is read, so no source exists (a snippet is never a read page)."""

    name = "none"
    options: dict[str, object] = {}

    def extract(self, urls: Any) -> ExtractResponse:
        failures = tuple(ExtractFailure(u, "extraction disabled (--extract none)") for u in urls)
        return ExtractResponse((), failures, "none", datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release."""


class WithFallback:
    """An extractor with a second one to try for the URLs the first could not read (``--extract-fallback``).

    It extracts with ``primary``; the collection round (:func:`~citewise.research.extraction.extract_pages`)
    gives every URL ``primary`` did not read a new attempt, inside the page budget and recorded, with
    ``fallback``."""

    def __init__(self, primary: Any, fallback: Any) -> None:
        self.primary = primary
        self.fallback = fallback

    @property
    def name(self) -> str:
        return str(self.primary.name)

    @property
    def options(self) -> dict[str, object]:
        return {**dict(self.primary.options), "fallback": self.fallback.name}

    def extract(self, urls: Any) -> ExtractResponse:
        response: ExtractResponse = self.primary.extract(urls)
        return response

    def close(self) -> None:
        """Close both extractors."""
        try:
            self.primary.close()
        finally:
            self.fallback.close()


_WEB_EXTRACTORS = ("tavily", "own", "browser", "none")


def _providers(
    store: EvidenceStore, search: str | None, extract: str | None, stack: ExitStack, fallback: str | None = None
) -> tuple[Any, Any]:
    from citewise.providers.local import LocalExtractor, LocalSearch

    chosen = search or ("tavily" if os.environ.get("TAVILY_API_KEY") else "local")
    if chosen == "local":
        if extract not in (None, "none", "local") or fallback:
            raise InputError("--search local reads pages from the local store; use --extract local (or leave it out)")
        return LocalSearch(store), LocalExtractor(store)
    if chosen != "tavily":
        raise InputError(f"unknown search provider {chosen!r}; valid: tavily, local")
    from citewise.providers.tavily import TavilyConnection, TavilySearch

    name = extract or "tavily"
    for given, option in ((name, "--extract"), (fallback, "--extract-fallback")):
        if given is not None and given not in _WEB_EXTRACTORS:
            raise InputError(f"unknown extractor {given!r} for {option}; valid: {', '.join(_WEB_EXTRACTORS)}")
    if fallback is not None and (fallback == name or "none" in (fallback, name)):
        raise InputError("--extract-fallback must name another extractor (tavily, own or browser) than --extract")
    connection = stack.enter_context(TavilyConnection())
    extractor = _extractor(name, connection, stack)
    if fallback is not None:
        extractor = WithFallback(extractor, _extractor(fallback, connection, stack))
    return TavilySearch(connection=connection), extractor


def _extractor(name: str, connection: Any, stack: ExitStack) -> Any:
    if name == "none":
        return NoExtraction()
    if name == "tavily":
        from citewise.providers.tavily import TavilyExtract

        return TavilyExtract(connection=connection)
    from citewise.providers.registry import get_extractor

    extractor = get_extractor(name)
    stack.callback(extractor.close)
    return extractor


def _models(planner: str | None, writer: str | None, no_model: bool) -> tuple[Any, str | None, str | None]:
    if no_model:
        return None, None, None
    from citewise.llm import ChatClient, model_configured

    planner = planner or os.environ.get("PLANNER_MODEL")
    writer = writer or os.environ.get("WRITER_MODEL") or planner
    planner = planner or writer
    if not model_configured():
        return None, None, None
    if not planner:
        raise ConfigError(
            "a model key is set but no model is named: set PLANNER_MODEL and WRITER_MODEL (or pass --no-model)"
        )
    return ChatClient.from_env(), planner, writer


def priced_models(
    budget: Budget, prices: str | Path | PriceTable | None, models: Iterable[str | None]
) -> PriceTable | None:
    """The price table a money cap is kept with (None without a cap): ``prices`` or its file, else
    ``CITEWISE_PRICES``, else the built-in table. A model it cannot price is a :class:`ConfigError`:
    the cap could not be kept, so nothing starts."""
    if budget.max_cost_usd is None:
        return prices if isinstance(prices, PriceTable) else None
    table = prices if isinstance(prices, PriceTable) else load_prices(prices)
    missing = sorted({m for m in models if m and table.model(m) is None})
    if missing:
        raise ConfigError(
            f"--max-cost cannot be kept: {', '.join(repr(m) for m in missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not in the price table ({table.origin}); "
            f"pass --prices FILE (or set {PRICES_ENV}) with a table that prices {'it' if len(missing) == 1 else 'them'}"
        )
    return table


@contextmanager
def research_settings(
    store: EvidenceStore,
    *,
    search: str | None = None,
    extract: str | None = None,
    extract_fallback: str | None = None,
    planner_model: str | None = None,
    writer_model: str | None = None,
    no_model: bool = False,
    budget: Budget | None = None,
    concurrent: bool = True,
    prices: str | Path | PriceTable | None = None,
    verify: bool = True,
    unsupported: UnsupportedAction = UnsupportedAction.REMOVE,
    cache_ttl: timedelta | str | None = None,
    no_cache: bool = False,
    stream: bool = True,
    speculate: bool = True,
    draft_every_round: bool = False,
    search_ahead: bool = True,
) -> Iterator[ResearchSettings]:
    """Settings for one or more research runs, with their connections open while inside.

    Without ``budget``, the budget comes from ``CITEWISE_MAX_*`` (:func:`budget_from_env`). A money
    cap is priced from ``prices`` (a table or its file; default ``CITEWISE_PRICES``, else the built-in
    table); a planner or writer model the table cannot price refuses to start, since the cap could not
    be kept. Remote search answers and pages are cached in the store for ``cache_ttl`` (default
    ``CITEWISE_CACHE_TTL``, else 24 h; ``0`` or ``no_cache`` turn the cache off). ``stream``,
    ``speculate``, ``draft_every_round`` and ``search_ahead``: see :class:`ResearchSettings`."""
    budget = budget or budget_from_env()
    ttl = cache_ttl_of(cache_ttl, no_cache=no_cache)
    with ExitStack() as stack:
        client, planner, writer = _models(planner_model, writer_model, no_model)
        if client is not None:
            stack.callback(client.close)
        table = priced_models(budget, prices, (planner, writer) if client is not None else ())
        search_provider, extractor = _providers(store, search, extract, stack, extract_fallback)
        if isinstance(extractor, WithFallback):  # each extractor keeps its own cache entries
            primary, fallback = (cached_extractor(store, e, ttl) for e in (extractor.primary, extractor.fallback))
            search_provider, _ = cached_providers(store, search_provider, primary, ttl)
            extractor = WithFallback(primary, fallback)
        else:
            search_provider, extractor = cached_providers(store, search_provider, extractor, ttl)
        yield ResearchSettings(
            search=search_provider,
            extractor=extractor,
            budget=budget,
            prices=table,
            client=client,
            planner_model=planner,
            writer_model=writer,
            concurrent=concurrent,
            verify=verify,
            unsupported=unsupported,
            cache_ttl=ttl,
            stream=stream,
            speculate=speculate,
            draft_every_round=draft_every_round,
            search_ahead=search_ahead,
        )


@contextmanager
def resume_settings(
    store: EvidenceStore,
    configured: RunConfigured,
    *,
    budget_changes: Mapping[str, Any] | None = None,
    prices: str | Path | PriceTable | None = None,
    verify: bool = True,
    unsupported: UnsupportedAction = UnsupportedAction.REMOVE,
    cache_ttl: timedelta | str | None = None,
    no_cache: bool = False,
    stream: bool = True,
    speculate: bool = True,
    draft_every_round: bool = False,
    search_ahead: bool = True,
) -> Iterator[ResearchSettings]:
    """The settings a stopped run was configured with, rebuilt from its :class:`RunConfigured`
    record: the same search provider, extractor and fallback, models and budget. What cannot be
    rebuilt here (a model key or a provider key not set, an extractor not installed) is a
    :class:`ConfigError` naming what to set; nothing is silently replaced by another provider or by
    the deterministic components. ``budget_changes`` (e.g. ``{"max_tokens": 50_000}``) raise or lower
    limits of the recorded budget, to go on after one ran out. ``stream``, ``speculate``,
    ``draft_every_round`` and ``search_ahead`` change how the rest is made, not what the record holds,
    so they may differ from the stopped run's. The review prompt is the one the run started with
    (:func:`~citewise.research.resume.recorded_review_prompt`)."""
    used_models = configured.planner_model != "deterministic"
    if used_models:
        from citewise.llm import model_configured

        if not model_configured():
            raise ConfigError(
                f"the run was planned and written by models ({configured.planner_model}, "
                f"{configured.writer_model}); set COMETAPI_KEY (or another model key) to resume it with them"
            )
    options = configured.extract_options or {}
    with research_settings(
        store,
        search=configured.search,
        extract=configured.extract if configured.search != "local" else None,
        extract_fallback=options.get("fallback"),
        planner_model=configured.planner_model if used_models else None,
        writer_model=configured.writer_model if used_models else None,
        no_model=not used_models,
        budget=replace(configured.budget, **dict(budget_changes or {})),
        concurrent=configured.concurrent,
        prices=prices,
        verify=verify,
        unsupported=unsupported,
        cache_ttl=cache_ttl,
        no_cache=no_cache,
        stream=stream,
        speculate=speculate,
        draft_every_round=draft_every_round,
        search_ahead=search_ahead,
    ) as settings:
        yield replace(settings, review_prompt=recorded_review_prompt(configured))
