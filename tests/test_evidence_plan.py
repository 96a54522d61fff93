"""Retrieval plan (SPEC 3.2): built from command-line values or a plan file, validated with clear errors."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from citewise.errors import InputError, NotFoundError
from citewise.evidence import DEFAULT_RULES, RetrievalPlan, load_plan, parse_pair, version_in_force
from citewise.ingest.pipeline import ingest_paths
from citewise.records import DocumentVersion, Provenance, ReviewStatus
from citewise.store.evidence import EvidenceStore
from tests.corpora import KR_STATUTES

HOUSING, LABOUR = "kr-law-001248", "kr-law-001872"


@pytest.fixture
def statutes(store: EvidenceStore) -> Iterator[EvidenceStore]:
    ingest_paths(
        store, sorted(KR_STATUTES.glob("주택임대차보호법__*.md")) + sorted(KR_STATUTES.glob("근로기준법__*.md"))
    )
    yield store


@pytest.mark.unit
def test_pairs_are_doc_colon_section() -> None:
    assert parse_pair("kr-law-001248:제3조의2") == ("kr-law-001248", "제3조의2")
    with pytest.raises(InputError, match="malformed pair 'kr-law-001248 제2조': no colon"):
        parse_pair("kr-law-001248 제2조")
    with pytest.raises(InputError, match="both DOC_ID and SECTION_ID"):
        parse_pair("kr-law-001248:")


@pytest.mark.unit
def test_defaults_are_latest_with_approval_and_every_rule() -> None:
    plan = RetrievalPlan.from_values()
    assert plan.as_of is None and plan.approval_required and plan.rules == DEFAULT_RULES
    assert plan.permits_pair("any", "제1조") and plan.permits_document("any")


@pytest.mark.unit
def test_pairs_do_not_cross() -> None:
    plan = RetrievalPlan.from_values(pairs=["A:제2조", "B:제7조"])
    assert plan.permits_pair("A", "제2조") and plan.permits_pair("B", "제7조")
    assert not plan.permits_pair("A", "제7조") and not plan.permits_pair("B", "제2조")


@pytest.mark.unit
@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"pairs": ["A:제2조"], "docs": ["B"]}, "contradictory plan: pairs name documents outside 'docs': A"),
        ({"as_of": "2020-13-01"}, "as_of '2020-13-01' is not a date"),
        ({"as_of": "yesterday"}, "expected YYYY-MM-DD or 'latest'"),
        ({"docs": "A"}, "docs must be a list of strings"),
        ({"docs": [""]}, "docs must hold non-empty strings"),
        ({"approval_required": "no"}, "approval_required must be true or false"),
        ({"near_duplicate_threshold": 1.5}, r"must be in \(0, 1\]"),
        ({"rules": ["pair", "vibes"]}, r"unknown gate rule\(s\) \['vibes'\]; valid rules: identity, pair, document"),
    ],
)
def test_bad_values_are_refused_naming_what_is_wrong(values: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        RetrievalPlan.from_values(**values)  # type: ignore[arg-type]


@pytest.mark.integration
def test_unknown_documents_are_checked_against_the_store(statutes: EvidenceStore) -> None:
    plan = RetrievalPlan.from_values(statutes, pairs=[f"{HOUSING}:제2조", f"{LABOUR}:제7조"], docs=[HOUSING, LABOUR])
    assert plan.pairs == {(HOUSING, "제2조"), (LABOUR, "제7조")}
    with pytest.raises(NotFoundError, match="the plan names documents not in the store: kr-law-999999"):
        RetrievalPlan.from_values(statutes, pairs=["kr-law-999999:제1조"])


@pytest.mark.integration
def test_plan_file_yaml_and_json(statutes: EvidenceStore, tmp_path: Path) -> None:
    yaml_file = tmp_path / "plan.yaml"
    yaml_file.write_text(
        f"pairs: ['{HOUSING}:제2조', '{LABOUR}:제7조']\ndocs: [{HOUSING}, {LABOUR}]\n"
        "origins: law.go.kr\nrequire_use: quote\nas_of: 2020-01-01\n",
        encoding="utf-8",
    )
    plan = load_plan(yaml_file, statutes)
    assert plan.as_of == date(2020, 1, 1) and plan.origins == ("law.go.kr",) and plan.required_uses == ("quote",)
    json_file = tmp_path / "plan.json"
    json_file.write_text(f'{{"docs": ["{LABOUR}"], "as_of": "latest", "approval_required": false}}', encoding="utf-8")
    plan = load_plan(json_file, statutes)
    assert plan.docs == {LABOUR} and plan.as_of is None and not plan.approval_required


@pytest.mark.integration
@pytest.mark.parametrize(
    ("name", "content", "error", "message"),
    [
        ("unknown.yaml", "pairs: [x:y]\nwhitelist: [a]\n", InputError, r"unknown keys \['whitelist'\]"),
        ("list.yaml", "- a\n- b\n", InputError, "must be a mapping"),
        ("broken.json", '{"pairs": [', InputError, "cannot read plan file"),
        ("nocolon.yaml", "pairs: [kr-law-001248]\n", InputError, "no colon"),
        ("outside.yaml", f"pairs: ['{HOUSING}:제2조']\ndocs: [{LABOUR}]\n", InputError, "outside 'docs'"),
        ("date.yaml", "as_of: soon\n", InputError, "is not a date"),
        ("missing.yaml", "docs: [kr-law-424242]\n", NotFoundError, "not in the store: kr-law-424242"),
    ],
)
def test_plan_file_errors_name_the_file_and_the_problem(
    statutes: EvidenceStore, tmp_path: Path, name: str, content: str, error: type[Exception], message: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(error, match=message) as caught:
        load_plan(path, statutes)
    assert name in str(caught.value)


def _version(n: int, status: ReviewStatus, effective: str | None) -> DocumentVersion:
    when = date.fromisoformat(effective) if effective else None
    return DocumentVersion(
        "doc", n, "t", "sha256:x", "test", Provenance(effective_on=when), status, datetime(2025, 1, 1, tzinfo=UTC)
    )


@pytest.mark.unit
def test_version_in_force_is_the_newest_reviewed_version_already_in_effect() -> None:
    v1 = _version(1, ReviewStatus.SUPERSEDED, "2015-07-01")
    v2 = _version(2, ReviewStatus.APPROVED, "2026-01-02")
    v3 = _version(3, ReviewStatus.REVIEW_REQUIRED, "2025-01-01")  # never approved: never chosen
    assert version_in_force([v1, v2, v3], date(2020, 1, 1)) is v1
    assert version_in_force([v1, v2, v3], date(2026, 1, 2)) is v2
    assert version_in_force([v1, v2, v3], date(2015, 6, 30)) is None
    undated = _version(4, ReviewStatus.SUPERSEDED, None)
    assert version_in_force([undated, v1], date(2020, 1, 1)) is v1  # a dated version wins
    assert version_in_force([undated, v1], date(2000, 1, 1)) is undated
