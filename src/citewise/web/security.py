"""What keeps ``citewise serve`` safe to run on a desktop.

- **Binding**: loopback by default; any other address only with ``--allow-remote``, and then every
  page (reads too) needs the token.
- **Token**: ``CITEWISE_SERVE_TOKEN`` or a random one printed at start. Opening
  ``/?token=...`` once sets it as an HttpOnly, SameSite=Strict cookie; scripts may send
  ``Authorization: Bearer ...``. Every write (approve, reject, override, start a run) needs it.
- **CSRF**: a write also needs the form field ``csrf`` (an HMAC of the token, so a page on another
  site cannot know it) and, when the browser sends one, an ``Origin`` of this server: the same
  scheme, host and port as the request's own ``Host`` (another port or scheme on localhost is
  another site), compared parsed by :mod:`citewise.text.origins`.
- **Host**: requests naming another host are refused (DNS rebinding cannot read the pages). The
  server answers to the address it was bound to, and to the loopback names when that address is
  loopback or unspecified (``0.0.0.0``, ``::``), plus this machine's name and addresses then.
- **Content-Security-Policy**: scripts, styles and connections only from this server, no inline
  script, no frames, forms only to this server.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
from dataclasses import dataclass

from citewise.errors import ConfigError
from citewise.text.origins import normalise_host, origin_of, same_origin

__all__ = ["CSP", "COOKIE", "TOKEN_ENV", "Guard", "check_bind", "is_loopback", "new_token", "served_hosts"]

TOKEN_ENV = "CITEWISE_SERVE_TOKEN"
COOKIE = "citewise_token"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" would send `Origin: null` with our own forms
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def new_token() -> str:
    """A fresh random token."""
    return secrets.token_urlsafe(24)


def is_loopback(host: str) -> bool:
    """True for ``127.0.0.1``, ``::1``, ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def served_hosts(bind: str) -> tuple[str, ...]:
    """The host names a server bound to ``bind`` answers to (see the module docstring)."""
    names = [bind]
    if is_loopback(bind) or _unspecified(bind):
        names += LOOPBACK_NAMES
    if _unspecified(bind):
        names += _this_machine()
    return tuple(dict.fromkeys(names))


def _unspecified(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def _this_machine() -> list[str]:
    """This machine's name and the addresses it resolves to (what a remote browser would type)."""
    try:
        name = socket.gethostname()
        _, aliases, addresses = socket.gethostbyname_ex(name)
    except OSError:
        return []
    return [name, *aliases, *addresses]


def check_bind(host: str, allow_remote: bool, token_given: bool) -> None:
    """Refuse a non-loopback address without ``--allow-remote`` and an explicit token."""
    if is_loopback(host):
        return
    if not allow_remote:
        raise ConfigError(f"--host {host} is not loopback: pass --allow-remote to serve other machines")
    if not token_given:
        raise ConfigError(f"serving {host} needs an explicit token: set {TOKEN_ENV} (every page then asks for it)")


@dataclass(frozen=True)
class Guard:
    """The token, the CSRF value derived from it, and the hosts this server answers to."""

    token: str
    """The write token (never shown on a page)."""
    hosts: frozenset[str]
    """Host names (without port) requests may name."""
    reads_need_token: bool = False
    """True when serving beyond loopback."""

    @property
    def csrf(self) -> str:
        """The value every write form carries."""
        return hmac.new(self.token.encode(), b"citewise-csrf", hashlib.sha256).hexdigest()

    def token_ok(self, cookie: str | None, authorization: str | None) -> bool:
        """True when the cookie or a bearer header carries the token."""
        bearer = authorization[7:] if authorization and authorization.lower().startswith("bearer ") else None
        return any(v is not None and hmac.compare_digest(v.encode(), self.token.encode()) for v in (cookie, bearer))

    def csrf_ok(self, value: str | None) -> bool:
        """True when a write carries the CSRF value."""
        return value is not None and hmac.compare_digest(value.encode(), self.csrf.encode())

    def host_ok(self, host_header: str | None) -> bool:
        """True when the request names this server."""
        found = origin_of(f"http://{host_header}/") if host_header else None
        if found is None or found.has_credentials or found.segments:
            return False
        return found.host in {normalise_host(h) for h in self.hosts}

    def origin_ok(self, origin: str | None, host_header: str | None = None, scheme: str = "http") -> bool:
        """True when no ``Origin`` is sent, or it is ``scheme://`` the request's own ``Host`` (one of
        this server's hosts), port included."""
        if origin is None:
            return True
        if not host_header or not self.host_ok(host_header):
            return False
        own = origin_of(f"{scheme}://{host_header}/")
        return own is not None and own.port is not None and same_origin(origin, scheme, {own.host}, own.port)
