"""Versions as a new user stores them (issue 21, held out): an approved version that a newer stored
version, not yet approved, has replaced on the date is still cited, but never passed off as the
current text: the answer carries a note naming the newer version and since when it is in force. The
same when the approved version takes effect later and an unapproved one is in force now."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.result import AskResult, AskSettings
from citewise.evidence import RetrievalPlan
from citewise.ingest.pipeline import ingest_paths
from citewise.records.versions import VersionNoteKind
from citewise.review import decide
from citewise.store.evidence import EvidenceStore
from tests.test_ask_never_empty import LAW, LAW_ID, TODAY

pytestmark = pytest.mark.integration

QUESTION = "시험 임대차의 존속기간은 얼마인가요?"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EvidenceStore]:
    monkeypatch.setenv("CITEWISE_EMBEDDER", "none")
    with EvidenceStore.open(str(tmp_path / "s.sqlite")) as opened:
        yield opened


def _versions(store: EvidenceStore, tmp_path: Path, versions: list[tuple[str, str, str]], approve: list[int]) -> None:
    paths = []
    for mst, effective, term in versions:
        text = LAW.format(effective=effective, exception="").replace("900001\n법령ID", f"{mst}\n법령ID")
        path = tmp_path / f"시험임대차법__법률__{effective}__MST{mst}.md"
        path.write_text(text.replace("2년", term), encoding="utf-8")
        paths.append(path)
    ingest_paths(store, paths)
    stored = store.versions(LAW_ID)
    for index in approve:
        decide(store, f"{LAW_ID}@{stored[index].version}", "approve", reviewer="Kim", reason="checked")


def _ask(store: EvidenceStore) -> AskResult:
    return ask(store, QUESTION, RetrievalPlan(), AskSettings(today=TODAY))


def test_an_approved_version_replaced_by_an_unapproved_one_in_force_is_cited_with_a_note(
    store: EvidenceStore, tmp_path: Path
) -> None:
    _versions(store, tmp_path, [("900001", "2025-01-01", "2년"), ("900002", "2026-10-01", "3년")], approve=[0])

    result = _ask(store)

    assert "2년" in result.text and "3년" not in result.text  # only approved text is cited
    (note,) = result.version_notes
    assert note.kind is VersionNoteKind.UNREVIEWED_IN_FORCE and (note.version, note.in_force_version) == (2, 1)
    rendered = note.render()
    assert "version 2 (MST900002), in force since 2026-10-01" in rendered and "not approved" in rendered
    assert "cites approved version 1" in rendered


def test_an_approved_future_version_beside_an_unapproved_one_in_force_says_both(
    store: EvidenceStore, tmp_path: Path
) -> None:
    _versions(store, tmp_path, [("900001", "2025-01-01", "2년"), ("900002", "2027-03-01", "3년")], approve=[1])

    result = _ask(store)

    kinds = {n.kind: n for n in result.version_notes}
    assert set(kinds) == {VersionNoteKind.UNREVIEWED_IN_FORCE, VersionNoteKind.NOT_YET_IN_FORCE}
    assert kinds[VersionNoteKind.UNREVIEWED_IN_FORCE].version == 1
    assert kinds[VersionNoteKind.UNREVIEWED_IN_FORCE].in_force_version is None
    assert "not yet in force on 2026-12-01" in kinds[VersionNoteKind.NOT_YET_IN_FORCE].render()


@pytest.mark.parametrize(
    ("versions", "approve", "cited"),
    [
        ([("900001", "2025-01-01", "2년"), ("900002", "2026-10-01", "3년")], [0, 1], "3년"),  # both approved
        ([("900001", "2025-01-01", "2년"), ("900002", "2027-03-01", "3년")], [0], "2년"),  # newer one not in force
    ],
)
def test_no_unreviewed_note_when_no_newer_unapproved_text_is_in_force(
    store: EvidenceStore, tmp_path: Path, versions: list[tuple[str, str, str]], approve: list[int], cited: str
) -> None:
    _versions(store, tmp_path, versions, approve)

    result = _ask(store)

    assert cited in result.text
    assert all(n.kind is not VersionNoteKind.UNREVIEWED_IN_FORCE for n in result.version_notes)
