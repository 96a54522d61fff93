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
from urllib.parse import urljoin, urlsplit

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
    """Whether ``url`` is on one of the redirect ``hosts`` (host, or host:port)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    netloc = f"{host}:{parts.port}" if parts.port else host
    return host in hosts or netloc in hosts


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
            except httpx.HTTPError as exc:
                return Resolved(url, None, f"the redirect could not be followed: {type(exc).__name__}")
            location = response.headers.get("location")
            if not response.is_redirect or not location:
                return Resolved(url, None, f"the redirect answered HTTP {response.status_code} without a location")
            current = urljoin(current, location)
            if urlsplit(current).scheme not in ("http", "https"):
                return Resolved(url, None, "the redirect points at a URL that is not http(s)")
            if not is_redirect(current, hosts):
                return Resolved(url, current)
    return Resolved(url, None, f"more than {MAX_HOPS} redirects")
