"""Vectors shipped with a corpus (issue 24: the quick start spent minutes embedding the sample):
used where the embedder and each text's content hash match, computed everywhere else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.errors import InputError
from citewise.ingest.pipeline import ingest_paths
from citewise.search.dense import embed_pending
from citewise.search.shipped import use_shipped, write_shipped
from citewise.store.evidence import EvidenceStore
from citewise.testing.embedder import HashingEmbedder
from tests.conftest import REPO

pytestmark = pytest.mark.integration

SAMPLE = REPO / "examples" / "corpus"


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """The hashing embedder's vectors of the sample's Korean statutes, as a corpus would ship them."""
    path = tmp_path / "vectors.npz"
    with EvidenceStore.open(str(tmp_path / "made.sqlite")) as store:
        ingest_paths(store, [SAMPLE / "kr-statutes"])
        embed_pending(store, HashingEmbedder())
        assert write_shipped(store, HashingEmbedder(), path) > 100
    return path


def test_shipped_vectors_replace_the_embedding_of_unchanged_texts(shipped: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE / "kr-statutes", corpus)
    changed = next(corpus.glob("근로기준법__*.md"))
    changed.write_text(changed.read_text(encoding="utf-8") + "\n새로 덧붙인 문장이다.\n", encoding="utf-8")
    with EvidenceStore.open(str(tmp_path / "store.sqlite")) as store:
        ingest_paths(store, [corpus])
        needed = len(store.texts_to_embed("citewise-testing/hashing-bigrams", "1"))
        embedder = HashingEmbedder()
        report = use_shipped(store, embedder, shipped)
        assert report.not_used is None and 0 < report.used < needed  # the changed text is not in the file
        assert embedder.calls == 1  # one probe, to check the file holds this embedder's vectors
        rest = embed_pending(store, embedder)
        assert rest.embedded == needed - report.used and rest.embedded >= 1
        # a shipped vector is the one the embedder computes (kept as float16: to within 1e-4 in cosine)
        stored = store.vectors("citewise-testing/hashing-bigrams", "1")
        texts = dict(store.texts_to_embed("none", "0"))
        matrix = np.frombuffer(stored.data, dtype=np.float32).reshape(len(stored.content_hashes), 64)
        for i, content_hash in enumerate(stored.content_hashes):
            own = HashingEmbedder().embed([texts[content_hash]])[0]
            assert abs(float(np.linalg.norm(matrix[i])) - 1.0) < 1e-5 and float(own @ matrix[i]) > 0.9999


def test_vectors_of_another_embedder_are_not_used(shipped: Path, tmp_path: Path) -> None:
    with EvidenceStore.open(str(tmp_path / "store.sqlite")) as store:
        ingest_paths(store, [SAMPLE / "kr-statutes"])
        other = HashingEmbedder(model_id="citewise-testing/other")
        report = use_shipped(store, other, shipped)
        assert report.used == 0 and "made by citewise-testing/hashing-bigrams 1" in (report.not_used or "")
        # the same id and version but other numbers: the probe catches it
        with np.load(shipped) as data:
            forged = {k: data[k] for k in data.files}
        forged["vectors"] = np.roll(forged["vectors"], 1, axis=1)
        np.savez(tmp_path / "forged.npz", **forged)
        report = use_shipped(store, HashingEmbedder(), tmp_path / "forged.npz")
        assert report.used == 0 and "not citewise-testing/hashing-bigrams's own" in (report.not_used or "")
        assert store.embedding_sets() == []
        (tmp_path / "bad.npz").write_bytes(b"not a zip")
        with pytest.raises(InputError, match="cannot read shipped vectors"):
            use_shipped(store, HashingEmbedder(), tmp_path / "bad.npz")


def test_ingest_takes_the_vectors_a_corpus_ships(
    shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citewise.search import dense
    from citewise.search.embedders import EMBEDDER_ENV, EMBEDDERS

    embedder = HashingEmbedder()
    monkeypatch.setitem(EMBEDDERS, "fake", lambda _arg: embedder)
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    monkeypatch.setenv(EMBEDDER_ENV, "fake")
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["ingest", str(SAMPLE / "kr-statutes"), "--vectors", str(shipped)])
    assert result.exit_code == 0, result.output
    assert "shipped vectors used" in result.stdout and embedder.calls == 1  # nothing left to compute
    bad = CliRunner().invoke(app, ["ingest", str(SAMPLE / "us-uslm"), "--vectors", str(tmp_path), "--json"])
    assert bad.exit_code == 2 and json.loads(bad.stdout)["error"]["user_error"] is True
