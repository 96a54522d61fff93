"""Verified delivery: what a reader gets is the checked text, never an unchecked fact.

:func:`deliver` runs the claim ledger on a draft before anyone reads it. Every factual claim that is
not supported (or conflicts without an explanation) is removed from the text — its whole sentence —
or, with :attr:`UnsupportedAction.MARK`, kept and marked inline as unverified; removed claims are
returned with their reasons so the report can list them under its gaps. The text that remains is
verified again and the acceptance decision is made on it. Every sentence of a delivered text is then
a supported claim with its citation, a labelled inference or recommendation, or structure.

::

    delivery = deliver(body, texts, kind="research")
    delivery.text          # the verified text
    delivery.removed       # what was taken out, and why
    delivery.acceptance    # the decision on the delivered text
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from citewise.records.verify import (
    Acceptance,
    ClaimKind,
    Conflict,
    Decision,
    Finding,
    LedgerEntry,
    UnsupportedAction,
)
from citewise.verify.acceptance import decide_acceptance
from citewise.verify.answers import RequiredTopic, addressed, map_answers, section_topics
from citewise.verify.claims import EVIDENCE_NOTE, TABLE_ROW, claim_lines, extract_claims
from citewise.verify.conflicts import find_conflicts
from citewise.verify.ledger import CheckCache, CitedText, Judge, ledger_for_text
from citewise.verify.shells import drop_shells

__all__ = [
    "MARK",
    "Delivery",
    "Finding",
    "UnsupportedAction",
    "deliver",
    "drop_citing",
    "findings",
    "ledger_of",
    "redact",
    "replace_sentences",
]


@dataclass(frozen=True, slots=True)
class Delivery:
    """A text after verification, ready for a reader."""

    text: str
    """The delivered text: supported claims, labelled inferences and recommendations, structure."""
    entries: tuple[LedgerEntry, ...]
    """The ledger of the delivered text."""
    conflicts: tuple[Conflict, ...]
    """Conflicts found in the delivered text."""
    acceptance: Acceptance
    """The decision on the delivered text."""
    removed: tuple[Finding, ...] = ()
    """Claims taken out (their sentences), with the reason."""
    marked: tuple[Finding, ...] = ()
    """Claims kept but marked as unverified."""
    lost: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each failed claim (its id in the checked text) with the required sub-questions it addressed
    there: what a gap says the draft said about it."""

    @property
    def has_finding(self) -> bool:
        """True when the delivered text makes at least one supported factual claim."""
        return any(e.claim.kind is ClaimKind.FACT and e.decision is Decision.SUPPORTED for e in self.entries)


def ledger_of(
    text: str, texts: Mapping[str, CitedText], judge: Judge | None = None, cache: CheckCache | None = None
) -> tuple[list[LedgerEntry], list[Conflict]]:
    """The claim ledger of ``text`` and the conflicts between its claims."""
    entries = ledger_for_text(text, texts, judge=judge, cache=cache)
    return entries, conflicts_of(entries, texts)


def conflicts_of(entries: Sequence[LedgerEntry], texts: Mapping[str, CitedText]) -> list[Conflict]:
    """The conflicts between the claims of ``entries``, with when each cited source was published
    and which cited texts are sections of one document (:func:`~citewise.verify.conflicts.find_conflicts`)."""
    published = {source_id: t.published_at for source_id, t in texts.items()}
    documents = {source_id: t.document for source_id, t in texts.items() if t.document}
    return find_conflicts([(e.claim, e.checks) for e in entries], published, documents)


def findings(entries: Sequence[LedgerEntry], conflicts: Sequence[Conflict], text: str | None = None) -> list[Finding]:
    """Every factual claim that may not reach a reader as it is: unsupported, unmapped (it cites
    nothing), or part of a conflict nobody explained (one its own conditions explain stays, shown).
    With ``text`` (the text the entries were read from), each finding carries its sentence as written
    there, citation markers included."""
    unresolved = [c for c in conflicts if not c.resolved]
    conflicting = {c.first.claim_id for c in unresolved} | {c.second.claim_id for c in unresolved}
    written = (
        {c.claim_id: s.raw for line in claim_lines(text) for s in line.sentences for c in s.claims} if text else {}
    )
    out = []
    for entry in entries:
        if entry.claim.kind is not ClaimKind.FACT:
            continue
        if entry.decision is Decision.SUPPORTED and entry.claim.claim_id not in conflicting:
            continue
        decision = Decision.CONFLICTING if entry.claim.claim_id in conflicting else entry.decision
        sentence = written.get(entry.claim.claim_id, entry.claim.sentence)
        out.append(Finding(entry.claim.claim_id, sentence, decision, _reason(entry), entry.quote))
    return out


