"""The evidence store on SQLite and on a real, throwaway PostgreSQL: the conformance class on both,
the two backends' search rankings against each other, and what each says when it cannot be used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.errors import StoreError
from citewise.ingest.pipeline import ingest_paths
from citewise.records import IngestOutcome
from citewise.review import apply_manifest
from citewise.search.local import search
from citewise.store import migrations
from citewise.store.evidence import EvidenceStore, store_engine
from citewise.testing.postgres import PostgresCluster
from citewise.testing.store_conformance import StoreConformance, new_version
from tests.conftest import REPO

pytestmark = pytest.mark.integration


class TestSqliteStore(StoreConformance):
    """SQLite: FTS5 search, WAL, BEGIN IMMEDIATE writers."""

    @pytest.fixture
    def store_url(self, tmp_path: Path) -> str:
        return str(tmp_path / "store.sqlite")

    def test_runs_in_wal_mode_with_a_busy_timeout(self, evidence_store: EvidenceStore) -> None:
        with evidence_store.engine.connect() as conn:
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(sa.text("PRAGMA busy_timeout")).scalar() >= 10_000


class TestPostgresStore(StoreConformance):
    """PostgreSQL: postings search, row locks, advisory locks around migrations and rebuilds."""

    @pytest.fixture
    def store_url(self, postgres_url: str) -> str:
        return postgres_url

    def test_the_password_is_never_shown(
        self, evidence_store: EvidenceStore, postgres_cluster: PostgresCluster
    ) -> None:
        assert postgres_cluster.password not in evidence_store.url
        assert "***" in evidence_store.url

    def test_a_store_created_by_citewise_0_1_0_gets_numbering_id_columns(
        self, store_url: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # 0.1.0 wrote SQLite's INTEGER PRIMARY KEY on PostgreSQL too: ids that never number themselves.
        with monkeypatch.context() as patched:
            patched.setattr(migrations, "portable", lambda statement, dialect: statement)
            engine = store_engine(store_url)
            migrations.migrate(engine, upto="m004_claim_ledger")
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO documents VALUES ('old', 'Old', '2025-01-01T00:00:00+00:00')"))
            conn.execute(
                sa.text(
                    "INSERT INTO document_versions (id, doc_id, version, title, content_hash, format, status, "
                    "source, full_text, permitted_uses, metadata_json, section_count, ingested_at) VALUES (7, 'old', "
                    "1, 'Old', 'sha256:x', 'text', 'approved', 'o', 'x', '[]', '{}', 0, '2025-01-01T00:00:00+00:00')"
                )
            )
        engine.dispose()
        with EvidenceStore.open(store_url) as store:
            assert store.store_version(new_version("doc-a")).outcome is IngestOutcome.NEW_DOCUMENT
            with store.engine.connect() as conn:
                ids = conn.execute(sa.text("SELECT id FROM document_versions ORDER BY id")).scalars().all()
        assert ids == [7, 8]


def test_sqlite_and_postgresql_rank_the_sample_corpus_identically(tmp_path: Path, postgres_url: str) -> None:
    sample = REPO / "examples" / "corpus"
    queries = ["보증금 회수", "임차권등기명령 신청", "개인정보 처리", "section 2 definitions", "ip network"]
    rankings = []
    for url in (str(tmp_path / "s.sqlite"), postgres_url):
        with EvidenceStore.open(url) as store:
            ingest_paths(store, [sample])
            apply_manifest(store, sample / "review.yaml")
            rankings.append(
                {q: [(h.doc_id, h.version, h.section_id, h.score) for h in search(store, q, 10)] for q in queries}
            )
    assert all(rankings[0][q] for q in queries)
    assert rankings[0] == rankings[1]


# -- what a store that cannot be used says ---------------------------------------------------


def _cli_store_info(url: str) -> subprocess.CompletedProcess[str]:
    # Wide COLUMNS: the terminal may wrap a long line; what is checked is that citewise writes one.
    env = {**os.environ, "CITEWISE_STORE": url, "COLUMNS": "1000"}
    return subprocess.run(
        [sys.executable, "-c", "from citewise.cli import main; main()", "store", "info"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def _one_clear_line(done: subprocess.CompletedProcess[str], *, secret: str | None = None) -> str:
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "CITEWISE_STORE" in lines[0]
    if secret:
        assert secret not in done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://u:hunter2@localhost/db", "citewise stores are"),
        ("postgres ql://u:hunter2@localhost/db", "not a database URL"),
        ("postgresql://u:hunter2@localhost:port/db", "not a database URL"),
        ("postgresql://u:hunter2@no-such-host.invalid/db", "unknown host"),
    ],
)
def test_a_url_citewise_cannot_use_is_one_line(url: str, says: str) -> None:
    line = _one_clear_line(_cli_store_info(url), secret="hunter2")
    assert says in line


def test_a_refused_connection_is_one_line(postgres_cluster: PostgresCluster) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = _one_clear_line(_cli_store_info(f"postgresql://citewise:hunter2@127.0.0.1:{port}/db"), secret="hunter2")
    assert "no PostgreSQL server answers there" in line


def test_a_missing_database_is_one_line(postgres_cluster: PostgresCluster) -> None:
    line = _one_clear_line(_cli_store_info(postgres_cluster.url("no_such_db")), secret=postgres_cluster.password)
    assert 'database "no_such_db" does not exist' in line and "createdb" in line


def test_bad_credentials_are_one_line(postgres_cluster: PostgresCluster) -> None:
    line = _one_clear_line(_cli_store_info(postgres_cluster.url(password="wrong-secret")), secret="wrong-secret")
    assert 'password authentication failed for user "citewise"' in line


def test_a_missing_driver_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "psycopg" or m.startswith("psycopg.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # what an environment without psycopg sees
    with pytest.raises(StoreError) as caught:
        store_engine("postgresql://citewise:hunter2@127.0.0.1/db")
    assert "pip install 'psycopg[binary]'" in str(caught.value) and "hunter2" not in str(caught.value)


def test_a_sqlite_path_that_cannot_be_a_store_is_one_line(tmp_path: Path) -> None:
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("just some notes, long enough to be read as a header " * 4, encoding="utf-8")
    assert "not a SQLite database" in _one_clear_line(_cli_store_info(str(not_a_store)))
    assert "unable to open" in _one_clear_line(_cli_store_info(str(tmp_path)))


def test_ingest_review_search_reindex_and_info_from_the_command_line(
    backend_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    monkeypatch.setenv("CITEWISE_STORE", backend_url)
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()

    def cli(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    sample = REPO / "examples" / "corpus"
    cli("ingest", str(sample), "--json")
    cli("review", "apply", str(sample / "review.yaml"))
    before = json.loads(cli("search", "보증금 회수", "--json"))
    assert before and not before[0]["unapproved"]
    assert json.loads(cli("store", "reindex", "--json")) == {"indexed": 291}
    assert json.loads(cli("search", "보증금 회수", "--json")) == before
    info = json.loads(cli("store", "info", "--json"))
    assert info["documents"] == 4 and info["versions"] == 5
    assert info["migrations"][-1] == migrations.MIGRATIONS[-1].id
    assert "@" not in info["store"] or ":***@" in info["store"]
    assert json.loads(cli("store", "verify", "--json"))["ok"]


def test_without_postgresql_binaries_the_reason_says_how_to_get_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.testing import postgres

    monkeypatch.setattr(postgres, "find_bindir", lambda: None)
    with pytest.raises(postgres.PostgresUnavailable, match="apt-get install postgresql"):
        PostgresCluster.start()
    with pytest.raises(postgres.PostgresUnavailable, match="CITEWISE_PG_BINDIR"):
        PostgresCluster.start(Path("/nonexistent"))
