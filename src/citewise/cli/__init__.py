"""The ``citewise`` command line: one module per command group."""

from __future__ import annotations

import typer

from citewise.cli import cache, docs, eval, review, runs, store
from citewise.cli.ask import ask
from citewise.cli.batch import BATCH_HELP, batch, worker
from citewise.cli.common import EXIT_CODES_HELP
from citewise.cli.cost import cost
from citewise.cli.fetch import fetch
from citewise.cli.ingest import ingest
from citewise.cli.mcp import mcp
from citewise.cli.recheck import recheck
from citewise.cli.research import research
from citewise.cli.search import search
from citewise.cli.serve import serve
from citewise.cli.verify import verify

__all__ = ["app", "main"]

app = typer.Typer(
    name="citewise",
    help="Evidence you can defend: ingest with provenance, review, search, answer with citations.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command()(ingest)
app.command()(search)
app.command(epilog=EXIT_CODES_HELP)(ask)
app.command(epilog=EXIT_CODES_HELP)(research)
app.command()(cost)
app.command()(verify)
app.add_typer(review.app, name="review")
app.add_typer(docs.app, name="docs")
app.add_typer(store.app, name="store")
app.add_typer(eval.app, name="eval")
app.add_typer(runs.app, name="runs")
app.command(epilog=BATCH_HELP)(batch)
app.command()(worker)
app.command()(serve)
app.command()(mcp)
app.command()(fetch)
app.command()(recheck)
app.add_typer(cache.app, name="cache")


def main() -> None:
    """Entry point of the ``citewise`` script."""
    from citewise.config import load_dotenv

    load_dotenv()
    app(prog_name="citewise")
