"""``evaluate_support`` judges a multi-sentence answer claim by claim, the way delivery does."""

from __future__ import annotations

import pytest

from citewise.eval.support import SupportPair, evaluate_support
from citewise.records.verify import ClaimKind, Decision
from citewise.verify.support import check_support

EVIDENCE = (
    "The asyncio.TaskGroup class was added in Python 3.11. "
    "A task group waits for all of its tasks when the async with block exits. "
    "The tomllib module was added to the standard library to parse TOML files. "
    "The default timeout of the connection pool is 30 seconds."
)
FAITHFUL_1 = "The asyncio.TaskGroup class was added in Python 3.11."
FAITHFUL_2 = "The tomllib module was added to the standard library to parse TOML files."
FAITHFUL_3 = "The default timeout of the connection pool is 30 seconds."
PERTURBED_3 = "The default timeout of the connection pool is 60 seconds."
SIGNPOST = "These points are covered in more detail in the following sections."


def judge(claim: str, label: str = "supported", pair_id: str = "p"):  # type: ignore[no-untyped-def]
    report = evaluate_support([SupportPair(pair_id, claim, EVIDENCE, label)], meaning=False)
    return report.results[0]


@pytest.mark.unit
def test_each_sentence_alone_is_supported_by_the_evidence() -> None:
    # The premise of the tests below: every faithful sentence passes on its own, the perturbed one does not.
    for sentence in (FAITHFUL_1, FAITHFUL_2, FAITHFUL_3):
        assert check_support(sentence, "S1", EVIDENCE, meaning=False).decision is Decision.SUPPORTED
    assert check_support(PERTURBED_3, "S1", EVIDENCE, meaning=False).decision is not Decision.SUPPORTED


@pytest.mark.unit
def test_a_faithful_answer_of_several_sentences_passes_when_each_sentence_is_supported() -> None:
    result = judge(f"{FAITHFUL_1} {FAITHFUL_2} {FAITHFUL_3}")
    assert result.decision is Decision.SUPPORTED
    assert result.correct
    assert [c.text for c in result.claims] == [FAITHFUL_1, FAITHFUL_2, FAITHFUL_3]
    assert all(c.decision is Decision.SUPPORTED and c.needs_support for c in result.claims)
    assert result.reason == "all 3 claims supported"


@pytest.mark.unit
def test_one_perturbed_sentence_among_faithful_ones_flags_the_pair_with_its_reason() -> None:
    result = judge(f"{FAITHFUL_1} {PERTURBED_3} {FAITHFUL_2}", label="unsupported")
    alone = check_support(PERTURBED_3, "S1", EVIDENCE, meaning=False)
    assert result.decision is alone.decision
    assert result.decision is not Decision.SUPPORTED
    assert result.correct
    assert result.reason == alone.reason
    assert "60 seconds" in result.reason
    assert [c.decision for c in result.claims] == [Decision.SUPPORTED, alone.decision, Decision.SUPPORTED]


@pytest.mark.unit
def test_a_perturbed_clause_of_a_compound_sentence_in_an_answer_flags_the_pair() -> None:
    # ", and" with a figure on each side: two atomic claims, as delivery reads them.
    result = judge(
        f"{FAITHFUL_2} The asyncio.TaskGroup class was added in Python 3.11, and the default timeout of the "
        "connection pool is 60 seconds.",
        label="unsupported",
    )
    assert [c.decision for c in result.claims[:2]] == [Decision.SUPPORTED, Decision.SUPPORTED]
    assert len(result.claims) == 3
    assert "60 seconds" in result.claims[2].text
    assert result.decision is not Decision.SUPPORTED
    assert "60 seconds" in result.reason


@pytest.mark.unit
def test_a_signposting_sentence_neither_fails_nor_satisfies_a_pair() -> None:
    with_faithful = judge(f"{FAITHFUL_1} {SIGNPOST}")
    assert with_faithful.decision is Decision.SUPPORTED  # it does not fail the pair
    signpost = with_faithful.claims[1]
    assert (signpost.kind, signpost.decision, signpost.needs_support) == (
        ClaimKind.SIGNPOST,
        Decision.UNREVIEWED,
        False,
    )
    assert with_faithful.reason == "all 1 claims supported (1 not checked)"
    with_perturbed = judge(f"{SIGNPOST} {PERTURBED_3}", label="unsupported")
    assert with_perturbed.decision is not Decision.SUPPORTED  # nor does it satisfy it
    only_signposts = judge(f"{SIGNPOST} See the following sections for the details.")
    assert only_signposts.decision is Decision.UNREVIEWED
    assert only_signposts.reason == "no claim that needs support"
    assert not only_signposts.correct


@pytest.mark.unit
def test_an_inference_the_evidence_neither_states_nor_contradicts_stays_labelled() -> None:
    inference = "Therefore upgrading is probably worthwhile for most teams."
    result = judge(f"{FAITHFUL_1} {inference}")
    assert result.decision is Decision.SUPPORTED
    assert (result.claims[1].kind, result.claims[1].needs_support) == (ClaimKind.INFERENCE, False)


@pytest.mark.unit
def test_an_inference_the_evidence_contradicts_is_checked_as_a_fact() -> None:
    inference = "Therefore the default timeout of the connection pool is likely 60 seconds."
    result = judge(f"{FAITHFUL_1} {inference}", label="unsupported")
    assert result.claims[1].kind is ClaimKind.FACT
    assert result.claims[1].needs_support
    assert result.decision is not Decision.SUPPORTED


@pytest.mark.unit
@pytest.mark.parametrize(
    "claim",
    [
        FAITHFUL_1,
        PERTURBED_3,
        "Based on the provided documents, the default timeout of the connection pool is 30 seconds.",
        "The answer is: the tomllib module parses TOML files.",
        "Therefore the default timeout of the connection pool is likely 60 seconds.",
        SIGNPOST,
        "The TaskGroup class was removed in Python 3.12.",
        "Nothing in the passage concerns ships.",
        # one compound sentence: delivery would read two atomic claims, the pair is still checked whole
        "The asyncio.TaskGroup class was added in Python 3.11, and the default timeout of the connection pool "
        "is 60 seconds.",
        "The tomllib module parses TOML files, and it is part of the standard library.",
    ],
)
def test_a_single_sentence_claim_gets_exactly_the_verdict_of_one_check(claim: str) -> None:
    alone = check_support(claim, "S1", EVIDENCE, meaning=False)
    result = judge(claim)
    assert (result.decision, result.reason, result.span, result.judge) == (
        alone.decision,
        alone.reason,
        alone.span,
        alone.judge,
    )
    assert len(result.claims) == 1
    assert result.claims[0].text == claim


@pytest.mark.unit
def test_advice_that_adds_a_figure_is_checked_and_advice_without_one_stays_labelled() -> None:
    # The ledger's rule (checked_as_fact) applies in eval support too: "within 14 days" is in no
    # sentence of the evidence, so the advice is checked like a claim and fails.
    added = judge(f"{FAITHFUL_1} You should migrate to the task group within 14 days.", label="unsupported")
    advice = next(c for c in added.claims if "14 days" in c.text)
    assert advice.needs_support and advice.kind is ClaimKind.FACT
    assert added.decision is not Decision.SUPPORTED
    plain = judge(f"{FAITHFUL_1} You should consider writing a short migration guide for your team.")
    assert plain.decision is Decision.SUPPORTED
    assert [c.kind for c in plain.claims][1] is ClaimKind.RECOMMENDATION and not plain.claims[1].needs_support
