"""Who does what to whom, read in the span and the claim: swaps far apart are flagged, faithful
passives and reorderings pass."""

from __future__ import annotations

import pytest

from citewise.verify.relations import relation_swap
from citewise.verify.roles import role_swap
from citewise.verify.support import check_support

RANGE = "A ValueError is raised if last is not greater than first or if first address version is not 4 or 6."
DEFAULTS = (
    "By default, quote_plus() is used to quote the values, which means spaces are quoted as a '+' character. "
    "An alternate function that can be passed as quote_via is quote(), which will encode spaces as %20."
)
ENCODING = "If encode_chunked is False, the HTTPConnection object assumes all encoding is handled by the calling code."
DEMAND = "생후 1년 미만의 유아를 가진 여성 근로자가 청구하면 1일 2회 각각 30분 이상의 유급 수유 시간을 주어야 한다."


def test_a_comparison_turned_round_is_flagged() -> None:
    assert relation_swap("A ValueError is raised if first is not greater than last.", RANGE) == ("first", "last")
    assert relation_swap("Raised when width is greater than height.", "Raised when height is greater than width.") == (
        "width",
        "height",
    )


def test_the_same_comparison_passes() -> None:
    assert relation_swap("A ValueError is raised when last is not greater than first.", RANGE) is None
    assert relation_swap("If first is greater than or equal to last, nothing is raised.", RANGE) is None


def test_default_and_alternative_traded_are_flagged() -> None:
    claim = "urlencode() uses quote() by default, and quote_plus() is the alternative you can pass as quote_via."
    assert relation_swap(claim, DEFAULTS) == ("quote()", "quote_plus()")


def test_default_and_alternative_kept_pass_in_either_order() -> None:
    kept = "quote() is an alternate function for quote_via; by default, quote_plus() is used."
    assert relation_swap(kept, DEFAULTS) is None
    assert relation_swap("By default quote_plus() quotes the values, turning spaces into '+'.", DEFAULTS) is None


def test_the_doer_of_a_shared_verb_traded_far_apart_is_flagged() -> None:
    claim = "If encode_chunked is False, the calling code assumes all encoding is handled by the HTTPConnection object."
    assert relation_swap(claim, ENCODING) == ("calling code", "httpconnection object")
    passive = "The is_private value is determined by the semantics of the underlying address."
    assert relation_swap("The semantics of the underlying address are determined by the is_private value.", passive)


def test_a_passive_for_an_active_and_the_same_doer_pass() -> None:
    assert relation_swap("The loop is run by the calling code.", "The calling code runs the loop.") is None
    assert relation_swap("The calling code runs the loop.", "The loop is run by the calling code.") is None
    assert relation_swap(ENCODING, ENCODING) is None
    faithful = "All encoding is handled by the calling code, the HTTPConnection object assumes."
    assert relation_swap(faithful, ENCODING) is None


def test_the_doer_of_a_shared_korean_verb_traded_is_flagged() -> None:
    assert relation_swap("사용자가 청구하면 여성 근로자는 1일 2회 수유 시간을 가져야 한다.", DEMAND) == (
        "사용자",
        "근로자",
    )


def test_the_same_korean_doer_named_in_another_order_passes() -> None:
    assert relation_swap("1일 2회 30분 이상의 유급 수유 시간은 여성 근로자가 청구하면 주어야 한다.", DEMAND) is None
    assert relation_swap("여성 근로자가 청구하면 1일 2회 유급 수유 시간을 주어야 한다.", DEMAND) is None


@pytest.mark.parametrize(
    ("claim", "page"),
    [
        ("A ValueError is raised if first is not greater than last.", RANGE),
        ("The calling code assumes all encoding is handled by the HTTPConnection object.", ENCODING),
    ],
)
def test_the_support_check_reports_the_swap(claim: str, page: str) -> None:
    assert (role_swap(claim, page) or "").startswith("swapped roles:")
    check = check_support(claim, "S1", page, meaning=False)
    assert check.decision.value == "unsupported" and check.reason.startswith("swapped roles:")
    assert check_support(page, "S1", page, meaning=False).decision.value == "supported"
