"""Ingest never follows a link out of the folder it was given (or the manifest's folder): the link is
refused in one line saying where it leads and what to do, and the rest of the folder is ingested."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from citewise.ingest.manifest import load_manifest
from citewise.ingest.pipeline import IngestOptions, ingest_paths
from citewise.records import IngestOutcome
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore

SECRET = "root:x:0:0:secretword:/root:/bin/bash"


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """``corpus/`` with a good file, and ``outside/`` holding a file no corpus should reach."""
    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    corpus.mkdir()
    outside.mkdir()
    (corpus / "good.md").write_text("# Good\n\nA good file about deposits.\n", encoding="utf-8")
    (outside / "passwd.txt").write_text(f"{SECRET}\n", encoding="utf-8")
    (outside / "notes.md").write_text(f"# Notes\n\n{SECRET}\n", encoding="utf-8")
    return corpus, outside


def _outcomes(results: list) -> dict[str, IngestOutcome]:  # type: ignore[type-arg]
    return {Path(r.source).name: r.outcome for r in results}


def _leaked(store: EvidenceStore) -> bool:
    return bool(search(store, "secretword", embedder=None))


def test_a_link_to_a_file_outside_the_folder_is_refused_and_the_rest_ingested(
    layout: tuple[Path, Path], store: EvidenceStore
) -> None:
    corpus, outside = layout
    (corpus / "passwd.txt").symlink_to(outside / "passwd.txt")
    (corpus / "relative.md").symlink_to(Path("..") / "outside" / "notes.md")  # a relative link escapes too
    results = ingest_paths(store, [corpus])
    assert _outcomes(results) == {
        "good.md": IngestOutcome.NEW_DOCUMENT,
        "passwd.txt": IngestOutcome.FAILED,
        "relative.md": IngestOutcome.FAILED,
    }
    for r in results:
        if r.outcome is IngestOutcome.FAILED:
            assert r.error is not None and "\n" not in r.error
            assert "link leading out of" in r.error and str(outside.resolve()) in r.error
            assert r.error.startswith(r.source + ":")
    assert not _leaked(store)


def test_a_linked_directory_leading_out_is_not_walked_into(layout: tuple[Path, Path], store: EvidenceStore) -> None:
    corpus, outside = layout
    (corpus / "sub").mkdir()
    (corpus / "sub" / "elsewhere").symlink_to(outside, target_is_directory=True)
    (corpus / "sub" / "deep.md").symlink_to(corpus / "sub" / "elsewhere" / "notes.md")  # a link via a link
    results = ingest_paths(store, [corpus])
    assert _outcomes(results)["good.md"] is IngestOutcome.NEW_DOCUMENT
    assert _outcomes(results).get("deep.md") is IngestOutcome.FAILED
    assert not _leaked(store)


def test_a_link_that_stays_inside_the_folder_is_ingested(layout: tuple[Path, Path], store: EvidenceStore) -> None:
    corpus, _ = layout
    (corpus / "a").mkdir()
    (corpus / "a" / "same.md").symlink_to(corpus / "good.md")
    results = ingest_paths(store, [corpus])
    assert all(r.outcome is not IngestOutcome.FAILED for r in results), results


def test_a_link_given_by_name_that_leads_out_of_its_folder_is_refused(
    layout: tuple[Path, Path], store: EvidenceStore
) -> None:
    corpus, outside = layout
    (corpus / "passwd.md").symlink_to(outside / "passwd.txt")
    [result] = ingest_paths(store, [corpus / "passwd.md"])
    assert result.outcome is IngestOutcome.FAILED and "link leading out of" in (result.error or "")
    [direct] = ingest_paths(store, [outside / "notes.md"])  # the file itself, by its own path, is read
    assert direct.outcome is IngestOutcome.NEW_DOCUMENT


def test_a_manifest_entry_naming_a_link_out_of_its_folder_is_refused(
    layout: tuple[Path, Path], store: EvidenceStore
) -> None:
    corpus, outside = layout
    (corpus / "sub").mkdir()
    (corpus / "sub" / "passwd.md").symlink_to(outside / "notes.md")
    (corpus / "sub" / "shared.md").symlink_to(corpus / "good.md")  # leaves sub/, stays in the manifest's folder
    manifest_path = corpus / "manifest.yaml"
    manifest_path.write_text(
        "documents:\n  - path: sub/passwd.md\n    licence: CC-BY\n  - path: sub/shared.md\n    licence: CC-BY\n",
        encoding="utf-8",
    )
    manifest = load_manifest(manifest_path)
    results = ingest_paths(store, [corpus / "sub" / "passwd.md", corpus / "sub" / "shared.md"], manifest=manifest)
    assert _outcomes(results) == {"passwd.md": IngestOutcome.FAILED, "shared.md": IngestOutcome.NEW_DOCUMENT}
    assert not _leaked(store)


@pytest.mark.skipif(not os.path.exists("/etc/passwd"), reason="needs a system file to point at")
def test_a_link_to_the_system_password_file_is_never_searchable(tmp_path: Path, store: EvidenceStore) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "good.md").write_text("# Good\n\nx\n", encoding="utf-8")
    (corpus / "passwd.txt").symlink_to("/etc/passwd")
    results = ingest_paths(store, [corpus], IngestOptions())
    assert _outcomes(results) == {"good.md": IngestOutcome.NEW_DOCUMENT, "passwd.txt": IngestOutcome.FAILED}
    assert not search(store, "root", embedder=None)
