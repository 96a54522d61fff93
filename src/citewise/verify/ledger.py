"""The claim ledger of a run: every claim, its cited source, the exact supporting quote, its scope,
the decision and the action — built from the audit record and the evidence store alone.

::

    report text -> claims (atomic, fact / recommendation / inference) -> per cited source: best span in
    the stored page text -> support checks -> decision + action -> conflicts -> acceptance
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from citewise.audit.events import AnswerGiven, ReportMade, SourceStored
from citewise.llm.errors import ModelError
from citewise.records.runs import RunKind
from citewise.records.verify import Claim, ClaimKind, Decision, LedgerAction, LedgerEntry, SupportCheck
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord
from citewise.text.articles import strip_deleted_parts
from citewise.text.citations import source_of
from citewise.verify.claims import claim_scope, extract_claims
from citewise.verify.clauses import duty_only
from citewise.verify.figures import unsourced_particulars
from citewise.verify.pinpoint import check_cited_sentences
from citewise.verify.support import check_support, judge_failure

__all__ = [
    "CheckCache",
    "CitedText",
    "Judge",
    "about_the_source",
    "build_ledger",
    "checked_as_fact",
    "cited_texts",
    "decide",
    "ledger_for_text",
    "report_text",
]


@dataclass(frozen=True, slots=True)
class CitedText:
    """What a citation id points to in citewise's records."""

    ident: str
    """``S1`` or ``E1``."""
    url: str | None
    """Stored URL (or document origin)."""
    page_text: str
    """The preserved text a claim must be supported by."""
    excerpt: str = ""
    """The excerpt the models were given (a research source's ``content``), whose sentences a
    citation such as ``[S1.3]`` names; empty for ask evidence."""
    published_at: str | None = None
    """The publication date the source's page states (research sources read by citewise's fetcher)."""
    document: str = ""
    """The stored document and version the text is a section of (``kr-law-001872@1``; ask evidence):
    the sections of one document are one source's provisions, not sources that disagree."""


def cited_texts(store: EvidenceStore, record: RunRecord) -> dict[str, CitedText]:
    """Every citable id of the run with its stored text: research sources, or ask evidence."""
    texts: dict[str, CitedText] = {}
    for stored in record.of(SourceStored):
        s = stored.source
        texts[s.source_id] = CitedText(s.source_id, s.url, s.page_text or s.content, s.content, s.published_at)
    answer = record.last(AnswerGiven)
    for ref in answer.evidence if answer is not None else ():
        section = next((s for s in store.sections(ref.doc_id, ref.version) if s.section_id == ref.section_id), None)
        if section is not None:
            origin = store.version(ref.doc_id, ref.version).provenance.origin_url
            document = f"{ref.doc_id}@{ref.version}"
            texts[ref.evidence_id] = CitedText(
                ref.evidence_id, origin, strip_deleted_parts(section.text), document=document
            )
    return texts


def report_text(record: RunRecord) -> str:
    """The text whose claims are verified: the validated research body, or the ask answer."""
    if record.kind is RunKind.RESEARCH:
        report = record.last(ReportMade)
        return (report.body or "") if report is not None else ""
    answer = record.last(AnswerGiven)
    return answer.text if answer is not None else ""


_CONTRADICTIONS = ("wrong number", "negation mismatch", "overstated scope", "date")


def about_the_source(check: SupportCheck) -> bool:
    """Whether a check shows its claim to be about the source: the source states it (supported) or
    contradicts it (a span found that lacks the claim's terms, or says otherwise). An inference or
    recommendation so checked is a fact; one the source neither states nor contradicts stays
    labelled, unchecked."""
    if check.decision is Decision.SUPPORTED:
        return True
    return check.span_found and (bool(check.missing) or any(k in check.reason for k in _CONTRADICTIONS))


# A statute's text: article headings (제3조) or numbered paragraphs (①).
_STATUTE = re.compile(r"제\s*\d+\s*조|[\u2460-\u2473]")


def checked_as_fact(claim: Claim, checks: Sequence[SupportCheck], pages: Sequence[str]) -> bool:
    """Whether a recommendation or inference is checked as a fact against ``pages`` (the texts it
    cites), rather than labelled and left unchecked. It is when

    * a check shows it to be about the source (:func:`about_the_source`);
    * it is a recommendation only because its sentence states a duty (해야 한다, see
      :func:`~citewise.verify.clauses.duty_only`) and it cites a statute: it states the statute's duty;
    * it states a figure, date, period, amount or article that no cited text holds
      (:func:`~citewise.verify.figures.unsourced_particulars`): advice or a conclusion may add no
      particular of its own ("… 14일 이내에 지급해야 합니다" when the cited text says 30일), cited or not.
    """
    if claim.kind not in (ClaimKind.RECOMMENDATION, ClaimKind.INFERENCE):
        return False
    if any(about_the_source(c) for c in checks):
        return True
    duty = claim.kind is ClaimKind.RECOMMENDATION and duty_only(claim.text, claim.sentence)
    if duty and any(_STATUTE.search(page) for page in pages):
        return True
    return bool(unsourced_particulars(claim.text, "\n\n".join(pages)))


