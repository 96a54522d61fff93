"""Delivering a research report: salvage, verify, revise once, and keep only what was checked.

::

    final draft (after the citation repair)
      -> salvage: sentences citing an id no source has are dropped; nothing left -> the deterministic
         writer from verified quotes; no verified quote at all -> no evidence
      -> verify every claim against the stored page text (unless --no-verify)
      -> findings? -> the writer revises the failed sentences once (only those, with their evidence),
         inside the budgets -> put into the draft, checked and verified again
      -> what still fails is removed (or marked) and listed; acceptance is decided on what remains:
         every required sub-question must be answered by a supported claim of the delivered text
      -> no supported claim left -> the deterministic writer from verified quotes, verified the same
         way; still none -> no verified finding: nothing is delivered as a report
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from citewise.audit.events import DraftMade
from citewise.llm import ModelError
from citewise.records.budget import BudgetExhausted
from citewise.records.research import Draft, ModelPurpose, ReportStatus, Source
from citewise.records.verify import Finding
from citewise.research import writer as writing
from citewise.research.context import ResearchRun
from citewise.research.revise import revise_with_model
from citewise.verify.answers import RequiredTopic, required_topics
from citewise.verify.delivery import Delivery, deliver, drop_citing, replace_sentences
from citewise.verify.ledger import CitedText, ledger_for_text

__all__ = ["Delivered", "check_as_written", "cited_texts_of", "deliver_report"]

T = TypeVar("T")

ModelCall = Callable[[ResearchRun, ModelPurpose, str, Callable[[], T]], T]
Revisions = tuple[dict[str, str | None], str | None]


@dataclass(frozen=True)
class Delivered:
    """What a research run delivers."""

    status: ReportStatus
    """Report or no evidence."""
    draft: Draft | None
    """The draft the body came from (None without one)."""
    body: str | None
    """The delivered body: verified text only (unless verification was switched off)."""
    delivery: Delivery | None = None
    """The verification of the body; None with ``--no-verify`` or without a body."""
    removed: tuple[Finding, ...] = ()
    """Everything taken out before delivery, with the reason."""
    salvaged: bool = False
    """True when the deterministic writer composed the body from verified quotes."""


def deliver_report(run: ResearchRun, draft: Draft | None, model_call: ModelCall[Revisions]) -> Delivered:
    """The body a reader gets from the final ``draft`` (checked or not); see the module docstring.

    ``model_call`` makes the revision call inside the budgets (the loop's recorded model call)."""
    sources = run.state.collection.sources
    known = [s.source_id for s in sources]
    removed: list[Finding] = []
    salvaged = False
    if draft is not None:
        text, dropped = drop_citing(draft.markdown, known)
        removed += dropped
        draft = Draft(draft.round, text, tuple(i for i in writing.cited_ids(text) if i in known), draft.writer)
    if draft is None or not draft.source_ids:
        draft, salvaged = _from_quotes(run), True
        if draft is None:
            return Delivered(ReportStatus.NO_EVIDENCE, None, None, removed=tuple(removed))
    if not run.settings.verify:
        return Delivered(ReportStatus.REPORT, draft, draft.markdown, removed=tuple(removed), salvaged=salvaged)
    texts = cited_texts_of(sources)
    topics = _topics(run)
    action = run.settings.unsupported
    cache = run.checks
    delivery = deliver(draft.markdown, texts, kind="research", action=action, topics=topics, cache=cache)
    revision = _revise(run, draft, delivery, model_call) if (delivery.removed or delivery.marked) else None
    if revision is not None:
        revised, taken_out = revision
        # what the writer took out itself was taken out for failing verification: it is listed, and
        # a sub-question it was about is a gap because of it
        gone = [f for f in (*delivery.removed, *delivery.marked) if f.sentence in taken_out]
        about = dict(delivery.lost)
        earlier = {f.claim_id: about.get(f.claim_id, ()) for f in gone}
        again = deliver(
            revised.markdown, texts, kind="research", action=action, topics=topics, lost_before=earlier, cache=cache
        )
        if len(again.removed) + len(again.marked) <= len(delivery.removed) + len(delivery.marked):
            removed += gone
            draft, delivery = revised, again
    if not delivery.has_finding and not salvaged:
        # Nothing the writer said survived: the verified quotes may still answer (never the draft).
        quoted = _from_quotes(run)
        if quoted is not None:
            removed += delivery.removed
            draft, salvaged = quoted, True
            delivery = deliver(quoted.markdown, texts, kind="research", action=action, topics=topics, cache=cache)
    removed += delivery.removed
    if not delivery.has_finding:
        return Delivered(ReportStatus.NO_VERIFIED_FINDING, draft, None, delivery, tuple(removed), salvaged)
    return Delivered(ReportStatus.REPORT, draft, delivery.text, delivery, tuple(removed), salvaged)


def cited_texts_of(sources: Sequence[Source]) -> dict[str, CitedText]:
    """What each source id points to, as verification reads it."""
    return {
        s.source_id: CitedText(s.source_id, s.url, s.page_text or s.content, s.content, s.published_at) for s in sources
    }


def check_as_written(run: ResearchRun, sources: Sequence[Source]) -> Callable[[str], None]:
    """A check for each line of a draft as it streams in: its claims' support checks go into the
    run's cache (:class:`~citewise.verify.ledger.CheckCache`), so verification at delivery reuses
    them and ends with the draft. A line that cannot be checked now is simply checked at delivery."""
    texts = cited_texts_of(sources)

    def check(line: str) -> None:
        try:
            ledger_for_text(line, texts, cache=run.checks)
        except Exception:  # noqa: BLE001 - an early check only saves time; delivery checks everything again
            return

    return check


def _topics(run: ResearchRun) -> tuple[RequiredTopic, ...]:
    """The plan's required sub-questions with the last review's verified evidence."""
    state = run.state
    plan_topics = state.plan.topics if state.plan is not None else ()
    return required_topics(plan_topics, state.reviews[-1] if state.reviews else None)


def _from_quotes(run: ResearchRun) -> Draft | None:
    """The deterministic writer's report from the last review's verified quotes, if any exist."""
    state = run.state
    if not state.reviews or state.plan is None:
        return None
    review = state.reviews[-1]
    if not any(q.verified for item in review.items for q in item.quotes):
        return None
    return writing.write_deterministic(run.question, state.plan, tuple(state.collection.sources), review, review.round)


def _revise(
    run: ResearchRun, draft: Draft, delivery: Delivery, model_call: ModelCall[Revisions]
) -> tuple[Draft, set[str]] | None:
    """One targeted revision by the writer model, inside the budgets (:mod:`citewise.research.revise`):
    only the failed sentences go back, and their replacements (or removals) are put into the draft.
    The revised draft and the sentences the revision removed; None when there is no model or
    budget, or when the revised draft's citations do not check out."""
    state = run.state
    settings = run.settings
    if state.revision is not None:  # answered and recorded before the run stopped: never asked again
        return state.revision, set(state.revision_removed)
    if not settings.uses_models or not state.reviews or state.plan is None or state.usage.tokens_exhausted():
        return None
    found = (*delivery.removed, *delivery.marked)
    sources = tuple(state.collection.sources)
    model = settings.writer_model or ""
    try:
        revisions, writer = model_call(
            run,
            ModelPurpose.REVISE,
            model,
            lambda: revise_with_model(settings.chat, model, run.question, sources, found),
        )
    except (BudgetExhausted, ModelError):
        return None  # the failed call is recorded; the verified first draft is delivered
    markdown = replace_sentences(draft.markdown, revisions)
    revised = Draft(draft.round, markdown, tuple(i for i in writing.cited_ids(markdown)), writer or model)
    checked = writing.check_draft(revised, sources)
    if not checked.ok:
        return None
    taken_out = {sentence for sentence, replacement in revisions.items() if replacement is None}
    run.record(DraftMade(checked.draft, tuple(sorted(taken_out))))
    return checked.draft, taken_out
