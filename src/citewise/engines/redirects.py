"""Resolving a grounding redirect (Gemini's ``groundingChunks[].web.uri``) to the page it points at.

Only URLs on a known redirect host are resolved; each hop is read without following it (no body is
kept), at most :data:`MAX_HOPS` hops, and the final URL must be http(s). The redirect and the final
URL are both recorded (:class:`~citewise.audit.events.EngineRedirectResolved`); the page itself is
read by citewise's extractor, never by this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ada_url import URL

from citewise.text.origins import normalise_host, origin_of

__all__ = ["GROUNDING_REDIRECT_HOSTS", "MAX_HOPS", "Resolved", "is_redirect", "resolve"]

GROUNDING_REDIRECT_HOSTS: Final = ("vertexaisearch.cloud.google.com",)
"""Hosts whose URLs are redirects to the cited page."""
MAX_HOPS: Final = 5


@dataclass(frozen=True, slots=True)
class Resolved:
    """Where a redirect led."""

    redirect_url: str
    """The URL the engine gave."""
    final_url: str | None
    """The page it points at; None when it could not be resolved."""
    error: str | None = None
    """Why it could not be resolved."""


def is_redirect(url: str, hosts: Sequence[str]) -> bool:
    """Whether ``url`` is on one of the redirect ``hosts`` (host, or host:port), compared parsed
    (:mod:`citewise.text.origins`): userinfo, look-alike hosts and backslashes do not make one."""
    found = origin_of(url)
    if found is None or found.has_credentials or found.scheme not in ("http", "https"):
        return False
    for entry in hosts:
        name, sep, port = entry.rpartition(":") if not entry.endswith("]") else (entry, "", "")
        if not sep or not port.isdigit():
            name, port = entry, ""
        if normalise_host(name) == found.host and (not port or int(port) == found.port):
            return True
    return False


def resolve(url: str, hosts: Sequence[str], timeout_s: float = 10.0) -> Resolved:
    """Follow ``url``'s redirects hop by hop while they stay on the redirect ``hosts``; the first URL
    off them is the page. A URL not on them is its own page."""
    import httpx

    if not is_redirect(url, hosts):
        return Resolved(url, url)
    current = url
    with httpx.Client(timeout=timeout_s, follow_redirects=False) as client:
        for _ in range(MAX_HOPS):
            try:
                response = client.head(current)
                if response.status_code in (405, 501):
                    response = client.get(current)
            except (httpx.HTTPError, httpx.InvalidURL, UnicodeError, ValueError) as exc:
                # httpx parses a Location it is not asked to follow, and raises on one it cannot read.
                return Resolved(url, None, f"the redirect could not be followed: {type(exc).__name__}")
            location = response.headers.get("location")
            if not response.is_redirect or not location:
                return Resolved(url, None, f"the redirect answered HTTP {response.status_code} without a location")
            try:
                current = URL(location.strip(), current).href
            except ValueError:
                return Resolved(url, None, "the redirect points at a URL that does not parse")
            if current.split(":", 1)[0].lower() not in ("http", "https"):
                return Resolved(url, None, "the redirect points at a URL that is not http(s)")
            if not is_redirect(current, hosts):
                return Resolved(url, current)
    return Resolved(url, None, f"more than {MAX_HOPS} redirects")
