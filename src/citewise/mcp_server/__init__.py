"""citewise as a Model Context Protocol server (``citewise mcp``): search, ask, research, verify and
the recorded runs, for MCP clients such as Claude Desktop and IDEs. See :mod:`citewise.mcp_server.server`.

(The package is not called ``mcp``: that name belongs to the MCP SDK it is built on.)
"""

from citewise.mcp_server.server import SERVER_NAME, build_server, serve

__all__ = ["SERVER_NAME", "build_server", "serve"]
