"""Ingestion: files -> parsed documents -> versions in the store, with provenance.

Each document is stored in its own transaction, so a bad file never leaves half a document behind
and never stops the rest of the batch. Identical content is a no-op; changed content becomes a new
version that needs review. Provenance comes from, in order of precedence: command-line options, the
manifest entry for the file, the manifest defaults, what the document states about itself, and
finally how the text came in (the retrieval provider defaults to the local file). The issuing
authority is never inferred from the channel.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml

from citewise.errors import CitewiseError, InputError, ParseError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.registry import PARSERS, _load_builtin_parsers, get_parser
from citewise.records import IngestOutcome, IngestResult, Provenance
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import NewSection, NewVersion
from citewise.store.rows import utcnow

__all__ = ["IngestOptions", "Manifest", "discover", "ingest_paths", "load_manifest"]

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


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """Provenance for the files matching ``pattern`` (a glob relative to the manifest)."""

    pattern: str
    values: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Manifest:
    """An ingest manifest: provenance defaults and per-file entries."""

    base: Path
    defaults: dict[str, Any] = field(default_factory=dict)
    entries: tuple[ManifestEntry, ...] = ()

    def values_for(self, path: Path) -> dict[str, Any]:
        """Defaults overlaid with every entry whose pattern matches ``path``."""
        merged = dict(self.defaults)
        for entry in self.entries:
            pattern = (
                str((self.base / entry.pattern).resolve()) if not Path(entry.pattern).is_absolute() else entry.pattern
            )
            if fnmatch.fnmatch(str(path.resolve()), pattern) or fnmatch.fnmatch(path.name, entry.pattern):
                merged.update(entry.values)
        return merged


_PROVENANCE_KEYS = {f.name for f in fields(Provenance)} | {"doc_id"}


def load_manifest(path: Path) -> Manifest:
    """Read an ingest manifest (YAML or JSON)::

    defaults:
      retrieval_provider: legalize-kr (GitHub mirror)
      licence: public domain (Korean Copyright Act art. 7)
      permitted_uses: [quote, summarise, redistribute]
    documents:
      - path: "kr-statutes/주택임대차보호법__*.md"
        issuing_authority: 법무부
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise InputError(f"cannot read manifest {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"manifest {path} must be a mapping with 'defaults' and/or 'documents'")
    defaults = _check_keys(data.get("defaults") or {}, f"{path}: defaults")
    entries = []
    for i, item in enumerate(data.get("documents") or [], start=1):
        if not isinstance(item, dict) or not item.get("path"):
            raise InputError(f"manifest {path}: document entry {i} needs a 'path'")
        values = {k: v for k, v in item.items() if k != "path"}
        entries.append(ManifestEntry(str(item["path"]), _check_keys(values, f"{path}: entry {i}")))
    return Manifest(path.parent, defaults, tuple(entries))


def _check_keys(values: object, where: str) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise InputError(f"{where} must be a mapping")
    unknown = set(values) - _PROVENANCE_KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)}; valid keys: {sorted(_PROVENANCE_KEYS)}")
    return dict(values)


def discover(paths: Iterable[Path]) -> Iterator[tuple[Path, str | None]]:
    """Files to ingest, each with ``None`` or the reason it cannot be read.

    Given files are taken as they are; directories are walked (hidden files and corpus notes such
    as README or SOURCE skipped, files of unknown type skipped); broken links are reported.
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
                    yield child, None
                elif not child.exists():
                    yield child, "broken link: the file it points to does not exist"
        elif path.is_file():
            yield path, None
        else:
            yield path, "no such file or directory"


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
    doc_id = options.doc_id or manifest_values.get("doc_id") or parsed.doc_id
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
        str(doc_id),
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
        )
    )


def _check_sections(parsed: ParsedDocument) -> None:
    if not parsed.sections:
        raise ParseError("no sections found: nothing to store", path=parsed.source or None)
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

    for path, problem in discover(paths):
        if problem:
            emit(IngestResult(str(path), IngestOutcome.FAILED, error=f"{path}: {problem}"))
            continue
        for result in _ingest_file(store, path, options, manifest):
            emit(result)
    return results


def _ingest_file(
    store: EvidenceStoreProtocol, path: Path, options: IngestOptions, manifest: Manifest | None
) -> Iterator[IngestResult]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        yield IngestResult(str(path), IngestOutcome.FAILED, error=f"{path}: unreadable: {exc.strerror}")
        return
    try:
        if options.encoding:
            # Re-encode once as UTF-8 so that every text parser reads the declared encoding.
            data = decode_text(data, str(path), options.encoding).encode("utf-8")
        parser = choose_parser(path, data, options.format)
        values = manifest.values_for(path) if manifest else {}
        for parsed in parser.parse(path, data):
            if isinstance(parsed, ParseError):
                yield IngestResult(parsed.path or str(path), IngestOutcome.FAILED, error=str(parsed))
                continue
            try:
                yield store_document(store, parsed, path, options, values)
            except CitewiseError as exc:
                yield IngestResult(parsed.source or str(path), IngestOutcome.FAILED, error=str(exc))
    except CitewiseError as exc:
        yield IngestResult(str(path), IngestOutcome.FAILED, error=str(exc))


__all__ += ["choose_parser", "provenance_for", "store_document"]
