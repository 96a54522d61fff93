"""``citewise serve``: the local web UI to read and review runs, costs and documents."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from citewise.cli.common import StoreOpt, console, handle_errors
from citewise.config import resolve_store_url
from citewise.errors import ConfigError

__all__ = ["serve"]


@handle_errors
def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to bind (loopback unless --allow-remote).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port.")] = 8765,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="Allow a non-loopback --host (needs CITEWISE_SERVE_TOKEN).")
    ] = False,
    store: StoreOpt = None,
) -> None:
    """Serve runs, reports (hover a citation: its quote and source), the claim ledger, costs and the
    document review queue on http://127.0.0.1:8765. Every write needs the token printed at start (or
    CITEWISE_SERVE_TOKEN)."""
    try:
        import uvicorn

        from citewise.web.app import create_app
    except ImportError as exc:
        raise ConfigError(f"citewise serve needs the serve extra: pip install 'citewise[serve]' ({exc.name})") from None
    from citewise.web.security import TOKEN_ENV, check_bind, is_loopback, new_token, served_hosts

    given = os.environ.get(TOKEN_ENV, "").strip()
    check_bind(host, allow_remote, bool(given))
    token = given or new_token()
    app = create_app(resolve_store_url(store), token=token, hosts=served_hosts(host), remote=not is_loopback(host))
    shown = f"[{host}]" if ":" in host else host
    console.print(f"citewise serve: http://{shown}:{port}/?token={token}", highlight=False, markup=False)
    console.print("open that address once: it keeps the token in a cookie; writes need it.", style="dim")
    uvicorn.run(app, host=host, port=port, log_level="warning")
