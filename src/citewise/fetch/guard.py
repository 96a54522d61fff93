"""Which hosts and addresses the fetcher may connect to (SPEC 4.6).

Only *global* unicast addresses are reachable. Refused, in IPv4 and IPv6 alike: loopback, private,
link-local, shared (CGNAT), multicast, reserved, unspecified, documentation and benchmarking ranges,
and every other address the IANA special-purpose registries do not mark as globally reachable. An
IPv6 address that carries an IPv4 address (IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible
``::a.b.c.d``, NAT64 ``64:ff9b::/96`` and ``64:ff9b:1::/48``, 6to4 ``2002::/16``) is judged by the
address it carries, and the IPv4-compatible and local NAT64 forms are refused outright. Cloud metadata
endpoints are refused by address (``169.254.169.254``, ``fd00:ec2::254``, ``100.100.100.200``, ...)
and by name (``metadata.google.internal``, ``instance-data`` ...), as are ``localhost`` and names under
the special-use suffixes (``.localhost``, ``.local``, ``.internal``, ``.home.arpa`` ...) and
single-label names (a resolver completes them with local search domains).

>>> check_address(ipaddress.ip_address("127.0.0.1")).value
'loopback'
>>> check_address(ipaddress.ip_address("::ffff:7f00:1")).value
'loopback'
>>> check_address(ipaddress.ip_address("93.184.215.14")) is None
True

The test-only allowlist (``CITEWISE_FETCH_ALLOW=host:port,...``) names exact ``host:port`` pairs, as
written in the normalised URL, that skip the address and name checks; it is off unless the variable
is set, and :func:`allowlist_from_env` warns on standard error whenever it is on.
"""

from __future__ import annotations

import enum
import ipaddress
import os
import sys
from dataclasses import dataclass

from citewise.errors import ConfigError
from citewise.text.origins import normalise_host

__all__ = [
    "ALLOW_ENV",
    "DEFAULT_PORTS_ALLOWED",
    "METADATA_NAMES",
    "PORTS_ENV",
    "AddressPolicy",
    "HostRefusal",
    "IPAddress",
    "allowlist_from_env",
    "check_address",
    "check_host_name",
    "ports_from_env",
]

ALLOW_ENV = "CITEWISE_FETCH_ALLOW"
"""Test-only: ``host:port,...`` pairs the fetcher may reach although their address is not public."""
PORTS_ENV = "CITEWISE_FETCH_PORTS"
"""Ports the fetcher may connect to besides 80 and 443 (comma-separated)."""
DEFAULT_PORTS_ALLOWED: frozenset[int] = frozenset({80, 443})

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class HostRefusal(str, enum.Enum):
    """Why a host or address may not be reached."""

    LOOPBACK = "loopback"
    PRIVATE = "private"
    LINK_LOCAL = "link-local"
    SHARED = "shared address space (CGNAT)"
    MULTICAST = "multicast"
    RESERVED = "reserved"
    UNSPECIFIED = "unspecified"
    METADATA = "cloud metadata endpoint"
    EMBEDDED_IPV4 = "IPv6 form of an IPv4 address"
    NOT_GLOBAL = "not globally reachable"
    LOCAL_NAME = "local host name"
    PORT = "port not allowed"


METADATA_NAMES: frozenset[str] = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "metadata.azure.com",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.platformequinix.com",
        "metadata.tencentyun.com",
    }
)
"""Host names of cloud instance metadata services."""

_METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.170.2",
        "169.254.169.123",
        "100.100.100.200",
        "192.0.0.192",
        "fd00:ec2::254",
        "fd00:ec2::23",
    )
)
_LOCAL_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".lan", ".home.arpa", ".intranet")
# Ranges Python's ``is_global`` lets through but that no public web server lives on.
_EXTRA_V4 = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "100.64.0.0/10",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "240.0.0.0/4",
    )
)
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_EXTRA_V6 = tuple(ipaddress.ip_network(n) for n in ("2001::/23", "2001:db8::/32", "fec0::/10", "100::/64", "::/96"))


def check_address(address: IPAddress) -> HostRefusal | None:
    """Why ``address`` may not be connected to, or ``None`` when it is a global unicast address."""
    if address in _METADATA_ADDRESSES:
        return HostRefusal.METADATA
    if isinstance(address, ipaddress.IPv6Address):
        return _check_v6(address)
    return _check_v4(address)


