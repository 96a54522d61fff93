"""Advice that states a figure of its own (issue 21, held out). Decided: advice such as "Check again
in 2 weeks." or "Apply within 14 days." cannot be told apart by its words from a deadline the
sources would have to state, so a figure, date or period that no cited text holds makes it a claim
of fact, and uncited it is removed, never labelled as the writer's recommendation. Advice that adds
no particular of its own stays a labelled recommendation; cited advice whose figure the source
holds is supported."""

from __future__ import annotations

import pytest

from citewise.records.verify import ClaimKind, Decision, LedgerAction, LedgerEntry
from citewise.verify.ledger import CitedText, ledger_for_text

PAGE = "The landlord must return the deposit within 30 days after the lease ends."
TEXTS = {"S1": CitedText("S1", "https://law.example/deposits", PAGE, PAGE)}


def _entry(markdown: str) -> LedgerEntry:
    (entry,) = ledger_for_text(markdown, TEXTS)
    return entry


@pytest.mark.parametrize(
    "advice",
    [
        "Check again in 2 weeks.",
        "Tenants should check again in 2 weeks.",
        "We recommend keeping receipts for 5 years.",
        "Apply within 14 days.",
        "2주 후에 다시 확인하는 것이 좋습니다.",
        "Tenants should ask for the deposit within 14 days [S1].",  # cited, and the source says 30
    ],
)
def test_advice_with_a_figure_no_cited_text_holds_is_checked_as_a_fact_and_removed(advice: str) -> None:
    entry = _entry(advice)

    assert entry.claim.kind is ClaimKind.FACT
    assert entry.decision is Decision.UNSUPPORTED
    assert entry.action in (LedgerAction.REMOVE, LedgerAction.NARROW)


@pytest.mark.parametrize("advice", ["Consider asking the landlord in writing.", "Tenants should keep their receipts."])
def test_advice_adding_no_particular_stays_a_labelled_recommendation(advice: str) -> None:
    entry = _entry(advice)

    assert entry.claim.kind is ClaimKind.RECOMMENDATION
    assert entry.decision is Decision.UNREVIEWED and entry.action is LedgerAction.LABEL_AS_INFERENCE


def test_advice_whose_figure_the_cited_source_holds_is_supported() -> None:
    entry = _entry("You should ask for the deposit within 30 days [S1].")

    assert entry.decision is Decision.SUPPORTED and entry.action is LedgerAction.ACCEPT
