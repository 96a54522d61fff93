"""Settings from the environment (and a ``.env`` file), with secrets that never print.

Every setting has an environment variable; command-line options override them. Secrets are
:class:`Secret` values: their ``repr``/``str`` show ``<redacted>`` so they cannot leak into logs,
the audit store, exports or exception messages by accident.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from citewise.errors import ConfigError

__all__ = [
    "CONCURRENCY_ENV",
    "RATE_ENV",
    "REDACTED",
    "Secret",
    "checked_endpoint",
    "default_store_url",
    "env",
    "load_dotenv",
    "redact",
    "redact_data",
    "redact_url_credentials",
    "resolve_store_url",
    "secret_from_env",
]

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
        if _unsafe(value):
            raise ConfigError("a secret must not contain whitespace or control characters (the value is not shown)")
        self._value = value
        _remember(value)

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


def secret_from_env(name: str, value: str) -> Secret:
    """``value`` of the variable ``name`` as a :class:`Secret`; whitespace, newlines or control characters
    inside it are a :class:`ConfigError` naming the variable (the value is never echoed: a pasted key
    with a line break would otherwise reach an HTTP library's "invalid header" message)."""
    if _unsafe(value):
        raise ConfigError(
            f"{name} contains whitespace, a line break or a control character; set it to the key alone "
            "(the value is not shown)"
        )
    return Secret(value)


# -- redaction --------------------------------------------------------------------------------
#
# Every secret this process holds (each Secret registers itself, and a configured endpoint registers
# the credentials in its query string) is removed from text wherever text leaves the process or
# enters the store: errors printed by the CLI, --json output, run events (RunStore.append) and
# exports. Providers echo keys in masked forms (``sk-CANAR********1111``) — those go too.

REDACTED = "<redacted>"
_SECRETS: set[str] = set()
_SECRETS_LOCK = threading.Lock()
_MASK = r"(?:[*•]{3,}|\.{3}|…)"
_SENSITIVE_PARAM = re.compile(r"key|token|secret|passw|sig|auth|credential|session", re.IGNORECASE)
_MIN_SECRET = 12  # real keys are longer; shorter values (test placeholders) could match ordinary words


def _unsafe(value: str) -> bool:
    return any(c.isspace() or unicodedata.category(c).startswith("C") for c in value)


def _remember(value: str) -> None:
    if len(value) >= _MIN_SECRET:
        with _SECRETS_LOCK:
            _SECRETS.add(value)
            _patterns.cache_clear()


@functools.cache
def _patterns() -> re.Pattern[str] | None:
    forms: list[str] = []
    for value in sorted(_SECRETS, key=len, reverse=True):
        forms.append(re.escape(value))
        head, tail = re.escape(value[:3]), re.escape(value[-4:])
        # Masked echoes go whole, whatever the provider keeps of the key: its first characters (three
        # or more: ``sk-...LLMK``, ``sk-proj-********LLMK``), a run of mask characters and whatever
        # follows; or anything key-like, a mask and its last four (``****LLMK``, ``xx...LLMK``).
        forms.append(rf"{head}[\w-]*{_MASK}[\w-]*")
        forms.append(rf"(?<![\w-])[\w-]{{0,24}}{_MASK}{tail}(?![\w-])")
    return re.compile("|".join(forms)) if forms else None


def redact(text: str) -> str:
    """``text`` with every known secret and its masked forms replaced by ``<redacted>``. (Evidence text is
    otherwise left alone: a page quoting ``?api_key=YOUR_KEY`` keeps its words and its hash.)

    >>> _ = Secret("sk-CANARY-0000-1111")
    >>> redact("Incorrect API key provided: sk-CANAR********1111.")
    'Incorrect API key provided: <redacted>.'
    """
    with _SECRETS_LOCK:
        pattern = _patterns()
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    return text


_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s\"'<>]+")


def redact_url_credentials(text: str) -> str:
    """Userinfo and query parameters named like ``key``, ``token``, ``api_key``, ``sig`` ... in every URL
    of ``text`` replaced by ``<redacted>`` (other parameters are kept).

    >>> redact_url_credentials("at https://u:pw@api.example/v1?api_key=abc&q=1")
    'at https://<redacted>@api.example/v1?api_key=<redacted>&q=1'
    """
    return _URL.sub(lambda m: _clean_url(m.group(0)), text)


def _clean_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{netloc.rpartition('@')[2]}"
    query = (
        "&".join(
            f"{name}={REDACTED}" if value and _SENSITIVE_PARAM.search(name) else f"{name}{sep}{value}"
            for name, sep, value in (item.partition("=") for item in parts.query.split("&"))
        )
        if parts.query
        else ""
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_data(value: Any) -> Any:
    """:func:`redact` applied to every string inside JSON-ready data (dict keys included)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_data(k): redact_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_data(v) for v in value]
    return value


DOTENV_ENV = "CITEWISE_DOTENV"
"""Set to ``off`` to ignore the working directory's ``.env`` (the test suite does: no key of a
developer's ``.env`` may reach a process a test starts). A file named explicitly is still read."""


def load_dotenv(path: Path | None = None) -> None:
    """Load ``KEY=VALUE`` lines from ``path`` (default: ``.env`` in the working directory, unless
    ``CITEWISE_DOTENV=off``) into the environment, without overriding it."""
    if path is None:
        if os.environ.get(DOTENV_ENV, "").strip().lower() in ("off", "0", "no", "false"):
            return
        path = Path.cwd() / ".env"
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
    for name, _, value in (item.partition("=") for item in parts.query.split("&")):
        if value and _SENSITIVE_PARAM.search(name):
            _remember(value)  # a token in the endpoint's query string is a secret too
    return url.rstrip("/")


CONCURRENCY_ENV = "CITEWISE_CONCURRENCY_LIMITS"
"""Provider concurrency limits for batches, e.g. ``tavily=4,model=8``."""
RATE_ENV = "CITEWISE_RATE_LIMITS"
"""Provider rate limits for batches, e.g. ``tavily=5/s,model=60/m``."""
