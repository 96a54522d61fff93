"""URL normalisation for dedupe during collection (SPEC 4.3), by the WHATWG URL standard.

Two search hits are the same page when their normalised URLs are equal. The URL is parsed as the
standard says (:mod:`citewise.fetch.target`, through ``ada-url``), so the host is the one a browser
would connect to, and only differences that cannot change which page a server sends are removed:

* scheme and host are lower-cased; an internationalised host is written in its UTS 46 ASCII form,
  numeric IPv4 forms (``0x7f.1``, ``2130706433``) as the dotted address, and a trailing root dot
  (``example.org.``) is dropped;
* the default port (80 for http, 443 for https) is dropped;
* the fragment is dropped (it never reaches the server);
* path and query are kept as the standard serialises them (``/A`` and ``/a`` may be different pages,
  ``?id=1`` certainly is; characters the standard escapes are percent-encoded); an empty path is ``/``.

URLs that cannot be collected are refused with :class:`UnusableURL`: what the standard rejects, other
schemes than http(s) (``javascript:``, ``ftp:``, ``file:``, ``data:``), URLs carrying credentials
(``user:pass@``), no host, an invalid port, whitespace and control characters — and URLs whose host
is not public (loopback, private, link-local, metadata, in any numeric or IPv6 form, or a name like
``localhost``), whichever extractor would read them (SPEC 4.6).

>>> normalize_url("HTTPS://Example.ORG:443/Path?q=1#section")
'https://example.org/Path?q=1'
>>> normalize_url("javascript:alert(1)")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
citewise.fetch.target.UnusableURL: only http(s) URLs can be collected, not 'javascript:'
"""

from __future__ import annotations

import re
from collections.abc import Collection

from citewise.fetch.guard import AddressPolicy, allowlist_from_env
from citewise.fetch.target import DEFAULT_PORTS, WEB_SCHEMES, UnusableURL, host_refusal, parse_target, short

__all__ = ["DEFAULT_PORTS", "WEB_SCHEMES", "UnusableURL", "normalize_url", "query_key", "without_credentials"]

_USERINFO = re.compile(r"^(\s*[A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@")


def normalize_url(url: str, *, schemes: Collection[str] = WEB_SCHEMES) -> str:
    """The dedupe form of ``url``; see the module docstring. Raises :class:`UnusableURL`.

    ``schemes`` may add a scheme a particular extractor reads (the local store's ``citewise``).
    Such URLs are opaque identifiers: only the scheme is lower-cased and the fragment dropped.
    """
    target = parse_target(url, schemes=schemes)
    refusal = host_refusal(target, AddressPolicy(allow=allowlist_from_env(warn=False)))
    if refusal is not None:
        raise UnusableURL(
            f"the host {short(target.host, 60)!r} is not public ({refusal.value}); citewise never reads it"
        )
    return target.url


def without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``…@``, for logs and audit records.

    >>> without_credentials("https://admin:hunter2@example.org/a")
    'https://…@example.org/a'
    """
    return _USERINFO.sub(r"\1…@", url, count=1)


def query_key(query: str) -> str:
    """The form under which queries are deduplicated: spacing collapsed, case folded.

    >>> query_key("  Deposit   PROTECTION ") == query_key("deposit protection")
    True
    """
    return " ".join(query.split()).casefold()
