"""URL normalisation for dedupe during collection (SPEC 4.3).

Two search hits are the same page when their normalised URLs are equal. Normalisation only removes
differences that cannot change which page a server sends:

* scheme and host are lower-cased; an internationalised host is written in its ASCII (punycode) form
  and a trailing root dot (``example.org.``) is dropped;
* the default port (80 for http, 443 for https) is dropped;
* the fragment is dropped (it never reaches the server);
* path and query are kept exactly as given (``/A`` and ``/a`` may be different pages, ``?id=1``
  certainly is); an empty path becomes ``/``.

URLs that cannot be collected are refused with :class:`UnusableURL`: other schemes than http(s)
(``javascript:``, ``ftp:``, ``file:``, ``data:``), URLs carrying credentials (``user:pass@``), no host,
an invalid port, or whitespace and control characters.

>>> normalize_url("HTTPS://Example.ORG:443/Path?q=1#section")
'https://example.org/Path?q=1'
>>> normalize_url("javascript:alert(1)")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
citewise.research.urls.UnusableURL: only http(s) URLs can be collected, not 'javascript:'
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import urlsplit, urlunsplit

from citewise.errors import InputError

__all__ = ["DEFAULT_PORTS", "WEB_SCHEMES", "UnusableURL", "normalize_url", "query_key", "without_credentials"]

WEB_SCHEMES: tuple[str, ...] = ("http", "https")
"""Schemes of pages that can be searched and read on the web."""
DEFAULT_PORTS = {"http": 80, "https": 443}

_BAD_CHARACTERS = re.compile(r"[\s\x00-\x1f\x7f]")
_USERINFO = re.compile(r"^(\s*[A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@")


class UnusableURL(InputError):
    """A URL that cannot be collected; the message says why."""


def normalize_url(url: str, *, schemes: Collection[str] = WEB_SCHEMES) -> str:
    """The dedupe form of ``url``; see the module docstring. Raises :class:`UnusableURL`.

    ``schemes`` may add a scheme a particular extractor reads (the local store's ``citewise``).
    Such URLs are opaque identifiers: only the scheme is lower-cased and the fragment dropped.
    """
    text = url.strip()
    if not text:
        raise UnusableURL("an empty URL cannot be collected")
    if _BAD_CHARACTERS.search(text):
        raise UnusableURL(f"the URL {_short(text)!r} contains whitespace or control characters")
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise UnusableURL(f"the URL {_short(text)!r} cannot be parsed: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        allowed = "/".join(sorted(schemes))
        found = f"{scheme}:" if scheme else "no scheme"
        raise UnusableURL(f"only {allowed} URLs can be collected, not {found!r} ({_short(text)!r})")
    if scheme not in WEB_SCHEMES:
        return urlunsplit((scheme, parts.netloc, parts.path, parts.query, ""))
    if "@" in parts.netloc:
        # Credentials would be sent to the site (and stored in the audit record); the same page
        # without them is a different request.
        raise UnusableURL(f"URLs with credentials (user:password@) are not collected: {scheme}://…@{parts.hostname}")
    host = _host(parts.hostname or "", text)
    try:
        port = parts.port
    except ValueError as exc:
        raise UnusableURL(f"the URL {_short(text)!r} has an invalid port") from exc
    netloc = host if port is None or port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))


def without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``…@``, for logs and audit records.

    >>> without_credentials("https://admin:hunter2@example.org/a")
    'https://…@example.org/a'
    """
    return _USERINFO.sub(r"\1…@", url, count=1)


def _host(hostname: str, url: str) -> str:
    """The lower-cased ASCII host, without a trailing root dot; IPv6 literals keep their brackets."""
    if ":" in hostname:  # an IPv6 literal (urlsplit validated it and removed the brackets)
        return f"[{hostname.lower()}]"
    host = hostname.rstrip(".").lower()
    if not host or ".." in host:
        raise UnusableURL(f"the URL {_short(url)!r} has no usable host")
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise UnusableURL(f"the host of {_short(url)!r} is not a valid internationalised domain name") from exc


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def query_key(query: str) -> str:
    """The form under which queries are deduplicated: spacing collapsed, case folded.

    >>> query_key("  Deposit   PROTECTION ") == query_key("deposit protection")
    True
    """
    return " ".join(query.split()).casefold()
