"""Parties traded in one clause, a relation said with a copula, a decree's maker, words of one kind
that exclude each other, and a restriction the page never states: each perturbation is flagged,
its faithful version passes (lexical rule, no embedder)."""

from __future__ import annotations

import pytest

from citewise.verify.conditions import changed_condition
from citewise.verify.qualifiers import contrast_problem
from citewise.verify.relations import relation_swap
from citewise.verify.roles import role_swap
from tests.support_cases import assert_passes_and_flags

REFUND = (
    "임차인이 수리를 요청할 경우에는 관리사무소에 알릴 수 있으며, 계약이 끝났을 경우에는 "
    "임대인은 이사하는 임차인에게 이사 비용을 지급하여야 한다."
)
FEE = "수수료는 현금으로 직접 회원에게 그 전액을 돌려주어야 한다."
OFFSET = "제9조 (선불금 상계의 금지) 고용주는 선불금이나 그 밖의 대여채권과 급여를 상계하지 못한다."
NOTICE = "제1항에 따른 해지는 임대인이 그 통지를 받은 날부터 1개월이 지나면 그 효력이 발생한다."
REASON = "사업주는 이주노동자라는 이유로 부당하게 차별하여서는 아니 된다."
SUBNET = "is_child_of(other): Return True if this zone is a child of other."
INSIDE = "Raises KeyError if zone is not wholly contained in this zone."
DECREE = "제1항에 따른 등록의 심사기준은 국토교통부령으로 정한다."
POLLING = "Batch jobs are rarely memory bound, however."
TABLE = "The handlers parameter is a dictionary whose items are the callbacks to run."
CACHE = "Note: the cache stores compiled patterns, which may use a little more memory."


@pytest.mark.parametrize(
    ("page", "faithful", "perturbed"),
    [
        # Payer and payee traded in the clause that holds the verb, though an earlier clause has
        # the payee as a subject too.
        (
            REFUND,
            "계약이 끝난 경우, 이사하는 임차인에게 임대인이 이사 비용을 지급하여야 합니다.",
            "계약이 끝났을 경우에는 임차인이 임대인에게 이사 비용을 지급하여야 합니다.",
        ),
        # The page's recipient made the subject, paying a party the page never names.
        (
            FEE,
            "수수료는 현금으로 직접 회원에게 그 전액을 돌려주어야 합니다.",
            "회원은 수수료를 현금으로 직접 운영자에게 돌려주어야 합니다.",
        ),
        # A party the page never names made the subject, the page's subject demoted to an owner.
        (OFFSET, "고용주는 선불금을 급여와 상계하지 못한다.", "근무자는 선불금을 고용주의 채권과 상계하지 못한다."),
        (
            NOTICE,
            "해지는 임대인이 통지를 받은 날부터 1개월이 지나면 효력이 생긴다.",
            "해지는 임차인이 임대인의 통지를 받은 날부터 1개월이 지나면 효력이 발생한다.",
        ),
        # The one a reason is named by (라는) traded with the subject.
        (
            REASON,
            "사업주는 이주노동자라는 이유로 부당하게 차별할 수 없다.",
            "이주노동자는 사업주라는 이유로 부당하게 차별하여서는 아니 된다.",
        ),
    ],
)
def test_korean_parties_traded_are_flagged(page: str, faithful: str, perturbed: str) -> None:
    assert_passes_and_flags(page, faithful, perturbed)


def test_korean_synonym_for_a_party_with_two_subjects_in_the_span_passes() -> None:
    # "고용주" for "외국인을 고용한 자": the span's other subject (외국인이) is no reason to call it a swap.
    span = "외국인을 고용한 자는 외국인이 퇴직한 경우에는 15일 이내에 신고하여야 한다."
    assert role_swap("외국인의 퇴직 시 고용주는 15일 이내에 신고해야 합니다.", span) is None


@pytest.mark.parametrize(
    ("page", "faithful", "perturbed"),
    [
        (
            SUBNET,
            "is_child_of(other) returns True when this zone is a child of other.",
            "is_child_of(other) returns True if other is a child of this zone.",
        ),
        (
            SUBNET,
            "is_child_of(other) returns True when this zone is a child of other.",
            "is_child_of(other) returns True when the other zone is a child of this zone.",
        ),
        (
            INSIDE,
            "A KeyError is raised when the zone passed in is not wholly contained in this zone.",
            "A KeyError is raised if this zone is not wholly contained in the given zone.",
        ),
    ],
)
def test_a_containment_said_with_a_copula_turned_round_is_flagged(page: str, faithful: str, perturbed: str) -> None:
    assert_passes_and_flags(page, faithful, perturbed)


def test_a_containment_between_named_parties_is_read_both_ways() -> None:
    page = "SecureLink is a subclass of BaseLink."
    assert relation_swap("BaseLink is a subclass of SecureLink.", page) == ("baselink", "securelink")
    assert relation_swap("SecureLink is a subclass of BaseLink.", page) is None


def test_the_maker_of_a_decree_swapped_is_flagged() -> None:
    assert_passes_and_flags(
        DECREE, "등록의 심사기준은 국토교통부령으로 정합니다.", "등록의 심사기준은 대통령령으로 정합니다."
    )
    assert (
        changed_condition("심사기준은 총리령으로 정한다.", DECREE)
        == "swapped name: the claim names 총리령, the span 국토교통부령"
    )


def test_words_of_one_kind_that_exclude_each_other_are_flagged() -> None:
    assert_passes_and_flags(POLLING, "Batch jobs are rarely memory bound.", "Batch jobs are usually memory bound.")
    assert_passes_and_flags(
        TABLE, "handlers is a dictionary of the callbacks to run.", "handlers is a list of the callbacks to run."
    )
    assert changed_condition("It returns a tuple.", "It returns a list of tuples.") is None
    assert changed_condition("keys() returns a view, not a list.", "keys() returns a view of the dictionary.") is None
    assert (
        contrast_problem("It usually blocks.", "It rarely blocks.")
        == "changed condition: the claim says 'usually', the span 'rarely'"
    )


def test_a_restriction_the_page_never_states_is_flagged() -> None:
    claim = "The cache stores compiled patterns only when the REGEX_CACHE environment variable is set."
    assert_passes_and_flags(CACHE, "The cache stores compiled patterns, which may use a little more memory.", claim)
    # A restriction whose words the span has is left to the other checks.
    span = "Items are retried only when the retry flag is set."
    assert changed_condition("Items are retried only if the retry flag is set.", span) is None


def test_a_phrase_the_span_rules_out_affirmed_is_flagged() -> None:
    page = "The name argument gives the label shown in the log (the label of the record, not the label of the logger)."
    assert_passes_and_flags(page, "name gives the label of the record.", "name gives the label of the logger.")
    assert changed_condition("name is not the label of the logger.", page) is None


def test_a_causative_verb_is_one_predicate_however_it_is_written() -> None:
    page = "사용자는 임산부를 야간에 근로시키지 못한다."
    assert_passes_and_flags(
        page, "사용자는 임산부에게 야간 근로를 시킬 수 없습니다.", "사용자는 임산부에게 야간 근로를 시킬 수 있습니다."
    )
