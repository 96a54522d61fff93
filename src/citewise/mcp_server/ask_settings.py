"""Settings of an ``ask`` made through the MCP server, as ``citewise ask`` makes them from the
environment: the writer model when a key and ``WRITER_MODEL`` are set, the deterministic composer
otherwise; the token and money caps; the handoff target."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from citewise.answer.result import DEFAULT_HANDOFF, AskSettings
from citewise.records.budget import budget_from_env
from citewise.research.configure import priced_models

__all__ = ["ask_settings"]


@contextmanager
def ask_settings(*, no_model: bool, max_tokens: int | None, max_cost: float | None) -> Iterator[AskSettings]:
    """Ask settings with their model client open while inside (a cap that cannot be kept refuses
    to start: :class:`~citewise.errors.ConfigError`)."""
    budget = budget_from_env(max_tokens=max_tokens, max_cost_usd=max_cost)
    client, writer = None, None
    if not no_model:
        from citewise.llm import ChatClient, model_configured

        writer = os.environ.get("WRITER_MODEL") or None
        if writer and model_configured():
            client = ChatClient.from_env()
        else:
            writer = None
    try:
        yield AskSettings(
            client=client,
            model=writer,
            handoff_target=os.environ.get("CITEWISE_HANDOFF") or DEFAULT_HANDOFF,
            budget=budget,
            prices=priced_models(budget, None, [writer]),
        )
    finally:
        if client is not None:
            client.close()
