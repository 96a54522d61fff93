"""Ingestion: files -> parsed documents -> versions in the store, with provenance.

Each document is stored in its own transaction, so a bad file never leaves half a document behind
and never stops the rest of the batch. Each file is parsed under the bounds of
:mod:`citewise.ingest.limits` (size, time, YAML aliases, JSON depth), so a hostile one fails alone,
fast, with one line naming the file, the problem and the fix.

Identical content is a no-op; changed content becomes a new version that needs review. Provenance
comes from, in order of precedence: command-line options, the manifest entry for the file, the
manifest defaults, what the document states about itself, and finally how the text came in (the
retrieval provider defaults to the local file). The issuing authority is never inferred from the
channel. Document ids are checked by
:mod:`citewise.ingest.identity`; which document a version belongs to is decided by the store
(:func:`citewise.store.versions.claim_doc_id`).
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from citewise.errors import CitewiseError, InputError, ParseError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.bounded import BoundedWorker
from citewise.ingest.decode import decode_text
from citewise.ingest.identity import check_doc_id
from citewise.ingest.limits import ParseBudget, ParseLimits
from citewise.ingest.manifest import Manifest, ManifestEntry, load_manifest
from citewise.ingest.registry import PARSERS, _load_builtin_parsers, get_parser
from citewise.records import IngestOutcome, IngestResult, Provenance
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import NewSection, NewVersion
from citewise.store.rows import utcnow

__all__ = ["IngestOptions", "Manifest", "ManifestEntry", "discover", "ingest_paths", "load_manifest"]

#: The order in which parsers are asked whether they recognise a file: specific formats first.
SNIFF_ORDER = ("kr-statute", "uslm", "pdf", "jsonl", "rst", "html", "markdown", "text")

# Files that describe a corpus rather than belong to it; skipped when walking a directory.
_NOT_DOCUMENTS = ("readme*", "license*", "licence*", "source*", "copying*", "notice*")


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """Provenance given on the command line (wins over everything else) and parsing choices."""

    issuing_authority: str | None = None
    official_publisher: str | None = None
    retrieval_provider: str | None = None
    licence: str | None = None
    permitted_uses: tuple[str, ...] = ()
    language: str | None = None
    doc_id: str | None = None
    format: str | None = None
    encoding: str | None = None
    limits: ParseLimits = field(default_factory=ParseLimits)
    """Bounds on what one file may cost to parse."""


def discover(paths: Iterable[Path], manifest_folder: Path | None = None) -> Iterator[tuple[Path, str | None]]:
    """Files to ingest, each with ``None`` or the reason it cannot be read.

    Given files are taken as they are; directories are walked (hidden files and corpus notes such
    as README or SOURCE skipped, files of unknown type skipped); broken links are reported. Every
    path is resolved, and one that leaves the folder it was reached through (a link from the corpus
    to a system file, say) is refused with its reason, the rest of the folder still ingested: the
    folder walked, the folder of a file given by name, or ``manifest_folder`` for a file inside it.
    """
    _load_builtin_parsers()
    suffixes = {s for factory in PARSERS.values() for s in factory().suffixes}
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                name = child.name.lower()
                if name.startswith(".") or any(fnmatch.fnmatch(name, g) for g in _NOT_DOCUMENTS):
                    continue
                if not any(name.endswith(s) for s in suffixes):
                    continue
                if child.is_file():
                    yield child, _escape(child, path, manifest_folder)
                elif not child.exists():
                    yield child, "broken link: the file it points to does not exist"
        elif path.is_file():
            yield path, _escape(path, path.absolute().parent, manifest_folder)
        else:
            yield path, "no such file or directory"


def _escape(path: Path, folder: Path, manifest_folder: Path | None) -> str | None:
    """Why ``path`` may not be read: it resolves outside ``folder`` (and outside the manifest's
    folder when it lies there); ``None`` when it stays inside."""
    real = path.resolve()
    roots = [folder.resolve()]
    if manifest_folder is not None and _inside(path.absolute(), manifest_folder.absolute()):
        roots.append(manifest_folder.resolve())
    if any(_inside(real, root) for root in roots):
        return None
    return (
        f"refused: it is a link leading out of {roots[-1]} (to {real}); "
        "copy the file into the folder or ingest it by its own path"
    )


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def choose_parser(path: Path, data: bytes, fmt: str | None) -> Parser:
    """The parser named by ``fmt``, else the first in :data:`SNIFF_ORDER` that recognises the file,
    else the one that claims its suffix."""
    if fmt:
        return get_parser(fmt)
    head = data[:4096].decode("utf-8", errors="replace")
    for name in SNIFF_ORDER:
        parser = get_parser(name)
        if parser.sniff(path, head):
            return parser
    # Nothing recognised the content: let the parser that owns the suffix say what is wrong
    # (an .xml file that is not well-formed gets "invalid XML", not "unknown type").
    for name in SNIFF_ORDER:
        parser = get_parser(name)
        if any(path.name.lower().endswith(suffix) for suffix in parser.suffixes):
            return parser
    raise ParseError(
        f"unrecognised file type {path.suffix or '(no suffix)'}; pass --format with one of: " + ", ".join(SNIFF_ORDER),
        path=str(path),
    )


def provenance_for(
    parsed: ParsedDocument, path: Path, options: IngestOptions, manifest_values: dict[str, Any]
) -> tuple[Provenance, str]:
    """Merge provenance by precedence; return it with the document id to store under."""
    stated: dict[str, Any] = {
        "issuing_authority": parsed.issuing_authority,
        "official_publisher": parsed.official_publisher,
        "origin_url": parsed.origin_url or path.resolve().as_uri(),
        "version_label": parsed.version_label,
        "promulgated_on": parsed.promulgated_on,
        "effective_on": parsed.effective_on,
        "language": parsed.language,
        "licence": parsed.licence,
        "retrieval_provider": "local-file",
    }
    cli = {
        "issuing_authority": options.issuing_authority,
        "official_publisher": options.official_publisher,
        "retrieval_provider": options.retrieval_provider,
        "licence": options.licence,
        "language": options.language,
        "permitted_uses": options.permitted_uses or None,
    }
    merged = {**stated, **{k: v for k, v in manifest_values.items() if v is not None}}
    merged.update({k: v for k, v in cli.items() if v is not None})
    doc_id = check_doc_id(
        str(options.doc_id or manifest_values.get("doc_id") or parsed.doc_id), parsed.source or str(path)
    )
    return (
        Provenance(
            issuing_authority=merged.get("issuing_authority"),
            official_publisher=merged.get("official_publisher"),
            retrieval_provider=merged.get("retrieval_provider"),
            origin_url=merged.get("origin_url"),
            retrieved_at=utcnow(),
            version_label=_opt_str(merged.get("version_label")),
            promulgated_on=_as_date(merged.get("promulgated_on")),
            effective_on=_as_date(merged.get("effective_on")),
            language=merged.get("language"),
            licence=merged.get("licence"),
            permitted_uses=tuple(str(u) for u in merged.get("permitted_uses") or ()),
        ),
        doc_id,
    )


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)


def _as_date(value: object) -> date | None:
    if value is None or isinstance(value, date) and not isinstance(value, datetime):
        return value  # type: ignore[return-value]
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError as exc:
        raise InputError(f"bad date {value!r}: expected YYYY-MM-DD") from exc


def store_document(
    store: EvidenceStoreProtocol,
    parsed: ParsedDocument,
    path: Path,
    options: IngestOptions,
    manifest_values: dict[str, Any],
) -> IngestResult:
    """Store one parsed document as a new version, or report it unchanged (one transaction)."""
    provenance, doc_id = provenance_for(parsed, path, options, manifest_values)
    _check_sections(parsed)
    explicit = bool(options.doc_id or manifest_values.get("doc_id"))
    return store.store_version(
        NewVersion(
            doc_id=doc_id,
            title=parsed.title,
            format=parsed.format,
            source=parsed.source or str(path),
            full_text=parsed.text,
            provenance=provenance,
            sections=tuple(
                NewSection(s.section_id, s.heading, s.text, s.kind, s.deleted, s.reserved, s.deleted_parts)
                for s in parsed.sections
            ),
            metadata=dict(parsed.metadata),
            origin_path=str(path.resolve()),
            id_declared=explicit or parsed.id_declared,
        )
    )


def _check_sections(parsed: ParsedDocument) -> None:
    if not parsed.sections:
        raise ParseError("no sections found: nothing to store", path=parsed.source or None)
    # Every parser's output is checked, not only the text parsers' input: PDF and HTML text too.
    if "\x00" in parsed.text or any("\x00" in s.text or "\x00" in s.heading for s in parsed.sections):
        raise ParseError("NUL character in the text: remove it from the file", path=parsed.source or None)
    seen: set[str] = set()
    for s in parsed.sections:
        if s.section_id in seen:
            raise ParseError(f"duplicate section id {s.section_id!r}", path=parsed.source or None)
        seen.add(s.section_id)


def ingest_paths(
    store: EvidenceStoreProtocol,
    paths: Iterable[Path],
    options: IngestOptions | None = None,
    manifest: Manifest | None = None,
    progress: Callable[[IngestResult], None] | None = None,
) -> list[IngestResult]:
    """Ingest files and directories; one result per document (or per failed input)."""
    options = options or IngestOptions()
    store.reindex()  # an index built by an older analyzer is rebuilt before new rows join it
    results: list[IngestResult] = []

    def emit(result: IngestResult) -> None:
        results.append(result)
        if progress:
            progress(result)

    found = list(discover(paths, manifest.base if manifest else None))
    conflicts = _id_conflicts([path for path, problem in found if problem is None], options, manifest)
    with BoundedWorker(options.limits.max_memory_bytes) as worker:  # one fork for many files
        for path, problem in found:
            if problem or path in conflicts:
                emit(IngestResult(str(path), IngestOutcome.FAILED, error=conflicts.get(path) or f"{path}: {problem}"))
                continue
            for result in _ingest_file(store, path, options, manifest, worker):
                emit(result)
    return results


def _id_conflicts(files: list[Path], options: IngestOptions, manifest: Manifest | None) -> dict[Path, str]:
    """Files an explicit id would wrongly make one document (--doc-id: InputError for the command)."""
    if options.doc_id:
        check_doc_id(options.doc_id, "--doc-id")
        if len(files) > 1:
            named = ", ".join(str(p) for p in files[:3]) + (" ..." if len(files) > 3 else "")
            raise InputError(
                f"--doc-id names one document, but {len(files)} files were given ({named}); "
                "ingest one file, or give each file its id in a manifest entry"
            )
    return manifest.id_conflicts(files) if manifest else {}


def _read(path: Path, limits: ParseLimits) -> bytes:
    try:
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            raise ParseError(
                f"file is {size / 2**20:.1f} MB, over the limit of {limits.max_file_bytes / 2**20:.1f} MB per file; "
                "split it (JSON Lines: into several files)",
                path=str(path),
            )
        return path.read_bytes()
    except OSError as exc:
        raise ParseError(f"unreadable: {exc.strerror}", path=str(path)) from None


def _parse_file(path: Path, options: IngestOptions) -> tuple[list[ParsedDocument | ParseError], list[str]]:
    """Read and parse one file under its budget (in the bounded child: see :func:`_ingest_file`);
    its documents and the warnings the parsers gave about it."""
    where = str(path)
    budget = ParseBudget(where, options.limits)
    with budget.running():
        data = _read(path, options.limits)
        if options.encoding:
            # Re-encode once as UTF-8 so that every text parser reads the declared encoding.
            data = decode_text(data, where, options.encoding).encode("utf-8")
        return list(choose_parser(path, data, options.format).parse(path, data)), budget.notes


# The cooperative checkpoints name the bound themselves; the child is killed only if it is stuck in
# one long call (a C parser), a moment after its own clock ran out.
_KILL_GRACE_S = 1.0


def _with_notes(result: IngestResult, notes: list[str]) -> IngestResult:
    if not notes:
        return result
    return dataclasses.replace(result, note="; ".join([*notes, *([result.note] if result.note else [])]))


def _ingest_file(
    store: EvidenceStoreProtocol,
    path: Path,
    options: IngestOptions,
    manifest: Manifest | None,
    worker: BoundedWorker,
) -> Iterator[IngestResult]:
    """Parse one file where its time and memory limits can stop it (:mod:`citewise.ingest.bounded`),
    then store its documents; every failure is one result."""
    where = str(path)
    limits = options.limits
    values = manifest.values_for(path) if manifest else {}
    explicit_id = options.doc_id or values.get("doc_id")
    stored = 0
    try:
        documents, notes = worker.run(
            _parse_file, path, options, seconds=limits.max_seconds, where=where, grace=_KILL_GRACE_S
        )
        for parsed in documents:
            if isinstance(parsed, ParseError):
                yield IngestResult(parsed.path or where, IngestOutcome.FAILED, error=str(parsed))
                continue
            if explicit_id and stored:
                source = parsed.source or where
                error = f"{source}: doc_id {explicit_id!r} names one document, but {where} holds several"
                yield IngestResult(source, IngestOutcome.FAILED, error=error + "; drop the doc_id")
                continue
            stored += 1
            try:
                yield _with_notes(store_document(store, parsed, path, options, values), notes)
            except CitewiseError as exc:
                yield IngestResult(parsed.source or where, IngestOutcome.FAILED, error=str(exc))
    except CitewiseError as exc:
        yield IngestResult(where, IngestOutcome.FAILED, error=str(exc))
    except RecursionError:
        # A structure nested past every bound above (a parser library's own recursion).
        yield IngestResult(where, IngestOutcome.FAILED, error=f"{where}: nested too deeply to parse; flatten it")
    except MemoryError:
        error = f"{where}: ran out of memory while parsing; split the file or lower its nesting"
        yield IngestResult(where, IngestOutcome.FAILED, error=error)


__all__ += ["choose_parser", "provenance_for", "store_document"]
