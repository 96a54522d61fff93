"""What every command shares: the store option, JSON output, error reporting."""

from __future__ import annotations

import enum
import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console, ConsoleRenderable, RenderHook, RichCast
from rich.markup import escape
from rich.segment import Segment

from citewise.config import redact, redact_data
from citewise.errors import CitewiseError, UserError
from citewise.serial import to_data
from citewise.text.terminal import json_safe, terminal_safe

if TYPE_CHECKING:
    from citewise.api import Citewise

__all__ = [
    "EXIT_CODES_HELP",
    "ExitCode",
    "JsonOpt",
    "StoreOpt",
    "console",
    "emit_json",
    "err_console",
    "handle_errors",
    "open_api",
    "shown",
    "to_jsonable",
]


class ExitCode(enum.IntEnum):
    """What ``citewise research`` and ``citewise ask`` exit with, for scripts (README: Exit codes)."""

    ACCEPTED = 0  #: a report (or answer) was delivered and accepted
    RUN_ERROR = 1  #: the run failed (a provider or model error); its evidence is kept, research can resume
    USER_ERROR = 2  #: bad input or configuration; nothing ran
    NOT_ACCEPTED = 3  #: delivered, but not accepted (or not verified: --no-verify; a clarification; a handoff)
    NO_EVIDENCE = 4  #: no usable evidence (or nothing survived verification), so no answer was given
    BUDGET_EXHAUSTED = 5  #: a budget ran out before any report could be delivered


EXIT_CODES_HELP = (
    "Exit codes: 0 accepted; 3 delivered but not accepted; 4 no evidence; 5 budget exhausted before a report; "
    "2 user or configuration error; 1 run failed (evidence kept)."
)


def shown(text: object) -> str:
    """Untrusted ``text`` (a title, a page's words, a message) ready to sit inside Rich markup:
    control characters and escape sequences written as visible escapes, markup brackets escaped.

    (``a[b]<ESC>]0;x.md`` is printed as ``a[b]\\x1b]0;x.md``, the bracket taken literally.)
    """
    return escape(terminal_safe(redact(str(text))))


def shown_body(text: object) -> str:
    """Like :func:`shown`, for a body printed over several lines (line feeds and tabs kept)."""
    return escape(terminal_safe(redact(str(text)), keep_newlines=True))


class _Rendered:
    """A renderable whose text segments pass through :func:`terminal_safe` on the way out."""

    def __init__(self, renderable: ConsoleRenderable | RichCast) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: Any) -> Any:
        for segment in console.render(self.renderable, options):
            if segment.control:
                yield segment
            else:  # a provider's message may echo a key, masked or not: it never reaches the screen
                yield Segment(terminal_safe(redact(segment.text), keep_newlines=True), segment.style)


class _SafeOutput(RenderHook):
    """The last guard of every console: whatever reaches the terminal through Rich, from any
    command, carries no control character or escape sequence of the data it shows and no secret
    citewise knows, masked or whole (Rich's own styling is added after this, so colours still work)."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Rendered(r) for r in renderables]  # type: ignore[misc]


def _console(**options: Any) -> Console:
    # Emoji shortcodes are off: ``root:x:0:0`` must not print as ``root❌0:0``.
    made = Console(emoji=False, **options)
    made.push_render_hook(_SafeOutput())
    return made


console = _console(soft_wrap=False)
err_console = _console(stderr=True)

StoreOpt = Annotated[
    str | None,
    typer.Option("--store", envvar="CITEWISE_STORE", help="SQLite path or database URL (default: user data dir)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]

F = TypeVar("F", bound=Callable[..., Any])


def handle_errors(func: F) -> F:
    """Report citewise errors as one clear line: exit 2 for user errors, 5 for a budget exhausted before
    anything was delivered, 1 for other run errors."""
    from citewise.records.budget import BudgetExhausted

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except CitewiseError as exc:
            code = ExitCode.USER_ERROR if isinstance(exc, UserError) else ExitCode.RUN_ERROR
            if isinstance(exc, BudgetExhausted):  # e.g. the cap leaves no room even for the plan
                code = ExitCode.BUDGET_EXHAUSTED
            message = redact(str(exc))  # a provider may have echoed a key into its message
            if kwargs.get("json_out"):  # --json always prints one complete object
                error = {"kind": type(exc).__name__, "message": message, "user_error": isinstance(exc, UserError)}
                emit_json({"error": error, "exit_code": int(code)})
            # One line whatever the width: a script reading stderr (or a narrow terminal) gets the
            # whole message on the line that starts with "error:".
            err_console.print(f"[bold red]error:[/] {shown(message)}", highlight=False, markup=True, soft_wrap=True)
            raise typer.Exit(int(code)) from None

    return wrapper  # type: ignore[return-value]


def open_api(store: str | None) -> Citewise:
    """The API over the chosen store (imported here: ``--help`` never loads the store or the models)."""
    from citewise.api import Citewise

    return Citewise(store)


def to_jsonable(value: Any) -> Any:
    """Records, enums, dates and paths as plain JSON values (the records' one serialiser)."""
    return to_data(value)


def emit_json(value: Any) -> None:
    """Write ``value`` as JSON to stdout."""
    text = json.dumps(redact_data(to_jsonable(value)), ensure_ascii=False, indent=2)
    sys.stdout.write(json_safe(text) + "\n")  # the same data, no raw C1 or bidi character on a terminal
