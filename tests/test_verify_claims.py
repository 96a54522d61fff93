"""Claims: reports split into atomic claims, labelled, with the ids their sentence cites; scope read off the text."""

from __future__ import annotations

import pytest

from citewise.records.verify import ClaimKind, ClaimScope
from citewise.verify.claims import claim_kind, claim_scope, extract_claims, split_compound

pytestmark = pytest.mark.unit

REPORT_EN = """# Rents in Seoul

## Prices

Average rents rose 5.2% in 2023, and deposits fell 1.8% [S1].
The ministry's figure for 2023 is 3.1% [S2, S3].
Tenants should register the lease within 14 days [S1].
Therefore, rents will likely keep rising [S2].

- Deposits above 300 million won are not protected [S3].

| table | 5% |
|---|---|

## Sources

- [S1] Ministry report, 2024 <https://example.org/1>

## Gaps and limitations

- Regional figures were not found: 7% is unverified.
"""

REPORT_KO = """## 임대차

주택 임대차의 존속기간은 2년이고, 보증금 증액은 5%를 넘을 수 없다[S1].
서울의 전세가는 3% 올랐다 반면 부산은 2% 내렸다[S2].
임차인은 계약 전에 등기부를 확인하는 것이 좋다[S1].
따라서 보증금 반환이 늦어질 것으로 보인다[S2].
임대인은 「주택임대차보호법」 제3조에 따라 통지해야 한다[S1].

## 출처

- [S1] 주택임대차보호법
"""


def texts(markdown: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(c.text, c.kind.value, c.cited_ids) for c in extract_claims(markdown)]


def test_english_compound_sentence_with_two_figures_becomes_two_claims_citing_the_same_source() -> None:
    claims = extract_claims(REPORT_EN)
    assert [c.text for c in claims[:2]] == ["Average rents rose 5.2% in 2023", "deposits fell 1.8%."]
    assert claims[0].sentence == claims[1].sentence == "Average rents rose 5.2% in 2023, and deposits fell 1.8%."
    assert claims[0].cited_ids == claims[1].cited_ids == ("S1",)


def test_english_report_labels_recommendation_and_inference_and_skips_headings_tables_sources_gaps() -> None:
    assert texts(REPORT_EN) == [
        ("Average rents rose 5.2% in 2023", "fact", ("S1",)),
        ("deposits fell 1.8%.", "fact", ("S1",)),
        ("The ministry's figure for 2023 is 3.1%.", "fact", ("S2", "S3")),
        ("Tenants should register the lease within 14 days.", "recommendation", ("S1",)),
        ("Therefore, rents will likely keep rising.", "inference", ("S2",)),
        ("Deposits above 300 million won are not protected.", "fact", ("S3",)),
    ]
    assert [c.claim_id for c in extract_claims(REPORT_EN)] == ["C1", "C2", "C3", "C4", "C5", "C6"]


def test_korean_report_splits_on_predicate_endings_and_banmyeon_and_labels_kinds() -> None:
    assert texts(REPORT_KO) == [
        ("주택 임대차의 존속기간은 2년이고", "fact", ("S1",)),
        ("보증금 증액은 5%를 넘을 수 없다.", "fact", ("S1",)),
        ("서울의 전세가는 3% 올랐다", "fact", ("S2",)),
        ("부산은 2% 내렸다.", "fact", ("S2",)),
        ("임차인은 계약 전에 등기부를 확인하는 것이 좋다.", "recommendation", ("S1",)),
        ("따라서 보증금 반환이 늦어질 것으로 보인다.", "inference", ("S2",)),
        ("임대인은 「주택임대차보호법」 제3조에 따라 통지해야 한다.", "fact", ("S1",)),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Rent and deposit rose 5% in 2023.",  # one predicate, one figure
        "임대인과 임차인은 2년 동안 계약을 유지한다.",  # 과 joins nouns, not clauses
        "The tenant registers and moves in.",  # no figure on either side, one clause
    ],
)
def test_a_sentence_without_two_standalone_clauses_is_not_split(sentence: str) -> None:
    assert split_compound(sentence) == [sentence]


def test_while_whereas_and_semicolon_split_when_each_side_has_a_figure() -> None:
    assert split_compound("Seoul rose 3% while Busan fell 2%.") == ["Seoul rose 3%", "Busan fell 2%."]
    assert split_compound("Seoul rose 3%; Busan fell 2%.") == ["Seoul rose 3%", "Busan fell 2%."]
    assert split_compound("Seoul rose 3%, whereas Busan fell 2%.") == ["Seoul rose 3%", "Busan fell 2%."]
    assert split_compound("매출은 10% 늘었으며 이익은 5% 줄었다.") == ["매출은 10% 늘었으며", "이익은 5% 줄었다."]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("We recommend filing before May.", ClaimKind.RECOMMENDATION),
        ("Landlords must consider the tenant's notice.", ClaimKind.RECOMMENDATION),
        ("전입신고를 먼저 하는 것을 권장한다.", ClaimKind.RECOMMENDATION),
        ("계약서를 꼼꼼히 확인해야 한다.", ClaimKind.RECOMMENDATION),  # advisory 해야 한다
        ("사용자는 「근로기준법」에 따라 임금을 지급해야 한다.", ClaimKind.FACT),  # a legal duty
        ("The data suggests a slowdown.", ClaimKind.INFERENCE),
        ("가격은 더 오를 것으로 보인다.", ClaimKind.INFERENCE),
        ("손실액은 약 3억원으로 추정된다.", ClaimKind.INFERENCE),
        ("The rate was 3.5% in 2022.", ClaimKind.FACT),
    ],
)
def test_claim_kind(text: str, kind: ClaimKind) -> None:
    assert claim_kind(text) is kind


