"""Many writers on one store (issue 8, point 6): eight `citewise research` processes at once on one
SQLite file and on one PostgreSQL database finish with every run and every source recorded, no
"database is locked", and the store's hashes still verify."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from citewise.audit.events import ReportMade, SourceStored
from citewise.ingest.pipeline import ingest_paths
from citewise.review import apply_manifest
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from tests.conftest import REPO

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SAMPLE = REPO / "examples" / "corpus"
QUESTIONS = [
    "주택임대차보호법에서 대항력은 언제 생기나요?",
    "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요?",
    "해고 예고는 며칠 전에 해야 하나요?",
    "근로계약을 맺을 때 무엇을 명시해야 하나요?",
    "임차권등기명령은 언제 신청하나요?",
    "부당해고 구제신청은 어디에 하나요?",
    "보증금 중 일정액의 보호는 어떻게 되나요?",
    "근로시간은 1주에 몇 시간인가요?",
]


def _cli(url: str, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TAVILY_API_KEY", "COMETAPI_KEY", "OPENAI_API_KEY")}
    env["CITEWISE_STORE"] = url
    return subprocess.Popen(
        [sys.executable, "-c", "from citewise.cli import main; main()", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_eight_research_processes_share_one_store(backend_url: str) -> None:
    with EvidenceStore.open(backend_url) as store:
        ingest_paths(store, [SAMPLE])
        apply_manifest(store, SAMPLE / "review.yaml")
    running = [_cli(backend_url, "research", q, "--search", "local", "--no-model", "--json") for q in QUESTIONS]
    results = [(p, *p.communicate(timeout=300)) for p in running]
    for process, _, err in results:
        assert "locked" not in err and "Traceback" not in err, err[-2000:]
        assert process.returncode in (0, 1), err[-2000:]  # 1: delivered but no validated report
    with EvidenceStore.open(backend_url) as store:
        runs = RunStore(store)
        records = [runs.get(r.run_id) for r in runs.list(limit=20)]
        assert sorted(r.question for r in records) == sorted(QUESTIONS)
        assert all(r.status is RunStatus.FINISHED and r.last(ReportMade) is not None for r in records)
        for record in records:
            sources = [e.source for e in record.of(SourceStored)]
            assert [s.source_id for s in sources] == [f"S{i}" for i in range(1, len(sources) + 1)]
            assert [e.seq for e in record.events] == list(range(1, len(record.events) + 1))
        checked, mismatches = store.verify()
        assert checked > 0 and mismatches == []
    verify = _cli(backend_url, "store", "verify")
    out, err = verify.communicate(timeout=120)
    assert verify.returncode == 0, out + err
