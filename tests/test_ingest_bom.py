"""A byte-order mark that contradicts the content is detected and reported: a UTF-16 (or UTF-32) mark
in front of UTF-8 text is read as UTF-8 with a warning, never stored as CJK mojibake; a mark that
matches its content is read as before, without a word."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.ingest.pipeline import ingest_paths
from citewise.records import IngestOutcome
from citewise.store.evidence import EvidenceStore

TEXT = "# Deposits\n\nThe deposit is returned within 30 days.\n"
KOREAN = "# 보증금\n\n임대인은 계약이 끝나면 30일 안에 보증금을 돌려준다.\n"


def _stored_text(store: EvidenceStore) -> str:
    [doc] = store.documents()
    return " ".join(s.text for s in store.sections(doc.doc_id))


@pytest.mark.parametrize(
    ("mark", "name"),
    [
        (codecs.BOM_UTF16_LE, "UTF-16"),
        (codecs.BOM_UTF16_BE, "UTF-16"),
        (codecs.BOM_UTF32_LE, "UTF-32"),
        (codecs.BOM_UTF32_BE, "UTF-32"),
    ],
)
@pytest.mark.parametrize("body", [TEXT, KOREAN], ids=["ascii", "korean-utf8"])
def test_a_wide_mark_in_front_of_utf8_text_is_read_as_utf8_with_a_warning(
    tmp_path: Path, store: EvidenceStore, mark: bytes, name: str, body: str
) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(mark + body.encode("utf-8"))
    [result] = ingest_paths(store, [path])
    assert result.outcome is IngestOutcome.NEW_DOCUMENT, result
    assert "30" in _stored_text(store) and ("returned" in _stored_text(store) or "보증금" in _stored_text(store))
    assert result.note is not None and f"{name} byte-order mark" in result.note and "read as UTF-8" in result.note


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("body", [TEXT, KOREAN], ids=["ascii", "korean"])
def test_a_mark_that_matches_its_content_is_read_without_a_word(
    tmp_path: Path, store: EvidenceStore, encoding: str, body: str
) -> None:
    path = tmp_path / "doc.md"
    data = body.encode(encoding)
    if not encoding.endswith(("le", "be")):
        assert data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF32_LE))
    else:
        data = (codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE) + data
    path.write_bytes(data)
    [result] = ingest_paths(store, [path])
    assert result.outcome is IngestOutcome.NEW_DOCUMENT and result.note is None
    assert body.split("\n\n")[1].strip() in _stored_text(store)


def test_the_warning_is_shown_with_the_files_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "doc.md").write_bytes(codecs.BOM_UTF16_LE + TEXT.encode("ascii"))
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("COLUMNS", "300")
    result = CliRunner().invoke(app, ["ingest", str(folder), "--no-embed"])
    assert result.exit_code == 0, result.output
    assert "UTF-16 byte-order mark" in result.output
