"""ask never returns an empty answer (issue 21): when verification leaves no supported sentence, the
ask is a handoff that says why — with the version facts when the only approved text is not yet in
force — and the deterministic composer answers from the provisions that answer the question,
leaving out the transitional 부칙 and side rules (purpose, definitions, sanctions) unless asked."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.result import AskSettings
from citewise.audit.events import AnswerGiven, Verified
from citewise.evidence import RetrievalPlan
from citewise.ingest.pipeline import ingest_paths
from citewise.records.answer import AnswerPath, AskOutcome
from citewise.records.verify import Decision
from citewise.review import decide
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore

pytestmark = pytest.mark.integration

TODAY = date(2026, 12, 1)
LAW_ID = "kr-law-900001"
# A law stored only in its approved text that takes effect on 2027-03-01; its 제2조 gives one term, its
# 부칙 another, and a decree stored beside it (DECREE) a third for the same thing. Two sections of one
# document do not conflict (its provisions for different cases); two documents that disagree do.
LAW = """---
제목: 시험임대차법
법령MST: 900001
법령ID: '900001'
법령구분: 법률
소관부처:
- 법무부
공포일자: 2026-10-01
공포번호: '90001'
시행일자: {effective}
상태: 시행
출처: https://www.law.go.kr/법령/시험임대차법
첨부파일: []
---

# 시험임대차법

## 제1장 총칙

##### 제1조 (목적)

이 법은 시험 임대차의 존속기간을 정함을 목적으로 한다.

##### 제2조 (존속기간)

시험 임대차의 존속기간은 2년으로 한다.
{exception}
## 부칙

부칙 <제90001호,2026.10.1>

제1조(시행일) 이 법은 공포한 날부터 시행한다. 제2조(경과조치) 이 법 시행 전의 시험 임대차의 존속기간은 6개월로 한다.
"""
DECREE = """---
제목: 시험임대차법 시행령
법령MST: 900002
법령ID: '900002'
법령구분: 대통령령
소관부처:
- 법무부
공포일자: 2026-10-01
공포번호: '90002'
시행일자: 2027-03-01
상태: 시행
출처: https://www.law.go.kr/법령/시험임대차법시행령
첨부파일: []
---

# 시험임대차법 시행령

##### 제1조 (존속기간)

시험 임대차의 존속기간은 1년으로 한다.
"""


def _store(tmp_path: Path, *, effective: str, decree: bool) -> EvidenceStore:
    path = tmp_path / "시험임대차법__법률__2026-10-01__MST900001.md"
    path.write_text(LAW.format(effective=effective, exception=""), encoding="utf-8")
    paths = [path]
    if decree:
        paths.append(tmp_path / "시험임대차법시행령__대통령령__2026-10-01__MST900002.md")
        paths[-1].write_text(DECREE, encoding="utf-8")
    store = EvidenceStore.open(str(tmp_path / "s.sqlite"))
    ingest_paths(store, paths)
    for doc in (LAW_ID, "kr-law-900002") if decree else (LAW_ID,):
        decide(store, doc, "approve", reviewer="Kim", reason="checked against law.go.kr")
    return store


@pytest.fixture
def conflicting_future_law(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EvidenceStore]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "none")
    with _store(tmp_path, effective="2027-03-01", decree=True) as store:
        yield store


@pytest.fixture
def law_in_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EvidenceStore]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "none")
    with _store(tmp_path, effective="2026-10-01", decree=False) as store:
        yield store


def test_when_no_composed_sentence_survives_the_ask_is_a_handoff_saying_why(
    conflicting_future_law: EvidenceStore,
) -> None:
    result = ask(
        conflicting_future_law, "시험 임대차의 존속기간은 얼마인가요?", RetrievalPlan(), AskSettings(today=TODAY)
    )

    assert result.outcome is AskOutcome.HANDOFF and result.text.strip()  # never an empty answer
    assert result.citations == () and result.provenance.path is AnswerPath.NONE
    assert result.removed and {f.decision for f in result.removed} == {Decision.CONFLICTING}
    gap = result.gap or ""
    assert "could be verified" in gap and "conflicting" in gap
    # the version facts: the approved version, that it is not in force on the date, and when it will be
    assert "approved version 1" in gap and "not yet in force on 2026-12-01" in gap and "2027-03-01" in gap
    record = RunStore(conflicting_future_law).get(result.run_id)
    given = record.last(AnswerGiven)
    assert given is not None and given.outcome is AskOutcome.HANDOFF and given.text == result.text
    assert record.last(Verified) is None  # nothing was delivered to verify


def test_the_extractive_answer_leaves_out_the_transitional_rules_unless_asked(law_in_force: EvidenceStore) -> None:
    plain = ask(law_in_force, "시험 임대차의 존속기간은 얼마인가요?", RetrievalPlan(), AskSettings(today=TODAY))

    assert plain.outcome is AskOutcome.FALLBACK, plain.text
    assert "2년" in plain.text and "6개월" not in plain.text and "목적" not in plain.text
    assert plain.acceptance is not None and plain.acceptance.accepted, plain.acceptance
    assert all(not e.section_id.startswith("부칙") for e in plain.evidence if f"[{e.evidence_id}]" in plain.text)

    asked = ask(law_in_force, "시험 임대차의 경과조치는 무엇인가요?", RetrievalPlan(), AskSettings(today=TODAY))
    assert "6개월" in asked.text  # the question asks for the 부칙's transitional rule
