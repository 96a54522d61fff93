"""The final Markdown report, assembled by citewise from its own records.

The writer's text is the body; citewise adds the "Gaps and limitations" section from the last coverage
review, the source list from its stored URLs (never the writer's), and a line saying how the report
was made. A rejected or evidence-less run says so instead of showing an ungrounded answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citewise.research.records import Draft, ReportStatus, StopReason
from citewise.research.writer import gaps_section, sources_section

if TYPE_CHECKING:
    from citewise.research.context import ResearchRun

__all__ = ["render_report"]

_STOPS = {
    StopReason.COVERAGE_PASSED: "every required sub-question was covered with verified quotes",
    StopReason.NO_NEW_QUERIES: "no new query remained for the gaps",
    StopReason.ROUNDS_EXHAUSTED: "the round budget was used up",
    StopReason.SEARCHES_EXHAUSTED: "the search budget was used up",
    StopReason.EXTRACTIONS_EXHAUSTED: "the page-extraction budget was used up",
    StopReason.TOKENS_EXHAUSTED: "the token budget was used up",
    StopReason.COST_EXHAUSTED: "the cost budget was used up",
    StopReason.NO_EVIDENCE: "no usable page content was obtained",
}


def render_report(
    run: ResearchRun, final: Draft | None, status: ReportStatus, stop: StopReason, problems: list[str]
) -> str:
    """The report a reader gets for this run."""
    state = run.state
    parts = [f"# {run.question}", ""]
    if status is ReportStatus.NO_EVIDENCE:
        parts += [
            "**No evidence.** citewise could not obtain usable page content for this question, so it",
            "gives no answer rather than an ungrounded one.",
            "",
        ]
    elif final is None:
        parts += [
            "**Report rejected.** The draft's citations could not be validated against citewise's stored",
            "sources, so no report text is shown:",
            "",
            *[f"- {p}" for p in problems],
            "",
        ]
    else:
        parts += [final.markdown.strip(), ""]
    if state.reviews:
        parts += [gaps_section(state.reviews[-1]).strip(), ""]
    cited = final.source_ids if final is not None else ()
    if state.collection.sources:
        parts += [sources_section(state.collection.sources, cited).strip(), ""]
    made_by = (
        "deterministic planner, reviewer and writer (no model key)"
        if not run.settings.uses_models
        else (f"planner {run.settings.planner_model}, writer {run.settings.writer_model}")
    )
    usage = run.usage_summary()
    parts += [
        "---",
        f"*Made by citewise with {made_by}; search: {getattr(run.settings.search, 'name', '?')}. "
        f"Stopped because {_STOPS[stop]}. Used {usage.rounds} rounds, {usage.searches} searches, "
        f"{usage.extractions} page extractions. Run {run.run_id}. This report has not been through "
        f"verification and acceptance.*",
    ]
    return "\n".join(parts).rstrip() + "\n"
