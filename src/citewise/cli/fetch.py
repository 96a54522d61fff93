"""``citewise fetch URL``: fetch and read one page with citewise's own fetcher, showing every decision."""

from __future__ import annotations

from typing import Annotated

import typer

from citewise.cli.common import ExitCode, JsonOpt, console, emit_json, handle_errors, shown
from citewise.text.terminal import terminal_safe

__all__ = ["fetch"]


@handle_errors
def fetch(
    url: Annotated[str, typer.Argument(help="The http(s) URL to fetch.")],
    max_chars: Annotated[
        int, typer.Option("--max-chars", help="Characters of text to print (0: all; --json prints all).")
    ] = 4000,
    browser: Annotated[
        bool,
        typer.Option("--browser", help="Render the page in Chromium first (its scripts run; every request guarded)."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Fetch URL with citewise's own fetcher (the one `research --extract own` uses) and print the text,
    the title, the publication date with its signal, and every decision: URL and address checks,
    robots.txt, redirects, limits, content type, walls (with --browser: every request the page made).
    Exits 2 when URL is not a usable http(s) URL (a usage error: nothing was fetched) and 4 when
    nothing usable was read (refused, failed, or a wall)."""
    from citewise.fetch.browser import BrowserFetcher
    from citewise.fetch.client import Fetcher
    from citewise.fetch.target import parse_target

    # The fetcher would refuse it too, but as a page it could not read (4); a URL that is not a URL
    # at all is the caller's mistake (UnusableURL is a user error: one line, exit 2).
    parse_target(url)

    with BrowserFetcher() if browser else Fetcher() as fetcher:
        result = fetcher.fetch(url)
    code = ExitCode.ACCEPTED if result.ok else ExitCode.NO_EVIDENCE
    if json_out:
        emit_json({"result": result, "ok": result.ok, "exit_code": int(code)})
    else:
        _print(result, max_chars)
    if code is not ExitCode.ACCEPTED:
        raise typer.Exit(int(code))


def _print(result: object, max_chars: int) -> None:
    from citewise.fetch.records import FetchResult

    assert isinstance(result, FetchResult)
    verdict = "read" if result.ok else f"could not read ({result.outcome.value})"
    console.print(f"[bold]{shown(result.url)}[/] — {verdict}", highlight=False)
    for label, value in (
        ("final URL", result.final_url),
        ("status", result.status_code),
        ("content type", result.content_type),
        ("title", result.title),
        ("published", f"{result.published_at} ({result.publication_date_source})" if result.published_at else None),
        ("updated", result.updated_at),
        ("bytes", result.bytes_read or None),
        ("seconds", result.elapsed_s),
        ("rendered", "yes: read from the page as Chromium rendered it" if result.rendered else None),
    ):
        if value is not None:
            console.print(f"  {label}: {shown(str(value))}", highlight=False)
    console.print("decisions:")
    for decision in result.decisions:
        mark = "ok " if decision.allowed else "NO "
        console.print(f"  {mark}{decision.step.value:<8} {shown(decision.detail)}", highlight=False)
    if result.ok:
        text = result.text if max_chars <= 0 else result.text[:max_chars]
        console.print("text:")
        console.print(terminal_safe(text, keep_newlines=True), highlight=False, markup=False)
        if len(text) < len(result.text):
            console.print(f"[dim]… {len(result.text) - len(text)} more characters (--max-chars 0 for all)[/]")
