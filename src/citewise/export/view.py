"""What a run page shows, read from the run's typed events: the report, its citations with the
quote each one rests on, the sources, gaps, claim ledger, conflicts, injection flags and timeline.

The same view feeds the web UI and the HTML export (:mod:`citewise.export.html`). Every string here
is data — page text, titles and URLs come from the web and are attacker-controlled — and is escaped
by the templates; :func:`safe_href` decides which URLs may become links.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from citewise.audit.events import (
    AnswerGiven,
    ClaimReviewed,
    ReportMade,
    ReviewMade,
    RunFailed,
    SourceStored,
    Verified,
)
from citewise.export.summary import delivered_gaps
from citewise.export.when import utc_time
from citewise.records.verify import Acceptance, Conflict, LedgerEntry
from citewise.serial import to_data
from citewise.store.runs import RunRecord
from citewise.text.citations import source_of
from citewise.text.iri import readable_url
from citewise.text.sentences import sentence_text, split_sentences

__all__ = [
    "CitationTip",
    "GapView",
    "LedgerRow",
    "RunView",
    "SourceView",
    "TimelineItem",
    "event_summary",
    "run_view",
    "safe_href",
]

_LINK_SCHEMES = {"http", "https"}


def safe_href(url: str | None) -> str | None:
    """``url`` when it may become a link (``http``/``https`` with a host), else None: ``javascript:``,
    ``data:``, ``vbscript:`` and anything unparseable stay text."""
    if not url:
        return None
    cleaned = url.strip()
    if any(ord(ch) < 32 or ch == "\x7f" for ch in cleaned):  # browsers drop tabs inside "java\tscript:"
        return None
    try:
        parts = urlsplit(cleaned)
    except ValueError:
        return None
    if parts.scheme.lower() not in _LINK_SCHEMES or not parts.netloc:
        return None
    return cleaned


@dataclass(frozen=True, slots=True)
class SourceView:
    """One cited source (``S1``) or piece of evidence (``E1``) with what its entry shows."""

    source_id: str
    """``S1`` / ``E1``: also the anchor a citation jumps to."""
    title: str
    """Title (page text: untrusted)."""
    url: str | None
    """The stored URL as text, escaped letters shown decoded (:func:`~citewise.text.iri.readable_url`)."""
    href: str | None
    """The URL when it may be a link (http/https), else None."""
    retrieved_at: str | None
    """When its text was extracted (``YYYY-MM-DD HH:MM UTC``)."""
    published_at: str | None
    """Publication date when verified, with where it came from."""
    excerpt: str
    """The excerpt given to the models (or the quoted evidence text)."""
    injection_flags: tuple[str, ...] = ()
    """Instruction-like patterns found in the page."""


@dataclass(frozen=True, slots=True)
class CitationTip:
    """What hovering or focusing one citation shows."""

    cited: str
    """The citation as written (``S1``, ``S1.3``, ``E2``)."""
    source: SourceView | None
    """The source it names (None when the id is unknown: shown as untraceable)."""
    quote: str | None
    """The verbatim quote the claim rests on."""
    claim_id: str | None
    """The ledger claim this citation belongs to."""
    decision: str | None
    """The ledger's decision on that claim."""


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One claim ledger row."""

    entry: LedgerEntry
    """The ledger entry."""
    sources: tuple[str, ...]
    """Cited source ids."""
    reasons: tuple[str, ...]
    """Each check's reason."""


@dataclass(frozen=True, slots=True)
class GapView:
    """A gap the reader should know about."""

    topic: str
    """The sub-question, or the removed claim's sentence."""
    detail: str
    """Why it is a gap."""


@dataclass(frozen=True, slots=True)
class TimelineItem:
    """One recorded event on the timeline."""

    seq: int
    at: str
    kind: str
    summary: str