def test_a_leading_therefore_makes_every_clause_an_inference() -> None:
    claims = extract_claims("Therefore, prices rose 4%, and wages rose 2% [S1].")
    assert [(c.text, c.kind) for c in claims] == [
        ("Therefore, prices rose 4%", ClaimKind.INFERENCE),
        ("wages rose 2%.", ClaimKind.INFERENCE),
    ]


def test_scope_korean_dates_units_law_names_and_conditions() -> None:
    scope = claim_scope(
        "2024년 3월부터 상시 5명 이상 사업장은 「근로기준법」에 따라 30일 전에 통보하고, "
        "3개월 미만인 경우 제외된다. 다만 월 200만원, 1.5배"
    )
    assert scope == ClaimScope(
        dates=("2024년 3월",),
        numbers=("5명", "30일", "3개월", "200만원", "1.5배"),
        entities=("근로기준법",),
        conditions=("이상", "미만", "경우", "제외", "다만"),
    )


def test_scope_english_dates_figures_names_and_conditions() -> None:
    scope = claim_scope(
        'On March 24, 2020 the Bank of Korea said only 1,200 people joined "Project Titan", unless noted.'
    )
    assert scope.dates == ("March 24, 2020",)
    assert scope.numbers == ("1,200 people",)
    assert scope.entities == ("Project Titan", "Bank of Korea")
    assert scope.conditions == ("only", "unless")


def test_scope_excludes_article_numbers_and_a_sentence_initial_capital() -> None:
    scope = claim_scope("Tenants under 제3조 제1항 have 2 years.")
    assert scope.numbers == ("2 years",)
    assert scope.entities == ()
    assert claim_scope("2020. 3. 24. 시행").dates == ("2020. 3. 24.",)


# -- signposting and narration (issue 21) -----------------------------------------------------------

_ABOUT_THE_TEXT = [
    "These are covered in detail in the following sections.",
    "This report examines how rental deposits are protected [S1].",
    "In this section, we look at how rents changed.",
    "The following sections cover the law and the procedure.",
    "Below is a summary of the findings.",
    "I'll search the documentation for this.",
    "Let me search for more specific information.",
    "이 보고서는 보증금 반환 절차를 살펴본다.",
    "자세한 내용은 아래와 같다.",
    "추가 정보를 검색해 보겠습니다.",
]
_ABOUT_THE_SUBJECT = [
    "urllib.parse splits URLs into named components [S1].",
    "This report shows that rents rose 5% [S1].",
    "The OECD report found that rents rose 5% [S1].",
    "It is covered by the Housing Lease Protection Act [S1].",
    "Deposits are covered in section 3 of the Act [S1].",
    "I found that deposits are protected [S1].",
    "임대차 기간은 2년이다 [S1].",
    "임대인은 「주택임대차보호법」 제3조에 따라 통지해야 한다 [S1].",
]


@pytest.mark.parametrize("sentence", _ABOUT_THE_TEXT)
def test_signposting_and_narration_are_not_claims(sentence: str) -> None:
    (claim,) = extract_claims(sentence)
    assert claim.kind is ClaimKind.SIGNPOST


@pytest.mark.parametrize("sentence", _ABOUT_THE_SUBJECT)
def test_a_claim_about_the_subject_is_never_taken_for_a_signpost(sentence: str) -> None:
    assert all(c.kind is not ClaimKind.SIGNPOST for c in extract_claims(sentence))


def test_a_quoted_sentence_keeps_the_citation_written_after_its_closing_quote() -> None:
    # what materialise_quotes makes of "{{S1.2}}." when the writer ends its sentence after the quote
    (claim,) = extract_claims("As the page says, “Fees fell.” [S1.2].")
    assert claim.cited_ids == ("S1",) and claim.cited_sentences == ("S1.2",)


def test_citewise_notes_in_a_report_are_never_claims() -> None:
    report = (
        '## Deposits\n\n*Evidence:* only partial or indirect support was found.\n\n- "Deposits are kept." [S1]\n\n'
        "## Returns\n\n*No verified finding: the sources citewise read do not answer this.*\n"
    )
    assert [c.text for c in extract_claims(report)] == ['"Deposits are kept."']


def test_a_statute_items_letter_or_number_opens_a_list_line_and_is_no_claim() -> None:
    # "가." was read as a sentence of its own, which cites nothing: the answer lost it as unsupported.
    answer = (
        "19. 다음 각 목의 어느 하나에 해당하는 인적용역을 일시적으로 제공하고 받는 대가 [E1]\n"
        "가. 고용관계 없이 다수인에게 강연을 하고 강연료 등 대가를 받는 용역 [E1]\n"
        "3의2. 서로 합의하여 보상을 제공한 경우 [E1]\n"
    )
    claims = extract_claims(answer)
    assert [c.text[:4] for c in claims] == ["다음 각", "고용관계", "서로 합"]
    assert all(c.cited_ids == ("E1",) for c in claims)


def test_a_mark_without_its_pair_is_text_and_paired_marks_come_off() -> None:
    (claim,) = extract_claims("Integers below 2**32 are **IPv4** addresses by `default` [S1].")
    assert claim.text.startswith("Integers below 2**32 are IPv4 addresses by default")


def test_a_mark_that_opens_a_word_keeps_the_space_before_it() -> None:
    # "subclass of :class:`X`" became "subclass of:class:X", which the page does not say.
    (claim,) = extract_claims("It is a subclass of :class:`IPv4Address` [S1].")
    assert claim.text == "It is a subclass of :class:IPv4Address."
