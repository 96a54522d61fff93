"""A case of a condition given the outcome of another case (citewise.verify.cases), on the Python 3.11
documentation (urllib.parse, shutil; PSF License) and 근로기준법 제54조 (public domain, 저작권법 제7조):
the fooling claim shares every word and figure with the span, only the outcome is bound to the other
case; the faithful paraphrase keeps each outcome with its case."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.cases import swapped_case
from citewise.verify.support import check_support

STRICT = (
    "The optional argument strict_parsing is a flag indicating what to do with parsing errors. If false "
    "(the default), errors are silently ignored. If true, errors raise a ValueError exception."
)
RMTREE = (
    "Delete an entire directory tree; path must point to a directory (but not a symbolic link to a "
    "directory). If ignore_errors is true, errors resulting from failed removals will be ignored; if false "
    "or omitted, such errors are handled by calling a handler specified by onerror or, if that is omitted, "
    "they raise an exception."
)
REST = (
    "제54조 (휴게) ① 사용자는 근로시간이 4시간인 경우에는 30분 이상, 8시간인 경우에는 1시간 이상의 휴게시간을 "
    "근로시간 도중에 주어야 한다."
)


@pytest.mark.unit
@pytest.mark.parametrize(
    "claim",
    [
        "If strict_parsing is true, errors are silently ignored.",
        "When strict_parsing is false, parsing errors raise a ValueError.",
        "Setting strict_parsing to true makes urllib.parse ignore parsing errors silently.",
    ],
)
def test_an_outcome_moved_to_the_other_value_is_a_swapped_case(claim: str) -> None:
    assert swapped_case(claim, STRICT) is not None
    # Another guard may see it first (the span's sentence with 'false'); either way it is not supported.
    assert check_support(claim, "S1", STRICT, meaning=False).decision is Decision.UNSUPPORTED


@pytest.mark.unit
@pytest.mark.parametrize(
    "claim",
    [
        "If strict_parsing is true, parsing errors raise a ValueError exception.",
        "With strict_parsing set to false, the default, errors are silently ignored.",
        "Parsing errors raise a ValueError if strict_parsing is true.",
    ],
)
def test_each_outcome_kept_with_its_case_passes(claim: str) -> None:
    assert swapped_case(claim, STRICT) is None
    assert check_support(claim, "S1", STRICT, meaning=False).decision is Decision.SUPPORTED


@pytest.mark.unit
def test_both_cases_traded_in_one_claim_and_the_inherited_name() -> None:
    swapped = "When ignore_errors is true, failed removals raise an exception, and when it is false they are ignored."
    assert swapped_case(swapped, RMTREE) == (
        "swapped case: the claim gives ignore_errors = true the outcome the span gives another value"
    )
    faithful = "If ignore_errors is true, failed removals are ignored; otherwise an exception is raised."
    assert swapped_case(faithful, RMTREE) is None
    # A condition the span does not test for another value cannot be swapped.
    assert swapped_case("If typed is true, f(3) and f(3.0) are cached separately.", RMTREE) is None


@pytest.mark.unit
def test_korean_figures_paired_with_the_other_case() -> None:
    fooled = "근로시간이 4시간이면 1시간 이상, 8시간이면 30분 이상의 휴게시간을 주어야 합니다."
    assert swapped_case(fooled, REST) == "swapped case: the claim pairs 4시간 with 1시간, the span pairs it with 30분"
    check = check_support(fooled, "S1", REST, meaning=False)
    assert check.decision is Decision.UNSUPPORTED and check.reason.startswith("swapped case")
    for faithful in (
        "근로시간이 8시간이면 휴게시간을 1시간 이상 주어야 한다.",
        "4시간 일하면 30분 이상, 8시간 일하면 1시간 이상 쉬어야 합니다.",
        "근로시간이 4시간인 경우에는 30분 이상의 휴게시간을 근로시간 도중에 주어야 한다.",
    ):
        assert swapped_case(faithful, REST) is None, faithful
    check = check_support("근로시간이 8시간이면 휴게시간을 1시간 이상 주어야 한다.", "S1", REST, meaning=False)
    assert check.decision is Decision.SUPPORTED
