"""`citewise ask`: the five outcomes, shadow versus active, and the run record (SPEC 3.5, 3.6)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.result import AskSettings
from citewise.audit.events import AnswerGiven, GateDecided
from citewise.evidence.plan import RetrievalPlan
from citewise.export.run import export_run, run_data
from citewise.hashing import normalize_text
from citewise.ingest.pipeline import ingest_paths
from citewise.records.answer import AnswerPath, AskOutcome, ReadingUsed
from citewise.records.gate import Candidate
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from tests.conftest import REPO

pytestmark = pytest.mark.integration


def answer_of(record: RunRecord) -> AnswerGiven:
    answer = record.last(AnswerGiven)
    assert answer is not None, "the ask recorded no answer"
    return answer


SAMPLE = REPO / "examples" / "corpus"


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "ask.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


def _assert_every_line_cited_and_quotes_verbatim(result) -> None:  # type: ignore[no-untyped-def]
    by_id = {e.evidence_id: e for e in result.evidence}
    for line in result.text.splitlines():
        assert "[E" in line, line
    assert result.citations
    for c in result.citations:
        assert normalize_text(c.quote) in normalize_text(by_id[c.evidence_id].text)
        assert (c.doc_id, c.section_id) == (by_id[c.evidence_id].doc_id, by_id[c.evidence_id].section_id)


def test_no_key_gives_a_cited_deterministic_answer_and_says_so(store: EvidenceStore) -> None:
    result = ask(store, "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요", RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK
    assert (
        result.provenance.path is AnswerPath.DETERMINISTIC
        and "no model configured" in result.provenance.fallback_reason
    )
    # Lexical only (no vectors in this store): 제4조② first, from the version in force.
    assert (result.evidence[0].doc_id, result.evidence[0].version, result.evidence[0].section_id) == (
        "kr-law-001248",
        2,
        "제4조",
    )
    assert "보증금을 반환받을 때까지는" in result.text
    _assert_every_line_cited_and_quotes_verbatim(result)
    assert result.exclusions.get("superseded", 0) >= 1  # the 2015 version was a candidate and was excluded


def test_only_the_plans_exact_pairs_become_evidence(store: EvidenceStore) -> None:
    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001248:제2조", "kr-law-001872:제7조"])
    result = ask(store, "이 법의 적용 범위와 강제 근로의 금지", plan)
    assert {(e.doc_id, e.section_id) for e in result.evidence} <= {
        ("kr-law-001248", "제2조"),
        ("kr-law-001872", "제7조"),
    }
    assert result.exclusions["pair_not_permitted"] > 0


def test_nothing_eligible_gives_no_eligible_evidence_with_the_exclusions_summarised(store: EvidenceStore) -> None:
    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001248:제5조"])  # 제5조 is deleted in the 2025 version
    result = ask(store, "임대차 보증금", plan)
    assert result.outcome is AskOutcome.NO_ELIGIBLE_EVIDENCE
    assert result.citations == () and result.provenance.path is AnswerPath.NONE
    assert "pair_not_permitted" in result.text and "No eligible evidence" in result.text


def test_unapproved_material_never_answers(tmp_path: Path) -> None:
    with EvidenceStore.open(str(tmp_path / "raw.sqlite")) as raw:
        ingest_paths(raw, [SAMPLE / "kr-statutes"])  # staged, never reviewed
        result = ask(raw, "해고 예고는 며칠 전에 해야 하나요", RetrievalPlan())
    assert result.outcome is AskOutcome.NO_ELIGIBLE_EVIDENCE
    assert result.exclusions["document_not_approved"] > 0


def test_an_article_number_found_in_two_laws_asks_which(store: EvidenceStore) -> None:
    result = ask(store, "제2조는 무엇을 정하나요?", RetrievalPlan())
    assert result.outcome is AskOutcome.CLARIFICATION
    assert {(o.doc_id, o.section_id) for o in result.options} == {
        ("kr-law-001248", "제2조"),
        ("kr-law-001872", "제2조"),
    }
    assert "주택임대차보호법" in result.text and "근로기준법" in result.text
    named = ask(store, "근로기준법 제2조는 무엇을 정하나요?", RetrievalPlan())
    assert named.outcome is not AskOutcome.CLARIFICATION


def test_evidence_that_does_not_cover_the_question_is_handed_off_with_the_gap(store: EvidenceStore) -> None:
    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001872:제2조"])
    settings = AskSettings(handoff_target="the labour-law desk")
    result = ask(store, "전세 보증금 회수 절차", plan, settings)
    assert result.outcome is AskOutcome.HANDOFF
    assert "the labour-law desk" in result.text and result.gap and "보증금" in result.gap
    assert result.citations == ()


def test_shadow_returns_the_existing_answer_unchanged_and_records_the_comparison(store: EvidenceStore) -> None:
    existing = "기존 답변: 30일 전에 예고해야 합니다."
    result = ask(
        store,
        "해고 예고는 며칠 전에 해야 하나요",
        RetrievalPlan(),
        AskSettings(mode="shadow", existing_answer=existing),
    )
    active = ask(store, "해고 예고는 며칠 전에 해야 하나요", RetrievalPlan())
    assert result.text == existing and result.mode == "shadow"
    assert result.shadow is not None and result.shadow.new_outcome is active.outcome
    assert result.shadow.new_answer == active.text
    record = RunStore(store).get(result.run_id)
    answer = answer_of(record)
    assert record.mode == "shadow" and answer.text == existing
    assert answer.shadow is not None and answer.shadow.new_answer == active.text


def test_the_run_record_keeps_answer_and_retrieval_provenance_apart(store: EvidenceStore) -> None:
    result = ask(store, "해고 예고는 며칠 전에 해야 하나요", RetrievalPlan())
    record = RunStore(store).get(result.run_id)
    assert record.outcome == "deterministic_evidence_fallback" and record.status == "finished"
    answer = answer_of(record)
    provenance = answer.provenance  # answer provenance, kept apart from the retrieval provenance
    assert provenance.path is AnswerPath.DETERMINISTIC and "no model configured" in (provenance.fallback_reason or "")
    assert answer.gated_on is not None and answer.ranker and answer.candidates > 0
    assert str(answer.evidence[0]) == "kr-law-001872@1:제26조" and answer.evidence[0].evidence_id == "E1"
    assert [e.event.kind.value for e in record.events] == [
        "ask_planned",
        "candidates_retrieved",
        "gate_decided",
        "ranked",
        "answer_given",
        "verified",  # the answer was verified before it was returned
    ]
    gate_event = record.events[2].event
    assert isinstance(gate_event, GateDecided)
    assert any(not d.eligible and d.reasons for d in gate_event.decisions)


def test_the_answer_provenance_records_which_everyday_words_were_read_as_statute_terms(store: EvidenceStore) -> None:
    result = ask(store, "집주인이 보증금을 안 돌려주면 어떻게 하나요", RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK  # answered: the readings are kept on the answered path too
    stored = answer_of(RunStore(store).get(result.run_id)).provenance.readings  # read back from the store
    assert ReadingUsed("집주인", ("임대인",)) in stored
    assert stored == result.provenance.readings
    markdown = export_run(RunStore(store).get(result.run_id), "md")
    assert "- answer readings: " in markdown and "집주인 as 임대인" in markdown
    html = export_run(RunStore(store).get(result.run_id), "html")  # the same lines, in the HTML export
    assert "<dt>answer readings</dt><dd>" in html and "집주인 as 임대인" in html
    record = RunStore(store).get(result.run_id)
    assert f"<dt>answer path</dt><dd>{answer_of(record).provenance.path.value}</dd>" in html
    assert f"outcome {record.outcome}" in html and record.outcome
    plain = ask(store, "해고 예고는 며칠 전에 해야 하나요", RetrievalPlan())  # statute words: nothing read
    assert answer_of(RunStore(store).get(plain.run_id)).provenance.readings == ()
    assert "answer readings" not in export_run(RunStore(store).get(plain.run_id), "md")


class InjectingRanker:
    """A ranker that slips in a passage of its own."""

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        forged = replace(candidates[0], section=replace(candidates[0].section, text="임차인은 보증금을 포기한다."))
        return [forged, *candidates[1:]]


def test_a_ranker_that_injects_is_recorded_and_its_order_discarded(store: EvidenceStore) -> None:
    result = ask(store, "해고 예고는 며칠 전에 해야 하나요", RetrievalPlan(), AskSettings(ranker=InjectingRanker()))
    assert result.ranking_violations and "포기" not in result.text
    assert result.evidence[0].section_id == "제26조"
    record = RunStore(store).get(result.run_id)
    assert answer_of(record).ranking_accepted is False


def test_deleted_paragraphs_never_reach_the_composer(store: EvidenceStore) -> None:
    plan = RetrievalPlan.from_values(store, docs=["kr-law-001872"])
    sections = {s.section_id: s for s in store.sections("kr-law-001872")}
    with_deleted = [s for s in sections.values() if s.deleted_parts and not s.deleted]
    assert with_deleted, "근로기준법 has live articles with deleted paragraphs"
    target = with_deleted[0]
    result = ask(store, target.heading, RetrievalPlan.from_values(store, pairs=[f"kr-law-001872:{target.section_id}"]))
    evidence = [e for e in result.evidence if e.section_id == target.section_id]
    assert evidence and "삭제 <" not in evidence[0].text
    assert plan.docs == frozenset({"kr-law-001872"})


# -- with a writer model on a loopback OpenAI-compatible server ------------------------------------


@pytest.fixture
def writer() -> Iterator[tuple[object, object]]:
    from citewise.config import Secret
    from citewise.llm import ChatClient, ModelSettings
    from citewise.testing import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        settings = ModelSettings(api_key=Secret("sk-ask-test"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            yield server, client


QUESTION = "해고 예고는 며칠 전에 해야 하나요?"
QUOTE = "적어도 30일 전에 예고를 하여야 하고"


def _reply(answer: str, citations: list[dict[str, str]], covered: bool = True) -> str:
    import json

    return json.dumps({"answer": answer, "covered": covered, "citations": citations}, ensure_ascii=False)


def test_a_validated_model_answer_is_accepted_and_recorded_as_the_models(store: EvidenceStore, writer) -> None:  # type: ignore[no-untyped-def]
    server, client = writer
    server.enqueue_reply(
        _reply("사용자는 해고하려면 적어도 30일 전에 예고해야 합니다 [E1].", [{"id": "E1", "quote": QUOTE}])
    )
    result = ask(store, QUESTION, RetrievalPlan(), AskSettings(client=client, model="writer-1"))
    assert result.outcome is AskOutcome.MODEL_ANSWER
    assert result.provenance.path is AnswerPath.MODEL and result.provenance.prompt_version == "ask-v1"
    assert result.citations[0].doc_id == "kr-law-001872" and result.citations[0].section_id == "제26조"
    record = RunStore(store).get(result.run_id)
    assert record.outcome == "model_answer_accepted" and answer_of(record).provenance.path is AnswerPath.MODEL
    sent = server.requests[0].json
    assert "sk-ask-test" not in json.dumps(run_data(record), ensure_ascii=False)
    assert QUESTION in sent["messages"][-1]["content"]  # the question travels as data


@pytest.mark.parametrize(
    ("answer", "citations", "why"),
    [
        ("30일 전에 예고해야 합니다 [E9].", [{"id": "E9", "quote": QUOTE}], "E9"),
        ("30일 전에 예고해야 합니다 [E1].", [{"id": "E1", "quote": "90일 전에 예고를 하여야 한다"}], "quote"),
    ],
    ids=["unknown-citation-id", "invented-quote"],
)
def test_a_reply_with_an_unknown_id_or_an_invented_quote_falls_back_saying_why(
    store: EvidenceStore,
    writer,
    answer: str,
    citations: list[dict[str, str]],
    why: str,  # type: ignore[no-untyped-def]
) -> None:
    server, client = writer
    server.enqueue_reply(_reply(answer, citations))
    result = ask(store, QUESTION, RetrievalPlan(), AskSettings(client=client, model="writer-1"))
    assert result.outcome is AskOutcome.FALLBACK
    assert result.provenance.path is AnswerPath.DETERMINISTIC
    assert result.provenance.requested_model == "writer-1"
    assert "model reply rejected" in result.provenance.fallback_reason and why in result.provenance.fallback_reason
    assert "90일" not in result.text and "[E9]" not in result.text
    _assert_every_line_cited_and_quotes_verbatim(result)
    recorded = answer_of(RunStore(store).get(result.run_id))
    assert recorded.provenance.fallback_reason == result.provenance.fallback_reason


def test_a_model_that_finds_the_evidence_insufficient_hands_off(store: EvidenceStore, writer) -> None:  # type: ignore[no-untyped-def]
    server, client = writer
    server.enqueue_reply(_reply("제공된 조문으로는 답할 수 없습니다.", [], covered=False))
    result = ask(store, QUESTION, RetrievalPlan(), AskSettings(client=client, model="writer-1"))
    assert result.outcome is AskOutcome.HANDOFF and result.citations == ()


def test_a_rate_limited_model_falls_back_without_retrying(store: EvidenceStore, writer) -> None:  # type: ignore[no-untyped-def]
    server, client = writer
    server.enqueue_error(429, "slow down", headers={"retry-after": "3"})
    result = ask(store, QUESTION, RetrievalPlan(), AskSettings(client=client, model="writer-1"))
    assert result.outcome is AskOutcome.FALLBACK and "rate" in result.provenance.fallback_reason.lower()
    assert len(server.requests) == 1
