"""Export a recorded run as Markdown, JSON or HTML.

The export is made from the audit record alone — what citewise stored — never from a model's memory
of the run. The HTML export is the web UI's run page (:mod:`citewise.export.html`, the same templates)
as one standalone file with no script: every citation (``[S1]``, ``[S1.3]``, ``[E1]``) links to its
source entry and shows the verbatim quote, the source and the claim's ledger decision on hover or
keyboard focus; the ledger is a table; Markdown is rendered by markdown-it-py with raw HTML escaped.
"""

from __future__ import annotations

import json
from typing import Any

from citewise.audit.events import AnswerGiven, ReportMade, SourceStored, Verified
from citewise.config import redact, redact_data
from citewise.errors import InputError
from citewise.export.html import run_html
from citewise.export.view import answer_provenance
from citewise.export.when import utc_time
from citewise.serial import to_data
from citewise.store.runs import RunRecord
from citewise.text.terminal import json_safe, strip_controls

__all__ = ["FORMATS", "export_run", "run_data"]

FORMATS = ("md", "json", "html")


def run_data(record: RunRecord) -> dict[str, Any]:
    """The whole run as JSON-ready data: its fields, and every event with its ``kind``."""
    data = {k: to_data(getattr(record, k)) for k in record.__dataclass_fields__ if k != "events"}
    data["events"] = [
        {"seq": r.seq, "at": r.at.isoformat(), "kind": r.event.kind.value, **to_data(r.event)} for r in record.events
    ]
    return data


def export_run(record: RunRecord, fmt: str) -> str:
    """The run as text in ``fmt`` (``md``, ``json`` or ``html``)."""
    # Runs are redacted as they are stored; exports redact again for runs recorded before that was so.
    # Text from pages and documents may hold escape sequences and bidi overrides: Markdown and HTML
    # drop them (a reader wants the words), JSON keeps the exact value with them written as \\u escapes.
    if fmt == "json":
        return json_safe(json.dumps(redact_data(run_data(record)), ensure_ascii=False, indent=2)) + "\n"
    if fmt == "md":
        return strip_controls(redact(_markdown(record)))
    if fmt == "html":
        return strip_controls(run_html(record, standalone=True))
    raise InputError(f"unknown export format {fmt!r}; valid formats: {', '.join(FORMATS)}")


def _markdown(record: RunRecord) -> str:
    report = record.last(ReportMade)
    body = report.markdown if report is not None and report.markdown else _ask_markdown(record)
    facts = [
        f"- run: `{record.run_id}` ({record.kind}, {record.mode}), {record.status.value}",
        f"- outcome: {record.outcome or '-'}",
        f"- started: {utc_time(record.created_at)}"
        + (f", finished: {utc_time(record.finished_at)}" if record.finished_at else ""),
    ]
    facts += [f"- {label}: {value}" for label, value in answer_provenance(record)]
    for stored in record.of(SourceStored):  # in every export, whether or not a report was made
        if stored.source.injection_flags:
            flags = ", ".join(stored.source.injection_flags)
            facts.append(f"- injection flags of [{stored.source.source_id}]: {flags} (treated as data, never followed)")
    return f"{body.rstrip()}\n\n{_ledger_markdown(record)}## Run record\n\n" + "\n".join(facts) + "\n"


def _ledger_markdown(record: RunRecord) -> str:
    """The claim ledger and acceptance decision, when the run has been verified."""
    verified = record.last(Verified)
    if verified is None:
        return ""
    lines = [
        "## Claim ledger",
        "",
        "| claim | kind | decision | action | source | quote |",
        "|---|---|---|---|---|---|",
    ]
    for e in verified.entries:
        sources = ", ".join(c.source_id for c in e.checks) or "-"
        quote = (e.quote or "").replace("|", "\\|").replace("\n", " ")
        text = e.claim.text.replace("|", "\\|")
        lines.append(
            f"| {e.claim.claim_id}: {text} | {e.claim.kind.value} | {e.decision.value} | {e.action.value} | "
            f"{sources} | {quote} |"
        )
    acceptance = verified.acceptance
    verdict = "accepted" if acceptance.accepted else "not accepted"
    lines += [
        "",
        f"**Acceptance:** {verdict} ({acceptance.verified_by}, decided by "
        f"{acceptance.decided_by}): " + "; ".join(acceptance.reasons),
    ]
    return "\n".join(lines) + "\n\n"


def _ask_markdown(record: RunRecord) -> str:
    answer = record.last(AnswerGiven)
    lines = [f"# {record.question}", "", answer.text if answer else ""]
    if answer is not None and answer.citations:
        lines += ["", "## Citations", ""]
        for c in answer.citations:
            lines.append(f"- [{c.evidence_id}] {c.doc_id}@{c.version}:{c.section_id} — “{c.quote}”")
    if answer is not None and answer.gap:
        lines += ["", "## Gap", "", answer.gap]
    return "\n".join(lines)
