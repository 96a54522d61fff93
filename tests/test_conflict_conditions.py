"""Conflicts with their conditions (issue 25, part 3): figures that differ are shown side by side with
each side's source, period, conditions and publication date; when the sides' own conditions explain
the difference the report says so and may be accepted, and when they do not, the conflict is
unresolved and the report is not accepted."""

from __future__ import annotations

import pytest

from citewise.records.verify import ConflictExplanation
from citewise.verify.delivery import deliver
from citewise.verify.ledger import CitedText

pytestmark = pytest.mark.unit

S1 = "Statistics office, 2024 release. In 2023 the average monthly rent in Seoul rose 5.2%, the office said."
S2 = "Housing survey. In 2022 the average monthly rent in Seoul rose 3.1%, according to the survey."
S3 = "Agency bulletin. In 2023 the average monthly rent in Seoul rose 3.9%, the agency reported."


def _texts(second: str) -> dict[str, CitedText]:
    return {
        "S1": CitedText("S1", "https://stats.example/rent", S1, S1, "2024-02-01"),
        "S2": CitedText("S2", "https://survey.example/rent", second, second, "2023-03-10"),
    }


def test_different_years_are_explained_by_the_period_and_both_are_kept() -> None:
    text = (
        "In 2023 the average monthly rent in Seoul rose 5.2% [S1]. "
        "In 2022 the average monthly rent in Seoul rose 3.1% [S2]."
    )
    delivery = deliver(text, _texts(S2), kind="research")
    (conflict,) = delivery.conflicts
    assert conflict.explanation is ConflictExplanation.PERIOD and conflict.resolved
    assert (conflict.first_period, conflict.second_period) == ("2023", "2022")
    assert (conflict.first_published, conflict.second_published) == ("2024-02-01", "2023-03-10")
    assert "5.2%" in delivery.text and "3.1%" in delivery.text  # both kept for the reader
    assert "different periods, both kept" in conflict.describe()
    assert delivery.acceptance.accepted, delivery.acceptance.reasons


def test_the_same_year_with_different_figures_is_unresolved_and_not_accepted() -> None:
    text = (
        "In 2023 the average monthly rent in Seoul rose 5.2% [S1]. "
        "In 2023 the average monthly rent in Seoul rose 3.9% [S2]."
    )
    delivery = deliver(text, _texts(S3), kind="research")
    assert not delivery.acceptance.accepted
    assert any("conflict" in r for r in delivery.acceptance.reasons)
    assert {f.decision.value for f in delivery.removed} == {"conflicting"}  # neither value passed off as the answer
    assert "5.2%" not in delivery.text and "3.9%" not in delivery.text
    (conflict,) = delivery.conflicts  # still on the record, both values side by side
    assert conflict.explanation is ConflictExplanation.UNEXPLAINED and not conflict.resolved
    assert "5.2% [S1]" in conflict.describe() and "3.9% [S2]" in conflict.describe()


# 근로기준법 제51조 ① and 제51조의2 ①, shortened: two averaging periods for two regimes of one law.
ART_51 = (
    "① 사용자는 취업규칙에서 정하는 바에 따라 2주 이내의 일정한 단위기간을 평균하여 1주 간의 근로시간이 "
    "제50조제1항의 근로시간을 초과하지 아니하는 범위에서 특정한 주에 "
    "제50조제1항의 근로시간을 초과하여 근로하게 할 수 있다."
)
ART_51_2 = (
    "① 사용자는 근로자대표와의 서면 합의에 따라 3개월을 초과하고 6개월 이내의 단위기간을 평균하여 1주간의 근로시간이 "
    "제50조제1항의 근로시간을 초과하지 아니하는 범위에서 특정한 주에 "
    "제50조제1항의 근로시간을 초과하여 근로하게 할 수 있다."
)


def _law_texts(second_document: str) -> dict[str, CitedText]:
    origin = "file:///corpus/근로기준법.md"
    return {
        "E1": CitedText("E1", origin, ART_51, document="kr-law-001872@1"),
        "E2": CitedText("E2", origin, ART_51_2, document=second_document),
    }


def test_two_sections_of_one_law_with_different_figures_are_its_provisions_not_a_conflict() -> None:
    # Both were removed from an ask as conflicting, and the answer with them.
    text = f"{ART_51} [E1]\n{ART_51_2} [E2]"
    delivery = deliver(text, _law_texts("kr-law-001872@1"), kind="ask")
    assert not delivery.conflicts and not delivery.removed
    assert delivery.text.splitlines() == text.splitlines() and delivery.acceptance.accepted
    # Told apart only by their documents: from two documents, the same figures are a conflict.
    assert deliver(text, _law_texts("kr-law-009999@1"), kind="ask").conflicts
