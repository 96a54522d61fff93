"""How delivery reads a sentence's clauses: the subject a second clause carries, the figures advice
may not add, and a statute's duty read as a claim about the statute (not the writer's advice)."""

from __future__ import annotations

import pytest

from citewise.records.verify import ClaimKind, LedgerAction
from citewise.verify.claims import extract_claims
from citewise.verify.clauses import carried_subject, duty_only
from citewise.verify.figures import unsourced_particulars
from citewise.verify.ledger import CitedText, ledger_for_text

pytestmark = pytest.mark.unit


def _ledger(text: str, page: str) -> list[tuple[str, ClaimKind, LedgerAction]]:
    entries = ledger_for_text(text, {"S1": CitedText("S1", "https://example.org/page", page)})
    return [(e.claim.text, e.claim.kind, e.action) for e in entries]


# -- the subject of a clause without one ------------------------------------------------------------


def test_a_clause_without_a_subject_is_checked_with_the_first_clauses_subject() -> None:
    first, second = extract_claims("The module parses URLs, and returns a named tuple [S1].")
    assert (second.text, second.subject) == ("returns a named tuple.", "The module")
    assert second.checked_text == "The module returns a named tuple."
    assert first.subject == "" and first.checked_text == first.text


@pytest.mark.parametrize(
    ("first", "clause", "subject"),
    [
        ("Rents rose 5% in 2023", "deposits fell 2%.", ""),  # a noun then its verb: a subject of its own
        ("The requests module sends data", "is slow.", "The requests module"),  # "requests" after "the"
        ("This is fast", "uses two threads.", "This"),
        ("In 2020, rents rose 5%", "fell 2% in 2021.", ""),  # a subject after a comma is not read
        ("It parses URLs", "it returns a tuple.", ""),
        ("The US Senate must agree", "treaties enter into force only then.", ""),  # a plural noun, its verb
        ("The cycle rises", "falls, only to be replaced.", "The cycle"),
        ("They aired on HBO", "were also made available on Netflix.", "They"),
        ("not specified in the passage", "appears to be a tournament.", ""),  # no subject to carry
        ("사용자는 퇴직금을 지급하고", "14일 이내에 지급하여야 한다.", "사용자는"),
        ("임대차 기간은 2년이고", "갱신을 요구할 수 있다.", "임대차 기간은"),
        ("서울의 전세가는 3% 올랐고", "부산은 2% 내렸다.", ""),
        ("임신 중인 여성이 동의하고", "인가를 받으면 야간근로를 시킬 수 있다.", ""),  # 이/가: not carried
        ("서울에서는 전세가가 올랐고", "3% 내렸다.", ""),  # 에서는 is no topic
    ],
)
def test_carried_subject(first: str, clause: str, subject: str) -> None:
    assert carried_subject(first, clause) == subject


def test_the_ledger_keeps_the_clause_as_written() -> None:
    page = "The urllib.parse module parses URLs and returns a named tuple."
    entries = ledger_for_text(
        "The urllib.parse module parses URLs, and returns a named tuple [S1].", {"S1": CitedText("S1", None, page)}
    )
    assert [e.claim.text for e in entries] == ["The urllib.parse module parses URLs", "returns a named tuple."]
    assert all(e.action is LedgerAction.ACCEPT for e in entries)


# -- figures a recommendation or inference adds -----------------------------------------------------

PAGE = "외국인근로자가 출국한 때에는 사용자는 출국만기보험금을 지급하여야 한다. 보험료는 사용자가 부담한다."


def test_an_inference_with_a_figure_the_source_lacks_is_flagged() -> None:
    # The check finds too little overlap to call it a contradiction; the invented 14일 flags it.
    [(_, kind, action)] = _ledger("따라서 보험금은 출국 후 14일 안에 나올 것으로 보인다 [S1].", PAGE)
    assert kind is ClaimKind.FACT and action is not LedgerAction.LABEL_AS_INFERENCE
    assert action in (LedgerAction.NARROW, LedgerAction.REMOVE)


def test_an_inference_whose_figure_is_in_the_source_stays_labelled() -> None:
    page = PAGE + " 보험금은 출국한 때부터 14일 이내에 지급한다."
    [(_, kind, action)] = _ledger("따라서 보험금은 출국 후 14일 안에 나올 것으로 보인다 [S1].", page)
    assert action in (LedgerAction.LABEL_AS_INFERENCE, LedgerAction.ACCEPT)


def test_a_recommendation_without_figures_stays_labelled() -> None:
    [(_, kind, action)] = _ledger(
        "임차인은 계약 전에 등기부를 확인하는 것이 좋습니다 [S1].", "임차인은 보증금을 돌려받을 수 있다."
    )
    assert (kind, action) == (ClaimKind.RECOMMENDATION, LedgerAction.LABEL_AS_INFERENCE)


def test_unsourced_particulars_compares_values_dates_and_articles() -> None:
    assert unsourced_particulars("삼십 일 안에, 2024년 3월, 제4조", "30일 이내 … 2024. 3. 24. … 제4조") == ()
    assert unsourced_particulars("within 14 days", "within two weeks") == ()  # weeks as 7 days
    assert unsourced_particulars("by March 2025 under Art. 6", "in March 2024 under Art. 6") == ("March 2025",)
    assert unsourced_particulars("제5조에 따라 1개월", "제4조 … 1개월") == ("제5조",)


# -- a statute's duty is a claim about the statute ---------------------------------------------------

STATUTE = (
    "제36조(금품 청산) 사용자는 근로자가 퇴직한 경우에는 그 지급 사유가 발생한 때부터 14일 이내에 임금, "
    "보상금, 그 밖의 모든 금품을 지급하여야 한다."
)


def test_a_clause_of_a_stated_duty_citing_a_statute_is_checked() -> None:
    # "-고" used to inherit "recommendation" from 하여야 한다 and go unchecked: now an invented first
    # duty, cited to the statute, is flagged, and the stated one is accepted.
    [(_, first_kind, first_action), (_, _, second_action)] = _ledger(
        "사용자는 노동위원회에 신고하고, 14일 이내에 금품을 지급하여야 한다 [S1].", STATUTE
    )
    assert first_kind is ClaimKind.FACT and first_action in (LedgerAction.NARROW, LedgerAction.REMOVE)
    assert second_action is LedgerAction.ACCEPT


def test_a_stated_duty_citing_no_statute_stays_advice() -> None:
    guide = "근로자는 퇴직할 때 회사 물품을 반납한다. 금품은 정산 절차를 거친다."
    entries = _ledger("사용자는 노동위원회에 신고하고, 금품을 정산하여야 한다 [S1].", guide)
    assert entries[0][1:] == (ClaimKind.RECOMMENDATION, LedgerAction.LABEL_AS_INFERENCE)


def test_duty_only_tells_a_statutes_duty_from_advice() -> None:
    sentence = "사용자는 퇴직금을 지급하고, 14일 이내에 지급하여야 한다."
    assert duty_only("사용자는 퇴직금을 지급하고", sentence)
    assert not duty_only("임차인은 전입신고를 해야 합니다.", "임차인은 전입신고를 해야 합니다.")  # polite: advice
    assert not duty_only("확인하고", "임차인은 확인하고 신고하여야 한다고 권장한다.")
