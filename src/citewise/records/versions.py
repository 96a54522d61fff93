"""Which version of a document is in force on a date, and what the answer should say about the others.

The version in force on a date is the **latest reviewed version whose effective date is on or before
that date** (a version without an effective date counts from its promulgation date; one with neither
is in force from any date but loses to every dated one; ties go to the later version). "Reviewed"
means a reviewer approved it: its status is ``approved`` or ``superseded``. The ``superseded`` status
only says that a newer version was approved; it does not say which version is in force today, so the
gate never reads it for that: a version promulgated but not yet in effect supersedes nothing until
its effective date.

Two cases get a :class:`VersionNote` that the answer shows beside its citations:

* **upcoming** — a reviewed version that takes effect after the date: the answer cites the version in
  force and says that a change is coming, and when.
* **not yet in force** — the store holds no reviewed version in force on the date at all, only ones
  that take effect later (e.g. a law ingested only in its newest, not yet effective text). The
  earliest of those is eligible, so the law can still be cited, and the note says plainly that the
  cited text is not in force on the date and since when it will be. Excluding it would leave the
  question with no evidence while the reviewed text is right there; citing it without the note would
  pass a future rule off as the current one.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from citewise.records import DocumentVersion, ReviewStatus

__all__ = [
    "VersionNote",
    "VersionNoteKind",
    "in_force_from",
    "next_version",
    "version_in_force",
    "version_notes",
]

_REVIEWED = (ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED)


def in_force_from(v: DocumentVersion) -> date | None:
    """The date ``v`` takes effect: its effective date, else its promulgation date, else None."""
    return v.provenance.effective_on or v.provenance.promulgated_on


def _start(v: DocumentVersion) -> tuple[date, int]:
    return (in_force_from(v) or date.min, v.version)


def _reviewed(versions: Iterable[DocumentVersion]) -> list[DocumentVersion]:
    return [v for v in versions if v.status in _REVIEWED]


def version_in_force(versions: Iterable[DocumentVersion], on: date) -> DocumentVersion | None:
    """Of the reviewed versions, the one in force on ``on``; None when none has taken effect by then."""
    started = [v for v in _reviewed(versions) if (in_force_from(v) or date.min) <= on]
    return max(started, key=_start) if started else None


def next_version(versions: Iterable[DocumentVersion], on: date) -> DocumentVersion | None:
    """The first reviewed version to take effect after ``on``; None when there is none."""
    later = [v for v in _reviewed(versions) if (in_force_from(v) or date.min) > on]
    return min(later, key=_start) if later else None


class VersionNoteKind(str, enum.Enum):
    """What a version note tells the reader."""

    UPCOMING = "upcoming"  #: a reviewed version takes effect after the date; the answer cites the one in force
    NOT_YET_IN_FORCE = "not_yet_in_force"  #: the cited version itself takes effect after the date
    #: a newer stored version, not approved, has taken effect by the date: the cited text may be out of date
    UNREVIEWED_IN_FORCE = "unreviewed_in_force"


@dataclass(frozen=True, slots=True)
class VersionNote:
    """A fact about a cited document's versions that the reader must see beside the answer."""

    kind: VersionNoteKind
    """Upcoming change, or the cited text is not yet in force."""
    doc_id: str
    """The document."""
    title: str
    """Its title as the noted version states it."""
    version: int
    """The noted version (the upcoming one, or the cited one not yet in force)."""
    version_label: str | None
    """The publisher's label of that version (e.g. MST286817)."""
    effective_on: date | None
    """The date that version takes effect."""
    on: date
    """The date versions were judged for."""
    in_force_version: int | None = None
    """The version in force on ``on`` (None when no reviewed version is)."""

    def render(self) -> str:
        """The note as one English sentence."""
        label = f" ({self.version_label})" if self.version_label else ""
        if self.kind is VersionNoteKind.UNREVIEWED_IN_FORCE:
            cited = (
                f"this answer cites approved version {self.in_force_version}, which it may have replaced"
                if self.in_force_version is not None
                else "no approved version in force on that date is stored"
            )
            return (
                f"{self.title}: version {self.version}{label}, in force since {self.effective_on}, is stored "
                f"but not approved, so it is not cited; {cited}."
            )
        if self.kind is VersionNoteKind.UPCOMING:
            return (
                f"{self.title}: a newer approved version{label} takes effect on {self.effective_on}; "
                f"this answer cites version {self.in_force_version}, the one in force on {self.on}."
            )
        return (
            f"{self.title}: the cited text, approved version {self.version}{label}, is not yet in force on "
            f"{self.on}; it takes effect on {self.effective_on}, and no approved version in force on {self.on} "
            "is stored."
        )


def version_notes(
    versions: Mapping[str, tuple[DocumentVersion, ...]], doc_ids: Iterable[str], on: date
) -> tuple[VersionNote, ...]:
    """The notes for the documents ``doc_ids`` (in their order) as judged on ``on``."""
    notes: list[VersionNote] = []
    for doc_id in dict.fromkeys(doc_ids):
        stored = versions.get(doc_id, ())
        current = version_in_force(stored, on)
        newer = _unreviewed_in_force(stored, on, current)
        if newer is not None:
            notes.append(_note(VersionNoteKind.UNREVIEWED_IN_FORCE, doc_id, newer, on, current))
        upcoming = next_version(stored, on)
        if upcoming is None:
            continue
        kind = VersionNoteKind.UPCOMING if current is not None else VersionNoteKind.NOT_YET_IN_FORCE
        p = upcoming.provenance
        notes.append(
            VersionNote(
                kind,
                doc_id,
                upcoming.title,
                upcoming.version,
                p.version_label,
                in_force_from(upcoming),
                on,
                current.version if current is not None else None,
            )
        )
    return tuple(notes)


def _unreviewed_in_force(
    stored: Iterable[DocumentVersion], on: date, current: DocumentVersion | None
) -> DocumentVersion | None:
    """The latest version awaiting review that has taken effect by ``on`` and is newer than the
    reviewed one in force (``current``): the text the law may really have on that date."""
    pending = [v for v in stored if v.status is ReviewStatus.REVIEW_REQUIRED and (in_force_from(v) or date.min) <= on]
    newest = max(pending, key=_start) if pending else None
    if newest is None or (current is not None and _start(newest) <= _start(current)):
        return None
    return newest


def _note(
    kind: VersionNoteKind, doc_id: str, v: DocumentVersion, on: date, current: DocumentVersion | None
) -> VersionNote:
    p = v.provenance
    return VersionNote(
        kind, doc_id, v.title, v.version, p.version_label, in_force_from(v), on, current.version if current else None
    )
