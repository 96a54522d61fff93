"""Guards for Korean periods, requirements, conditions and parties, each with the claim that fooled the
support check and the faithful paraphrase that must still pass. Statutes from the legalize-kr copies
of law.go.kr texts (public domain, 저작권법 제7조): 근로기준법 제10조, 제36조, 제46조; 출입국관리법
제21조, 제27조; 주택임대차보호법 제3조의2, 제6조의2; 종합부동산세법 제7조."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.conditions import changed_condition
from citewise.verify.roles import role_swap
from citewise.verify.support import check_support

SETTLEMENT = (
    "제36조 (금품 청산) 사용자는 근로자가 사망 또는 퇴직한 경우에는 그 지급 사유가 발생한 때부터 14일 이내에 "
    "임금, 보상금, 그 밖의 모든 금품을 지급하여야 한다. 다만, 특별한 사정이 있을 경우에는 당사자 사이의 합의에 "
    "의하여 기일을 연장할 수 있다."
)
NOTICE = (
    "제6조의2 (묵시적 갱신의 경우 계약의 해지) ① 제6조제1항에 따라 계약이 갱신된 경우 같은 조 제2항에도 불구하고 "
    "임차인은 언제든지 임대인에게 계약해지를 통지할 수 있다. ② 제1항에 따른 해지는 임대인이 그 통지를 받은 날부터 "
    "3개월이 지나면 그 효력이 발생한다."
)
CIVIC = (
    "제10조 (공민권 행사의 보장) 사용자는 근로자가 근로시간 중에 선거권, 그 밖의 공민권 행사 또는 공의 직무를 "
    "집행하기 위하여 필요한 시간을 청구하면 거부하지 못한다. 다만, 그 권리 행사나 공의 직무를 수행하는 데에 "
    "지장이 없으면 청구한 시간을 변경할 수 있다."
)
WORKPLACE = (
    "제21조 (근무처의 변경ㆍ추가) ① 대한민국에 체류하는 외국인이 그 체류자격의 범위에서 그의 근무처를 변경하거나 "
    "추가하려면 대통령령으로 정하는 바에 따라 미리 법무부장관의 허가를 받아야 한다."
)
SHUTDOWN = (
    "② 제1항에도 불구하고 부득이한 사유로 사업을 계속하는 것이 불가능하여 노동위원회의 승인을 받은 경우에는 "
    "제1항의 기준에 못 미치는 휴업수당을 지급할 수 있다."
)
PASSPORT = (
    "② 제1항 본문의 외국인은 출입국관리공무원이나 권한 있는 공무원이 그 직무수행과 관련하여 여권등의 제시를 "
    "요구하면 여권등을 제시하여야 한다."
)
PRIORITY = (
    "② 대항요건과 임대차계약증서상의 확정일자를 갖춘 임차인은 「민사집행법」에 따른 경매를 할 때에 임차주택의 "
    "환가대금에서 후순위권리자나 그 밖의 채권자보다 우선하여 보증금을 변제받을 권리가 있다."
)
TRUST = (
    '② 「신탁법」 제2조에 따른 수탁자(이하 "수탁자"라 한다)의 명의로 등기 또는 등록된 신탁재산으로서 '
    '주택(이하 "신탁주택"이라 한다)의 경우에는 제1항에도 불구하고 같은 조에 따른 위탁자가 종합부동산세를 '
    "납부할 의무가 있다. 이 경우 위탁자가 신탁주택을 소유한 것으로 본다."
)


def _unsupported(claim: str, page: str, reason: str) -> None:
    check = check_support(claim, "S1", page, meaning=False)
    assert check.decision is Decision.UNSUPPORTED, check.reason
    assert check.reason.startswith(reason), check.reason


def _supported(claim: str, page: str) -> None:
    check = check_support(claim, "S1", page, meaning=False)
    assert check.decision is Decision.SUPPORTED, check.reason


@pytest.mark.unit
def test_a_period_counted_from_another_event() -> None:
    _unsupported("회사는 퇴직 의사를 밝힌 날부터 14일 이내에 남은 임금을 지급하여야 한다.", SETTLEMENT, "changed start")
    _unsupported("해지는 계약이 갱신된 날부터 3개월이 지나면 그 효력이 발생한다.", NOTICE, "changed start")
    # The same event in other words, or no event named at all.
    _supported("사용자는 지급 사유가 생긴 때부터 14일 이내에 임금을 지급하여야 한다.", SETTLEMENT)
    _supported("임대인이 해지 통지를 받은 날부터 3개월이 지나면 해지의 효력이 발생한다.", NOTICE)
    assert changed_condition("근로자가 퇴직하면 사용자는 14일 이내에 모든 금품을 지급하여야 한다.", SETTLEMENT) is None


@pytest.mark.unit
def test_one_consent_done_without_where_the_span_asks_for_another() -> None:
    _unsupported("사용자는 특별한 사정이 있으면 근로자의 동의 없이 지급 기일을 연장할 수 있다.", SETTLEMENT, "dropped")
    # Seen first as a negation of the span's 합의; unsupported either way.
    _unsupported("특별한 사정이 있으면 당사자가 합의하지 않아도 기일을 연장할 수 있다.", SETTLEMENT, "")
    _supported("특별한 사정이 있으면 당사자 사이의 합의로 기일을 연장할 수 있다.", SETTLEMENT)


@pytest.mark.unit
def test_falling_short_is_no_prohibition() -> None:
    # "못 미치는" (falls short of) no longer hides the permission from the requirement check.
    _unsupported(
        "사용자는 부득이한 사유가 있으면 노동위원회의 승인 없이도 기준에 못 미치는 휴업수당을 지급할 수 있다.",
        SHUTDOWN,
        "dropped",
    )
    _supported("노동위원회의 승인을 받은 경우에는 기준에 못 미치는 휴업수당을 지급할 수 있다.", SHUTDOWN)


@pytest.mark.unit
def test_presence_for_absence_and_afterwards_for_beforehand() -> None:
    _unsupported("사용자는 권리 행사에 지장이 있더라도 청구한 시간을 변경할 수 있다.", CIVIC, "changed condition")
    _supported("사용자는 권리 행사에 지장이 없으면 청구한 시간을 변경할 수 있다.", CIVIC)
    _unsupported("외국인은 근무처를 변경한 후에 법무부장관의 허가를 받으면 된다.", WORKPLACE, "changed condition")
    _supported("외국인이 근무처를 변경하려면 미리 법무부장관의 허가를 받아야 한다.", WORKPLACE)


@pytest.mark.unit
def test_a_party_joined_to_another_shares_its_role() -> None:
    assert role_swap("외국인이 요구하면 출입국관리공무원은 여권등을 제시하여야 한다.", PASSPORT) == (
        "swapped roles: 출입국관리공무원 and 외국인 change places"
    )
    assert role_swap("출입국관리공무원이 요구하면 외국인은 여권등을 제시하여야 한다.", PASSPORT) is None
    assert role_swap("경매 때에는 후순위권리자가 확정일자를 갖춘 임차인보다 우선하여 변제받을 권리가 있다.", PRIORITY)
    assert (
        role_swap("확정일자를 갖춘 임차인은 경매 때 후순위권리자보다 우선하여 보증금을 변제받을 권리가 있다.", PRIORITY)
        is None
    )


@pytest.mark.unit
def test_a_subject_the_span_only_names_as_an_owner() -> None:
    assert role_swap("수탁자 명의의 신탁주택은 수탁자가 종합부동산세를 납부할 의무가 있다.", TRUST) == (
        "swapped roles: 수탁자 and 위탁자 change places"
    )
    assert role_swap("수탁자 명의로 등기된 신탁주택은 위탁자가 종합부동산세를 납부할 의무가 있다.", TRUST) is None


NOTICE_OF_DISMISSAL = (
    "제26조 (해고의 예고) 사용자는 근로자를 해고(경영상 이유에 의한 해고를 포함한다)하려면 적어도 30일 전에 "
    "예고를 하여야 하고, 30일 전에 예고를 하지 아니하였을 때에는 30일분 이상의 통상임금을 지급하여야 한다. "
    "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. 1. 근로자가 계속 근로한 기간이 3개월 "
    "미만인 경우"
)
HAZARD = (
    "② 사용자는 임산부가 아닌 18세 이상의 여성을 제1항에 따른 보건상 유해ㆍ위험한 사업 중 임신 또는 출산에 "
    "관한 기능에 유해ㆍ위험한 사업에 사용하지 못한다."
)


@pytest.mark.unit
def test_what_the_span_expressly_includes_said_left_out() -> None:
    _unsupported(
        "경영상 이유에 의한 해고에는 해고 예고 규정이 적용되지 않는다.", NOTICE_OF_DISMISSAL, "changed condition"
    )
    _supported("경영상 이유에 의한 해고도 적어도 30일 전에 예고를 하여야 한다.", NOTICE_OF_DISMISSAL)


@pytest.mark.unit
def test_any_such_business_overstates_a_qualified_ban() -> None:
    _unsupported(
        "사용자는 18세 이상의 여성을 어떠한 유해ㆍ위험한 사업에도 사용하지 못한다.", HAZARD, "overstated scope"
    )
    _supported(
        "사용자는 임산부가 아닌 18세 이상의 여성을 임신 또는 출산에 관한 기능에 유해ㆍ위험한 사업에 사용하지 못한다.",
        HAZARD,
    )
