"""What one research run scores in an evaluation, read from its audit record.

Everything here is read off the typed events, so a metric means the same for every engine and
model: the claim ledger of the latest :class:`~citewise.audit.events.Verified` event, the last draft,
the stored sources, the model calls' tokens and the run's priced cost.

* **citation support rate**: factual claims the ledger found supported / factual claims (every
  factual claim needs a citation); recommendations and inferences are not counted;
* **unmapped claims**: factual claims that cite nothing;
* **valid citation ids**: ids the final draft cited that name a stored source / ids it cited;
* **required sub-questions answered**: from the delivered text, as acceptance reads it
  (:mod:`citewise.verify.answers`) — a required sub-question of the evaluation set counts as answered
  when a supported factual claim of the delivered body answers it (it sits under a heading naming it
  and names it, or states most of its terms); signposting, advice and unsupported claims never do;
* **query relevance** (end to end): queries sharing a content term with a required sub-question or a
  review's gap / all queries searched;
* **sites**: distinct sites (registrable domains) among the stored sources, and the largest site's
  share of them, per report.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from citewise.audit.events import (
    AttemptStarted,
    DraftMade,
    ModelCallEnded,
    ReportMade,
    ReviewMade,
    SourceStored,
    Verified,
)
from citewise.cost.ledger import is_accepted, ledger_for_run
from citewise.prices import PriceTable
from citewise.records.research import AttemptKind, CoverageStatus
from citewise.records.verify import ClaimKind, Decision
from citewise.store.runs import RunRecord
from citewise.text.analyze import query_terms
from citewise.text.citations import cited_ids
from citewise.text.domains import registrable_domain
from citewise.verify.answers import RequiredTopic, map_answers

__all__ = ["RunScore", "score_run"]


@dataclass(frozen=True, slots=True)
class RunScore:
    """The metrics of one run."""

    run_id: str
    accepted: bool
    fact_claims: int
    supported: int
    unsupported: int
    unmapped: int
    cited: int
    """Distinct ids the final draft cited."""
    valid_cited: int
    """Of those, ids of stored sources."""
    subquestions: int
    answered: int
    queries: int
    relevant_queries: int
    sources: int
    tokens: int
    latency_s: float
    cost_usd: Decimal
    sites: int = 0
    """Distinct sites (registrable domains) the run's stored sources come from."""
    largest_site_share: float = 0.0
    """The largest site's share of the stored sources (0 without sources)."""


def score_run(record: RunRecord, required: tuple[str, ...], prices: PriceTable) -> RunScore:
    """Score ``record`` against the question's required sub-questions."""
    verified = record.last(Verified)
    entries = verified.entries if verified else ()
    facts = [e for e in entries if e.claim.kind is ClaimKind.FACT]
    supported = [e for e in facts if e.decision is Decision.SUPPORTED]
    stored = {e.source.source_id for e in record.of(SourceStored)}
    draft = record.last(DraftMade)
    cited = set(cited_ids(draft.draft.markdown)) if draft else set()
    report = record.last(ReportMade)
    body = report.body if report is not None and report.body else ""
    # The evaluation's own sub-questions, never the planner's: no review checked evidence for them.
    asked = [RequiredTopic(sub, status=CoverageStatus.COVERED) for sub in required]
    answered = len(required) - len(map_answers(body, entries, asked)[1]) if body and entries else 0
    queries = [e.target for e in record.of(AttemptStarted) if e.attempt_kind is AttemptKind.SEARCH]
    gaps = [t.gap for r in record.of(ReviewMade) for t in r.review.items if t.gap]
    wanted = {t for text in (*required, *gaps) if text for t in query_terms(text)}
    tokens = sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in record.of(ModelCallEnded))
    return RunScore(
        run_id=record.run_id,
        accepted=is_accepted(record),
        fact_claims=len(facts),
        supported=len(supported),
        unsupported=sum(1 for e in facts if e.decision is Decision.UNSUPPORTED),
        unmapped=sum(1 for e in facts if not e.claim.cited_ids),
        cited=len(cited),
        valid_cited=len(cited & stored),
        subquestions=len(required),
        answered=answered,
        queries=len(queries),
        relevant_queries=sum(1 for q in queries if wanted & set(query_terms(q))),
        sources=len(stored),
        tokens=tokens,
        latency_s=_latency(record),
        cost_usd=ledger_for_run(record, prices).measured,
        **_sites(record),
    )


def _sites(record: RunRecord) -> dict[str, Any]:
    """The report's site figures as recorded; for runs recorded before sites were kept, from the
    stored sources' URLs."""
    report = record.last(ReportMade)
    if report is not None and report.sites is not None:
        return {"sites": report.sites.distinct_domains, "largest_site_share": round(report.sites.largest_share, 4)}
    domains = [s.source.domain or registrable_domain(s.source.url) for s in record.of(SourceStored)]
    known = [d for d in domains if d]
    if not known:
        return {"sites": 0, "largest_site_share": 0.0}
    largest = max(known.count(d) for d in set(known))
    return {"sites": len(set(known)), "largest_site_share": round(largest / len(known), 4)}


def _latency(record: RunRecord) -> float:
    if not record.events:
        return 0.0
    end = next((e.at for e in reversed(record.events) if isinstance(e.event, ReportMade)), record.events[-1].at)
    return max(0.0, (end - record.events[0].at).total_seconds())
