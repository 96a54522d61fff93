"""robots.txt, read with Protego and remembered per origin for the fetcher's lifetime.

The rules of the de-facto standard (RFC 9309): a robots.txt answered with 2xx is obeyed; 4xx (none
there) allows everything; a 5xx answer or an unreachable file disallows the site for now, since its
rules are unknown. A robots.txt is at most 500 KiB (larger files are cut there, as the RFC allows).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from protego import Protego

__all__ = ["ROBOTS_MAX_BYTES", "RobotsAnswer", "RobotsCache", "RobotsVerdict"]

ROBOTS_MAX_BYTES = 500 * 1024


@dataclass(frozen=True)
class RobotsAnswer:
    """What fetching ``/robots.txt`` gave: the status (``None`` when unreachable) and the body."""

    status: int | None
    body: bytes = b""
    error: str = ""


@dataclass(frozen=True)
class RobotsVerdict:
    """Whether a URL may be fetched, and why."""

    allowed: bool
    detail: str


class RobotsCache:
    """robots.txt rules per origin; ``load(origin)`` fetches ``origin/robots.txt`` when first needed."""

    def __init__(self, load: Callable[[str], RobotsAnswer], user_agent: str) -> None:
        self._load = load
        self._agent = user_agent
        self._rules: dict[str, Protego | RobotsVerdict] = {}
        self._lock = threading.Lock()

    def verdict(self, origin: str, url: str) -> RobotsVerdict:
        """Whether ``url`` (on ``origin``) may be fetched by citewise's user agent."""
        with self._lock:
            rules = self._rules.get(origin)
        if rules is None:
            rules = self._rules_from(self._load(origin))
            with self._lock:
                self._rules.setdefault(origin, rules)
        if isinstance(rules, RobotsVerdict):
            return rules
        if rules.can_fetch(url, self._agent):
            return RobotsVerdict(True, f"robots.txt of {origin} allows it")
        return RobotsVerdict(False, f"robots.txt of {origin} disallows it for {self._agent.split('/')[0]}")

    def _rules_from(self, answer: RobotsAnswer) -> Protego | RobotsVerdict:
        if answer.status is None:
            return RobotsVerdict(False, f"robots.txt could not be read ({answer.error}): the site is not fetched")
        if 400 <= answer.status < 500:
            return RobotsVerdict(True, f"no robots.txt (HTTP {answer.status}): everything allowed")
        if not 200 <= answer.status < 300:
            return RobotsVerdict(False, f"robots.txt answered HTTP {answer.status}: the site is not fetched for now")
        text = answer.body[:ROBOTS_MAX_BYTES].decode("utf-8", errors="replace")
        return Protego.parse(text)
