"""Document identity: an id derived from a file name belongs to one path and format; a declared or
explicit id names the document wherever it lies; doc_ids are validated; manifests are scoped to
their folder and a manifest doc_id names one file."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.errors import InputError
from citewise.ingest.identity import check_doc_id
from citewise.ingest.pipeline import IngestOptions, ingest_paths, load_manifest
from citewise.records import IngestOutcome, IngestResult
from citewise.store.evidence import EvidenceStore
from citewise.store.schema import documents
from tests.test_parse_pdf import minimal_pdf


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _by_name(results: list[IngestResult]) -> dict[str, IngestResult]:
    return {Path(r.source).parent.name + "/" + Path(r.source).name: r for r in results}


def test_two_files_with_one_stem_are_two_documents_and_the_second_id_is_reported(
    store: EvidenceStore, tmp_path: Path
) -> None:
    a = _write(tmp_path / "a" / "notes.md", "# Notes A\n\nalpha\n")
    b = _write(tmp_path / "b" / "notes.md", "# Notes B\n\nbeta\n")
    first = _by_name(ingest_paths(store, [a, b]))
    assert (first["a/notes.md"].doc_id, first["a/notes.md"].outcome) == ("notes", IngestOutcome.NEW_DOCUMENT)
    assert (first["b/notes.md"].doc_id, first["b/notes.md"].outcome) == ("notes-2", IngestOutcome.NEW_DOCUMENT)
    assert first["a/notes.md"].note is None
    note = first["b/notes.md"].note or ""
    assert "'notes' belongs to another file" in note and str(a.resolve()) in note and "--doc-id" in note
    assert [v.version for v in store.versions("notes")] == [1]  # approving notes-2 supersedes nothing

    again = _by_name(ingest_paths(store, [b, a]))  # order does not matter once stored
    assert {k: (r.doc_id, r.outcome) for k, r in again.items()} == {
        "a/notes.md": ("notes", IngestOutcome.UNCHANGED),
        "b/notes.md": ("notes-2", IngestOutcome.UNCHANGED),
    }


def test_the_same_stem_in_another_format_is_another_document(store: EvidenceStore, tmp_path: Path) -> None:
    md = _write(tmp_path / "good.md", "# Good\n\nThe Markdown text.\n")
    pdf = _write(tmp_path / "good.pdf", minimal_pdf(["The PDF text of another document."]))
    results = {Path(r.source).suffix: r for r in ingest_paths(store, [md, pdf])}
    assert results[".md"].doc_id == "good" and results[".pdf"].doc_id == "good-2"
    assert results[".pdf"].outcome is IngestOutcome.NEW_DOCUMENT
    assert "read as markdown" in (results[".pdf"].note or "")


def test_changed_content_at_the_same_path_is_a_new_version_of_the_same_document(
    store: EvidenceStore, tmp_path: Path
) -> None:
    path = _write(tmp_path / "policy.md", "# Policy\n\nfirst text\n")
    ingest_paths(store, [path])
    _write(path, "# Policy\n\nsecond text\n")
    [result] = ingest_paths(store, [path])
    assert (result.doc_id, result.outcome, result.version, result.note) == (
        "policy",
        IngestOutcome.NEW_VERSION,
        2,
        None,
    )


def test_a_declared_id_names_the_document_wherever_the_file_is(store: EvidenceStore, tmp_path: Path) -> None:
    old = _write(tmp_path / "2024" / "rules.md", "---\nid: house-rules\n---\n# Rules\n\nold rules\n")
    new = _write(tmp_path / "2025" / "renamed.md", "---\nid: house-rules\n---\n# Rules\n\nnew rules\n")
    results = ingest_paths(store, [old, new])
    assert [(r.doc_id, r.version, r.outcome) for r in results] == [
        ("house-rules", 1, IngestOutcome.NEW_DOCUMENT),
        ("house-rules", 2, IngestOutcome.NEW_VERSION),
    ]


def test_an_explicit_id_makes_a_file_elsewhere_a_version(store: EvidenceStore, tmp_path: Path) -> None:
    a = _write(tmp_path / "a" / "notes.md", "# Notes\n\nv1\n")
    b = _write(tmp_path / "b" / "notes.md", "# Notes\n\nv2\n")
    ingest_paths(store, [a])
    [result] = ingest_paths(store, [b], IngestOptions(doc_id="notes"))
    assert (result.doc_id, result.version, result.outcome) == ("notes", 2, IngestOutcome.NEW_VERSION)


def test_a_document_stored_before_origins_were_recorded_keeps_its_id(store: EvidenceStore, tmp_path: Path) -> None:
    path = _write(tmp_path / "a" / "notes.md", "# Notes\n\nalpha\n")
    ingest_paths(store, [path])
    with store.transaction() as conn:  # as a store migrated from m007 holds it
        conn.execute(sa.update(documents).values(origin_path=None, origin_format=None))
    [same] = ingest_paths(store, [path])
    assert (same.doc_id, same.outcome) == ("notes", IngestOutcome.UNCHANGED)
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(documents.c.origin_path)).scalar() == str(path.resolve())  # filled in
    other = _write(tmp_path / "b" / "notes.md", "# Notes\n\nbeta\n")
    [result] = ingest_paths(store, [other])
    assert result.doc_id == "notes-2"


def test_a_store_where_two_same_stem_files_became_one_document_is_split_going_forward(
    store: EvidenceStore, tmp_path: Path
) -> None:
    a = _write(tmp_path / "a" / "notes.md", "# Notes\n\nalpha\n")
    b = _write(tmp_path / "b" / "notes.md", "# Notes\n\nbeta\n")
    ingest_paths(store, [a])
    ingest_paths(store, [b], IngestOptions(doc_id="notes"))  # what the stem alone used to do: notes@2
    with store.transaction() as conn:
        conn.execute(sa.update(documents).values(origin_path=None, origin_format=None))
    [again] = ingest_paths(store, [a])
    assert (again.doc_id, again.version, again.outcome) == ("notes", 1, IngestOutcome.UNCHANGED)
    [split] = ingest_paths(store, [b])
    assert (split.doc_id, split.outcome) == ("notes-2", IngestOutcome.NEW_DOCUMENT)


@pytest.mark.parametrize(
    "bad", ["../../../../outside/x", "a/b", "a\\b", "..", "x..y", "", " lead", "a b", "doc@2", "-x", "x" * 201]
)
def test_bad_doc_ids_are_refused_naming_the_rule(bad: str) -> None:
    with pytest.raises(InputError, match=r"bad doc_id .*letters, digits and _ \. - : \+ ~ #"):
        check_doc_id(bad, "--doc-id")


@pytest.mark.parametrize("good", ["kr-law-001248", "us-cfr-title-27", "주택임대차보호법", "doc_1.2:3+4~5#6", "x" * 200])
def test_good_doc_ids_pass(good: str) -> None:
    assert check_doc_id(good, "--doc-id") == good


def test_a_bad_declared_id_fails_its_row_and_the_rest_are_stored(store: EvidenceStore, tmp_path: Path) -> None:
    rows = '{"_id": "ok-1", "text": "one"}\n{"_id": "../x", "text": "two"}\n{"_id": "ok-3", "text": "three"}\n'
    path = _write(tmp_path / "rows.jsonl", rows)
    results = ingest_paths(store, [path])
    new, failed = IngestOutcome.NEW_DOCUMENT, IngestOutcome.FAILED
    assert [r.outcome for r in results] == [new, failed, new]
    assert (results[1].error or "").startswith(f"{path}:2: bad doc_id '../x'")


def test_doc_id_option_with_several_files_is_refused(store: EvidenceStore, tmp_path: Path) -> None:
    a = _write(tmp_path / "a.md", "# A\n\na\n")
    b = _write(tmp_path / "b.md", "# B\n\nb\n")
    with pytest.raises(InputError, match="--doc-id names one document, but 2 files were given"):
        ingest_paths(store, [a, b], IngestOptions(doc_id="one"))
    with pytest.raises(InputError, match="bad doc_id"):
        ingest_paths(store, [a], IngestOptions(doc_id="../one"))
    assert store.documents() == []


# -- manifests --------------------------------------------------------------------------------


def test_manifest_entries_match_only_files_inside_the_manifests_folder(store: EvidenceStore, tmp_path: Path) -> None:
    entry = 'documents:\n  - path: "*"\n    issuing_authority: Ministry\n'
    manifest = _write(tmp_path / "corpus" / "ingest.yaml", entry)
    inside = _write(tmp_path / "corpus" / "sub" / "notes.md", "# In\n\ninside\n")
    outside = _write(tmp_path / "elsewhere" / "notes.md", "# Out\n\noutside\n")
    results = ingest_paths(store, [inside, outside], manifest=load_manifest(manifest))
    issuers = {Path(r.source).parent.name: store.version(r.doc_id or "").provenance.issuing_authority for r in results}
    assert issuers == {"sub": "Ministry", "elsewhere": None}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('  - path: "../*.md"\n', "must be relative to the manifest's folder and stay inside it"),
        ('  - path: "/etc/*.md"\n', "must be relative to the manifest's folder"),
        ('  - path: "*"\n    doc_id: "../../../../outside/x"\n', "bad doc_id"),
    ],
)
def test_manifest_entries_that_reach_outside_or_carry_bad_ids_are_refused(
    tmp_path: Path, entry: str, message: str
) -> None:
    manifest = _write(tmp_path / "ingest.yaml", "documents:\n" + entry)
    with pytest.raises(InputError, match=message):
        load_manifest(manifest)


def test_a_manifest_doc_id_cannot_be_a_default(tmp_path: Path) -> None:
    manifest = _write(tmp_path / "ingest.yaml", "defaults:\n  doc_id: one\n")
    with pytest.raises(InputError, match="'doc_id' cannot be a default"):
        load_manifest(manifest)


def test_a_manifest_doc_id_matching_several_files_fails_them_naming_the_files(
    store: EvidenceStore, tmp_path: Path
) -> None:
    manifest = _write(tmp_path / "ingest.yaml", 'documents:\n  - path: "notes/*.md"\n    doc_id: notes\n')
    a = _write(tmp_path / "notes" / "a.md", "# A\n\na\n")
    b = _write(tmp_path / "notes" / "b.md", "# B\n\nb\n")
    other = _write(tmp_path / "other.md", "# Other\n\nother\n")
    results = {Path(r.source).name: r for r in ingest_paths(store, [tmp_path], manifest=load_manifest(manifest))}
    assert results["other.md"].outcome is IngestOutcome.NEW_DOCUMENT
    for name in ("a.md", "b.md"):
        error = results[name].error or ""
        assert results[name].outcome is IngestOutcome.FAILED and "\n" not in error
        assert "gives doc_id 'notes' to 2 files" in error and str(a) in error and str(b) in error
    assert [d.doc_id for d in store.documents()] == ["other"]
    assert other.exists()


def test_a_manifest_doc_id_for_one_file_is_used(store: EvidenceStore, tmp_path: Path) -> None:
    manifest = _write(tmp_path / "ingest.yaml", 'documents:\n  - path: "notes/a.md"\n    doc_id: chosen\n')
    _write(tmp_path / "notes" / "a.md", "# A\n\na\n")
    _write(tmp_path / "notes" / "b.md", "# B\n\nb\n")
    results = ingest_paths(store, [tmp_path / "notes"], manifest=load_manifest(manifest))
    assert sorted(r.doc_id or "" for r in results) == ["b", "chosen"]
