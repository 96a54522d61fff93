"""``citewise mcp``: serve search, ask, research, verify and the recorded runs to MCP clients."""

from __future__ import annotations

from citewise.cli.common import StoreOpt, handle_errors

__all__ = ["mcp"]


@handle_errors
def mcp(store: StoreOpt = None) -> None:
    """Run the MCP server on stdio (for Claude Desktop, IDEs and other MCP clients): tools search, ask,
    research, verify and get_run; each run's report as a resource. Logs go to stderr; stdout carries
    the protocol only."""
    try:
        from citewise.mcp_server import serve
    except ImportError:  # the SDK is an extra
        from citewise.errors import ConfigError

        raise ConfigError(
            "the MCP server needs the MCP SDK (the `mcp` package), which is not installed: pip install 'citewise[mcp]'"
        ) from None
    serve(store)
