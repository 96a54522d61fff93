"""The site a URL belongs to: its registrable domain under the Public Suffix List.

``https://www.gov.uk/x`` and ``https://news.bbc.co.uk/y`` are the sites ``www.gov.uk`` (``gov.uk``
is itself a public suffix) and ``bbc.co.uk``; ``docs.python.org`` is ``python.org``. The list comes
from the ``publicsuffixlist`` package, which ships it: nothing is fetched at run time. An IP address
is its own site; a host the list does not know (``localhost``, an internal name) is its own site too.

>>> registrable_domain("https://News.BBC.co.uk/world?x=1")
'bbc.co.uk'
>>> registrable_domain("https://docs.python.org/3/library/urllib.parse.html")
'python.org'
>>> registrable_domain("http://127.0.0.1:8080/page")
'127.0.0.1'
>>> registrable_domain("citewise://kr-law-001248@2/%EC%A0%9C3%EC%A1%B0") is None
True
"""

from __future__ import annotations

import ipaddress
from functools import cache
from typing import Any
from urllib.parse import urlsplit

__all__ = ["registrable_domain"]


@cache
def _list() -> Any:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def registrable_domain(url: str) -> str | None:
    """The site of ``url`` (lower-cased, without a trailing dot); None for a URL that names no host
    on the web (``citewise://`` store references, ``mailto:``, a malformed URL)."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    host = host.rstrip(".").lower()
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    return _list().privatesuffix(host) or host
