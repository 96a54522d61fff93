"""Settings from the environment (and a ``.env`` file), with secrets that never print.

Every setting has an environment variable; command-line options override them. Secrets are
:class:`Secret` values: their ``repr``/``str`` show ``<redacted>`` so they cannot leak into logs,
the audit store, exports or exception messages by accident.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from citewise.errors import ConfigError

__all__ = ["Secret", "checked_endpoint", "default_store_url", "env", "load_dotenv", "origin", "resolve_store_url"]

STORE_ENV = "CITEWISE_STORE"


class Secret:
    """A secret value (an API key). Only :meth:`reveal` gives the value back.

    >>> Secret("sk-123")
    Secret(<redacted>)
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value:
            raise ConfigError("an empty secret was given")
        self._value = value

    def reveal(self) -> str:
        """The secret itself, for the one call that needs it."""
        return self._value

    def __repr__(self) -> str:
        return "Secret(<redacted>)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> tuple[object, ...]:
        # Secrets are never pickled or copied into other processes' state by accident.
        raise TypeError("Secret values cannot be serialised")


def load_dotenv(path: Path | None = None) -> None:
    """Load ``KEY=VALUE`` lines from ``.env`` into the environment, without overriding it."""
    path = path or Path.cwd() / ".env"
    if not path.is_file():
        return
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip().strip("'\"")
        os.environ.setdefault(key, value)


def env(name: str) -> str | None:
    """An environment variable, with empty values treated as unset."""
    value = os.environ.get(name, "").strip()
    return value or None


@dataclass(frozen=True)
class _Paths:
    data_dir: Path


def default_store_url() -> str:
    """The store used when neither ``--store`` nor ``CITEWISE_STORE`` is given: a SQLite file in
    the user's data directory."""
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("citewise")) / "citewise.sqlite")


def resolve_store_url(option: str | None) -> str:
    """``--store`` wins, then ``CITEWISE_STORE``, then the default location."""
    return option or env(STORE_ENV) or default_store_url()


def checked_endpoint(url: str, *, url_env: str, key_env: str) -> str:
    """``url`` without a trailing slash, refused unless it is an http(s) URL without credentials.

    Credentials in the URL would be sent as Basic auth in place of the Bearer key (both httpx and
    requests do so), so they are refused with a message naming the variable the key belongs in.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        shown = url if parts.password is None else url.replace(parts.password, "***")
        raise ConfigError(f"{url_env} must be an http(s) URL, got {shown!r}")
    if parts.username is not None or parts.password is not None:
        raise ConfigError(f"{url_env} must not contain user:password@; put the key in {key_env}")
    return url.rstrip("/")


def origin(url: str) -> str:
    """``scheme://host:port`` of ``url`` (default ports filled in): what a configured endpoint's requests
    must keep, redirects included.

    >>> origin("https://API.example.com/v1?x=1") == origin("https://api.example.com:443/other")
    True
    """
    parts = urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme, 0)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"
