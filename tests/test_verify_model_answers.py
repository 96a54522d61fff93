"""Answers as a writer model puts them: each faithful wording passes, its perturbation is still flagged.

The pages and claims are written for these tests (statute sentences quoted from 근로기준법 and
출입국관리법, public domain); the lexical rules decide (no embedder)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.claims import without_attribution
from citewise.verify.figures import figures, identifiers
from citewise.verify.support import check_support
from tests.support_cases import assert_passes_and_flags

WAGES = "제43조 (임금 지급)\n임금은 매월 1회 이상 일정한 날짜를 정하여 지급하여야 한다."
MINORS = (
    "15세 미만인 사람은 근로자로 사용하지 못한다. "
    "다만, 고용노동부장관이 발급한 취직인허증을 지닌 사람은 근로자로 사용할 수 있다."
)
NURSING = "생후 1년 미만의 유아를 가진 여성 근로자가 청구하면 1일 2회 각각 30분 이상의 유급 수유 시간을 주어야 한다."
HIRING = "누구든지 체류자격을 가지지 아니한 사람의 고용을 알선하거나 권유하여서는 아니 된다."
COLUMNS = (
    "PEP 657: Fine-grained error locations. Storing the column positions may slightly increase the interpreter's "
    "memory use and the disk space used by compiled Python files."
)
PEP = "PEP 701: Syntactic formalization of f-strings. See PEP 701 for details. (PEP written by Pablo Galindo.)"
CREDITS = "PEP 999: Frozen maps. See PEP 999 for details. (Contributed by Ann Lee in gh-101. PEP written by Bo Kim.)"
DEFRAG = (
    "urldefrag(url): If url contains a fragment identifier, return a modified version of url with no fragment "
    "identifier, and the fragment identifier as a separate string. If there is no fragment identifier in url, "
    "return url unmodified and an empty string."
)
TUPLE = "urldefrag(url) returns a named tuple. Its items can be accessed by index or as named attributes."
QUOTE = (
    "quote(string, safe='/'): Replace special characters in string using the %xx escape. Letters, digits, and "
    "the characters '_.-~' are never quoted. encoding and errors must not be supplied if string is a bytes, or a "
    "TypeError is raised. quote_plus(string, safe='', encoding=None, errors=None): Like quote(), but also "
    "replace spaces with plus signs."
)

NEVER = (
    "quote(string, safe='/'): Replace special characters in string using the %xx escape. Letters, digits, and "
    "the characters '_.-~' are never quoted."
)
PLUS = "quote_plus(string, safe='', encoding=None, errors=None): Like quote(), but also replace spaces with plus signs."

CASES = [
    # A writer's lead names where the answer comes from; the names after it are still checked.
    (
        COLUMNS,
        "According to What's New, storing the column positions can slightly increase the interpreter's memory use"
        " and the disk space used by compiled Python files.",
        "According to What's New, Pablo Galindo found that storing the column positions can slightly increase the"
        " interpreter's memory use and the disk space used by compiled Python files.",
    ),
    # 매월 1회 is 한 달에 한 번; the lead's article is still checked against the page.
    (
        WAGES,
        "근로기준법 제43조에 따르면 임금은 한 달에 1회 이상 일정한 날짜를 정하여 지급하여야 합니다.",
        "근로기준법 제43조에 따르면 임금은 두 달에 1회 이상 일정한 날짜를 정하여 지급하여야 합니다.",
    ),
    (
        WAGES,
        "근로기준법 제43조에 따르면 임금은 한 달에 1회 이상 일정한 날짜를 정하여 지급하여야 합니다.",
        "근로기준법 제45조에 따르면 임금은 한 달에 1회 이상 일정한 날짜를 정하여 지급하여야 합니다.",
    ),
    # A proviso has the figures of the rule it qualifies.
    (
        MINORS,
        "근로기준법에 따르면, 취직인허증을 지닌 사람은 15세 미만이라도 근로자로 사용할 수 있습니다.",
        "근로기준법에 따르면, 취직인허증을 지닌 사람은 13세 미만이라도 근로자로 사용할 수 있습니다.",
    ),
    # 1년이 안 된 is 1년 미만: a bound, not a negation.
    (
        NURSING,
        "생후 1년이 안 된 아기를 둔 여성 근로자가 청구하면 하루 두 번, 각각 30분 이상 유급 수유 시간을 주어야 한다.",
        "생후 2년이 안 된 아기를 둔 여성 근로자가 청구하면 하루 두 번, 각각 30분 이상 유급 수유 시간을 주어야 한다.",
    ),
    # The lead is no part of the first clause an addition is read by.
    (
        f"제75조 (육아 시간)\n{NURSING}",
        "근로기준법 제75조에 따르면 수유 시간은 유급이며, 1일 2회 각각 30분 이상 주어야 합니다.",
        "근로기준법 제75조에 따르면 수유 시간은 1일 2회 각각 30분 이상 주어야 하며,"
        " 배우자인 남성 근로자에게도 똑같이 적용됩니다.",
    ),
    # 금지된다 for 하여서는 아니 된다, past the 누구에게나 between the act and the prohibition.
    (
        HIRING,
        "체류자격이 없는 사람의 고용을 알선하거나 권유하는 것은 누구에게나 금지된다.",
        "체류자격이 없는 사람의 고용을 알선하거나 권유하는 것은 누구에게나 허용된다.",
    ),
    # A document number is a name looked up on the page.
    (PEP, "Pablo Galindo wrote PEP 701.", "Pablo Galindo wrote PEP 702."),
    # A count after a determiner counts what was named; a figure of its own is still a figure.
    (
        TUPLE,
        "In short, urldefrag returns a named tuple, so its two items can be read by index or as named attributes.",
        "In short, urldefrag returns a named tuple of three items that can be read by index or as named attributes.",
    ),
    # "without a fragment identifier" is the span's "no fragment identifier".
    (
        DEFRAG,
        "For a URL without a fragment identifier, urldefrag returns the URL unmodified and an empty string.",
        "For a URL with a fragment identifier, urldefrag returns the URL unmodified and an empty string.",
    ),
    # A prohibition with its consequence, stated as the consequence of the act.
    (
        QUOTE,
        "According to the docs, supplying encoding or errors with a bytes string makes quote raise a TypeError.",
        "According to the docs, supplying encoding or errors with a str string makes quote raise a TypeError.",
    ),
    # The function a claim names is its subject, not a predicate it affirms.
    (
        NEVER,
        "quote() never escapes letters, digits or the characters _ . - ~.",
        "quote() always quotes letters, digits and the characters _ . - ~.",
    ),
    # "Each item" says of every item what "every item" says; "all" still needs a span that says so.
    (
        "urlparse(urlstring): The return value is a named tuple. Each tuple item is a string, possibly empty.",
        "Every item of the tuple urlparse returns is a string, which may be empty.",
        "Every item of the tuple urlparse returns is a string, which is never empty.",
    ),
    # An acronym used as a verb names the acronym.
    (
        "A network defines the IP addresses that equal the network address when masked (binary AND) with the mask.",
        "The network holds the IP addresses that, ANDed with the mask, equal the network address.",
        "The network holds the IP addresses that, XORed with the mask, equal the network address.",
    ),
    # Python's None as a default value is no negation.
    (
        PLUS,
        "In short, quote_plus works like quote but also replaces spaces with plus signs.",
        "In short, quote_plus works like quote but does not replace spaces with plus signs.",
    ),
]


@pytest.mark.parametrize(("page", "faithful", "perturbed"), CASES)
def test_a_faithful_answer_passes_and_its_perturbation_is_flagged(page: str, faithful: str, perturbed: str) -> None:
    assert_passes_and_flags(page, faithful, perturbed)


def test_people_given_each_others_acts_are_swapped_roles() -> None:
    faithful = check_support("Bo Kim wrote PEP 999, which Ann Lee contributed.", "S1", CREDITS, meaning=False)
    assert faithful.decision is Decision.SUPPORTED, faithful.reason
    swapped = check_support("PEP 999 was written by Ann Lee and contributed by Bo Kim.", "S1", CREDITS, meaning=False)
    assert swapped.decision is Decision.UNSUPPORTED
    assert swapped.reason.startswith("swapped roles: ann lee and bo kim")


def test_the_lead_is_dropped_and_document_numbers_are_not_figures_of_a_span() -> None:
    assert without_attribution("In short, the flag is off.") == "the flag is off."
    assert without_attribution("The flag is off, according to the docs.") == "The flag is off, according to the docs."
    assert identifiers("PEP 681 and RFC 3986") == frozenset({("pep", "681"), ("rfc", "3986")})
    assert [f.value for f in figures("임금은 매월 1회 지급한다")] == [1.0, 1.0]
    assert [f.value for f in figures("one of the two headers; two headers")] == [2.0]