def _reason(entry: LedgerEntry) -> str:
    if not entry.checks:
        return "cites no source"
    reasons = [f"{c.source_id}: {c.reason}" for c in entry.checks if c.reason]
    return "; ".join(dict.fromkeys(reasons)) or entry.decision.value


def deliver(
    text: str,
    texts: Mapping[str, CitedText],
    *,
    kind: str,
    action: UnsupportedAction = UnsupportedAction.REMOVE,
    judge: Judge | None = None,
    answered: bool = True,
    topics: Sequence[RequiredTopic] = (),
    lost_before: Mapping[str, tuple[str, ...]] | None = None,
    cache: CheckCache | None = None,
) -> Delivery:
    """Verify ``text`` against ``texts`` and return what a reader may get (see the module docstring).

    ``kind`` is ``research`` or ``ask``; ``answered`` False when the run delivered no answer at all
    (a rejected report, a clarification), which the acceptance decision states. ``topics`` are the
    required sub-questions: each must be answered by a supported claim of the delivered text
    (:mod:`citewise.verify.answers`), and a heading left empty is dropped or names its gap
    (:mod:`citewise.verify.shells`). ``lost_before``: claims of an earlier draft that failed and
    were taken out before this one (by a revision), with the sub-questions they addressed.
    ``cache``: support checks made earlier (while the draft streamed in), reused claim by claim."""
    entries, conflicts = ledger_of(text, texts, judge, cache)
    failed = findings(entries, conflicts, text)
    delivered = redact(text, {f.claim_id: f for f in failed}, action) if failed else text
    kept = _reused(delivered, entries, texts, judge, cache) if failed else entries
    lost: dict[str, tuple[str, ...]] = {}
    if topics and failed:
        reach = addressed(entries, topics, section_topics(text, topics))
        lost = {f.claim_id: reach.get(f.claim_id, ()) for f in failed}
    earlier = {**(lost_before or {}), **lost}
    kept, gaps = map_answers(delivered, kept, topics, earlier) if topics else (kept, ())
    if failed or gaps:
        headings = section_topics(delivered, topics).headings
        shelled = drop_shells(delivered, headings, {g.topic: g for g in gaps}, _hollow(delivered))
        if shelled != delivered:  # dropped signposts renumber the claims after them
            delivered, kept = shelled, _reused(shelled, kept, texts, judge, cache)
    # The unresolved conflicts of the draft stay on the record and on the report, side by side, after
    # their claims were taken out of the text: the reader sees both values, and the report is not
    # accepted while they stand.
    unresolved = tuple(c for c in conflicts if not c.resolved)
    kept_conflicts = [*conflicts_of(kept, texts), *unresolved] if failed else list(conflicts)
    still_open = sum(1 for c in kept_conflicts if not c.resolved)
    acceptance = decide_acceptance(kind, answered, kept, still_open, gaps=gaps)
    removed = tuple(failed) if action is UnsupportedAction.REMOVE else ()
    marked = tuple(failed) if action is UnsupportedAction.MARK else ()
    return Delivery(delivered, tuple(kept), tuple(kept_conflicts), acceptance, removed, marked, tuple(lost.items()))


def _hollow(text: str) -> set[int]:
    """The lines that only signpost, or are a note on evidence (no finding): they keep no heading alive."""
    notes = {i for i, line in enumerate(text.splitlines()) if line.lstrip().startswith(EVIDENCE_NOTE)}
    return notes | {
        line.index
        for line in claim_lines(text)
        if (claims := [c for s in line.sentences for c in s.claims])
        and all(c.kind is ClaimKind.SIGNPOST for c in claims)
    }


