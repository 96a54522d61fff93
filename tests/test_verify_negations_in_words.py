"""Negations, bounds and names said in other words: each faithful claim passes and its
perturbation is flagged (lexical rule, no embedder)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.qualifiers import negated_keys
from citewise.verify.support import check_support
from tests.support_cases import assert_passes_and_flags

CASES = [
    # A short acronym is a word of the page, not a piece of one ("OR" is not in "network").
    (
        "The resolver looks up names on the network and caches them for an hour.",
        "The resolver caches the names it looks up on the network for an hour.",
        "The resolver looks up names on the network with OR queries and caches them for an hour.",
    ),
    # A bound in other words: "smaller than" is "less than", "greater than" is not.
    (
        "Values less than 2**16 are stored in two bytes.",
        "Any value smaller than 2**16 is stored in two bytes.",
        "Any value greater than 2**16 is stored in two bytes.",
    ),
    # The bound said apart from its figure: "any higher level" for "greater than 0".
    (
        "The default trace level is 0. Any level greater than 0 logs every call.",
        "The trace level defaults to 0, and any higher level logs every call.",
        "A trace level of 0 logs every call.",
    ),
    # A correction beside what the claim affirms is no negation of the span.
    (
        "keys() returns a view of the dictionary's keys.",
        "keys() returns a view, not a list, of the dictionary's keys.",
        "keys() does not return a view of the dictionary's keys.",
    ),
    # "Rather than" / "in place of" rule the alternative out: the span must not say it.
    (
        "The filter argument should be a callable that takes one record.",
        "The filter argument should be a callable rather than a string.",
        "The filter argument should be a string rather than a callable.",
    ),
    (
        "A token is issued in place of the password.",
        "A token is issued instead of the password.",
        "The password is issued in place of a token.",
    ),
    # Verbs that negate their act: "disables the loading" is "does not load".
    (
        "The -I flag disables the automatic loading of user site packages.",
        "With the -I flag, user site packages are not loaded automatically.",
        "The -I flag makes the interpreter load user site packages automatically.",
    ),
    (
        "The writer avoids copying the buffer when the view is contiguous.",
        "When the view is contiguous, the writer does not copy the buffer.",
        "When the view is contiguous, the writer copies the buffer.",
    ),
    # "Without raising" denies what the span affirms.
    (
        "A ValueError is raised if the port is out of range.",
        "An out-of-range port makes the call raise a ValueError.",
        "The call accepts an out-of-range port without raising an error.",
    ),
    # A prohibition denied (금지되지 않는다) permits the act.
    (
        "누구든지 외국인의 불법 고용을 알선하여서는 아니 된다.",
        "외국인의 불법 고용을 알선하는 것은 금지된다.",
        "외국인의 불법 고용을 알선하는 것은 금지되지 않는다.",
    ),
    # The contrapositive of a necessary condition the span states.
    (
        "위임은 서면으로 하여야 효력이 있다.",
        "위임은 서면으로 해야만 효력이 있으므로, 서면으로 하지 않은 위임은 효력이 없다.",
        "위임은 서면으로 하지 않아도 효력이 있다.",
    ),
    # Every act of a list before one negated 하다 is forbidden, past the article's caption (which
    # names 해고 and affirms nothing) and the glosses in parentheses (懲罰, 이하 …).
    (
        "제23조 (해고 등의 제한) ① 사용자는 근로자에게 정당한 이유 없이 해고, 휴직, 정직, 전직, 감봉, 그 밖의 "
        '징벌(懲罰)(이하 "부당해고등"이라 한다)을 하지 못한다.',
        "사용자는 정당한 이유 없이 근로자를 감봉하지 못한다.",
        "사용자는 정당한 이유가 없어도 근로자를 감봉할 수 있다.",
    ),
    # 사용자 (the employer) is not 사용 (use): the span's employer affirms no use it forbids.
    (
        "제65조 (사용 금지) ① 사용자는 임신 중이거나 산후 1년이 지나지 아니한 여성"
        '(이하 "임산부"라 한다)을 도덕상 또는 보건상 유해ㆍ위험한 사업에 사용하지 못한다.',
        "임산부를 보건상 유해ㆍ위험한 사업에 사용해서는 안 된다.",
        "임산부를 보건상 유해ㆍ위험한 사업에 사용하는 것은 금지되지 않는다.",
    ),
    # A duty the claim says need not be done, though the span has other negations and a proviso
    # that lifts the duty in cases the claim does not name.
    (
        "제26조 (해고의 예고) 사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 하고, 30일 전에 예고를 "
        "하지 아니하였을 때에는 30일분 이상의 통상임금을 지급하여야 한다. 다만, 다음 각 호의 어느 하나에 해당하는 "
        "경우에는 그러하지 아니하다. 1. 근로자가 계속 근로한 기간이 3개월 미만인 경우",
        "30일 전에 예고하지 않았다면 사용자는 30일분 이상의 통상임금을 지급해야 한다.",
        "30일 전에 예고하지 않은 사용자는 통상임금을 지급할 필요가 없다.",
    ),
    # A count in native numerals: 한 차례 and 한 번 are once, 두 번 twice.
    (
        "외국인근로자는 한 차례만 사업장을 변경할 수 있다.",
        "외국인근로자는 사업장을 한 번만 변경할 수 있다.",
        "외국인근로자는 사업장을 두 번 변경할 수 있다.",
    ),
    # "15시간에 못 미치는" is the bound 15시간 미만, not a negated predicate.
    (
        "1주 동안의 소정근로시간이 15시간 미만인 근로자에 대하여는 제55조를 적용하지 아니한다.",
        "1주 소정근로시간이 15시간에 못 미치는 근로자에게는 제55조가 적용되지 않는다.",
        "1주 소정근로시간이 15시간 이상인 근로자에게는 제55조가 적용되지 않는다.",
    ),
    # ... and where the proviso names what the claim adds (17세 미만), the duty is lifted.
    (
        "제27조 (여권등의 휴대) ① 대한민국에 체류하는 외국인은 항상 여권을 지니고 있어야 한다. 다만, 17세 미만인 "
        "외국인의 경우에는 그러하지 아니하다.",
        "17세 미만인 외국인은 여권을 늘 지니고 있지 않아도 된다.",
        "대한민국에 체류하는 외국인은 여권을 지니고 있지 않아도 된다.",
    ),
]


@pytest.mark.parametrize(("page", "faithful", "perturbed"), CASES)
def test_a_faithful_claim_passes_and_its_perturbation_is_flagged(page: str, faithful: str, perturbed: str) -> None:
    assert_passes_and_flags(page, faithful, perturbed)


def test_negating_verbs_negate_the_act_they_take() -> None:
    assert negated_keys("it stops the cache from being flushed")[0] == frozenset({"flush"})
    assert negated_keys("which disable the automatic prepending")[0] == frozenset({"prepend"})
    assert "권유" not in negated_keys("권유하는 것은 금지되지 않는다")[0]


def test_a_purpose_and_an_elided_prohibition_are_no_negation_mismatch() -> None:
    page = "Spellings that vary cause confusion in official records. The treaty prohibited clergy from joining parties."
    purpose = check_support(
        "Uniform spellings are used to avoid confusion in official records.", "S1", page, meaning=False
    )
    assert purpose.decision is Decision.SUPPORTED, purpose.reason
    answer = check_support(
        "Clergy from joining parties.", "S1", page, context="What did the treaty prohibit?", meaning=False
    )
    assert answer.decision is Decision.SUPPORTED, answer.reason
    allowed = check_support("The treaty let clergy join parties.", "S1", page, meaning=False)
    assert allowed.decision is Decision.UNSUPPORTED, allowed.reason


def test_refuse_turns_its_object_away_and_negates_no_act() -> None:
    """ "refuses integers too large" denies no integers: it is not read as a negation the page lacks."""
    page = "The packer accepts integers that fit in four bytes; integers too large raise an error."
    claim = "The packer refuses integers too large for four bytes and accepts those that fit."
    assert check_support(claim, "S1", page, meaning=False).decision is Decision.SUPPORTED
    negated, _ = negated_keys(claim)
    assert not any(key.startswith("integ") for key in negated)
