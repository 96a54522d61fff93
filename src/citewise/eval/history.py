"""Evaluation history: the metrics of every stored experiment over one question set, in time order,
as rows and as a self-contained HTML chart (inline SVG, no script), so drift shows at a glance."""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime

from citewise.eval.experiment import Contender, cell_from_data, summarize
from citewise.store.evaluations import EvaluationStore
from citewise.store.evidence import EvidenceStore

__all__ = ["HistoryRow", "chart_html", "history"]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    evaluation_id: str
    kind: str
    at: datetime
    contender: str
    questions: int
    accepted: int
    citation_support_rate: float | None
    subquestions_answered: float | None
    cost_per_accepted_usd: float | None
    mean_sites: float | None = None
    """Distinct sites per report, averaged."""
    largest_site_share: float | None = None
    """The largest site's share of a report's sources, averaged."""


def history(store: EvidenceStore, set_digest: str) -> list[HistoryRow]:
    """One row per (evaluation, contender) over the set, oldest first."""
    rows: list[HistoryRow] = []
    for stored in EvaluationStore(store).for_set(set_digest):
        settings = stored.result.get("settings", {})
        chosen = [Contender(**c) for c in settings.get("contenders", [])]
        cells = [cell_from_data(c) for c in stored.result.get("cells", []) if c.get("score")]
        for s in summarize(cells, chosen):
            rows.append(
                HistoryRow(
                    stored.evaluation_id,
                    stored.kind,
                    stored.created_at,
                    s.label,
                    s.questions,
                    s.accepted,
                    s.citation_support_rate,
                    s.subquestions_answered,
                    float(s.cost_per_accepted_usd) if s.cost_per_accepted_usd is not None else None,
                    s.mean_sites,
                    s.largest_site_share,
                )
            )
    return rows


_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def chart_html(rows: list[HistoryRow], title: str) -> str:
    """Citation support rate and sub-questions answered per contender over time, as one HTML page."""
    contenders = list(dict.fromkeys(r.contender for r in rows))
    runs = list(dict.fromkeys(r.evaluation_id for r in rows))
    panels = [
        _panel(rows, contenders, runs, "citation_support_rate", "citation support rate"),
        _panel(rows, contenders, runs, "subquestions_answered", "required sub-questions answered"),
    ]
    legend = "".join(
        f'<li><span style="color:{_COLOURS[i % len(_COLOURS)]}">&#9632;</span> {html.escape(c)}</li>'
        for i, c in enumerate(contenders)
    )
    table = "".join(
        f"<tr><td>{r.at:%Y-%m-%d %H:%M}</td><td>{html.escape(r.evaluation_id)}</td><td>{html.escape(r.contender)}</td>"
        f"<td>{r.accepted}/{r.questions}</td><td>{_fmt(r.citation_support_rate)}</td>"
        f"<td>{_fmt(r.subquestions_answered)}</td><td>{_fmt(r.cost_per_accepted_usd)}</td></tr>"
        for r in rows
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{html.escape(title)}</title></head><body style='font-family:sans-serif'>"
        f"<h1>{html.escape(title)}</h1><ul style='list-style:none'>{legend}</ul>{''.join(panels)}"
        "<table border='1' cellpadding='4'><tr><th>when</th><th>evaluation</th><th>contender</th><th>accepted</th>"
        f"<th>citation support</th><th>sub-questions</th><th>cost per accepted USD</th></tr>{table}</table>"
        "</body></html>"
    )


def _panel(rows: list[HistoryRow], contenders: list[str], runs: list[str], metric: str, label: str) -> str:
    width, height, pad = 640, 220, 40
    step = (width - 2 * pad) / max(1, len(runs) - 1)
    lines = []
    for i, contender in enumerate(contenders):
        points = []
        for r in rows:
            value = getattr(r, metric)
            if r.contender == contender and value is not None:
                x = pad + step * runs.index(r.evaluation_id)
                y = height - pad - value * (height - 2 * pad)
                points.append(f"{x:.1f},{y:.1f}")
        colour = _COLOURS[i % len(_COLOURS)]
        dots = "".join(f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="3" fill="{colour}"/>' for p in points)
        lines.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(points)}"/>{dots}')
    axes = (
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#888"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#888"/>'
        f'<text x="4" y="{pad + 4}" font-size="11">1.0</text><text x="4" y="{height - pad}" font-size="11">0.0</text>'
    )
    return (
        f"<h2>{html.escape(label)}</h2><svg width='{width}' height='{height}' role='img' "
        f"aria-label='{html.escape(label)} over time'>{axes}{''.join(lines)}</svg>"
    )


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
