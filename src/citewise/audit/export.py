"""Export a recorded run as Markdown, JSON or HTML.

The export is made from the audit record alone — what citewise stored — never from a model's memory
of the run. HTML citations (``[S1]``, ``[E1]``) link to the source list and show the quote or title on
hover.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import asdict

from citewise.errors import InputError
from citewise.store.runs import RunRecord

__all__ = ["FORMATS", "export_run"]

FORMATS = ("md", "json", "html")


def export_run(record: RunRecord, fmt: str) -> str:
    """The run as text in ``fmt`` (``md``, ``json`` or ``html``)."""
    if fmt == "json":
        return json.dumps(asdict(record), ensure_ascii=False, indent=2, default=str) + "\n"
    if fmt == "md":
        return _markdown(record)
    if fmt == "html":
        return _html(record)
    raise InputError(f"unknown export format {fmt!r}; valid formats: {', '.join(FORMATS)}")


def _markdown(record: RunRecord) -> str:
    body = str(record.result["markdown"]) if record.result.get("markdown") else _ask_markdown(record)
    facts = [
        f"- run: `{record.run_id}` ({record.kind}, {record.mode}), {record.status}",
        f"- outcome: {record.outcome or '-'}",
        f"- started: {record.created_at.isoformat()}"
        + (f", finished: {record.finished_at.isoformat()}" if record.finished_at else ""),
    ]
    for key, value in record.answer.items():
        if value not in (None, "", [], {}):
            facts.append(f"- answer {key.replace('_', ' ')}: {value}")
    return f"{body.rstrip()}\n\n{_ledger_markdown(record)}## Run record\n\n" + "\n".join(facts) + "\n"


def _ledger_markdown(record: RunRecord) -> str:
    """The claim ledger and acceptance decision, when the run has been verified."""
    entries = record.result.get("ledger")
    acceptance = record.result.get("acceptance")
    if not entries and not acceptance:
        return ""
    lines = [
        "## Claim ledger",
        "",
        "| claim | kind | decision | action | source | quote |",
        "|---|---|---|---|---|---|",
    ]
    for e in entries or []:
        sources = ", ".join(c["source_id"] for c in e["checks"]) or "-"
        quote = (e.get("quote") or "").replace("|", "\\|").replace("\n", " ")
        text = e["claim"]["text"].replace("|", "\\|")
        lines.append(
            f"| {e['claim']['claim_id']}: {text} | {e['claim']['kind']} | {e['decision']} | {e['action']} | "
            f"{sources} | {quote} |"
        )
    if acceptance:
        verdict = "accepted" if acceptance["accepted"] else "not accepted"
        lines += [
            "",
            f"**Acceptance:** {verdict} ({acceptance['verifier_version']}, decided by "
            f"{acceptance['decided_by']}): " + "; ".join(acceptance["reasons"]),
        ]
    return "\n".join(lines) + "\n\n"


def _ask_markdown(record: RunRecord) -> str:
    result = record.result
    lines = [f"# {record.question}", "", str(result.get("text", ""))]
    citations = result.get("citations") or []
    if citations:
        lines += ["", "## Citations", ""]
        for c in citations:
            lines.append(f"- [{c['evidence_id']}] {c['doc_id']}@{c['version']}:{c['section_id']} — “{c['quote']}”")
    if result.get("gap"):
        lines += ["", "## Gap", "", str(result["gap"])]
    return "\n".join(lines)


_CITATION = re.compile(r"\[((?:S|E)\d+)\]")


def _inline(text: str, titles: dict[str, str]) -> str:
    escaped = html.escape(text)

    def link(match: re.Match[str]) -> str:
        ident = match.group(1)
        tip = html.escape(titles.get(ident, ident), quote=True)
        return f'<a class="cite" href="#{ident}" title="{tip}">[{ident}]</a>'

    return _CITATION.sub(link, escaped)


def _tooltips(record: RunRecord) -> dict[str, str]:
    tips: dict[str, str] = {}
    for c in record.result.get("citations") or []:
        tips[c["evidence_id"]] = f"{c['doc_id']} {c['section_id']}: {c['quote']}"
    for s in record.result.get("sources") or []:
        tips[s["source_id"]] = f"{s['title']} — {s['url']}"
    return tips


def _html(record: RunRecord) -> str:
    tips = _tooltips(record)
    out: list[str] = []
    in_list = False
    for raw in _markdown(record).splitlines():
        line = raw.rstrip()
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        item = re.match(r"^\s*[-*]\s+(.*)$", line)
        if in_list and not item:
            out.append("</ul>")
            in_list = False
        if heading:
            level = len(heading.group(1))
            anchor = _anchor(heading.group(2))
            out.append(f"<h{level}{anchor}>{_inline(heading.group(2), tips)}</h{level}>")
        elif item:
            if not in_list:
                out.append("<ul>")
                in_list = True
            ident = re.match(r"^\[((?:S|E)\d+)\]", item.group(1))
            id_attr = f' id="{ident.group(1)}"' if ident else ""
            out.append(f"<li{id_attr}>{_inline(item.group(1), tips)}</li>")
        elif line:
            out.append(f"<p>{_inline(line, tips)}</p>")
    if in_list:
        out.append("</ul>")
    title = html.escape(record.question)
    style = "body{font-family:sans-serif;max-width:50em;margin:2em auto;line-height:1.5}a.cite{text-decoration:none}"
    return (
        f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{title}</title><style>{style}</style></head>\n'
        f"<body>\n" + "\n".join(out) + "\n</body></html>\n"
    )


def _anchor(text: str) -> str:
    return ' id="sources"' if text.strip().lower() == "sources" else ""
