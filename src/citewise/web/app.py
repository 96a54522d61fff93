"""``citewise serve``: a Starlette app with server-rendered pages over the same store as the CLI.

::

    from citewise.web.app import create_app
    app = create_app(store_url, token="...")     # then: uvicorn.run(app, host="127.0.0.1", port=8765)

Pages: runs (:mod:`~citewise.web.pages`), a run with its ledger, costs, documents and the review
queue, new research with live progress (:mod:`~citewise.web.jobs`). Security is in
:mod:`~citewise.web.security`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citewise.api import Citewise
from citewise.config import Secret, redact
from citewise.errors import CitewiseError, NotFoundError, UserError
from citewise.prices import load_prices
from citewise.web import jobs, pages
from citewise.web.context import ServeState, page
from citewise.web.security import COOKIE, SECURITY_HEADERS, Guard

__all__ = ["create_app"]


class _Guarded:
    """Host check, token login, token for reads beyond loopback, and the security headers."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)
        if refusal is not None:
            await _with_headers(refusal)(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in SECURITY_HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_secured)

    def _refusal(self, request: Request) -> Response | None:
        if not self.guard.host_ok(request.headers.get("host")):
            return PlainTextResponse("unknown host", status_code=421)
        given = request.query_params.get("token")
        if given is not None:
            if not self.guard.token_ok(given, None):
                return PlainTextResponse("wrong token", status_code=403)
            rest = {k: v for k, v in request.query_params.items() if k != "token"}
            target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
            response = RedirectResponse(target, status_code=303)
            response.set_cookie(COOKIE, given, httponly=True, samesite="strict", path="/")
            return response
        authorised = self.guard.token_ok(request.cookies.get(COOKIE), request.headers.get("authorization"))
        if self.guard.reads_need_token and not authorised:
            return PlainTextResponse("this server needs its token: open the address `citewise serve` printed", 401)
        return None


def _with_headers(response: Response) -> Response:
    for k, v in SECURITY_HEADERS.items():
        response.headers[k] = v
    return response


async def _error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        status, message = exc.status_code, str(exc.detail)
    elif isinstance(exc, NotFoundError):
        status, message = 404, str(exc)
    elif isinstance(exc, UserError):
        status, message = 400, str(exc)
    else:
        status, message = 500, f"run error: {exc}" if isinstance(exc, CitewiseError) else "internal error"
    return page(request, "error.html", status_code=status, error=redact(message), status=status)


def create_app(
    store_url: str, *, token: str, hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1"), remote: bool = False
) -> Starlette:
    """The web app over the store at ``store_url``; writes need ``token``."""
    Secret(token)  # registered: redaction removes it from any page, log or record
    guard = Guard(token, frozenset(hosts), reads_need_token=remote)
    static = StaticFiles(packages=[("citewise.web", "static"), ("citewise.export", "static")])
    routes = [
        *pages.routes(),
        *jobs.routes(),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Mount("/static", app=static, name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={CitewiseError: _error, HTTPException: _error})
    app.state.serve = ServeState(Citewise(store_url), store_url, guard, load_prices(None))
    app.add_middleware(_Guarded, guard=guard)
    return app
