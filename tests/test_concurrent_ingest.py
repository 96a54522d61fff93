"""Concurrent writers never crash: ``citewise ingest`` processes of the same and of overlapping files,
same-stem files among them, end with each document stored once and the rest reported unchanged; the
first use of a new store by many processes at once creates its schema once. SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.records import IngestOutcome
from citewise.store import migrations
from citewise.store.evidence import EvidenceStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]

_PYTHON = [sys.executable, "-c"]
_CLI = "from citewise.cli import main; main()"
_OPEN = (
    "import sys\nfrom citewise.store.evidence import EvidenceStore\n"
    "with EvidenceStore.open(sys.argv[1]) as s: print(len(s.migrations()))"
)


def _start(url: str, code: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "CITEWISE_STORE": url, "CITEWISE_EMBEDDER": "none", "COLUMNS": "200"}
    return subprocess.Popen([*_PYTHON, code, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(processes: list[subprocess.Popen[str]]) -> list[str]:
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        assert "Traceback" not in err and "IntegrityError" not in err and "already exists" not in err, err
        outputs.append(out)
    return outputs


def _corpus(root: Path) -> list[Path]:
    files = {
        "a/notes.md": "# Notes A\n\nalpha\n",
        "b/notes.md": "# Notes B\n\nbeta\n",
        "c/notes.md": "# Notes C\n\ngamma\n",
        "policy.md": "# Policy\n\nThe policy.\n",
        "policy.txt": "Policy\n\nThe same stem in plain text.\n",
        "rows.jsonl": "".join(json.dumps({"_id": f"row-{i}", "text": f"row {i}"}) + "\n" for i in range(5)),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return [root / name for name in files]


def test_concurrent_ingests_of_overlapping_files_store_each_document_once(backend_url: str, tmp_path: Path) -> None:
    files = _corpus(tmp_path / "corpus")
    # Six writers: two take everything, the others overlapping halves in different orders.
    selections = [files, files[::-1], files[:4], files[2:], files[1::2], files[::2]]
    runs = [_start(backend_url, _CLI, "ingest", *map(str, chosen), "--json") for chosen in selections]
    reported = [json.loads(out) for out in _finish(runs)]

    by_source: dict[str, set[str]] = {}
    new: list[tuple[str, int]] = []
    for run in reported:
        for r in run:
            assert r["outcome"] != IngestOutcome.FAILED.value, r
            by_source.setdefault(r["source"], set()).add(r["doc_id"])
            if r["outcome"] != IngestOutcome.UNCHANGED.value:
                new.append((r["doc_id"], r["version"]))
    assert all(len(ids) == 1 for ids in by_source.values()), by_source  # every writer agrees on every id
    notes = sorted(next(iter(ids)) for source, ids in by_source.items() if source.endswith("notes.md"))
    assert notes == ["notes", "notes-2", "notes-3"]  # three files, three documents, whoever came first
    policy = sorted(next(iter(ids)) for source, ids in by_source.items() if "policy." in source)
    assert policy == ["policy", "policy-2"]

    with EvidenceStore.open(backend_url) as store:
        stored = [(v.doc_id, v.version) for v in store.versions()]
        assert store.verify()[1] == []
        assert store.reindex(force=True) == sum(v.section_count for v in store.versions())
    assert sorted(new) == sorted(stored)  # each document stored by exactly one writer
    assert len(stored) == len(by_source) and all(version == 1 for _, version in stored)


def test_concurrent_first_use_of_a_new_store_creates_its_schema_once(backend_url: str) -> None:
    opened = _finish([_start(backend_url, _OPEN, backend_url) for _ in range(10)])
    assert opened == [f"{len(migrations.MIGRATIONS)}\n"] * 10
    engine = sa.create_engine(backend_url if "://" in backend_url else f"sqlite:///{backend_url}")
    try:
        with engine.connect() as conn:
            ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM schema_migrations"))]
    finally:
        engine.dispose()
    assert sorted(ids) == sorted(m.id for m in migrations.MIGRATIONS)  # each applied once
