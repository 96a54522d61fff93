"""Origins compared parsed, never as string prefixes (SPEC 3.2).

Every URL and every rule is parsed by the WHATWG URL standard (through ``ada-url``), so the host a
browser or the fetcher would reach is the host compared: ``https://www.law.go.kr@evil.example/`` is
on ``evil.example``, ``https://www%2elaw.go.kr/`` is on ``www.law.go.kr``, ``0x7f.1`` is
``127.0.0.1``, ``WWW.Law.go.kr.`` is ``www.law.go.kr``.

An :class:`OriginRule` is one of:

* a **URL rule** (written with a scheme: ``https://www.law.go.kr/laws``, ``file:///corpus/``): the
  scheme, the host (exactly) and the port (the scheme's default when none is written) must be equal,
  and the rule's path must be a run of *whole* leading path segments of the URL's path
  (``/laws`` admits ``/laws``, ``/laws/``, ``/laws/a``, never ``/lawsuit``);
* a **host rule** (``law.go.kr``, optionally ``law.go.kr:8443``): the URL is ``http`` or ``https``
  on that port (the scheme's default when none is written) and its host is the rule's host or a
  subdomain of it by whole labels (``www.law.go.kr`` yes, ``evillaw.go.kr`` no).

A URL carrying credentials (``user:password@``) matches no rule: userinfo, percent-encoded dots,
other ports and other schemes never widen a match. :func:`parse_origin_rule` raises
:class:`~citewise.errors.InputError` with a one-line reason for a rule that cannot be understood.

Example::

    >>> rule = parse_origin_rule("https://www.law.go.kr")
    >>> rule.matches("https://www.law.go.kr/lsInfoP.do?lsiSeq=1")
    True
    >>> rule.matches("https://www.law.go.kr.evil.example/")
    False
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import unquote

from ada_url import URL

from citewise.errors import InputError

__all__ = [
    "DEFAULT_PORTS",
    "OriginRule",
    "ParsedOrigin",
    "normalise_host",
    "origin",
    "origin_of",
    "parse_origin_rule",
    "same_origin",
]

DEFAULT_PORTS: dict[str, int] = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
"""Default ports of the WHATWG special schemes (``file`` has none)."""

_WEB_SCHEMES = frozenset({"http", "https"})


@dataclass(frozen=True, slots=True)
class ParsedOrigin:
    """A URL reduced to what origin rules compare."""

    scheme: str
    """Lower-case scheme without the colon (``https``, ``file``)."""
    host: str
    """The host as the standard serialises it, without a trailing dot (empty for ``file:///``)."""
    port: int | None
    """The port, the scheme's default when none is written; ``None`` for schemes without ports."""
    segments: tuple[str, ...]
    """The path's segments, percent-decoded, without the empty one a trailing slash leaves."""
    has_credentials: bool
    """True when the URL carries a user name or password."""


def origin_of(url: str | None) -> ParsedOrigin | None:
    """``url`` parsed for comparison, or ``None`` when the standard cannot parse it."""
    if not url or not isinstance(url, str):
        return None
    try:
        parsed = URL(url.strip())
    except ValueError:
        return None
    scheme = parsed.protocol.rstrip(":").lower()
    port = int(parsed.port) if parsed.port else DEFAULT_PORTS.get(scheme)
    return ParsedOrigin(
        scheme=scheme,
        host=parsed.hostname.rstrip(".").lower(),
        port=port,
        segments=_segments(parsed.pathname),
        has_credentials=bool(parsed.username or parsed.password),
    )


def _segments(pathname: str) -> tuple[str, ...]:
    parts = pathname.split("/")
    if parts and parts[0] == "":
        parts = parts[1:]
    if parts and parts[-1] == "":
        parts = parts[:-1]
    return tuple(unquote(p) for p in parts)


def _is_subdomain(host: str, of: str) -> bool:
    if host == of:
        return True
    if _is_ip(host) or _is_ip(of):
        return False  # 10.1.2.3 is not a "subdomain" of 2.3
    return host.endswith("." + of)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class OriginRule:
    """An allowed origin, parsed; see the module docstring."""

    text: str
    """The rule as written (for messages and the audit record)."""
    host: str
    """The host the rule names (normalised by the standard)."""
    scheme: str | None = None
    """The scheme of a URL rule; ``None`` for a host rule (``http`` or ``https``)."""
    port: int | None = None
    """The port a URL must use; ``None`` for a host rule without one (the scheme's default)."""
    segments: tuple[str, ...] = ()
    """Leading path segments a URL's path must start with (URL rules only)."""

    def matches(self, url: str | None) -> bool:
        """True when ``url`` lies inside this origin."""
        found = origin_of(url)
        if found is None or found.has_credentials:
            return False
        if self.scheme is None:
            if found.scheme not in _WEB_SCHEMES:
                return False
            port = self.port if self.port is not None else DEFAULT_PORTS[found.scheme]
            return found.port == port and _is_subdomain(found.host, self.host)
        return (
            found.scheme == self.scheme
            and found.host == self.host
            and found.port == self.port
            and found.segments[: len(self.segments)] == self.segments
        )


def parse_origin_rule(text: str) -> OriginRule:
    """``text`` as an :class:`OriginRule`; raises :class:`InputError` saying what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("an origin cannot be empty: write a host (law.go.kr) or a URL (https://law.go.kr/laws)")
    raw = text.strip()
    if "://" in raw or raw.lower().startswith("file:"):
        return _url_rule(raw)
    return _host_rule(raw)


def _url_rule(raw: str) -> OriginRule:
    found = origin_of(raw)
    if found is None:
        raise InputError(f"the origin {raw!r} is not a URL the WHATWG standard can parse (e.g. https://law.go.kr/laws)")
    if found.has_credentials:
        raise InputError(f"the origin {raw!r} carries credentials (user@): write scheme://host/path")
    parsed = URL(raw)
    if parsed.search or parsed.hash:
        raise InputError(f"the origin {raw!r} has a query or fragment: write scheme://host[:port][/path]")
    if found.scheme != "file" and not found.host:
        raise InputError(f"the origin {raw!r} has no host: write scheme://host[:port][/path]")
    return OriginRule(raw, found.host, found.scheme, found.port, found.segments)


def _host_rule(raw: str) -> OriginRule:
    bare = raw.strip(".")
    if bare.startswith("*."):
        bare = bare[2:]
    if any(c in bare for c in "/?#@\\"):
        raise InputError(
            f"the origin {raw!r} is neither a host nor a URL: write a host (law.go.kr) or a URL with its scheme "
            "(https://law.go.kr/laws)"
        )
    found = origin_of(f"http://{bare}/")
    if found is None or not found.host:
        raise InputError(f"the origin {raw!r} is not a valid host name (e.g. law.go.kr or law.go.kr:8443)")
    explicit_port = found.port if ":" in bare.rpartition("]")[2] else None
    return OriginRule(raw, found.host, None, explicit_port)


def same_origin(url: str | None, scheme: str, hosts: frozenset[str] | set[str], port: int) -> bool:
    """True when ``url`` (an ``Origin`` header, say) is ``scheme://host:port`` for one of ``hosts``.

    Hosts are compared as the standard serialises them, so ``LOCALHOST``, ``127.1`` and ``[::1]``
    are what they mean; the scheme and the port must be equal too.
    """
    found = origin_of(url)
    if found is None or found.has_credentials:
        return False
    wanted = {h for h in (normalise_host(h) for h in hosts) if h}
    return found.scheme == scheme.lower() and found.port == port and found.host in wanted


def normalise_host(host: str) -> str | None:
    """``host`` (a name or an address, IPv6 with or without brackets) as the standard serialises it."""
    text = host.strip()
    if ":" in text and not text.startswith("["):
        text = f"[{text}]"
    found = origin_of(f"http://{text}/")
    return found.host if found is not None and found.host else None


def origin(url: str) -> str:
    """``scheme://host:port`` of ``url`` as the standard parses it (default ports filled in): what a
    configured endpoint's requests must keep, redirects included. A URL that does not parse has the
    origin ``invalid:``, equal to no endpoint's.

    >>> origin("https://API.example.com/v1?x=1") == origin("https://api.example.com:443/other")
    True
    >>> origin("https://api.example.com@evil.example/") == origin("https://api.example.com/")
    False
    """
    found = origin_of(url)
    if found is None:
        return "invalid:"
    return f"{found.scheme}://{found.host}:{found.port if found.port is not None else 0}"
