"""Model endpoint settings from the environment: base URL, key, timeout, reply cap, structured output.

::

    from citewise.llm import ModelSettings, model_configured

    if model_configured():                    # COMETAPI_KEY or CITEWISE_LLM_API_KEY is set
        settings = ModelSettings.from_env()   # CITEWISE_LLM_BASE_URL, CITEWISE_LLM_TIMEOUT, ...

A missing key raises :class:`~citewise.errors.ConfigError` naming the variable to set and the
keyless alternative (the deterministic evidence composer); a malformed value names its variable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from citewise.config import Secret, checked_endpoint, env, secret_from_env
from citewise.errors import ConfigError

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENVS",
    "MAX_COMPLETION_TOKENS_ENV",
    "MISSING_KEY_MESSAGE",
    "STRUCTURED_OUTPUT_ENV",
    "TIMEOUT_ENV",
    "ModelSettings",
    "model_configured",
]

DEFAULT_BASE_URL = "https://api.cometapi.com/v1"
BASE_URL_ENV = "CITEWISE_LLM_BASE_URL"
KEY_ENVS = ("CITEWISE_LLM_API_KEY", "COMETAPI_KEY")
"""Where the key is looked up, first match wins: an explicit key for ``CITEWISE_LLM_BASE_URL``
beats the CometAPI key, so a user pointing at another endpoint does not send it the wrong one."""
TIMEOUT_ENV = "CITEWISE_LLM_TIMEOUT"
MAX_COMPLETION_TOKENS_ENV = "CITEWISE_LLM_MAX_COMPLETION_TOKENS"
STRUCTURED_OUTPUT_ENV = "CITEWISE_LLM_STRUCTURED_OUTPUT"

MISSING_KEY_MESSAGE = (
    "no model key: set COMETAPI_KEY (or CITEWISE_LLM_API_KEY with CITEWISE_LLM_BASE_URL for another "
    "OpenAI-compatible endpoint), or run without a model: citewise then uses its deterministic "
    "evidence composer"
)


@dataclass(frozen=True)
class ModelSettings:
    """How to reach the model endpoint. The key is a :class:`Secret`: it never prints."""

    api_key: Secret
    """The endpoint's key, sent as ``Authorization: Bearer``."""
    base_url: str = DEFAULT_BASE_URL
    """The OpenAI-compatible API root, ending in ``/v1`` for most endpoints."""
    timeout_s: float = 60.0
    """Seconds before a call is abandoned with :class:`~citewise.llm.errors.ModelTimeout`."""
    max_completion_tokens: int = 8192
    """Default cap on reply tokens (reasoning tokens included) when a call does not give one."""
    structured_output: bool = True
    """Request JSON-schema output in :meth:`~citewise.llm.client.ChatClient.complete_json` (falls back when refused)."""

    def __post_init__(self) -> None:
        if not isinstance(self.api_key, Secret):
            raise ConfigError("ModelSettings.api_key must be a citewise.config.Secret")
        base_url = checked_endpoint(self.base_url, url_env=BASE_URL_ENV, key_env="CITEWISE_LLM_API_KEY")
        object.__setattr__(self, "base_url", base_url)
        if not self.timeout_s > 0:
            raise ConfigError(f"the model timeout must be positive seconds, got {self.timeout_s!r}")
        if self.max_completion_tokens < 1:
            raise ConfigError(f"max_completion_tokens must be at least 1, got {self.max_completion_tokens!r}")

    @classmethod
    def from_env(cls) -> ModelSettings:
        """Settings from the environment; a missing key raises :class:`ConfigError` saying what to set.

        Reads ``CITEWISE_LLM_API_KEY`` or ``COMETAPI_KEY``, ``CITEWISE_LLM_BASE_URL``,
        ``CITEWISE_LLM_TIMEOUT`` (seconds), ``CITEWISE_LLM_MAX_COMPLETION_TOKENS`` and
        ``CITEWISE_LLM_STRUCTURED_OUTPUT`` (``true``/``false``).
        """
        found = _named_key_from_env()
        if found is None:
            raise ConfigError(MISSING_KEY_MESSAGE)
        key_env, key = found
        options: dict[str, Any] = {}
        if base_url := env(BASE_URL_ENV):
            options["base_url"] = base_url
        if timeout := env(TIMEOUT_ENV):
            options["timeout_s"] = _parse_number(TIMEOUT_ENV, timeout, float)
        if tokens := env(MAX_COMPLETION_TOKENS_ENV):
            options["max_completion_tokens"] = _parse_number(MAX_COMPLETION_TOKENS_ENV, tokens, int)
        if structured := env(STRUCTURED_OUTPUT_ENV):
            options["structured_output"] = _parse_bool(STRUCTURED_OUTPUT_ENV, structured)
        return cls(api_key=secret_from_env(key_env, key), **options)


def model_configured() -> bool:
    """Whether a model key is set, i.e. whether citewise can use a model at all."""
    return _key_from_env() is not None


def _key_from_env() -> str | None:
    found = _named_key_from_env()
    return found[1] if found else None


def _named_key_from_env() -> tuple[str, str] | None:
    for name in KEY_ENVS:
        if value := env(name):
            return name, value
    return None


def _parse_number(name: str, value: str, kind: type[float] | type[int]) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {value!r}") from None


def _parse_bool(name: str, value: str) -> bool:
    lowered = value.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be true or false, got {value!r}")