def _check_v4(address: ipaddress.IPv4Address) -> HostRefusal | None:
    if address.is_loopback:
        return HostRefusal.LOOPBACK
    if address.is_unspecified or address in _EXTRA_V4[0]:
        return HostRefusal.UNSPECIFIED
    if address.is_link_local:
        return HostRefusal.LINK_LOCAL
    if address in _EXTRA_V4[1]:
        return HostRefusal.SHARED
    if address.is_multicast:
        return HostRefusal.MULTICAST
    if address.is_private:
        return HostRefusal.PRIVATE
    if address.is_reserved or any(address in net for net in _EXTRA_V4):
        return HostRefusal.RESERVED
    if not address.is_global:
        return HostRefusal.NOT_GLOBAL
    return None


def _check_v6(address: ipaddress.IPv6Address) -> HostRefusal | None:
    embedded = _embedded_v4(address)
    if embedded is not None:
        inner = check_address(embedded)
        if inner is not None:
            return inner
        if address not in _SIX_TO_FOUR:
            return HostRefusal.EMBEDDED_IPV4  # mapped, compatible and NAT64 forms: never needed for the web
    if address.is_loopback:
        return HostRefusal.LOOPBACK
    if address.is_unspecified:
        return HostRefusal.UNSPECIFIED
    if address.is_link_local:
        return HostRefusal.LINK_LOCAL
    if address.is_multicast:
        return HostRefusal.MULTICAST
    if address.is_private or address.is_site_local:
        return HostRefusal.PRIVATE
    if address.is_reserved or any(address in net for net in _EXTRA_V6):
        return HostRefusal.RESERVED
    if embedded is None and not address.is_global:
        return HostRefusal.NOT_GLOBAL
    return None


def _embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 form carries (mapped, compatible, NAT64, 6to4), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    value = int(address)
    if value >> 32 == 0 and value > 1:  # ::a.b.c.d (``::`` and ``::1`` are IPv6's own)
        return ipaddress.IPv4Address(value)
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    return None


def check_host_name(name: str) -> HostRefusal | None:
    """Why the (lower-case ASCII) host name ``name`` is refused before any lookup, or ``None``."""
    host = name.rstrip(".").lower()
    if host in METADATA_NAMES:
        return HostRefusal.METADATA
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES) or "." not in host:
        return HostRefusal.LOCAL_NAME
    return None


@dataclass(frozen=True)
class AddressPolicy:
    """What the fetcher may connect to: public hosts on ``ports``, plus the test-only ``allow`` pairs."""

    ports: frozenset[int] = DEFAULT_PORTS_ALLOWED
    """Ports that may be connected to (80 and 443 unless configured)."""
    allow: frozenset[tuple[str, int]] = frozenset()
    """Test-only ``(host, port)`` pairs exempt from the address and name checks."""

    def allowed(self, host: str, port: int) -> bool:
        """Whether ``host:port`` is on the test-only allowlist."""
        return (_bare(host), port) in self.allow

    def check_port(self, host: str, port: int) -> HostRefusal | None:
        """Why ``port`` may not be used, or ``None``."""
        if port in self.ports or self.allowed(host, port):
            return None
        return HostRefusal.PORT


def _bare(host: str) -> str:
    return host.strip("[]").lower()


def allowlist_from_env(environ: dict[str, str] | None = None, *, warn: bool = True) -> frozenset[tuple[str, int]]:
    """The ``CITEWISE_FETCH_ALLOW`` pairs; announces loudly on standard error when any is set."""
    env = os.environ if environ is None else environ
    raw = env.get(ALLOW_ENV, "").strip()
    if not raw:
        return frozenset()
    pairs = frozenset(_pair(item) for item in raw.split(",") if item.strip())
    if warn:
        listed = ", ".join(f"{h}:{p}" for h, p in sorted(pairs))
        print(f"WARNING: {ALLOW_ENV} is set: the fetcher may reach {listed} (test-only)", file=sys.stderr)
    return pairs


def _pair(item: str) -> tuple[str, int]:
    host, sep, port = item.strip().rpartition(":")
    # The host is parsed as the fetcher's URLs are (citewise.text.origins), so 127.1, LOCALHOST. and
    # [::1] name what they mean and the pair is compared with a target's parsed host.
    name = normalise_host(host) if sep and host else None
    if name is None or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"{ALLOW_ENV} takes host:port pairs separated by commas, e.g. 127.0.0.1:8080 (got {item!r})")
    return _bare(name), int(port)


def ports_from_env(environ: dict[str, str] | None = None) -> frozenset[int]:
    """80, 443 and the ports of ``CITEWISE_FETCH_PORTS``."""
    env = os.environ if environ is None else environ
    extra = [p.strip() for p in env.get(PORTS_ENV, "").split(",") if p.strip()]
    for port in extra:
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ConfigError(f"{PORTS_ENV} takes port numbers separated by commas, e.g. 8080,8443 (got {port!r})")
    return DEFAULT_PORTS_ALLOWED | {int(p) for p in extra}
