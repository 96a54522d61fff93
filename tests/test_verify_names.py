# ruff: noqa: E501  (statute and documentation sentences, one a line)
"""Names traded for another name of the same page (:mod:`citewise.verify.names`): each guard flags
its perturbation and passes the faithful claim, on its own and through
:func:`citewise.verify.support.check_support` (lexical rule)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from citewise.records.verify import Decision
from citewise.verify.names import entity_present, section_name, traded_name
from citewise.verify.support import check_support

STATUTES = Path(__file__).parent / "data" / "corpora" / "kr-statutes"
PARAMETERS = (
    "The optional timeout parameter gives the seconds to wait for a reply. "
    "The optional retries parameter gives how many attempts are made before an error is raised."
)
COMPONENTS = (
    "If the flag is false, fragment identifiers are not recognized. Instead, they are parsed as part of "
    "the path or query component, and fragment is set to the empty string in the return value."
)
SUCCESSION = (
    "임차인이 사망한 경우에는 그 주택에서 함께 살던 가족이 임차인의 권리와 의무를 승계한다.\n\n"
    "임대인은 임대차가 끝나면 보증금을 반환하여야 한다."
)
SECTION = (
    "PEP 999: Frozen records. The new frozen record type gives rows that cannot be changed. "
    "It replaces the tuple pattern of PEP 100 with one declaration."
)


def _decision(claim: str, page: str) -> tuple[Decision, str]:
    check = check_support(claim, "S1", page, meaning=False)
    return check.decision, check.reason


@pytest.mark.parametrize(
    ("traded", "faithful", "page", "name"),
    [
        (
            "The optional timeout parameter gives how many attempts are made before an error is raised.",
            "The optional retries parameter sets how many attempts are made before an error is raised.",
            PARAMETERS,
            "timeout",
        ),
        (
            "If the flag is false, the query is set to the empty string in the return value.",
            "If the flag is false, the fragment is set to the empty string in the return value.",
            COMPONENTS,
            "query",
        ),
        (
            "임차인이 사망한 경우에는 임대인이 임차인의 권리와 의무를 승계한다.",
            "임차인이 사망한 경우에는 그 주택에서 함께 살던 가족이 임차인의 권리와 의무를 이어받는다.",
            SUCCESSION,
            "임대인이",
        ),
    ],
)
def test_a_clause_given_to_another_name_of_the_page_is_flagged_and_its_paraphrase_passes(
    traded: str, faithful: str, page: str, name: str
) -> None:
    decision, reason = _decision(traded, page)
    assert decision is Decision.UNSUPPORTED
    assert reason.startswith(f"traded name: the claim gives it to {name}")
    assert _decision(faithful, page) == (Decision.SUPPORTED, "span found; figures, dates, names agree")


def test_a_changed_verb_is_no_traded_name() -> None:
    # Every other word in place, one verb changed for a word the page has: a rewording, not a name.
    page = "The parser follows the rules of the standard. The value is determined by the rules of the standard."
    assert traded_name("The value follows the rules of the standard.", page.split(". ")[1], page) is None


def test_a_name_the_page_never_uses_is_left_to_the_name_rules() -> None:
    span = PARAMETERS.split(". ")[1]
    assert traded_name("The optional attempts parameter gives how many attempts are made.", span, PARAMETERS) is None


def test_a_pep_credited_under_another_peps_section_is_flagged() -> None:
    decision, reason = _decision("PEP 100 introduces the new frozen record type.", SECTION)
    assert decision is Decision.UNSUPPORTED
    assert reason == "wrong PEP: the claim credits PEP 100 with what the span says of PEP 999"
    assert section_name("PEP 999 introduces the new frozen record type.", SECTION, SECTION) is None
    # The sentence that names the older PEP supports what the claim says of it, and nothing else.
    assert section_name("The tuple pattern of PEP 100 is replaced with one declaration.", SECTION, SECTION) is None
    swapped = "The tuple pattern of PEP 999 is replaced with one declaration."
    assert section_name(swapped, SECTION, SECTION) == (
        "wrong PEP: the claim credits PEP 999 with what the span says of PEP 100"
    )


def test_an_everyday_name_is_present_where_its_statute_term_is() -> None:
    # CCTV is how people name the statute's 영상정보처리기기 (citewise/data/kr_lay_terms.tsv).
    span = "누구든지 공개된 장소에 고정형 영상정보처리기기를 설치ㆍ운영하여서는 아니 된다."
    assert entity_present("CCTV", span)
    assert not entity_present("CCTV", "누구든지 공개된 장소에 녹음기를 설치하여서는 아니 된다.")
    assert not entity_present("KTX", span)  # not in the table: the name itself must be there


def test_a_rule_quoted_word_for_word_is_not_a_name_traded_with_its_proviso() -> None:
    # 소득세법 제64조의2 ②: the rule (50%, 200만원) and its proviso (임대주택: 60%, 400만원) share every
    # other word. The rule quoted as it stands was read as giving the proviso's clause to 200만원을.
    text = gzip.decompress(next(STATUTES.glob("소득세법__*.md.gz")).read_bytes()).decode("utf-8")
    article = text[text.index("##### 제64조의2") : text.index("##### 제64조의3")].replace("**", "")
    rule = next(line for line in article.splitlines() if line.startswith("②")).split(" 다만,")[0]
    assert "추가로 200만원을 차감한 금액으로 한다." in rule and "추가로 400만원을" in article
    claim = rule.removeprefix("② ")
    assert check_support(claim, "S1", article, meaning=False).decision is Decision.SUPPORTED
    assert traded_name(claim, article) is None