def decide(claim: Claim, checks: Sequence[SupportCheck]) -> tuple[Decision, LedgerAction]:
    """The ledger decision and action for one claim from its per-source checks."""
    if claim.kind is ClaimKind.SIGNPOST:
        return Decision.UNREVIEWED, LedgerAction.KEEP_AS_STRUCTURE
    if claim.kind is not ClaimKind.FACT:
        return Decision.UNREVIEWED, LedgerAction.LABEL_AS_INFERENCE
    if not checks:
        return Decision.UNSUPPORTED, LedgerAction.REMOVE  # an unmapped factual claim
    decisions = {c.decision for c in checks}
    if Decision.CONFLICTING in decisions or (
        Decision.SUPPORTED in decisions
        and len(decisions) > 1
        and any(c.decision is Decision.UNSUPPORTED and c.span_found and c.missing for c in checks)
    ):
        return Decision.CONFLICTING, LedgerAction.INVESTIGATE
    if Decision.SUPPORTED in decisions:
        return Decision.SUPPORTED, LedgerAction.ACCEPT
    if any(c.span_found for c in checks):
        return Decision.UNSUPPORTED, LedgerAction.NARROW  # a span exists, but the claim says more
    return Decision.UNSUPPORTED, LedgerAction.REMOVE


def _checks(claim: Claim, cited: CitedText) -> tuple[SupportCheck, ...]:
    """The claim against one cited source: against the sentences it cites (``[S1.3]``) when it
    cites any of this source, else against the best span of the page."""
    sentences = [i for i in claim.cited_sentences if source_of(i) == cited.ident]
    if sentences:
        return check_cited_sentences(claim, cited.ident, cited.excerpt, sentences)
    return (check_support(claim, cited.ident, cited.page_text, source=cited.url or ""),)


def _cited_checks(claim: Claim, texts: Mapping[str, CitedText]) -> tuple[SupportCheck, ...]:
    return tuple(check for ident in claim.cited_ids if ident in texts for check in _checks(claim, texts[ident]))


