"""Native engines by name, and the settings a native run is made with.

::

    with native_settings(store, "gemini", model="gemini-2.5-flash") as (engine, settings):
        result = research_with_engine(store, question, engine, settings)

An unknown name fails listing the valid ones; a missing SDK names the extra to install.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, Final

from citewise.engines.connect import EngineEndpoint
from citewise.errors import ConfigError
from citewise.records.budget import Budget, budget_from_env
from citewise.records.engines import NativeEngine
from citewise.records.verify import UnsupportedAction
from citewise.research.settings import ResearchSettings

__all__ = ["ENGINE_NAMES", "get_engine", "native_settings"]

ENGINE_NAMES: Final = ("anthropic", "gemini", "openai")
_SDKS: Final = {"openai": "openai", "anthropic": "anthropic", "gemini": "google.genai"}


def _factory(name: str) -> Callable[..., NativeEngine]:
    if name == "openai":
        from citewise.engines.openai_web import OpenAIWebSearch

        return OpenAIWebSearch
    if name == "anthropic":
        from citewise.engines.anthropic_web import AnthropicWebSearch

        return AnthropicWebSearch
    from citewise.engines.gemini_web import GeminiGrounded

    return GeminiGrounded


def get_engine(name: str, *, model: str | None = None, endpoint: EngineEndpoint | None = None) -> NativeEngine:
    """The engine ``name`` (``openai``, ``anthropic``, ``gemini``) asking for ``model`` (else its
    default), configured from the environment unless ``endpoint`` is given."""
    key = name.strip().lower()
    if key not in ENGINE_NAMES:
        raise ConfigError(f"unknown engine {name!r}; valid: {', '.join(ENGINE_NAMES)} (or leave --engine out)")
    try:
        __import__(_SDKS[key])
    except ImportError:
        raise ConfigError(f"--engine {key} needs its provider's SDK: pip install 'citewise[native]'") from None
    return _factory(key)(model=model, endpoint=endpoint)


@contextmanager
def native_settings(
    store: Any,
    engine: str | NativeEngine,
    *,
    model: str | None = None,
    extract: str | None = None,
    budget: Budget | None = None,
    prices: Any = None,
    concurrent: bool = True,
    verify: bool = True,
    unsupported: UnsupportedAction = UnsupportedAction.REMOVE,
) -> Iterator[tuple[NativeEngine, ResearchSettings]]:
    """The engine and the settings of a native run, connections open while inside. Cited pages are
    read by the extractor named ``extract`` (default ``tavily``), looked up in the provider registry."""
    from citewise.providers.registry import get_extractor
    from citewise.research.configure import priced_models

    del store  # pages are read from the web by the extractor, never from the local store
    budget = budget or budget_from_env()
    with ExitStack() as stack:
        chosen = engine if not isinstance(engine, str) else get_engine(engine, model=model)
        stack.callback(chosen.close)
        table = priced_models(budget, prices, (chosen.model,))
        extractor = get_extractor(extract or "tavily")
        stack.callback(extractor.close)
        yield (
            chosen,
            ResearchSettings(
                search=None,
                extractor=extractor,
                budget=budget,
                prices=table,
                concurrent=concurrent,
                verify=verify,
                unsupported=unsupported,
                engine=f"{chosen.name}:{chosen.model}",
            ),
        )
