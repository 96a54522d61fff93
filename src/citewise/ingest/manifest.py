"""Ingest manifests: provenance defaults and per-file entries, scoped to the manifest's folder.

A manifest's ``documents`` entries are globs relative to the folder the manifest is in, and they
match only files inside that folder: a file elsewhere never picks up an entry's issuer, licence or
id, however its name looks. A ``doc_id`` names one document, so it may not be a default, and an
entry that gives one must match exactly one of the files ingested (:meth:`Manifest.id_conflicts`).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from citewise.errors import InputError, ParseError
from citewise.ingest.identity import check_doc_id
from citewise.ingest.limits import load_yaml
from citewise.records import Provenance

__all__ = ["Manifest", "ManifestEntry", "load_manifest"]

_PROVENANCE_KEYS = {f.name for f in fields(Provenance)} | {"doc_id"}
_NAMED_FILES = 5  # files named in an error before "and N more"


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """Provenance for the files matching ``pattern`` (a glob relative to the manifest's folder)."""

    pattern: str
    values: dict[str, Any]
    number: int = 0
    """Its place among the manifest's entries (1-based), for messages."""

    def matches(self, relative: str) -> bool:
        """Whether the path ``relative`` to the manifest's folder (POSIX form) matches."""
        return fnmatch.fnmatch(relative, self.pattern)


@dataclass(frozen=True, slots=True)
class Manifest:
    """An ingest manifest: provenance defaults and per-file entries."""

    base: Path
    defaults: dict[str, Any] = field(default_factory=dict)
    entries: tuple[ManifestEntry, ...] = ()

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the manifest's folder, or None when it lies outside it."""
        try:
            return path.resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return None

    def matching(self, path: Path) -> list[ManifestEntry]:
        """The entries whose pattern matches ``path`` (none for a file outside the folder)."""
        relative = self.relative(path)
        return [] if relative is None else [e for e in self.entries if e.matches(relative)]

    def values_for(self, path: Path) -> dict[str, Any]:
        """Defaults overlaid with every entry whose pattern matches ``path``."""
        merged = dict(self.defaults)
        for entry in self.matching(path):
            merged.update(entry.values)
        return merged

    def id_conflicts(self, paths: Sequence[Path]) -> dict[Path, str]:
        """For each of ``paths`` matched by an entry that gives a ``doc_id`` to more than one of
        them, the error to report for it (naming the files)."""
        claimed: dict[int, list[Path]] = {}
        for path in paths:
            for entry in self.matching(path):
                if entry.values.get("doc_id") is not None:
                    claimed.setdefault(entry.number, []).append(path)
        errors: dict[Path, str] = {}
        for number, files in claimed.items():
            if len(files) < 2:
                continue
            entry = self.entries[number - 1]
            named = ", ".join(str(p) for p in files[:_NAMED_FILES])
            more = f" and {len(files) - _NAMED_FILES} more" if len(files) > _NAMED_FILES else ""
            for path in files:
                errors[path] = (
                    f"{path}: manifest entry {number} ({entry.pattern!r}) gives doc_id {entry.values['doc_id']!r} "
                    f"to {len(files)} files ({named}{more}); a doc_id names one document: narrow the pattern"
                )
        return errors


def load_manifest(path: Path) -> Manifest:
    """Read an ingest manifest (YAML or JSON)::

    defaults:
      retrieval_provider: legalize-kr (GitHub mirror)
      licence: public domain (Korean Copyright Act art. 7)
      permitted_uses: [quote, summarise, redistribute]
    documents:
      - path: "kr-statutes/주택임대차보호법__*.md"   # relative to this manifest's folder
        issuing_authority: 법무부
    """
    try:
        data = load_yaml(path.read_text(encoding="utf-8"), str(path)) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ParseError) as exc:
        raise InputError(f"cannot read manifest {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"manifest {path} must be a mapping with 'defaults' and/or 'documents'")
    defaults = _check_keys(data.get("defaults") or {}, f"{path}: defaults")
    if "doc_id" in defaults:
        raise InputError(f"manifest {path}: 'doc_id' cannot be a default (it names one document); give it per entry")
    entries = []
    for i, item in enumerate(data.get("documents") or [], start=1):
        if not isinstance(item, dict) or not item.get("path"):
            raise InputError(f"manifest {path}: document entry {i} needs a 'path'")
        where = f"{path}: entry {i}"
        values = _check_keys({k: v for k, v in item.items() if k != "path"}, where)
        if values.get("doc_id") is not None:
            values["doc_id"] = check_doc_id(str(values["doc_id"]), where)
        entries.append(ManifestEntry(_check_pattern(str(item["path"]), where), values, i))
    return Manifest(path.parent, defaults, tuple(entries))


def _check_pattern(pattern: str, where: str) -> str:
    """A pattern relative to the manifest's folder that cannot reach outside it."""
    pure = PurePosixPath(pattern.replace("\\", "/"))
    if pure.is_absolute() or Path(pattern).is_absolute() or ".." in pure.parts:
        raise InputError(
            f"{where}: path {pattern!r} must be relative to the manifest's folder and stay inside it "
            "(no leading '/', no '..'); move the manifest up to cover other folders"
        )
    return pure.as_posix().removeprefix("./")


def _check_keys(values: object, where: str) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise InputError(f"{where} must be a mapping")
    unknown = set(values) - _PROVENANCE_KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)}; valid keys: {sorted(_PROVENANCE_KEYS)}")
    return dict(values)
