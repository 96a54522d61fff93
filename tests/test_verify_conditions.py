# ruff: noqa: E501  (Korean statute sentences, one a line)
"""The third pass of support guards: changed time conditions, dropped requirements, swapped names,
English additions and the new role swaps. Each guard flags its perturbation and passes the faithful
claim, both on its own and through :func:`citewise.verify.support.check_support` (lexical rule)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.additions import english_clauses, unsupported_addition
from citewise.verify.conditions import changed_condition
from citewise.verify.roles import role_swap
from citewise.verify.support import check_support

REPORT = "외국인을 고용한 자는 외국인이 퇴직한 경우 15일 이내에 지방출입국·외국인관서의 장에게 신고하여야 한다."
LIEN = "이 경우 임차인은 주택에 대한 경매신청의 등기 전에 제3조제1항의 요건을 갖추어야 한다."
CONSENT = "사용자는 근로자의 동의를 받아 1주간에 12시간을 한도로 근로시간을 연장할 수 있다."
REMEDY = "사용자가 근로자에게 부당해고등을 하면 근로자는 노동위원회에 구제를 신청할 수 있다."
IDLE = "사용자의 귀책사유로 휴업하는 경우에 사용자는 휴업기간 동안 그 근로자에게 평균임금의 100분의 70 이상의 수당을 지급하여야 한다."
NOTICE = "관할세무서장은 종합부동산세를 징수하려면 납부기간 개시 5일 전까지 납부고지서를 발급하여야 한다."
BLOCK = "The optional block_size parameter sets the buffer size in bytes for sending a file-like message body."
BODY = "If the body is a string, it is encoded as ISO-8859-1 and the Content-Length header is set to its length."


def _decision(claim: str, page: str, context: str = "") -> tuple[Decision, str]:
    check = check_support(claim, "S1", page, context=context, meaning=False)
    return check.decision, check.reason


@pytest.mark.parametrize(
    ("changed", "faithful", "span", "reason"),
    [
        (
            "외국인을 고용한 자는 외국인이 퇴직한 경우 15일이 지난 후에 지방출입국·외국인관서의 장에게 신고하여야 한다.",
            REPORT,
            REPORT,
            "changed condition: the claim puts 15일 after, the span within",
        ),
        (
            "이 경우 임차인은 주택에 대한 경매신청의 등기 후에 제3조제1항의 요건을 갖추어야 한다.",
            LIEN,
            LIEN,
            "changed condition: the claim puts it after 등기",
        ),
        (
            "사용자는 근로자의 동의 없이 1주간에 12시간을 한도로 근로시간을 연장할 수 있다.",
            CONSENT,
            CONSENT,
            "dropped requirement: the claim permits it without 동의",
        ),
        (
            "사용자가 근로자에게 부당해고등을 하면 근로자는 법원에 구제를 신청할 수 있다.",
            REMEDY,
            REMEDY,
            "swapped name: the claim names 법원, the span 노동위원회",
        ),
        (
            "The optional source_address parameter sets the buffer size in bytes for sending a file-like message body.",
            BLOCK,
            BLOCK,
            "swapped name: the claim names source_address, the span block_size",
        ),
    ],
)
def test_changed_condition_flags_the_perturbation_and_passes_the_faithful_claim(
    changed: str, faithful: str, span: str, reason: str
) -> None:
    assert (changed_condition(changed, span) or "").startswith(reason)
    assert changed_condition(faithful, span) is None
    decision, why = _decision(changed, span)
    assert decision is Decision.UNSUPPORTED and why.startswith(reason)
    assert _decision(faithful, span)[0] is Decision.SUPPORTED


def test_time_direction_written_before_the_figure_in_english() -> None:
    span = "The server must answer within 30 days of the request."
    assert changed_condition("The server must answer after 30 days of the request.", span) == (
        "changed condition: the claim puts 30 days after, the span within"
    )
    assert changed_condition("The server must answer within 30 days of the request.", span) is None


def test_a_name_the_question_gives_is_not_a_swap() -> None:
    claim = "set_tunnel sets the host and the port for HTTP Connect Tunnelling."
    span = "Set the host and the port for HTTP Connect Tunnelling with the headers of set_debuglevel()."
    assert changed_condition(claim, span, "What does HTTPConnection.set_tunnel do?") is None
    assert (changed_condition(claim, span) or "").startswith("swapped name: the claim names set_tunnel")


@pytest.mark.parametrize(
    ("swapped", "faithful", "span", "reason"),
    [
        (
            "고용노동부장관은 해고된 근로자에게 재취업 등 필요한 조치를 우선적으로 취하여야 한다.",
            "정부는 해고된 근로자를 위하여 재취업 등 필요한 조치를 우선적으로 취하여야 한다.",
            "정부는 해고된 근로자에 대하여 재취업 등 필요한 조치를 우선적으로 취하여야 한다.",
            "swapped name: the claim names 고용노동부장관, the span 정부",
        ),
        (
            "외국인을 고용한 자는 외국인이 퇴직하면 15일 이내에 법무부장관에게 신고하여야 한다.",
            "외국인을 고용한 자는 외국인이 퇴직하면 15일 안에 지방출입국·외국인관서의 장에게 신고해야 한다.",
            REPORT,
            "swapped name: the claim names 법무부장관, the span 외국인관서의 장",
        ),
    ],
)
def test_a_body_the_span_calls_by_another_kind_of_name(swapped: str, faithful: str, span: str, reason: str) -> None:
    # 정부 and the head of an office (…관서의 장) are bodies too: a minister in their place is not the span's.
    assert changed_condition(swapped, span) == reason
    assert _decision(swapped, span) == (Decision.UNSUPPORTED, reason)
    assert _decision(faithful, span)[0] is Decision.SUPPORTED


def test_a_requirement_the_span_also_waives_is_not_dropped() -> None:
    span = "법정대리인의 동의를 받기 위하여 필요한 최소한의 정보는 법정대리인의 동의 없이 해당 아동으로부터 직접 수집할 수 있다."
    assert changed_condition("최소한의 정보는 법정대리인의 동의 없이 아동으로부터 수집할 수 있다.", span) is None


def test_a_forbidding_claim_does_without_nothing() -> None:
    claim = "사용자는 근로자의 동의 없이 근로시간을 연장할 수 없다."
    assert changed_condition(claim, CONSENT) is None


@pytest.mark.parametrize(
    ("swapped", "faithful", "span"),
    [
        (
            "근로자가 부당해고등을 하면 사용자는 노동위원회에 구제를 신청할 수 있다.",
            "사용자가 부당해고등을 하면 근로자는 노동위원회에 구제를 신청할 수 있다.",
            REMEDY,
        ),
        (
            "근로자의 귀책사유로 휴업하는 경우에 사용자는 휴업수당을 지급하여야 한다.",
            "사용자의 귀책사유로 휴업하는 경우에 사용자는 근로자에게 평균임금의 100분의 70 이상의 수당을 지급하여야 한다.",
            IDLE,
        ),
        (
            "납세의무자는 관할세무서장에게 납부고지서를 발급하여야 한다.",
            "관할세무서장은 납부기간 개시 5일 전까지 납부고지서를 발급하여야 한다.",
            NOTICE,
        ),
    ],
)
def test_korean_roles_without_the_particle_pair(swapped: str, faithful: str, span: str) -> None:
    assert (role_swap(swapped, span) or "").startswith("swapped roles:")
    assert role_swap(faithful, span) is None
    assert _decision(swapped, span)[0] is Decision.UNSUPPORTED
    assert _decision(faithful, span)[0] is Decision.SUPPORTED


def test_english_roles_five_words_apart() -> None:
    span = "The loop calls methods of each dispatcher."
    swapped = "The dispatcher calls methods of each loop."
    assert role_swap(swapped, span) == "swapped roles: dispatcher and loop change places"
    assert role_swap(span, span) is None


def test_english_addition_flags_a_clause_of_new_words_and_passes_one_in_other_words() -> None:
    added = (
        "If the body is a string, it is encoded as ISO-8859-1, and the payload is compressed with gzip before "
        "transmission."
    )
    assert english_clauses(added)[-1] == "the payload is compressed with gzip before transmission."
    assert (unsupported_addition(added, BODY, page=BODY) or "").startswith("unsupported addition: the clause")
    assert _decision(added, BODY)[0] is Decision.UNSUPPORTED
    reworded = "If the body is a string, it is encoded as ISO-8859-1, and its length goes in the Content-Length header."
    assert unsupported_addition(reworded, BODY, page=BODY) is None
    assert _decision(reworded, BODY)[0] is Decision.SUPPORTED


@pytest.mark.parametrize(
    ("changed", "faithful", "span", "reason"),
    [
        (
            "The size is taken from the Content-Length header only when a size argument is given.",
            "When no size argument is given, the size is taken from the Content-Length header.",
            "If no size argument is given, the size is taken from the Content-Length header.",
            "changed condition: the claim's condition is 'size argument' present, the span's the opposite",
        ),
        (
            "근로자가 근로계약의 사소한 내용을 바꾼 경우에도 사용자는 신고하여야 한다.",
            "근로계약의 중요한 내용을 바꾼 경우 사용자는 신고해야 한다.",
            "사용자는 근로계약의 중요한 내용을 변경한 경우에는 신고하여야 한다.",
            "changed condition: the claim says '사소한', the span '중요한'",
        ),
    ],
)
def test_a_condition_changed_in_words(changed: str, faithful: str, span: str, reason: str) -> None:
    # The presence of a thing for its absence, or a word for its opposite (사소한 / 중요한).
    assert _decision(changed, span) == (Decision.UNSUPPORTED, reason)
    assert _decision(faithful, span)[0] is Decision.SUPPORTED


def test_a_degree_turned_around_is_a_changed_condition() -> None:
    span = "Calling the constructors directly gives more detailed error reporting than the convenience functions."
    changed = "Calling the constructors directly gives less detailed error reporting than the convenience functions."
    assert _decision(changed, span) == (
        Decision.UNSUPPORTED,
        "changed condition: the claim says 'less detail…', the span 'more detail…'",
    )
    faithful = "The constructors, called directly, give more detailed error reporting than the convenience functions."
    assert _decision(faithful, span)[0] is Decision.SUPPORTED
