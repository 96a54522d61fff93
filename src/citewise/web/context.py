"""What the page handlers share: the app's state, rendering a page, and the write check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from citewise.api import Citewise
from citewise.export.html import render_page
from citewise.prices import PriceTable
from citewise.web.security import COOKIE, Guard

__all__ = ["ServeState", "WriteRefused", "page", "require_write", "route", "state_of"]


@dataclass
class ServeState:
    """What every request handler shares."""

    api: Citewise
    """The store, opened once."""
    store_url: str
    """Where it is (research jobs open their own connection to it)."""
    guard: Guard
    """Token, CSRF value, hosts."""
    prices: PriceTable
    """The price table costs are computed with."""
    jobs: dict[str, Any] = field(default_factory=dict)
    """Research runs started from the page, by job id."""
    rows: dict[tuple[str, str | None, str], Any] = field(default_factory=dict)
    """Runs-list lines by (run id, last sign of life, status): every append renews a run's lease, so
    a line is computed again exactly when its run changed (a verification, a claim review)."""


class WriteRefused(HTTPException):
    """A write without the token or the CSRF value."""


def state_of(request: Request) -> ServeState:
    """The app's shared state."""
    return request.app.state.serve  # type: ignore[no-any-return]


def page(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Template ``name`` as a response; write forms get the CSRF value."""
    context.setdefault("csrf", state_of(request).guard.csrf)
    return HTMLResponse(render_page(name, **context), status_code=status_code)


async def require_write(request: Request) -> FormData:
    """The form of a write request, once its token, CSRF value and origin are checked."""
    guard = state_of(request).guard
    if not guard.token_ok(request.cookies.get(COOKIE), request.headers.get("authorization")):
        raise WriteRefused(403, "this action needs the serve token: open the address `citewise serve` printed")
    if not guard.origin_ok(request.headers.get("origin"), request.headers.get("host"), request.url.scheme):
        raise WriteRefused(403, "cross-site request refused")
    form = await request.form()
    csrf = form.get("csrf")
    if not guard.csrf_ok(csrf if isinstance(csrf, str) else None):
        raise WriteRefused(403, "missing or wrong CSRF value: reload the page and try again")
    return form


def route(path: str, endpoint: Any, methods: tuple[str, ...] = ("GET",)) -> Route:
    """A route (for the page modules)."""
    return Route(path, endpoint, methods=list(methods))
