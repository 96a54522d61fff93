"""Swapped roles in Korean where the span names the claim's topic as a clause's subject too:
출입국관리법 제17조 ③ and 개인정보 보호법 제35조 ① (public domain, 저작권법 제7조)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.roles import role_swap
from citewise.verify.support import check_support

ARTICLE_17 = (
    "**③** 법무부장관은 대한민국에 체류하는 외국인이 정치활동을 하였을 때에는 그 외국인에게 서면으로 "
    "그 활동의 중지명령이나 그 밖에 필요한 명령을 할 수 있다."
)
ARTICLE_35 = (
    "**①** 정보주체는 개인정보처리자가 처리하는 자신의 개인정보에 대한 열람을 해당 개인정보처리자에게 요구할 수 있다."
)


@pytest.mark.unit
def test_topic_and_recipient_traded_are_swapped_roles() -> None:
    assert role_swap("외국인은 법무부장관에게 정치활동의 중지명령을 할 수 있다.", ARTICLE_17) == (
        "swapped roles: 외국인 and 법무부장관 change places"
    )
    check = check_support(
        "개인정보처리자는 정보주체가 처리하는 개인정보에 대한 열람을 정보주체에게 요구할 수 있다.",
        "S1",
        ARTICLE_35,
        meaning=False,
    )
    assert check.decision is Decision.UNSUPPORTED and check.reason.startswith("swapped roles")


@pytest.mark.unit
def test_the_faithful_claims_keep_their_roles() -> None:
    assert role_swap("법무부장관은 정치활동을 한 외국인에게 서면으로 중지명령을 할 수 있다.", ARTICLE_17) is None
    check = check_support(
        "정보주체는 개인정보처리자에게 자신의 개인정보 열람을 요구할 수 있다.", "S1", ARTICLE_35, meaning=False
    )
    assert check.decision is Decision.SUPPORTED, check.reason


@pytest.mark.unit
def test_parties_of_one_syllable_are_read_with_the_word_before_them() -> None:
    # 자 and 장 are parties too: "외국인을 고용한 자는 … 관서의 장에게" traded for "관서의 장은 … 고용한 자에게".
    span = "외국인을 고용한 자는 외국인이 퇴직하면 15일 이내에 출입국관서의 장에게 신고하여야 한다."
    swapped = "출입국관서의 장은 외국인이 퇴직하면 15일 이내에 외국인을 고용한 자에게 신고하여야 한다."
    assert role_swap(swapped, span) == "swapped roles: 출입국관서의 장 and 고용한 자 change places"
    faithful = "외국인을 고용한 자는 외국인이 퇴직한 때부터 15일 이내에 출입국관서의 장에게 신고해야 한다."
    assert role_swap(faithful, span) is None
    assert check_support(faithful, "S1", span, meaning=False).decision is Decision.SUPPORTED


@pytest.mark.unit
def test_a_direction_turned_around_is_a_role_swap() -> None:
    span = "The optional source_address parameter is the address the HTTP connection is made from."
    swapped = "source_address is the address the HTTP connection is made to."
    assert role_swap(swapped, span) == "swapped roles: the claim says 'made to', the span 'made from'"
    faithful = "source_address is the address the HTTP connection is made from."
    assert role_swap(faithful, span) is None
    assert check_support(faithful, "S1", span, meaning=False).decision is Decision.SUPPORTED
