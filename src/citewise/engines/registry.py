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
from citewise.registry import Registry
from citewise.research.settings import ResearchSettings

__all__ = ["ENGINES", "get_engine", "native_settings"]


def _needs_sdk(engine: str, module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise ConfigError(f"--engine {engine} needs its provider's SDK: pip install 'citewise[native]'") from None


def _openai(**options: Any) -> NativeEngine:
    _needs_sdk("openai", "openai")
    from citewise.engines.openai_web import OpenAIWebSearch

    return OpenAIWebSearch(**options)


def _anthropic(**options: Any) -> NativeEngine:
    _needs_sdk("anthropic", "anthropic")
    from citewise.engines.anthropic_web import AnthropicWebSearch

    return AnthropicWebSearch(**options)


def _gemini(**options: Any) -> NativeEngine:
    _needs_sdk("gemini", "google.genai")
    from citewise.engines.gemini_web import GeminiGrounded

    return GeminiGrounded(**options)


ENGINES: Final[Registry[Callable[..., NativeEngine]]] = Registry(
    "engine",
    builtins=lambda r: r.update(openai=_openai, anthropic=_anthropic, gemini=_gemini),
    valid="valid",
    hint=" (or leave --engine out)",
)
"""Native engine factories by name (each imports its SDK only when called)."""


def get_engine(name: str, *, model: str | None = None, endpoint: EngineEndpoint | None = None) -> NativeEngine:
    """The engine ``name`` (``openai``, ``anthropic``, ``gemini``) asking for ``model`` (else its
    default), configured from the environment unless ``endpoint`` is given."""
    return ENGINES.lookup(name)(model=model, endpoint=endpoint)


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
