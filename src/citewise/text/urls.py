"""URLs parsed by the WHATWG URL standard (through ``ada-url``), and the key two URLs compare by.

:func:`parse_target` turns any string into a :class:`Target` or raises :class:`UnusableURL` with a
one-line reason; no input makes it crash. The host is the standard's: numeric IPv4 forms
(``2130706433``, ``0x7f.1``, ``017700000001``, ``127.1``) become the dotted address they mean,
internationalised names become their UTS 46 ASCII form (``faß.de`` -> ``xn--fa-hia.de``), IPv6
literals are compressed. On top of the standard, a URL to collect must be absolute ``http(s)://``
with a host, carry no credentials, no whitespace or control characters, and no empty host label.

:func:`url_key` is how citewise compares two URLs (a search hit with an extractor's echo of it, a
cited URL with a searched one, a cache entry with a request): the standard's serialisation without
the fragment, insensitive to a trailing slash, which extractors and engines add or drop. Whether a
host is public is not a question of parsing: :func:`citewise.fetch.target.host_refusal` answers it.

>>> url_key("HTTPS://Example.ORG:443/Path/?q=1#top") == url_key("https://example.org/Path?q=1")
True
>>> url_key("https://ko.wikipedia.org/wiki/임대차") == url_key("https://ko.wikipedia.org/wiki/%EC%9E%84%EB%8C%80%EC%B0%A8/")
True
>>> url_key("  not a url/ ")  # what cannot be parsed compares as written, less the trailing slash
'not a url'
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from ada_url import URL, HostType

from citewise.errors import InputError

__all__ = ["DEFAULT_PORTS", "WEB_SCHEMES", "Target", "UnusableURL", "parse_target", "short", "url_key"]

WEB_SCHEMES: tuple[str, ...] = ("http", "https")
"""Schemes of pages that can be searched and read on the web."""
DEFAULT_PORTS = {"http": 80, "https": 443}

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_BAD_CHARACTERS = re.compile(r"[\s\x00-\x1f\x7f]")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_AUTHORITY = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\\]*)")


class UnusableURL(InputError):
    """A URL that cannot be collected or fetched; the message says why."""


@dataclass(frozen=True, slots=True)
class Target:
    """A URL as the standard parses it, ready to dedupe and to fetch."""

    url: str
    """The serialised URL without its fragment: the dedupe form (SPEC 4.3)."""
    scheme: str
    """``http`` or ``https`` (or an opaque scheme an extractor asked for)."""
    host: str
    """The host as serialised: lower-case ASCII name, dotted IPv4, or ``[IPv6]``; no trailing dot."""
    port: int
    """The port to connect to (the scheme's default when none is written)."""
    address: IPAddress | None
    """The host's address when the host is an IP literal; ``None`` for names."""

    @property
    def bare_host(self) -> str:
        """The host without IPv6 brackets, as given to a resolver or a socket."""
        return self.host.strip("[]")


def parse_target(url: str, *, schemes: Collection[str] = WEB_SCHEMES) -> Target:
    """``url`` parsed and checked; see the module docstring. Raises :class:`UnusableURL`."""
    text = url.strip()
    if not text:
        raise UnusableURL("an empty URL cannot be collected")
    if _BAD_CHARACTERS.search(text):
        raise UnusableURL(f"the URL {short(text)!r} contains whitespace or control characters")
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    if scheme not in schemes:
        allowed = "/".join(sorted(schemes))
        found = f"{scheme}:" if scheme else "no scheme"
        raise UnusableURL(f"only {allowed} URLs can be collected, not {found!r} ({short(text)!r})")
    if scheme not in WEB_SCHEMES:
        parts = urlsplit(text)  # an opaque identifier: only the scheme is folded, the fragment dropped
        return Target(urlunsplit((scheme, parts.netloc, parts.path, parts.query, "")), scheme, "", 0, None)
    authority = _AUTHORITY.match(text)
    if authority is None or not authority.group(1):
        raise UnusableURL(f"the URL {short(text)!r} has no usable host (write it as {scheme}://host/path)")
    if "@" in authority.group(1):
        # Credentials would be sent to the site (and stored in the audit record).
        host_part = authority.group(1).rpartition("@")[2]
        raise UnusableURL(f"URLs with credentials (user:password@) are not collected: {scheme}://…@{short(host_part)}")
    try:
        parsed = URL(text)
    except ValueError:
        raise UnusableURL(_why_invalid(text, authority.group(1))) from None
    return _target(parsed, scheme, text)


def _target(parsed: URL, scheme: str, text: str) -> Target:
    host = parsed.hostname
    kind = parsed.host_type
    address: IPAddress | None = None
    if kind == HostType.IPV4 or kind == HostType.IPV6:
        address = ipaddress.ip_address(host.strip("[]"))
    else:
        host = host.rstrip(".")
        if not host or any(not label for label in host.split(".")):
            raise UnusableURL(f"the URL {short(text)!r} has no usable host (an empty label between dots)")
        if not all(_punycode_ok(label) for label in host.split(".") if label.startswith("xn--")):
            raise UnusableURL(f"the URL {short(text)!r} has an invalid host: an xn-- label that is not valid punycode")
    port = int(parsed.port) if parsed.port else DEFAULT_PORTS[scheme]
    netloc = host if port == DEFAULT_PORTS[scheme] else f"{host}:{port}"
    path = parsed.pathname or "/"
    return Target(f"{scheme}://{netloc}{path}{parsed.search}", scheme, host, port, address)


def url_key(url: str, *, schemes: Collection[str] = WEB_SCHEMES) -> str:
    """The form in which two URLs are compared: :func:`parse_target`'s dedupe form with a trailing
    slash ignored; a URL that cannot be parsed (or has another scheme) compares as written, stripped.

    ``schemes`` may add a scheme a particular extractor reads (the local store's ``citewise``).
    """
    try:
        key = parse_target(url, schemes=schemes).url
    except UnusableURL:
        key = url.strip()
    head, sep, query = key.partition("?")
    return head.rstrip("/") + sep + query


def _punycode_ok(label: str) -> bool:
    """Whether an ``xn--`` label decodes to a non-ASCII name that encodes back to it (UTS 46)."""
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return False
    if not decoded or decoded.isascii() or any(unicodedata.category(c).startswith("C") for c in decoded):
        return False
    return decoded.encode("punycode").decode("ascii") == label[4:]


def _why_invalid(text: str, authority: str) -> str:
    """A reason for a URL the standard rejects, as specific as the text allows."""
    host, _, port = authority.rpartition(":") if not authority.endswith("]") else (authority, "", "")
    if authority.startswith("[") and "]" not in authority:
        return f"the URL {short(text)!r} cannot be parsed: an IPv6 host needs its closing ']'"
    if host and port and (not port.isdigit() or int(port) > 65535):
        return f"the URL {short(text)!r} has an invalid port {short(port, 12)!r} (0-65535)"
    if authority.startswith("["):
        return f"the URL {short(text)!r} has an invalid IPv6 address"
    why = "forbidden character, bad IPv4 or IDNA"
    return f"the URL {short(text)!r} has an invalid host by the WHATWG URL standard ({why})"


def short(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters for messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