class CheckCache:
    """Support checks already made, by claim (its id aside) and the texts it cites: a claim's checks
    depend only on those, so a sentence checked while its draft was still streaming in is not
    checked again when the draft is delivered. Safe to fill from one thread and read from another."""

    def __init__(self) -> None:
        self._made: dict[tuple[object, ...], tuple[SupportCheck, ...]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        """Claims answered from the cache."""

    def checks(self, claim: Claim, texts: Mapping[str, CitedText]) -> tuple[SupportCheck, ...]:
        """The checks of ``claim`` against its cited texts: from the cache, or made and kept."""
        cited = tuple((i, hash(texts[i].page_text), hash(texts[i].excerpt)) for i in claim.cited_ids if i in texts)
        key = (replace(claim, claim_id=""), cited)
        with self._lock:
            found = self._made.get(key)
            if found is not None:
                self.hits += 1
                return found
        made = _cited_checks(claim, texts)
        with self._lock:
            self._made[key] = made
        return made


Judge = Callable[[Claim, SupportCheck, str], SupportCheck]
"""A second opinion on a deterministic ``supported`` check: (claim, check, page text) -> check."""


def _second_opinion(
    claim: Claim, checks: tuple[SupportCheck, ...], texts: Mapping[str, CitedText], judge: Judge | None
) -> tuple[SupportCheck, ...]:
    # The model may only make a verdict stricter: a deterministic "supported" that the judge finds
    # unsupported or conflicting takes the judge's verdict; a discarded or agreeing judgement
    # leaves the deterministic check as it was. A model never rescues a failed check. The judge
    # degrades, never aborts: a judgement that fails (malformed, or the call failed) is recorded on
    # the check as a judge failure, and the deterministic verdict stands.
    if judge is None or claim.kind is not ClaimKind.FACT:
        return checks
    judged = []
    for check in checks:
        if check.decision is Decision.SUPPORTED and check.span and check.source_id in texts:
            try:
                opinion = judge(claim, check, texts[check.source_id].page_text)
            except ModelError as exc:
                judged.append(replace(check, judge_failure=judge_failure(exc)))
                continue
            if opinion.decision is Decision.UNREVIEWED:
                check = replace(check, judge_failure=opinion.judge_failure or opinion.reason)
            elif opinion.decision in (Decision.UNSUPPORTED, Decision.CONFLICTING):
                check = replace(
                    check, decision=opinion.decision, reason=f"model judge: {opinion.reason}", judge=opinion.judge
                )
        judged.append(check)
    return tuple(judged)


def build_ledger(
    record: RunRecord,
    texts: Mapping[str, CitedText],
    overrides: Mapping[str, tuple[str, str, str]] | None = None,
    judge: Judge | None = None,
) -> list[LedgerEntry]:
    """One entry per claim of the run's report; ``overrides`` maps claim ids to (decision, reviewer,
    reason); ``judge`` is an optional model second opinion (see :func:`_second_opinion`)."""
    return ledger_for_text(report_text(record), texts, overrides, judge)


def ledger_for_text(
    text: str,
    texts: Mapping[str, CitedText],
    overrides: Mapping[str, tuple[str, str, str]] | None = None,
    judge: Judge | None = None,
    cache: CheckCache | None = None,
) -> list[LedgerEntry]:
    """One entry per claim of ``text`` (a report body or an answer), checked against ``texts``
    (reusing the checks ``cache`` already holds)."""
    entries = []
    for claim in extract_claims(text):
        if claim.kind is ClaimKind.SIGNPOST:
            # Signposting makes no claim about the subject: its citations, if any, are not mapped.
            decision, action = decide(claim, ())
            entry = LedgerEntry(claim, claim_scope(claim.text), (), decision, action)
            entries.append(_overridden(entry, (overrides or {}).get(claim.claim_id)))
            continue
        checks = cache.checks(claim, texts) if cache is not None else _cited_checks(claim, texts)
        unknown = [i for i in claim.cited_ids if i not in texts]
        checks += tuple(
            SupportCheck(i, None, False, (), Decision.UNSUPPORTED, "cites no stored source", traceable=False)
            for i in unknown
        )
        pages = [texts[i].page_text for i in claim.cited_ids if i in texts]
        if checked_as_fact(claim, checks, pages):
            # A cited sentence that the source states ("사용자는 ... 하여야 한다" in a statute), that
            # the source contradicts (a wrong figure, a dropped condition, a flipped negation), or
            # that adds a figure the source lacks, is a claim about the source: it is checked as a
            # fact. Only the writer's own advice and conclusions, which the source neither states
            # nor contradicts and which add no particular of their own, stay labelled.
            claim = replace(claim, kind=ClaimKind.FACT)
        checks = _second_opinion(claim, checks, texts, judge)
        decision, action = decide(claim, checks)
        best = next((c for c in checks if c.decision is Decision.SUPPORTED), None) or next(
            (c for c in checks if c.span), None
        )
        scope = claim_scope(claim.text)
        dated = texts[best.source_id].published_at if best and best.source_id in texts else None
        if dated and not scope.dates:
            scope = replace(scope, as_of=dated)
        entry = LedgerEntry(
            claim=claim,
            scope=scope,
            checks=checks,
            decision=decision,
            action=action,
            source_url=texts[best.source_id].url if best and best.source_id in texts else None,
            quote=best.span if best else None,
        )
        entries.append(_overridden(entry, (overrides or {}).get(claim.claim_id)))
    return entries


_ACTIONS = {
    Decision.SUPPORTED: LedgerAction.ACCEPT,
    Decision.UNSUPPORTED: LedgerAction.REMOVE,
    Decision.CONFLICTING: LedgerAction.INVESTIGATE,
    Decision.UNREVIEWED: LedgerAction.INVESTIGATE,
}


def _overridden(entry: LedgerEntry, override: tuple[str, str, str] | None) -> LedgerEntry:
    if override is None:
        return entry
    decision, reviewer, reason = override
    chosen = Decision(decision)
    return replace(entry, decision=chosen, action=_ACTIONS[chosen], reviewer=reviewer, review_reason=reason)


def entry_json(entry: LedgerEntry) -> dict[str, Any]:
    """A ledger entry as JSON-ready data."""
    from dataclasses import asdict

    data = asdict(entry)
    data["claim"]["kind"] = entry.claim.kind.value
    data["decision"] = entry.decision.value
    data["action"] = entry.action.value
    for check in data["checks"]:
        check["decision"] = check["decision"].value if hasattr(check["decision"], "value") else check["decision"]
    return data


__all__ += ["entry_json"]
