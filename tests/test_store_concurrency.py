"""Many writers on one store: eight ``citewise ingest`` processes of one corpus, started together on
a new store, on SQLite and on PostgreSQL. Nothing is lost, nothing is stored twice, nobody crashes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from citewise.records import IngestOutcome
from citewise.store.evidence import EvidenceStore
from tests.conftest import REPO

pytestmark = [pytest.mark.integration, pytest.mark.slow]

WRITERS = 8
CORPUS = REPO / "examples" / "corpus"  # five versions of four documents, one law in two versions
_CLI = [sys.executable, "-c", "from citewise.cli import main; main()"]


def _citewise(url: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "CITEWISE_STORE": url, "COLUMNS": "200"}
    return subprocess.Popen([*_CLI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_eight_concurrent_ingests_of_one_corpus_store_each_version_once(backend_url: str) -> None:
    writers = [_citewise(backend_url, "ingest", str(CORPUS), "--json") for _ in range(WRITERS)]
    finished = [(w.returncode, out, err) for w in writers for out, err in [w.communicate(timeout=240)]]
    for code, _out, err in finished:
        assert code == 0, err
        assert "Traceback" not in err and "locked" not in err and "IntegrityError" not in err, err
    reported = [json.loads(out) for _code, out, _err in finished]

    with EvidenceStore.open(backend_url) as store:
        stored = [(v.doc_id, v.version, v.content_hash) for v in store.versions()]
        assert store.verify()[1] == []
        sections = sum(v.section_count for v in store.versions())
        assert store.reindex(force=True) == sections  # every section indexed, exactly once
    new = [(r["doc_id"], r["version"]) for run in reported for r in run if r["outcome"] != IngestOutcome.UNCHANGED]
    assert sorted(new) == sorted((doc_id, version) for doc_id, version, _ in stored)  # each stored by one writer
    assert len({(doc_id, digest) for doc_id, _, digest in stored}) == len(stored)  # no content twice
    every_run = {tuple(sorted((r["doc_id"], r["version"]) for r in run)) for run in reported}
    assert len(every_run) == 1  # every writer saw the same versions, stored by itself or by another

    verify = _citewise(backend_url, "store", "verify")
    _out, err = verify.communicate(timeout=60)
    assert verify.returncode == 0, err
