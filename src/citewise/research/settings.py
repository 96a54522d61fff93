"""How a research run is configured: providers, models, budgets. No secrets are kept here."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from citewise.errors import ConfigError
from citewise.records.budget import Budget
from citewise.records.providers import Extractor, SearchProvider
from citewise.records.verify import UnsupportedAction
from citewise.research.prompts import REVIEW_PROMPT_VERSION, REVIEW_PROMPT_VERSIONS
from citewise.research.sites import SitePolicy

if TYPE_CHECKING:
    from citewise.llm import ChatClient
    from citewise.prices import PriceTable

__all__ = ["ResearchSettings"]


@dataclass(frozen=True)
class ResearchSettings:
    """Settings of one run. ``client`` absent means the deterministic planner, reviewer and writer."""

    search: SearchProvider | None
    """Where queries are searched (Tavily, the local store ...); None when a native engine searches
    (:attr:`engine` says which)."""
    extractor: Extractor
    """What reads the pages found."""
    budget: Budget = field(default_factory=Budget)
    """Hard limits (rounds, searches, page extractions, optional tokens and money)."""
    prices: PriceTable | None = None
    """The price table a money cap is priced from (needed with one)."""
    client: ChatClient | None = None
    """The model client, or None: deterministic planning, review and writing."""
    planner_model: str | None = None
    """Model that plans and reviews coverage."""
    writer_model: str | None = None
    """Model that drafts and writes the report."""
    concurrent: bool = True
    """Run independent searches and extractions of a round concurrently (same accounting either way)."""
    pages_per_query: int = 2
    """New pages tried per query, so later queries keep budget."""
    sleep: Callable[[float], None] = time.sleep
    """How the loop waits before a bounded retry (injectable for tests)."""
    verify: bool = True
    """Verify the final draft claim by claim before it is delivered (``--no-verify``: the record says so)."""
    unsupported: UnsupportedAction = UnsupportedAction.REMOVE
    """What happens to a factual claim verification did not support: removed, or marked inline."""
    cache_ttl: timedelta = timedelta(0)
    """How long cached search answers and pages are used (SPEC 4.5a); zero: no cache. The providers
    above are already wrapped in the cache when it is on (:mod:`citewise.research.caching`)."""
    sites: SitePolicy = field(default_factory=SitePolicy)
    """How sources are spread over sites (the largest site's share, the primary sites)."""
    stream: bool = True
    """Stream the writer's drafts and check each line's claims as it arrives, so verification ends
    with the draft (an endpoint that refuses to stream is asked again without)."""
    search_ahead: bool = True
    """Start each first query's search as soon as the planner's streamed reply names it, while the
    plan is still being written, and a follow-up query's as soon as a streamed review's line gives it
    (:mod:`citewise.research.ahead`); with the cache on, a cached answer is taken at once and a miss
    searched and cached. Only in a concurrent run (``--no-search-ahead`` turns it off)."""
    speculate: bool = True
    """From round 2 on, start the round's draft while its review runs, when the budget allows, and
    drop it if the review asks for more searching (:mod:`citewise.research.speculate`). Only in a
    concurrent run."""
    draft_every_round: bool = False
    """Draft after every round's review, also when the loop goes on to another round (by default only
    the round the loop stops after is drafted, when no token or money cap could then leave the run
    without a model draft; :mod:`citewise.research.loop`)."""
    review_prompt: str = REVIEW_PROMPT_VERSION
    """The reviewer's prompt version: review-v7 (a line per topic, those not covered first, each gap
    line's query before its gap), review-v6 (the same, the query after the gap), review-v5 (the lines in topic order) or
    review-v4 (a JSON object by schema), to compare them on the
    same run. Recorded with the run (:class:`RunConfigured
    <citewise.audit.events.RunConfigured>`); a resumed run keeps the one it started with."""
    engine: str | None = None
    """The native engine that searched and wrote (``openai:MODEL`` ...); None for citewise's own loop."""

    def __post_init__(self) -> None:
        if self.review_prompt not in REVIEW_PROMPT_VERSIONS:
            known = ", ".join(REVIEW_PROMPT_VERSIONS)
            raise ConfigError(f"unknown review prompt {self.review_prompt!r}; known: {known}")

    @property
    def chat(self) -> ChatClient:
        """The model client; asked for only where :attr:`uses_models` holds."""
        if self.client is None:
            raise ConfigError("no model client is configured: set COMETAPI_KEY (or run without models)")
        return self.client

    @property
    def uses_models(self) -> bool:
        """True when a client and both model ids are configured."""
        return self.client is not None and bool(self.planner_model) and bool(self.writer_model)

    def describe(self) -> dict[str, Any]:
        """What the audit record keeps about the configuration (names, limits; never keys)."""
        return {
            "search": getattr(self.search, "name", type(self.search).__name__),
            "search_options": dict(getattr(self.search, "options", {}) or {}),
            "extract": getattr(self.extractor, "name", type(self.extractor).__name__),
            "extract_options": dict(getattr(self.extractor, "options", {}) or {}),
            "planner_model": self.planner_model if self.uses_models else "deterministic",
            "writer_model": self.writer_model if self.uses_models else "deterministic",
            "budget": {
                "max_rounds": self.budget.max_rounds,
                "max_searches": self.budget.max_searches,
                "max_extractions": self.budget.max_extractions,
                "max_tokens": self.budget.max_tokens,
                "max_cost_usd": self.budget.max_cost_usd,
                "excerpt_chars": self.budget.excerpt_chars,
            },
            "concurrent": self.concurrent,
            "pages_per_query": self.pages_per_query,
            "cache_ttl_s": int(self.cache_ttl.total_seconds()),
            "review_prompt": self.review_prompt,
        }