def _reused(
    text: str,
    checked: Sequence[LedgerEntry],
    texts: Mapping[str, CitedText],
    judge: Judge | None,
    cache: CheckCache | None = None,
) -> list[LedgerEntry]:
    """The ledger of ``text`` reusing the checks of ``checked`` for every claim it kept unchanged (a
    claim's checks depend only on the claim and its cited texts), renumbered; new claims are checked."""
    known = {(e.claim.text, e.claim.sentence, e.claim.cited_ids): e for e in checked}
    fresh = ledger_for_text(text, texts, judge=judge, cache=cache) if not _all_known(text, known) else None
    if fresh is not None:
        return fresh
    entries = []
    for claim in extract_claims(text):
        entry = known[(claim.text, claim.sentence, claim.cited_ids)]
        entries.append(replace(entry, claim=replace(entry.claim, claim_id=claim.claim_id)))
    return entries


def _all_known(text: str, known: Mapping[tuple[str, str, tuple[str, ...]], LedgerEntry]) -> bool:
    return all((c.text, c.sentence, c.cited_ids) in known for c in extract_claims(text))


def drop_citing(text: str, known: Iterable[str]) -> tuple[str, list[Finding]]:
    """``text`` without the sentences that cite an id outside ``known`` (a source never stored), and
    those sentences as findings: the rest of a draft survives one bad citation."""
    stored = set(known)
    failing: dict[str, Finding] = {}
    for line in claim_lines(text):
        for sentence in line.sentences:
            unknown = [i for c in sentence.claims for i in c.cited_ids if i not in stored]
            for claim in sentence.claims if unknown else ():
                reason = f"cites [{', '.join(dict.fromkeys(unknown))}], which is not a stored source"
                failing[claim.claim_id] = Finding(claim.claim_id, sentence.raw, Decision.UNSUPPORTED, reason)
    if not failing:
        return text, []
    return redact(text, failing, UnsupportedAction.REMOVE), list(failing.values())


MARK = "**[unverified]**"
"""How a kept but unsupported sentence is marked (``--unsupported mark``)."""


def redact(text: str, failing: Mapping[str, Finding], action: UnsupportedAction) -> str:
    """``text`` with every sentence that makes a failing claim removed, or marked."""
    lines = text.splitlines()
    for line in claim_lines(text):
        kept: list[str] = []
        changed = False
        for sentence in line.sentences:
            bad = any(c.claim_id in failing for c in sentence.claims)
            if not bad:
                kept.append(sentence.raw)
            elif action is UnsupportedAction.MARK:
                kept.append(f"{MARK} {sentence.raw}")
            changed = changed or bad
        if changed and line.prefix == TABLE_ROW:
            marks = {s.raw: f"{MARK} {s.raw}" for s in line.sentences if any(c.claim_id in failing for c in s.claims)}
            lines[line.index] = _edit_row(
                lines[line.index], marks if action is UnsupportedAction.MARK else dict.fromkeys(marks)
            )
        elif changed:
            lines[line.index] = (line.prefix + " ".join(kept)) if kept else ""
    return _tidy(lines)


def _edit_row(row: str, edits: Mapping[str, str | None]) -> str:
    """A table row with each sentence in ``edits`` replaced (None: removed) where it is written as
    read; a row where one is not, or with no claim-bearing cell left, is dropped whole, so a failing
    cell is never delivered."""
    for raw, new in edits.items():
        written = raw if raw in row else raw.rstrip(".") if raw.endswith(".") and raw.rstrip(".") in row else None
        if written is None:
            return ""
        row = row.replace(written, new or "", 1)
    return row if claim_lines(row) and claim_lines(row)[0].sentences else ""


def replace_sentences(text: str, replacements: Mapping[str, str | None]) -> str:
    """``text`` with each sentence written as a key of ``replacements`` replaced by its value, or
    removed where the value is None (a targeted revision put into the draft)."""
    lines = text.splitlines()
    for line in claim_lines(text):
        if not any(s.raw in replacements for s in line.sentences):
            continue
        if line.prefix == TABLE_ROW:
            edits = {s.raw: replacements[s.raw] for s in line.sentences if s.raw in replacements}
            lines[line.index] = _edit_row(lines[line.index], edits)
            continue
        kept = [r for s in line.sentences if (r := replacements.get(s.raw, s.raw)) is not None]
        lines[line.index] = (line.prefix + " ".join(kept)) if kept else ""
    return _tidy(lines)


def _tidy(lines: Iterable[str]) -> str:
    """Lines rejoined, runs of blank lines collapsed (a removed paragraph leaves no hole)."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return "\n".join(out).strip() + "\n"
