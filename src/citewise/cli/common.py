"""What every command shares: the store option, JSON output, error reporting."""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import sys
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from citewise.api import Citewise
from citewise.errors import CitewiseError, UserError

__all__ = ["JsonOpt", "StoreOpt", "console", "emit_json", "err_console", "handle_errors", "open_api", "to_jsonable"]

console = Console(soft_wrap=False)
err_console = Console(stderr=True)

StoreOpt = Annotated[
    str | None,
    typer.Option("--store", envvar="CITEWISE_STORE", help="SQLite path or database URL (default: user data dir)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(func: F) -> F:
    """Report citewise errors as one clear line: exit 2 for user errors, 1 for run errors."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except CitewiseError as exc:
            err_console.print(f"[bold red]error:[/] {exc}", highlight=False, markup=True)
            raise typer.Exit(2 if isinstance(exc, UserError) else 1) from None

    return wrapper  # type: ignore[return-value]


def open_api(store: str | None) -> Citewise:
    """The API over the chosen store."""
    return Citewise(store)


def to_jsonable(value: Any) -> Any:
    """Records, enums, dates and paths as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    return value


def emit_json(value: Any) -> None:
    """Write ``value`` as JSON to stdout."""
    sys.stdout.write(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2) + "\n")
