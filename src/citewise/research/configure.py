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
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from typing import Any

from citewise.errors import ConfigError, InputError
from citewise.providers.base import ExtractFailure, ExtractResponse
from citewise.research.budget import Budget
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore

__all__ = ["NoExtraction", "research_settings"]


class NoExtraction:
    """``--extract none``: no page is read, so no source exists (a snippet is never a read page)."""

    name = "none"
    options: dict[str, object] = {}

    def extract(self, urls: Any) -> ExtractResponse:
        failures = tuple(ExtractFailure(u, "extraction disabled (--extract none)") for u in urls)
        return ExtractResponse((), failures, "none", datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release."""


def _providers(store: EvidenceStore, search: str | None, extract: str | None, stack: ExitStack) -> tuple[Any, Any]:
    from citewise.providers.local import LocalExtractor, LocalSearch

    chosen = search or ("tavily" if os.environ.get("TAVILY_API_KEY") else "local")
    if chosen == "local":
        if extract not in (None, "none", "local"):
            raise InputError("--search local reads pages from the local store; use --extract local (or leave it out)")
        return LocalSearch(store), LocalExtractor(store)
    if chosen != "tavily":
        raise InputError(f"unknown search provider {chosen!r}; valid: tavily, local")
    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch

    connection = stack.enter_context(TavilyConnection())
    extractor: Any = TavilyExtract(connection=connection)
    if extract == "none":
        extractor = NoExtraction()
    elif extract not in (None, "tavily"):
        raise InputError(f"unknown extractor {extract!r}; valid: tavily, none")
    return TavilySearch(connection=connection), extractor


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


@contextmanager
def research_settings(
    store: EvidenceStore,
    *,
    search: str | None = None,
    extract: str | None = None,
    planner_model: str | None = None,
    writer_model: str | None = None,
    no_model: bool = False,
    budget: Budget | None = None,
    concurrent: bool = True,
) -> Iterator[ResearchSettings]:
    """Settings for one or more research runs, with their connections open while inside."""
    with ExitStack() as stack:
        search_provider, extractor = _providers(store, search, extract, stack)
        client, planner, writer = _models(planner_model, writer_model, no_model)
        if client is not None:
            stack.callback(client.close)
        yield ResearchSettings(
            search=search_provider,
            extractor=extractor,
            budget=budget or Budget(),
            client=client,
            planner_model=planner,
            writer_model=writer,
            concurrent=concurrent,
        )
