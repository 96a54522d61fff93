"""What keeps ``citewise serve`` safe to run on a desktop.

- **Binding**: loopback by default; any other address only with ``--allow-remote``, and then every
  page (reads too) needs the token.
- **Token**: ``CITEWISE_SERVE_TOKEN`` or a random one printed at start. Opening
  ``/?token=...`` once sets it as an HttpOnly, SameSite=Strict cookie; scripts may send
  ``Authorization: Bearer ...``. Every write (approve, reject, override, start a run) needs it.
- **CSRF**: a write also needs the form field ``csrf`` (an HMAC of the token, so a page on another
  site cannot know it) and, when the browser sends one, an ``Origin`` of this server.
- **Host**: requests naming another host are refused (DNS rebinding cannot read the pages).
- **Content-Security-Policy**: scripts, styles and connections only from this server, no inline
  script, no frames, forms only to this server.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from citewise.errors import ConfigError

__all__ = ["CSP", "COOKIE", "TOKEN_ENV", "Guard", "check_bind", "is_loopback", "new_token"]

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
        if not host_header:
            return False
        name = urlsplit(f"//{host_header}").hostname or ""
        return name in self.hosts

    def origin_ok(self, origin: str | None) -> bool:
        """True when no ``Origin`` is sent or it is this server."""
        if origin is None:
            return True
        return (urlsplit(origin).hostname or "") in self.hosts