@dataclass(frozen=True, slots=True)
class RunView:
    """Everything a run page shows."""

    record: RunRecord
    body: str
    """The report (or answer) as Markdown, without its sources section (shown from the record)."""
    sources: tuple[SourceView, ...]
    tips: dict[str, CitationTip]
    """By citation as written (``S1``, ``S1.3``) and by claim-qualified key (``C3:S1``)."""
    claim_texts: tuple[tuple[str, str, tuple[str, ...]], ...]
    """(claim id, claim text, cited ids) in report order: which claim a citation belongs to."""
    ledger: tuple[LedgerRow, ...]
    acceptance: Acceptance | None
    conflicts: tuple[Conflict, ...]
    gaps: tuple[GapView, ...]
    reviews: tuple[ClaimReviewed, ...]
    timeline: tuple[TimelineItem, ...]
    failure: str | None
    provenance: tuple[tuple[str, str], ...] = ()
    """What produced the answer (:func:`answer_provenance`), as (label, value) lines."""

    @property
    def verified(self) -> bool:
        """True when the verification layer has recorded a decision on this run."""
        return self.acceptance is not None

    @property
    def flagged(self) -> tuple[SourceView, ...]:
        """Sources with injection flags."""
        return tuple(s for s in self.sources if s.injection_flags)


def run_view(record: RunRecord) -> RunView:
    """The view of one recorded run (research or ask)."""
    verified = record.last(Verified)
    sources = _sources(record)
    by_id = {s.source_id: s for s in sources}
    entries = verified.entries if verified is not None else ()
    failed = record.last(RunFailed)
    return RunView(
        record=record,
        body=_body(record),
        sources=sources,
        tips=_tips(record, by_id, entries),
        claim_texts=tuple((e.claim.claim_id, e.claim.text, e.claim.cited_ids) for e in entries),
        ledger=tuple(
            LedgerRow(e, tuple(c.source_id for c in e.checks), tuple(c.reason for c in e.checks if c.reason))
            for e in entries
        ),
        acceptance=verified.acceptance if verified is not None else None,
        conflicts=verified.conflicts if verified is not None else (),
        gaps=_gaps(record),
        reviews=tuple(record.of(ClaimReviewed)),
        timeline=tuple(
            TimelineItem(r.seq, utc_time(r.at), r.event.kind.value, event_summary(r.event)) for r in record.events
        ),
        failure=f"{failed.error}: {failed.message}" if failed is not None else None,
        provenance=answer_provenance(record),
    )


def answer_provenance(record: RunRecord) -> tuple[tuple[str, str], ...]:
    """What produced the run's answer, as ("answer path", "model") lines for every export: for a
    research report its path, models and prompt versions; for an ``ask`` answer its recorded
    provenance (outcome kind, model, prompt version, the readings of everyday words, ...). Values
    are as recorded (text from a model or a page among them) and are escaped by each format."""
    report, answer = record.last(ReportMade), record.last(AnswerGiven)
    data: dict[str, Any] = {}
    if report is not None:
        data = {
            "path": report.path,
            "planner": report.planner,
            "writer": report.writer,
            "prompt_versions": report.prompt_versions,
        }
    elif answer is not None:
        data = to_data(answer.provenance)
        # Everyday words read as the statute's, as the handoff message says them: 집주인 as 임대인.
        data["readings"] = "; ".join(r.render() for r in answer.provenance.readings)
    shown = {key: value for key, value in data.items() if value not in (None, "", [], {})}
    return tuple((f"answer {key.replace('_', ' ')}", str(value)) for key, value in shown.items())


def _body(record: RunRecord) -> str:
    report = record.last(ReportMade)
    if report is not None:
        return report.body if report.body is not None else report.markdown
    answer = record.last(AnswerGiven)
    return answer.text if answer is not None else ""


def _sources(record: RunRecord) -> tuple[SourceView, ...]:
    out: list[SourceView] = []
    for stored in record.of(SourceStored):
        s = stored.source
        published = f"{s.published_at} ({s.publication_date_source})" if s.published_at else None
        out.append(
            SourceView(
                s.source_id,
                s.title,
                readable_url(s.url),
                safe_href(s.url),
                utc_time(s.retrieved_at),
                published,
                s.content,
                s.injection_flags,
            )
        )
    answer = record.last(AnswerGiven)
    for c in answer.citations if answer is not None else ():
        title = f"{c.doc_id}@{c.version} {c.section_id}"
        out.append(SourceView(c.evidence_id, title, None, None, None, None, c.quote))
    return tuple(out)


