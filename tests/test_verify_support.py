"""Support checks: a claim is supported only by a span of the stored page text that says what it says.

The model judge runs the real :class:`ChatClient` against :class:`FakeOpenAIServer` on loopback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from citewise.config import Secret
from citewise.llm import ChatClient, ModelSettings
from citewise.records.verify import Claim, ClaimKind, Decision, SupportCheck
from citewise.testing import FakeOpenAIServer
from citewise.verify.claims import extract_claims
from citewise.verify.conflicts import find_conflicts, independent_sources, shingle_similarity
from citewise.verify.support import best_span, check_support, figures, judge_with_model
from tests.support_cases import assert_passes_and_flags

ARTICLE_26 = (
    "제26조 (해고의 예고)\n"
    "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 하고, 30일 전에 예고를 하지 아니하였을 때에는 "
    "30일분 이상의 통상임금을 지급하여야 한다. 다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.\n\n"
    "  1. 근로자가 계속 근로한 기간이 3개월 미만인 경우\n"
)
ARTICLE_4 = (
    "**①** 기간을 정하지 아니하거나 2년 미만으로 정한 임대차는 그 기간을 2년으로 본다. "
    "다만, 임차인은 2년 미만으로 정한 기간이 유효함을 주장할 수 있다.\n\n"
    "**②** 임대차기간이 끝난 경우에도 임차인이 보증금을 반환받을 때까지는 임대차관계가 존속되는 것으로 본다."
)
PAGE_EN = (
    "The ministry published its annual housing report on 2 May 2024. "
    "Average rents in Seoul rose 5.2 percent in 2023, while deposits fell. "
    "Some tenants in older buildings were exempt from the increase."
)


def decide(claim: str, page: str, **kwargs: str) -> SupportCheck:
    return check_support(claim, "S1", page, **kwargs)


# -- spans -------------------------------------------------------------------------------------------


@pytest.mark.unit
def test_best_span_is_an_exact_substring_with_its_proviso() -> None:
    span = best_span("임차인은 보증금을 반환받을 때까지 임대차관계가 존속된다", ARTICLE_4)
    assert span == "임대차기간이 끝난 경우에도 임차인이 보증금을 반환받을 때까지는 임대차관계가 존속되는 것으로 본다."
    assert span in ARTICLE_4
    with_proviso = best_span("2년 미만으로 정한 임대차는 2년으로 본다", ARTICLE_4)
    assert with_proviso is not None and with_proviso.endswith("유효함을 주장할 수 있다.")
    assert with_proviso in ARTICLE_4


@pytest.mark.unit
def test_no_span_when_the_page_shares_no_term() -> None:
    assert best_span("Tokyo office vacancies", ARTICLE_4) is None
    check = decide("Tokyo office vacancies", ARTICLE_4)
    assert (check.decision, check.span, check.span_found) == (Decision.UNSUPPORTED, None, False)


# -- each rule: supported and unsupported ---------------------------------------------------------------


@pytest.mark.unit
def test_faithful_korean_paraphrase_is_supported_with_its_span() -> None:
    check = decide("사용자가 근로자를 해고하려면 적어도 30일 전에 예고해야 한다.", ARTICLE_26)
    assert check.decision is Decision.SUPPORTED, check.reason
    assert check.span_found and check.span is not None and check.span in ARTICLE_26
    assert check.judge == "deterministic" and check.source_id == "S1"


@pytest.mark.unit
def test_wrong_number_is_unsupported_and_named() -> None:
    check = decide("사용자가 근로자를 해고하려면 적어도 60일 전에 예고해야 한다.", ARTICLE_26)
    assert check.decision is Decision.UNSUPPORTED
    assert check.missing == ("60일",)
    assert check.reason.startswith("wrong number: 60일 (the span has 30일")


@pytest.mark.unit
def test_numbers_are_compared_after_normalisation() -> None:
    page = "증액청구는 약정한 차임이나 보증금의 20분의 1의 금액을 초과하지 못한다. 보증금은 1억 2,000만원이다."
    assert decide("증액청구는 약정한 차임이나 보증금의 5%를 넘지 못한다.", page).decision is Decision.SUPPORTED
    assert [(f.value, f.unit) for f in figures("석 달 동안 1,200만원")] == [(3.0, "month"), (12_000_000.0, "KRW")]
    assert decide("Average rents in Seoul rose 5.2% in 2023.", PAGE_EN).decision is Decision.SUPPORTED
    assert "5.3%" in decide("Average rents in Seoul rose 5.3% in 2023.", PAGE_EN).missing


@pytest.mark.unit
def test_date_and_name_must_be_in_the_span() -> None:
    wrong_year = decide("Average rents in Seoul rose 5.2 percent in 2022.", PAGE_EN)
    assert wrong_year.decision is Decision.UNSUPPORTED and wrong_year.missing == ("2022",)
    wrong_city = decide("Average rents in Busan rose 5.2 percent in 2023.", PAGE_EN)
    assert wrong_city.decision is Decision.UNSUPPORTED and "Busan" in wrong_city.missing


@pytest.mark.unit
def test_overstated_scope_universal_claim_against_a_qualified_span() -> None:
    check = decide("2년 미만으로 정한 임대차의 기간은 항상 2년으로 본다.", ARTICLE_4)
    assert check.decision is Decision.UNSUPPORTED
    assert check.reason.startswith("overstated scope: the claim says '항상'")
    english = decide("All tenants in older buildings were exempt from the increase.", PAGE_EN)
    assert english.decision is Decision.UNSUPPORTED and "overstated scope" in english.reason
    assert decide("Some tenants in older buildings were exempt from the increase.", PAGE_EN).decision is (
        Decision.SUPPORTED
    )


@pytest.mark.unit
def test_overstated_scope_dropped_or_changed_bound_on_a_figure() -> None:
    dropped = decide("30일 전에 예고하지 않았다면 사용자는 30일분의 통상임금만 지급하면 된다.", ARTICLE_26)
    assert dropped.decision is Decision.UNSUPPORTED and "drops it" in dropped.reason
    changed = decide("근로자가 계속 근로한 기간이 3개월 이상인 경우", ARTICLE_26)
    assert changed.decision is Decision.UNSUPPORTED and "overstated scope" in changed.reason
    kept = decide("예고하지 않았다면 30일분 이상의 통상임금을 지급해야 한다.", ARTICLE_26)
    assert kept.decision is Decision.SUPPORTED, kept.reason


@pytest.mark.unit
def test_negation_mismatch_either_way_is_unsupported() -> None:
    claim_negates = decide("임차인은 2년 미만으로 정한 기간이 유효함을 주장할 수 없다.", ARTICLE_4)
    assert claim_negates.decision is Decision.UNSUPPORTED
    assert claim_negates.reason.startswith("negation mismatch: the claim negates")
    page = "1주 간의 근로시간은 휴게시간을 제외하고 40시간을 초과할 수 없다."
    span_negates = decide("1주 간의 근로시간은 휴게시간을 제외하고 40시간을 초과할 수 있다.", page)
    assert span_negates.decision is Decision.UNSUPPORTED
    assert span_negates.reason.startswith("negation mismatch: the span negates")
    assert decide("1주 근로시간은 휴게시간을 빼고 40시간을 넘을 수 없다.", page).decision is Decision.SUPPORTED
    english = decide("Some tenants in older buildings were not exempt from the increase.", PAGE_EN)
    assert english.decision is Decision.UNSUPPORTED and "negation" in english.reason


@pytest.mark.unit
@pytest.mark.parametrize(
    ("faithful", "opposite"),
    [
        (
            "누구든지 허가를 받지 않은 외국인의 고용을 알선해서는 안 된다.",
            "누구든지 허가 없는 외국인의 고용을 알선할 수 있다.",
        ),
        (
            "허가를 받지 않은 외국인의 고용을 알선하는 것은 금지됩니다.",
            "허가를 받지 않은 외국인의 고용은 알선해도 됩니다.",
        ),
    ],
)
def test_a_prohibition_in_other_words_is_the_spans_prohibition(faithful: str, opposite: str) -> None:
    # 해서는 안 된다 and 금지된다 forbid the act as 하여서는 아니 된다 does: the same negation, not a mismatch.
    page = "누구든지 허가를 받지 아니한 외국인의 고용을 알선하여서는 아니 된다."
    kept = decide(faithful, page)
    assert kept.decision is Decision.SUPPORTED, kept.reason
    changed = decide(opposite, page)
    assert changed.decision is Decision.UNSUPPORTED
    assert changed.reason.startswith("negation mismatch: the span negates '알선")


@pytest.mark.unit
def test_a_numbered_item_is_read_with_the_sentence_that_leads_it() -> None:
    # Neither the lead ("다음 각 호 … 그러하지 아니하다") nor an item says the rule alone.
    page = (
        "제9조 (예고)\n사용자는 해고하려면 30일 전에 예고하여야 한다. "
        "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. <개정 2019.1.15>\n\n"
        "  1. 계속 근로한 기간이 3개월 미만인 경우\n  2. 사업을 계속할 수 없는 경우"
    )
    kept = decide("계속 근로한 기간이 3개월 미만인 근로자에게는 예고하지 않아도 된다.", page)
    assert kept.decision is Decision.SUPPORTED, kept.reason
    assert kept.span is not None
    assert kept.span.startswith("다만, 다음 각 호") and kept.span.endswith("3개월 미만인 경우")
    changed = decide("계속 근로한 기간이 6개월 미만인 근로자에게는 예고하지 않아도 된다.", page)
    assert changed.decision is Decision.UNSUPPORTED
    report = (
        "외국인을 고용한 자는 다음 각 호의 사유가 발생하면 15일 이내에 신고하여야 한다.\n"
        "  1. 외국인의 소재를 알 수 없게 된 경우"
    )
    lead = decide("고용된 외국인의 소재를 알 수 없게 된 경우 고용주는 15일 안에 신고해야 한다.", report)
    assert lead.decision is Decision.SUPPORTED, lead.reason
    opposite = decide("고용된 외국인의 소재를 알 수 없게 된 경우 고용주는 신고하지 않아도 된다.", report)
    assert opposite.decision is Decision.UNSUPPORTED and opposite.reason.startswith("negation mismatch")


@pytest.mark.unit
def test_below_bounds_a_figure_as_less_than_does_and_an_opening_preposition_is_no_name() -> None:
    page = "PEP 999: integers less than 2**32 are considered IPv4 addresses by default."
    kept = decide("Under PEP 999, integers below 2**32 are considered IPv4 addresses by default.", page)
    assert kept.decision is Decision.SUPPORTED, kept.reason
    changed = decide("Under PEP 999, integers above 2**32 are considered IPv4 addresses by default.", page)
    assert changed.decision is Decision.UNSUPPORTED and changed.reason.startswith("overstated scope")


@pytest.mark.unit
def test_low_term_overlap_is_unsupported() -> None:
    check = decide("임대인은 주택을 매각하기 전에 임차인에게 서면으로 알려야 하며 위반하면 과태료를 낸다.", ARTICLE_4)
    assert check.decision is Decision.UNSUPPORTED and check.reason.startswith("low term overlap")


@pytest.mark.unit
def test_question_context_judges_a_short_answer_by_what_it_adds() -> None:
    page = "Don Pyke had been an assistant coach at Adelaide from 2005 to 2006. He was appointed senior coach in 2016."
    question = "What position did Don Pyke hold at Adelaide from 2005 to 2006?"
    assert decide("Assistant coach", page, context=question).decision is Decision.SUPPORTED
    assert decide("The answer is: head groundsman", page, context=question).decision is Decision.UNSUPPORTED


@pytest.mark.unit
def test_a_claim_record_is_checked_by_its_text() -> None:
    claim = Claim("C1", "사용자는 적어도 30일 전에 해고를 예고해야 한다", "…", ClaimKind.FACT, ("S1",))
    assert check_support(claim, "S1", ARTICLE_26).decision is Decision.SUPPORTED


# -- conflicts ---------------------------------------------------------------------------------------


def fact(claim_id: str, text: str, source: str) -> Claim:
    return Claim(claim_id, text, text, ClaimKind.FACT, (source,))


def supported(source: str, span: str) -> SupportCheck:
    return SupportCheck(source, span, True, (), Decision.SUPPORTED, "ok")


@pytest.mark.unit
def test_conflict_between_two_sources_keeps_both_values_and_conditions() -> None:
    a = fact("C1", "2023년 서울 아파트 평균 전세가는 5.2% 올랐다", "S1")
    b = fact("C2", "2023년 서울 아파트 평균 전세가는 3.1% 상승했다(수도권 이상 표본 경우)", "S2")
    same_value = fact("C3", "2023년 서울 아파트 평균 전세가는 5.2퍼센트 올랐다", "S3")
    other_year = fact("C4", "2024년 서울 아파트 평균 전세가는 1% 올랐다", "S4")
    other_metric = fact("C5", "2023년 부산 오피스 공실률은 9% 였다", "S5")
    conflicts = find_conflicts(
        [(c, (supported(c.cited_ids[0], c.text),)) for c in (a, b, same_value, other_year, other_metric)]
    )
    pairs = {(c.first.claim_id, c.second.claim_id) for c in conflicts if not c.resolved}
    assert pairs == {("C1", "C2"), ("C2", "C3")}
    # another year is no contradiction: shown side by side, explained by the period
    other_years = {(c.first.claim_id, c.second.claim_id): c.explanation.value for c in conflicts if c.resolved}
    assert other_years == {("C1", "C4"): "period", ("C2", "C4"): "period", ("C3", "C4"): "period"}
    first = next(c for c in conflicts if c.first.claim_id == "C1")
    assert (first.first_source, first.second_source) == ("S1", "S2")
    assert (first.first_value, first.second_value) == ("5.2%", "3.1%")
    assert first.period == "2023년"
    assert first.second_conditions == ("이상", "경우")
    assert "5.2% [S1] vs 3.1% [S2] (이상, 경우)" in first.describe()


@pytest.mark.unit
def test_units_are_reconciled_before_comparing() -> None:
    a = fact("C1", "2024년 서울 평균 보증금은 3억원이다", "S1")
    b = fact("C2", "2024년 서울 평균 보증금은 30000만원이다", "S2")
    c = fact("C3", "The notice period in 2024 is 2 years", "S1")
    d = fact("C4", "The notice period in 2024 is 24 months", "S2")
    assert find_conflicts([(x, ()) for x in (a, b, c, d)]) == []


@pytest.mark.unit
def test_claims_from_one_source_or_recommendations_are_not_conflicts() -> None:
    a = fact("C1", "2023년 서울 전세가는 5% 올랐다", "S1")
    b = fact("C2", "2023년 서울 전세가는 3% 올랐다", "S1")
    advice = Claim(
        "C3", "2023년 서울 전세가는 3% 올랐다고 보고 계약하는 것이 좋다", "", ClaimKind.RECOMMENDATION, ("S2",)
    )
    assert find_conflicts([(a, ()), (b, ()), (advice, ())]) == []


@pytest.mark.unit
def test_repeated_announcement_counts_as_one_source() -> None:
    release = "국토교통부는 2024년 5월 2일 전국 아파트 전세가격이 전년 대비 3.1% 상승했다고 밝혔다."
    pages = {
        "S1": f"[뉴스1] {release} 자세한 내용은 보도자료 참조.",
        "S2": f"{release}",
        "S3": "한국부동산원 통계에 따르면 2023년 서울 전세가격은 5.2% 상승했으며 지방은 하락했다.",
    }
    checks = [
        supported("S1", release),
        supported("S2", release.replace("  ", " ")),
        supported("S3", pages["S3"]),
        supported("S1", release),  # the same source checked for a second claim
    ]
    assert independent_sources(checks, pages) == [("S1", "S2"), ("S3",)]
    assert shingle_similarity(pages["S1"], pages["S3"]) < 0.8


# -- the model judge ------------------------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def client(server: FakeOpenAIServer) -> Iterator[ChatClient]:
    settings = ModelSettings(api_key=Secret("sk-test-judge"), base_url=server.base_url, timeout_s=5)
    with ChatClient(settings) as chat:
        yield chat


def reply(decision: str, span: str, reason: str = "because") -> str:
    return json.dumps({"decision": decision, "reason": reason, "span": span}, ensure_ascii=False)


@pytest.mark.integration
def test_model_judgement_with_a_span_from_the_page_is_accepted(server: FakeOpenAIServer, client: ChatClient) -> None:
    quote = "적어도 30일 전에 예고를 하여야 하고"
    server.enqueue_reply(reply("supported", quote))
    check = judge_with_model(
        client, "judge-1", "해고하려면 30일 전에 예고해야 한다", ARTICLE_26, page_text=ARTICLE_26, source_id="S4"
    )
    assert (check.decision, check.span, check.span_found, check.judge, check.source_id) == (
        Decision.SUPPORTED,
        quote,
        True,
        "judge-1",
        "S4",
    )
    sent = server.requests[0].json
    assert sent["model"] == "judge-1" and sent["temperature"] == 0
    payload = json.loads(sent["messages"][-1]["content"])
    assert payload["claim"] == "해고하려면 30일 전에 예고해야 한다" and payload["passage"] == ARTICLE_26


@pytest.mark.integration
def test_model_conflicting_verdict_is_kept(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(reply("conflicting", "30일 전에 예고를", "the page says 30 days, not 60"))
    check = judge_with_model(client, "judge-1", "60일 전에 예고해야 한다", ARTICLE_26)
    assert check.decision is Decision.CONFLICTING and check.reason == "the page says 30 days, not 60"


@pytest.mark.integration
def test_model_span_not_in_the_page_discards_the_judgement(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(reply("supported", "사용자는 언제든지 해고할 수 있다"))
    check = judge_with_model(client, "judge-1", "사용자는 언제든지 해고할 수 있다", ARTICLE_26, page_text=ARTICLE_26)
    assert check.decision is Decision.UNREVIEWED
    assert check.span is None and not check.span_found
    assert "not in the page text" in check.reason


@pytest.mark.integration
def test_model_supported_without_span_is_discarded(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(reply("supported", ""))
    check = judge_with_model(client, "judge-1", "해고 예고는 30일 전이다", ARTICLE_26)
    assert check.decision is Decision.UNREVIEWED and check.reason == "judgement discarded: no span"


@pytest.mark.unit
def test_branch_article_numbers_are_not_figures() -> None:
    # 제6조의2 names an article; its 2 is not a count the span must repeat.
    assert figures("임차인은 주택임대차보호법 제6조의2에 따라 계약을 해지할 수 있다.") == []
    assert figures("제10조의2제1항, 6조의2") == []
    assert [f.value for f in figures("보증금 2억원, 2조 원의 예산")] == [2e8, 2e12]
    page = "제6조의2(묵시적 갱신의 경우 계약의 해지) ① 임차인은 언제든지 임대인에게 계약해지를 통지할 수 있다."
    claim = "제6조의2에 따르면 임차인은 언제든지 임대인에게 계약해지를 통지할 수 있다."
    assert decide(claim, page).decision is Decision.SUPPORTED, decide(claim, page).reason


ARTICLE_27 = (
    "제27조 (해고사유 등의 서면통지) ① 사용자는 근로자를 해고하려면 해고사유와 해고시기를 서면으로 통지하여야 한다. "
    "③ 사용자가 제26조에 따른 해고의 예고를 해고사유와 해고시기를 명시하여 서면으로 한 경우에는 제1항에 따른 통지를 한 "
    "것으로 본다."
)


def test_a_claim_attributed_to_an_article_the_page_only_refers_to_is_a_wrong_article() -> None:
    # The page is 제27조; 제26조 is in its text only as a reference. A claim that names 제27조 as its
    # source passes, one that names 제26조 does not, and one that repeats the text's own reference does.
    assert_passes_and_flags(
        ARTICLE_27,
        "제27조에 따르면 사용자는 근로자를 해고하려면 해고사유와 해고시기를 서면으로 통지해야 한다.",
        "근로기준법 제26조에 따르면 사용자는 근로자를 해고하려면 해고사유와 해고시기를 서면으로 통지해야 한다.",
    )
    repeated = "제26조에 따른 해고의 예고를 해고사유와 해고시기를 명시하여 서면으로 했다면 통지를 한 것으로 본다."
    assert check_support(repeated, "S1", ARTICLE_27, meaning=False).decision is Decision.SUPPORTED
    flagged = check_support("제26조는 해고사유를 서면으로 통지하도록 정한다.", "S1", ARTICLE_27, meaning=False)
    assert "wrong article: 제26조 (the page is 제27조" in flagged.reason


# The opening paragraph of the Python docs' ipaddress page, hard-wrapped at 80 columns as shipped.
IPADDRESS_INTRO = (
    "The functions and classes in this module make it straightforward to handle\n"
    "various tasks related to IP addresses, including checking whether or not two\n"
    "hosts are on the same subnet, iterating over all hosts in a particular\n"
    "subnet, checking whether or not a string represents a valid IP address or\n"
    "network definition, and so on.\n\n"
    "This is the full module API reference—for an overview and introduction, see\n"
    ":ref:`ipaddress-howto`.\n"
)


def test_a_quote_of_a_hard_wrapped_sentence_is_judged_on_the_whole_sentence() -> None:
    # The best-scoring lines were a piece of the sentence; its "whether or not two hosts" was set
    # against the claim's "whether or not a string", and a word-for-word quote was removed.
    claim = " ".join(IPADDRESS_INTRO.split("\n\n")[0].split())
    check = check_support(claim, "E1", IPADDRESS_INTRO)
    assert check.decision is Decision.SUPPORTED, check.reason
    assert check.span is not None and check.span.startswith("The functions") and check.span.endswith("and so on.")
    # Said otherwise, it is judged as before: the quote's place does not vouch for a changed word.
    changed = claim.replace("whether or not a string", "whether a string never")
    assert check_support(changed, "E1", IPADDRESS_INTRO).decision is Decision.UNSUPPORTED


# ip_address in the Python docs' ipaddress page, as shipped: a power of two in literal markup.
IP_ADDRESS_ENTRY = (
    ".. function:: ip_address(address)\n\n"
    "   Return an :class:`IPv4Address` or :class:`IPv6Address` object depending on\n"
    "   the IP address passed as argument.  Either IPv4 or IPv6 addresses may be\n"
    "   supplied; integers less than ``2**32`` will be considered to be IPv4 by default.\n"
)


def test_every_claim_of_a_quoted_sentence_is_judged_where_the_sentence_stands() -> None:
    # The sentence parts into two claims; the second borrows the first's subject ("Either IPv4 or
    # IPv6 integers …") and was judged on other lines, where "IPv6" is not. "2**32" is a power, not
    # bold text: its marks stay.
    quoted = "Either IPv4 or IPv6 addresses may be supplied; integers less than 2**32 will be considered to be IPv4"
    claims = extract_claims(f"{quoted} by default. [E1]")
    assert len(claims) == 2 and "2**32" in claims[1].text
    for claim in claims:
        check = check_support(claim, "E1", IP_ADDRESS_ENTRY)
        assert check.decision is Decision.SUPPORTED, (claim.text, check.reason)
    # The same sentence with another figure is still a wrong number.
    changed = extract_claims(f"{quoted.replace('2**32', '2**64')} by default. [E1]")[1]
    assert check_support(changed, "E1", IP_ADDRESS_ENTRY).decision is Decision.UNSUPPORTED


def test_a_quote_whose_words_hold_markup_on_the_page_is_found_word_for_word() -> None:
    page = (
        "   :class:`IPv4Interface` is a subclass of :class:`IPv4Address`, so it inherits\n"
        "   all the attributes from that class.  In addition, the following attributes are available:\n"
    )
    (claim,) = extract_claims(
        ":class:`IPv4Interface` is a subclass of :class:`IPv4Address`, so it inherits all the attributes from "
        "that class. [E1]"
    )
    check = check_support(claim, "E1", page)
    assert check.decision is Decision.SUPPORTED, check.reason  # was: overstated scope, 'all'


# 소득세법 제52조 ⑤'s proviso as the statute words it (the rule before it shortened).
LOAN_INTEREST = (
    "⑤ 근로소득이 있는 거주자가 장기주택저당차입금의 이자를 지급하였을 때에는 해당 과세기간에 지급한 이자 "
    "상환액을 그 과세기간의 근로소득금액에서 공제한다. 다만, 그 공제하는 금액과 제4항 및 「조세특례제한법」 "
    "제87조제2항에 따른 주택청약종합저축 등에 대한 소득공제 금액의 합계액이 연 800만원(차입금의 상환기간이 "
    '15년 이상인 장기주택저당차입금에 대하여 적용하며, 이하 이 항 및 제6항에서 "공제한도"라 한다)을 초과하는 '
    "경우 그 초과하는 금액은 없는 것으로 한다."
)


def test_a_sentence_quoted_word_for_word_and_alone_says_what_the_page_says() -> None:
    # The bound inside nested brackets was read as dropped ("the span bounds 800만원, the claim
    # drops it") from the statute's own sentence.
    proviso = LOAN_INTEREST[LOAN_INTEREST.index("다만,") :]
    for claim in extract_claims(f"{proviso} [E1]"):
        check = check_support(claim, "E1", LOAN_INTEREST)
        assert check.decision is Decision.SUPPORTED, (claim.text, check.reason)
    # The rule quoted word for word is judged with the proviso after it, as before.
    rule = LOAN_INTEREST[: LOAN_INTEREST.index(" 다만,")]
    ruled = check_support(extract_claims(f"{rule} [E1]")[0], "E1", LOAN_INTEREST)
    assert ruled.span is not None and "다만," in ruled.span
    # Said with another figure, it is not the page's sentence.
    changed = extract_claims(f"{proviso.replace('800만원', '900만원')} [E1]")
    assert any(check_support(c, "E1", LOAN_INTEREST).decision is Decision.UNSUPPORTED for c in changed)


# 근로기준법 제11조 as the statute words it.
ARTICLE_11 = (
    "제11조 (적용 범위)\n"
    "**①** 이 법은 상시 5명 이상의 근로자를 사용하는 모든 사업 또는 사업장에 적용한다. 다만, 동거하는 친족만을 "
    "사용하는 사업 또는 사업장과 가사(家事) 사용인에 대하여는 적용하지 아니한다.\n\n"
    "**②** 상시 4명 이하의 근로자를 사용하는 사업 또는 사업장에 대하여는 대통령령으로 정하는 바에 따라 이 법의 "
    "일부 규정을 적용할 수 있다.\n\n"
    "**③** 이 법을 적용하는 경우에 상시 사용하는 근로자 수를 산정하는 방법은 대통령령으로 정한다."
)


def test_a_claim_about_the_case_a_proviso_excepts_is_read_against_the_proviso() -> None:
    # The rule and its proviso shared as many of the claim's terms (법, 근로 / 동거, 친족): the rule,
    # first, was the sentence compared, and "적용된다" passed. The proviso's terms are in one sentence
    # of the article, the rule's in all of them.
    flipped = check_support("근로기준법은 동거하는 친족만을 사용하는 사업장에도 적용된다.", "S1", ARTICLE_11)
    assert flipped.decision is Decision.UNSUPPORTED and "negation" in flipped.reason
    faithful = check_support("근로기준법은 동거하는 친족만을 사용하는 사업장에는 적용되지 않는다.", "S1", ARTICLE_11)
    assert faithful.decision is Decision.SUPPORTED, faithful.reason
