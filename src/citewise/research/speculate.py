"""A speculative draft: the writer starts while the round's review runs.

Without it, a round the loop stops after ends review -> draft, one call after the other (a round
that goes on to another is not drafted at all when no cap could then leave the run without a model
draft; :mod:`citewise.research.loop`). When the budget allows (:func:`allowed`),
the draft starts at the same time as the review, written from this round's sources and the review
before it (round 1 has none, so it never speculates). Once the review is recorded:

- the review asks for more searching (the loop goes on to another round): the draft is dropped and
  the round gets no draft; a draft is written once the loop is about to stop. Without a token or
  money cap the loop does not wait for the dropped draft (:func:`settle`, ``background``): its
  call finishes beside the next round's collection and is recorded from its own thread (its
  reported usage counted like any call's); the next review and the delivery wait for it first
  (:func:`wait_dropped`), so no more than two calls are ever under way at once, and then record its
  text (a second :class:`~citewise.audit.events.DraftDropped` of the round, with the draft);
- the loop stops and the review's verified coverage is the one the draft was written from: the
  draft is kept (:class:`~citewise.audit.events.DraftMade`), and the writer's wait is off the
  critical path;
- the coverage changed, or the draft's call (or the review's) failed: the draft is dropped and the
  round's draft is written from the new review, as without speculation.

Every dropped draft is recorded (:class:`~citewise.audit.events.DraftDropped`, with its reason and
the draft; one dropped without waiting is recorded at once without the draft, and again with it once
its call has answered and the loop has waited for it); its call is recorded and counted in the budget
and the cost like any other call. A draft whose call failed, or a run interrupted before the wait,
leaves no text.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import Future
from dataclasses import dataclass

from citewise.audit.events import DraftDropped, DraftMade, DropReason
from citewise.llm import ModelError
from citewise.records.budget import BudgetExhausted
from citewise.records.research import CoverageReview, Draft, ModelPurpose
from citewise.research import steps
from citewise.research.context import ResearchRun
from citewise.research.prompts import build_write_messages
from citewise.text.tokens import estimate_text_tokens

__all__ = ["Speculation", "allowed", "same_coverage", "settle", "start", "wait_dropped"]

MARGIN_TOKENS = 1000
"""Added to the high estimate of the review and the draft when a token cap decides (schemas, framing)."""


@dataclass
class Speculation:
    """A draft under way beside its round's review."""

    round: int
    """The round it is written for."""
    basis: CoverageReview
    """The review it is written from (the round before)."""
    future: Future[Draft]
    """The draft, once the writer answered."""

    def result(self) -> tuple[Draft | None, bool]:
        """Wait for the draft: it (None when its call failed or the budget stopped it), and whether
        it failed."""
        try:
            return self.future.result(), False
        except (ModelError, BudgetExhausted):
            return None, True  # the call is recorded with its outcome; the draft is written again


def allowed(run: ResearchRun, round_no: int) -> bool:
    """Whether round ``round_no`` may draft while it reviews: models, a concurrent run, a review of an
    earlier round to write from, no money cap, and a token cap (if any) with room for the review and
    the draft at once, each at its full reply cap, so two calls admitted together never cross it."""
    settings, state = run.settings, run.state
    if not (settings.uses_models and settings.concurrent and settings.speculate) or state.plan is None:
        return False
    if not state.reviews or state.reviews[-1].round >= round_no:
        return False
    budget = state.usage.budget
    if budget.max_cost_usd is not None:
        return False
    if budget.max_tokens is None:
        return True
    messages = build_write_messages(run.question, state.plan, tuple(state.collection.sources), state.reviews[-1])
    prompt = estimate_text_tokens(json.dumps(messages, ensure_ascii=False))
    reply = settings.chat.settings.max_completion_tokens
    return budget.max_tokens - state.usage.tokens >= 2 * (prompt + reply) + MARGIN_TOKENS


def start(run: ResearchRun, round_no: int) -> Speculation | None:
    """Start the speculative draft of ``round_no`` when :func:`allowed`; None otherwise. It runs in a
    daemon thread, so an interrupted run (Ctrl-C) exits without waiting for the writer; its call,
    started but never ended on the record, is then counted as interrupted when the run resumes."""
    if not allowed(run, round_no):
        return None
    basis = run.state.reviews[-1]
    future: Future[Draft] = Future()

    def write() -> None:
        try:
            future.set_result(steps.draft(run, round_no, basis, ModelPurpose.SPECULATIVE_DRAFT))
        except BaseException as exc:  # noqa: BLE001 - handed to the loop, which decides
            future.set_exception(exc)

    threading.Thread(target=write, daemon=True, name="citewise-draft").start()
    return Speculation(round_no, basis, future)


def _coverage(review: CoverageReview) -> tuple[object, ...]:
    return tuple(
        (i.topic, i.status, tuple((q.source_id, q.sentence_id, q.text) for q in i.quotes if q.verified))
        for i in review.items
    )


def same_coverage(a: CoverageReview, b: CoverageReview) -> bool:
    """True when two reviews find every topic in the same state on the same verified quotes (their
    gap notes and follow-up queries aside): a draft written from one stands for the other."""
    return _coverage(a) == _coverage(b)


def settle(
    run: ResearchRun, speculation: Speculation, *, continues: bool, reviewed: bool = True, background: bool = False
) -> bool:
    """Keep the speculative draft (recorded as the round's draft) or drop it (recorded, with the
    reason), once the round's review is recorded (``reviewed``; False: the review failed). True
    when it was kept. ``continues``: the loop goes on to another round after this one.

    ``background`` (with ``continues``): drop it now without waiting for its call, which ends in its
    own thread and records its end and usage there (:func:`wait_dropped` waits for it, then
    records the dropped draft's text)."""
    if continues and reviewed and background:
        run.record(DraftDropped(speculation.round, DropReason.MORE_SEARCHING, None))
        run.dropped.append((speculation.round, speculation.future))
        return False
    draft, failed = speculation.result()
    if failed or not reviewed:
        reason = DropReason.FAILED
    elif continues:
        reason = DropReason.MORE_SEARCHING
    elif not same_coverage(speculation.basis, run.state.reviews[-1]):
        reason = DropReason.COVERAGE_CHANGED
    else:
        assert draft is not None
        run.record(DraftMade(draft))
        return True
    run.record(DraftDropped(speculation.round, reason, draft))
    return False


def wait_dropped(run: ResearchRun) -> None:
    """Wait for the calls of drafts dropped without waiting (:func:`settle`), so their ends are
    recorded, and record each answered draft's text on a second ``DraftDropped`` of its round (from
    the loop's thread, between its steps); a failed call is recorded as failed and leaves no text."""
    while run.dropped:
        round_no, future = run.dropped.pop(0)
        try:
            draft = future.result()
        except Exception:  # noqa: BLE001 - recorded by its call; the draft was dropped already
            continue
        run.record(DraftDropped(round_no, DropReason.MORE_SEARCHING, draft))
