"""The final Markdown report, assembled by citewise from its own records.

The writer's text is the body; citewise adds the "Gaps and limitations" section — the required
sub-questions no supported claim of the delivered body answers, computed from that body after
verification (only an unverified run, ``--no-verify``, falls back to the last coverage review) —
the source list from its stored URLs (never the writer's), and a line saying how the report was made.
A rejected or evidence-less run, or one with no verified finding, says so instead of showing an
ungrounded answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from citewise.records.research import AttemptKind, ReportStatus, Source, StopReason
from citewise.records.verify import ClaimKind, Decision, Finding, Gap, GapReason
from citewise.research.sites import dominance_note, site_figures
from citewise.research.writer import gaps_section, sources_section, strip_urls
from citewise.text.citations import cited_ids

if TYPE_CHECKING:
    from citewise.research.context import ResearchRun
    from citewise.research.deliver import Delivered

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
    StopReason.ENGINE_ANSWERED: "the native engine answered and citewise checked its citations",
    StopReason.ENGINE_FAILED: "the native engine's call failed",
}


def render_report(
    run: ResearchRun, delivered: Delivered, stop: StopReason, problems: list[str], notes: Sequence[str] = ()
) -> str:
    """The report a reader gets for this run: the verification decision first, then the verified
    body, the gaps (with what was removed before delivery, and ``notes`` on a native engine's
    citations), the sources and how it was made."""
    state = run.state
    parts = [f"# {run.question}", ""]
    if delivered.status is ReportStatus.NO_VERIFIED_FINDING:
        parts += [
            "**No verified finding.** No claim of the draft survived verification against the stored page",
            "text, and no verified quote answered instead, so citewise delivers no report rather than an",
            "unverified one.",
            "",
        ]
    elif delivered.status is ReportStatus.NO_EVIDENCE or delivered.body is None:
        parts += [
            "**No evidence.** citewise could not obtain usable page content (or a verified quote) for this",
            "question, so it gives no answer rather than an ungrounded one.",
            "",
            *[f"- {p}" for p in problems],
            "",
        ]
    else:
        parts += [*_verdict(delivered), "", *_flags(state.collection.sources)]
        parts += [delivered.body.strip(), ""]
    spread = dominance_note(site_figures(state.collection.sources, run.settings.sites), run.settings.sites)
    gaps: str | None = None
    if delivered.delivery is not None:
        gaps = delivered_gaps_section(delivered.delivery.acceptance.gaps)
    elif state.reviews:
        gaps = gaps_section(state.reviews[-1]).strip()
    if gaps is not None:
        parts += [gaps + (f"\n- {spread}" if spread else ""), ""]
    if delivered.removed:
        parts += ["### Removed before delivery", "", *[_removed(f) for f in delivered.removed], ""]
    differing = delivered.delivery.conflicts if delivered.delivery is not None else ()
    if differing:  # shown side by side with their conditions, never averaged or silently chosen
        parts += ["### Figures that differ", "", *[f"- {c.describe()}" for c in differing], ""]
    if notes:
        parts += ["### The engine's citations, as citewise checked them", "", *[f"- {n}" for n in notes], ""]
    cited = cited_ids(delivered.body or "")
    if state.collection.sources:
        parts += [sources_section(state.collection.sources, cited).strip(), ""]
    parts += ["---", _made_by(run, delivered, stop)]
    return "\n".join(parts).rstrip() + "\n"


_GAP_WHY = {
    GapReason.NOT_FOUND: "the sources citewise read do not answer it",
    GapReason.NOT_VERIFIED: "what the draft said about it failed verification",
    GapReason.NOT_ANSWERED: "no supported claim of this report answers it",
    GapReason.PARTIAL: "answered only in part: the sources citewise read support it partly or indirectly",
}


def delivered_gaps_section(gaps: Sequence[Gap]) -> str:
    """ "Gaps and limitations" from the delivered text: every required sub-question no supported
    claim of it answers, why, and what the review found missing (when it said)."""
    if not gaps:
        return (
            "## Gaps and limitations\n\n"
            "None: every required sub-question is answered by a supported claim of this report."
        )
    lines = ["## Gaps and limitations", ""]
    for gap in gaps:
        why = _GAP_WHY[gap.reason]
        missing = f"; missing: {_flat(strip_urls(gap.missing, ())[0])}" if gap.missing else ""
        lines.append(f"- **{_flat(gap.topic)}** — {why}{missing}")
    return "\n".join(lines)


def _flat(text: str) -> str:
    return " ".join(text.split()).replace("[", "\\[").replace("]", "\\]")


def _verdict(delivered: Delivered) -> list[str]:
    delivery = delivered.delivery
    if delivery is None:
        return [
            "**Not verified.** Verification was switched off for this run (`--no-verify`): no claim of "
            "this report was checked against the stored pages."
        ]
    acceptance = delivery.acceptance
    kinds = [e.claim.kind for e in delivery.entries]
    supported = sum(1 for e in delivery.entries if e.claim.kind is ClaimKind.FACT and e.decision is Decision.SUPPORTED)
    labelled = sum(1 for k in kinds if k in (ClaimKind.INFERENCE, ClaimKind.RECOMMENDATION))
    signposts = kinds.count(ClaimKind.SIGNPOST)
    summary = (
        f"{len(kinds) - signposts} claims checked against the stored page text: {supported} supported, "
        f"{labelled} labelled as inference or recommendation"
        + (f", {len(delivered.removed)} removed before delivery" if delivered.removed else "")
        + (f", {len(delivery.marked)} marked unverified" if delivery.marked else "")
        + (f"; {signposts} signposting sentences, which are not findings" if signposts else "")
        + "."
    )
    head = "**Accepted**" if acceptance.accepted else "**Not accepted**"
    lines = [f"{head} ({acceptance.verified_by}): " + "; ".join(acceptance.reasons) + ".", "", summary]
    if delivered.salvaged:
        lines += [
            "",
            "The written draft did not survive verification; this report is composed from verified "
            "quotes by the deterministic writer.",
        ]
    return lines


def _flags(sources: Sequence[Source]) -> list[str]:
    flagged = [s for s in sources if s.injection_flags]
    if not flagged:
        return []
    lines = [
        f"> **Warning:** [{s.source_id}] contains text that reads like instructions to an AI "
        f"({', '.join(s.injection_flags)}); it was treated as data, never followed."
        for s in flagged
    ]
    return [*lines, ""]


def _removed(finding: Finding) -> str:
    sentence = " ".join(finding.sentence.split())
    return f"- “{sentence}” — {finding.decision.value}: {' '.join(finding.reason.split())}"


def _made_by(run: ResearchRun, delivered: Delivered, stop: StopReason) -> str:
    settings = run.settings
    made_by = (
        f"the native engine {settings.engine} (its own searches; pages read and claims checked by citewise)"
        if settings.engine
        else "deterministic planner, reviewer and writer (no model key)"
        if not settings.uses_models
        else f"planner {settings.planner_model}, writer {settings.writer_model}"
    )
    usage = run.usage_summary()
    checked = (
        "Every claim was verified against the stored page text before delivery."
        if delivered.delivery is not None
        else "This report was not verified."
    )
    return (
        f"*Made by citewise with {made_by}; search: {settings.engine or getattr(settings.search, 'name', '?')}. "
        f"Stopped because {_STOPS[stop]}. Used {usage.rounds} rounds, {usage.searches} searches, "
        f"{usage.extractions} page extractions{_from_cache(run)}. Run {run.run_id}. {checked}*"
    )


def _from_cache(run: ResearchRun) -> str:
    """How many searches and pages were answered from the cache (they spent no budget)."""
    hits = [a for a in run.state.collection.attempts if a.cached]
    if not hits:
        return ""
    searches = sum(1 for a in hits if a.kind is AttemptKind.SEARCH)
    pages = len(hits) - searches
    counted = f"{searches} search{'es' if searches != 1 else ''} and {pages} page{'s' if pages != 1 else ''}"
    return f" (and {counted} from the cache, at no cost)"
