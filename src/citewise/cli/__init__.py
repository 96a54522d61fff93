"""The ``citewise`` command line: one module per command group."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperGroup, TyperOption

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
from citewise.version import __version__

__all__ = ["app", "main"]


def _no_type(ctx: Any = None) -> None:
    return None


def _quiet_param(param: Any) -> None:
    if not hasattr(param, "bare_type"):
        return
    if (isinstance(param, TyperOption) and param.is_flag) or param.bare_type() in ("str", "list[str]"):
        param.display_type_rich = _no_type


def _quiet_help_types(command: Any) -> None:
    """Drop the ``<bool>``, ``<str>`` and ``<list[str]>`` that typer's help prints beside every flag
    and text value: a flag takes no value, and a text value is said by the option's name and help.
    Numbers, paths and choices keep their type, which tells the reader something. Parameters are
    quieted as the help asks for them, so the ``--help`` option (made on demand) is quieted too."""
    params_of = command.get_params

    def get_params(ctx: Any) -> Any:
        params = params_of(ctx)
        for param in params:
            _quiet_param(param)
        return params

    command.get_params = get_params
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _quiet_help_types(sub)


class CitewiseGroup(TyperGroup):
    """The root command: every command below it prints its help without type noise."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _quiet_help_types(self)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"citewise {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="citewise",
    cls=CitewiseGroup,
    help="Evidence you can defend: ingest with provenance, review, search, answer with citations.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Evidence you can defend: ingest with provenance, review, search, answer with citations."""


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
