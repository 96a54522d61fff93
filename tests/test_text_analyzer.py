"""One analyser configuration: the index analysis and the question analysis share one Kiwi and one
English stemmer (``citewise.text.analyze``).

The question analysis (answer/question.py) built its own ``Kiwi()`` with the default dictionaries
(typo and multi-word) beside the index's ``Kiwi(load_typo_dict=False, load_multi_dict=False)``: two
models in memory, ~3 s more start-up for ``ask``, and two configurations that could drift. On the
821 questions, claims and statute lines of ``benchmarks/data`` both configurations give the same
question terms; the examples below pin that.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kiwipiepy
import pytest

from citewise.answer import question
from citewise.answer.question import analyse_question, text_terms
from citewise.text import analyze

pytestmark = pytest.mark.unit

EXAMPLES = [
    "여자라는 이유로 남자 직원보다 월급을 적게 주는 건 괜찮은 건가요?",
    "임차권등기명령은 언제 신청할 수 있나요?",
    "기간을 정하지 아니하거나 2년 미만으로 정한 임대차는 그 기간을 2년으로 본다.",
    "How long does a lease of a dwelling run in Korea?",
]


def _forget() -> None:
    analyze._kiwi.cache_clear()
    analyze.clear_caches()
    question._korean_terms.cache_clear()
    text_terms.cache_clear()


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """The keyword arguments of every Kiwi built while the test runs."""
    real = kiwipiepy.Kiwi
    calls: list[dict[str, Any]] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    _forget()
    monkeypatch.setattr(kiwipiepy, "Kiwi", counting)
    yield calls
    monkeypatch.undo()
    _forget()


def test_the_index_and_the_question_share_one_kiwi(built: list[dict[str, Any]]) -> None:
    assert analyze.analyze("임차권등기명령을 신청한다")
    assert analyse_question(EXAMPLES[1]).terms
    assert text_terms(EXAMPLES[2])
    assert len(built) == 1
    assert built[0]["load_typo_dict"] is False and built[0]["load_multi_dict"] is False


def test_question_terms_are_those_of_kiwis_default_configuration() -> None:
    default = kiwipiepy.Kiwi()

    def default_terms(text: str) -> tuple[str, ...]:
        hangul = "".join(ch if question._HANGUL.match(ch) or ch.isspace() else " " for ch in text)
        korean = [
            t.form
            for t in default.tokenize(hangul)
            if t.tag in question._KEEP_TAGS and t.form not in question._KO_FUNCTION
        ]
        return tuple(dict.fromkeys([*korean, *question._english_terms(text)]))

    for text in EXAMPLES:
        assert analyse_question(text).terms == default_terms(text), text


def test_one_english_stemmer() -> None:
    assert analyze.english_stems(["deposits", "leases"]) == ["deposit", "leas"]
    assert analyze.analyze("deposits leases") == ["deposit", "leas"]
    assert text_terms("deposits leases") == frozenset({"deposit", "leas"})
