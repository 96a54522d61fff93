"""How to reach Tavily and what to ask it for: :class:`TavilySettings` and the variables it reads.

The lowest of the three Tavily modules: :mod:`citewise.providers.tavily_connection` (the
authenticated client) and :mod:`citewise.providers.tavily` (the adapters, which re-export
everything here) both build on it, and it imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from citewise.config import Secret, checked_endpoint, env, secret_from_env
from citewise.errors import ConfigError

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENV",
    "MISSING_KEY_MESSAGE",
    "TIMEOUT_ENV",
    "Depth",
    "TavilySettings",
]

KEY_ENV = "TAVILY_API_KEY"
"""The variable holding the Tavily key; also named in the error for a rejected key."""
BASE_URL_ENV = "CITEWISE_TAVILY_BASE_URL"
"""The variable overriding the API root; also named in the errors for an answer that is not Tavily's."""
DEFAULT_BASE_URL = "https://api.tavily.com"
TIMEOUT_ENV = "CITEWISE_TAVILY_TIMEOUT"
MISSING_KEY_MESSAGE = "no Tavily key: set TAVILY_API_KEY, or use --search local to search the local evidence store"

Depth = Literal["basic", "advanced"]
_DEPTHS: tuple[str, ...] = get_args(Depth)


@dataclass(frozen=True)
class TavilySettings:
    """How to reach Tavily and what to ask it for. The key is a :class:`Secret`: it never prints."""

    api_key: Secret
    """The Tavily key, sent as ``Authorization: Bearer``."""
    base_url: str = DEFAULT_BASE_URL
    """The API root; ``/search`` and ``/extract`` are appended."""
    timeout_s: float = 30.0
    """Seconds before a call is abandoned with :class:`ProviderTimeout`. tavily-python also sends it
    as Extract's own ``timeout`` parameter, which Tavily accepts from 1 to 60 seconds."""
    search_depth: Depth = "basic"
    """``search_depth``: basic costs 1 credit a search, advanced 2."""
    max_results: int = 5
    """``max_results`` per search (Tavily allows 0..20)."""
    extract_depth: Depth = "basic"
    """``extract_depth``: basic costs 1 credit per 5 pages, advanced 2."""
    extract_format: Literal["markdown", "text"] = "markdown"
    """``format`` of extracted page text."""

    def __post_init__(self) -> None:
        if not isinstance(self.api_key, Secret):
            raise ConfigError("TavilySettings.api_key must be a citewise.config.Secret")
        object.__setattr__(self, "base_url", checked_endpoint(self.base_url, url_env=BASE_URL_ENV, key_env=KEY_ENV))
        if not self.timeout_s > 0:
            raise ConfigError(f"the Tavily timeout must be positive seconds, got {self.timeout_s!r}")
        for name, depth in (("search_depth", self.search_depth), ("extract_depth", self.extract_depth)):
            if depth not in _DEPTHS:
                raise ConfigError(f"{name} must be 'basic' or 'advanced', got {depth!r}")
        if not 0 <= self.max_results <= 20:
            raise ConfigError(f"max_results must be 0..20, got {self.max_results!r}")
        if self.extract_format not in ("markdown", "text"):
            raise ConfigError(f"extract_format must be 'markdown' or 'text', got {self.extract_format!r}")

    @classmethod
    def from_env(cls) -> TavilySettings:
        """Settings from ``TAVILY_API_KEY``, ``CITEWISE_TAVILY_BASE_URL`` and ``CITEWISE_TAVILY_TIMEOUT``
        (seconds). Without a key this raises :class:`ConfigError` naming the variable to set."""
        key = env(KEY_ENV)
        if key is None:
            raise ConfigError(MISSING_KEY_MESSAGE)
        options: dict[str, Any] = {}
        if base_url := env(BASE_URL_ENV):
            options["base_url"] = base_url
        if timeout := env(TIMEOUT_ENV):
            try:
                options["timeout_s"] = float(timeout)
            except ValueError:
                raise ConfigError(f"{TIMEOUT_ENV} must be a number of seconds, got {timeout!r}") from None
        return cls(api_key=secret_from_env(KEY_ENV, key), **options)
