"""What the MCP tools return: citewise's typed results as plain JSON data, shaped for a model to read
(the report and its verdict first, page texts left out: they are in the run record), with every known
secret redacted."""

from __future__ import annotations

from typing import Any

from citewise.answer.result import AskResult
from citewise.config import redact_data
from citewise.export.summary import RunSummary
from citewise.records import SearchHit
from citewise.records.verify import Acceptance
from citewise.research.context import ResearchResult
from citewise.serial import to_data
from citewise.verify.service import Verification

__all__ = ["REPORT_URI", "answer_data", "hits_data", "report_data", "run_summary_data", "verification_data"]

REPORT_URI = "citewise://runs/{run_id}/report"
"""The resource holding a run's report (Markdown export of its audit record)."""


def _acceptance(acceptance: Acceptance | None) -> dict[str, Any]:
    if acceptance is None:
        return {"accepted": None, "acceptance_reasons": ["not verified"]}
    return {"accepted": acceptance.accepted, "acceptance_reasons": list(acceptance.reasons)}


def hits_data(query: str, hits: list[SearchHit]) -> dict[str, Any]:
    """Search hits with their status flags (unapproved, superseded ... are flagged, not hidden)."""
    return redact_data({"query": query, "hits": [to_data(h) for h in hits]})


def answer_data(result: AskResult) -> dict[str, Any]:
    """An ask outcome: the text, its verdict, citations with their quotes, and the evidence cited."""
    cited = {c.evidence_id for c in result.citations}
    data = {
        "run_id": result.run_id,
        "outcome": result.outcome.value,
        "text": result.text,
        **_acceptance(result.acceptance),
        "citations": [to_data(c) for c in result.citations],
        "evidence": [to_data(e) for e in result.evidence if e.evidence_id in cited],
        "removed_before_delivery": [to_data(f) for f in result.removed],
        "options": [to_data(o) for o in result.options],
        "gap": result.gap,
        "provenance": to_data(result.provenance),
        "version_notes": [note.render() for note in result.version_notes],
        "report_uri": REPORT_URI.format(run_id=result.run_id),
    }
    return redact_data(data)


def report_data(result: ResearchResult) -> dict[str, Any]:
    """A research run: the verified report, its verdict, why the loop stopped, budget used, sources."""
    data = {
        "run_id": result.run_id,
        "status": result.status.value,
        **_acceptance(result.acceptance),
        "stop_reason": result.stop_reason.value,
        "report": result.markdown,
        "sources": [
            {"id": s.source_id, "url": s.url, "title": s.title, "published_at": to_data(s.published_at)}
            for s in result.sources
        ],
        "usage": to_data(result.usage),
        "problems": list(result.problems),
        "removed_before_delivery": [to_data(f) for f in result.removed],
        "report_uri": REPORT_URI.format(run_id=result.run_id),
    }
    return redact_data(data)


def verification_data(result: Verification) -> dict[str, Any]:
    """The claim ledger (one line per claim), conflicts and the acceptance decision."""
    claims = [
        {
            "claim_id": e.claim.claim_id,
            "text": e.claim.text,
            "kind": e.claim.kind.value,
            "cited": list(e.claim.cited_ids),
            "decision": e.decision.value,
            "action": e.action.value,
            "source_url": e.source_url,
            "quote": e.quote,
        }
        for e in result.entries
    ]
    data = {
        "run_id": result.run_id,
        **_acceptance(result.acceptance),
        "decided_by": result.acceptance.decided_by,
        "claims_by_decision": dict(result.acceptance.counts),
        "claims": claims,
        "conflicts": [to_data(c) for c in result.conflicts],
        "verifier_version": result.verifier_version,
    }
    return redact_data(data)


def run_summary_data(summary: RunSummary) -> dict[str, Any]:
    """A recorded run in brief (:class:`~citewise.export.summary.RunSummary`)."""
    return redact_data({**to_data(summary), "report_uri": REPORT_URI.format(run_id=summary.run_id)})