def _tips(record: RunRecord, by_id: dict[str, SourceView], entries: tuple[LedgerEntry, ...]) -> dict[str, CitationTip]:
    tips: dict[str, CitationTip] = {}
    for stored in record.of(SourceStored):
        s = stored.source
        view = by_id.get(s.source_id)
        for sentence in split_sentences(s.source_id, s.content):
            tips[sentence.sentence_id] = CitationTip(sentence.sentence_id, view, sentence_text(sentence), None, None)
    for ident, view in by_id.items():
        tips.setdefault(ident, CitationTip(ident, view, view.excerpt[:400] or None, None, None))
    for e in entries:
        for ident in e.claim.cited_ids + e.claim.cited_sentences:
            check = next((c for c in e.checks if c.source_id == source_of(ident)), None)
            quote = e.quote or (check.span if check is not None else None) or tips.get(ident, _empty(ident)).quote
            source = by_id.get(source_of(ident))
            tip = CitationTip(ident, source, quote, e.claim.claim_id, e.decision.value)
            tips[f"{e.claim.claim_id}:{ident}"] = tip
            if ident not in tips or tips[ident].claim_id is None:
                tips[ident] = tip
    return tips


def _empty(ident: str) -> CitationTip:
    return CitationTip(ident, None, None, None, None)


def _gaps(record: RunRecord) -> tuple[GapView, ...]:
    gaps: list[GapView] = []
    delivered = delivered_gaps(record)
    if delivered is not None:  # what the reader got does not answer these (acceptance's own gaps)
        for gap in delivered:
            why = gap.reason.value.replace("_", " ")
            gaps.append(GapView(gap.topic, f"{why}: {gap.missing}" if gap.missing else why))
    review = record.last(ReviewMade) if delivered is None else None
    for item in review.review.items if review is not None else ():
        if item.gap:
            gaps.append(GapView(item.topic, f"{item.status.value}: {item.gap}"))
        elif item.status.value != "covered":
            gaps.append(GapView(item.topic, item.status.value))
    report = record.last(ReportMade)
    for finding in report.removed if report is not None else ():
        gaps.append(GapView(finding.sentence, f"removed ({finding.decision.value}): {finding.reason}"))
    answer = record.last(AnswerGiven)
    if answer is not None and answer.gap:
        gaps.append(GapView(record.question, answer.gap))
    return tuple(gaps)


def event_summary(event: object) -> str:
    """One line about an event, from its typed fields (never from another module's prose)."""
    from citewise.audit.events import (
        AttemptEnded,
        AttemptStarted,
        DraftDropped,
        ModelCallEnded,
        RoundStarted,
    )

    if isinstance(event, RoundStarted):
        return f"round {event.round}: {len(event.queries)} queries"
    if isinstance(event, AttemptStarted):
        ahead = " (ahead of its round, as a streamed reply named it)" if event.ahead else ""
        return f"{event.attempt_kind.value} {readable_url(event.target)}{ahead}"
    if isinstance(event, AttemptEnded):
        a = event.attempt
        outcome = "ok" if a.ok else f"failed ({a.error_kind.value if a.error_kind else a.error_type})"
        return f"{a.kind.value} {readable_url(a.target)}: {outcome}"
    if isinstance(event, SourceStored):
        return f"[{event.source.source_id}] {event.source.title}"
    if isinstance(event, ModelCallEnded):
        return f"{event.purpose} ({event.model or event.requested_model}): {event.outcome}"
    if isinstance(event, DraftDropped):
        text = " ".join(event.draft.markdown.split()) if event.draft is not None else ""
        shown = text if len(text) <= 200 else text[:199] + "…"
        return f"round {event.round} draft dropped ({event.reason.value}): {shown or 'text not recorded'}"
    if isinstance(event, ReportMade):
        return f"report: {event.status.value}, stopped: {event.stop_reason.value}"
    if isinstance(event, Verified):
        return "accepted" if event.acceptance.accepted else "not accepted: " + "; ".join(event.acceptance.reasons)
    if isinstance(event, ClaimReviewed):
        return f"{event.claim_id} {event.decision.value} by {event.reviewer}: {event.reason}"
    if isinstance(event, AnswerGiven):
        return f"answer: {event.outcome.value}"
    if isinstance(event, RunFailed):
        return f"{event.error}: {event.message}"
    return ""
