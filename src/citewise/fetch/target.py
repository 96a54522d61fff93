"""Whether a URL's host is public (SPEC 4.6).

:func:`host_refusal` says why a target's host is not public — by address for IP literals, by name
for ``localhost``, metadata and special-use names. Resolved addresses are checked again at connect
time by :mod:`citewise.fetch.transport`. The URL itself is parsed by :mod:`citewise.text.urls`
(the WHATWG URL standard, through ``ada-url``); its names are re-exported here for the fetcher.
"""

from __future__ import annotations

from citewise.fetch.guard import AddressPolicy, HostRefusal, check_address, check_host_name
from citewise.text.urls import DEFAULT_PORTS, WEB_SCHEMES, Target, UnusableURL, parse_target, short

__all__ = ["DEFAULT_PORTS", "WEB_SCHEMES", "Target", "UnusableURL", "host_refusal", "parse_target", "short"]


def host_refusal(target: Target, policy: AddressPolicy | None = None) -> HostRefusal | None:
    """Why ``target``'s host may not be reached (``None``: public, or on the test-only allowlist)."""
    if target.scheme not in WEB_SCHEMES:
        return None
    if policy is not None and policy.allowed(target.host, target.port):
        return None
    if target.address is not None:
        return check_address(target.address)
    return check_host_name(target.host)
