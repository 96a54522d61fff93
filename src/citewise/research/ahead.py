"""Searches started ahead of their round: while the planner's reply streams in, each first query's
search starts as soon as the reply has named it, so the first round's searches run beside the rest of
the plan instead of after it; and while a review (review-v5 and later, one line per topic) streams in, a line
that finds a topic not covered and gives a query starts that query's search for the next round
(:func:`gap_starter`), when a round is left.

The rules are a round's (:mod:`citewise.research.collect`), applied as each query arrives:

* Only in a concurrent run with ``search_ahead`` on (``--no-search-ahead`` turns it off).
* A query is searched once: an empty query, or one already tried in the run (case and spacing
  ignored), is not started.
* With the store's cache on (``citewise research``'s default), the query is looked up first, as a
  round does (:mod:`citewise.research.collect`, rule 5): a fresh answer is recorded at once as a
  cache hit (:class:`~citewise.audit.events.AttemptEnded` with ``cached`` and ``ahead`` true, its
  original retrieval time, no start event), spending no search budget and no credits; a miss is
  searched as below and the answer written to the cache.
* One search attempt is spent before each call (:class:`~citewise.audit.events.AttemptStarted` with
  ``ahead`` true, recorded before the call); when none is left, nothing is started and the round
  records the stop as usual.
* The call runs in a thread of its own; its end (:class:`~citewise.audit.events.AttemptEnded` with
  the hits) is recorded as soon as it returns and the searches started before it are recorded, so
  the record holds the ends in the order the searches started.

The round the search was started for takes the recorded answer (or the recorded cache hit) instead of
searching again or looking it up again (and retries it there, inside the budget, when it was rate
limited); a search whose end was never recorded (the process died
during it) is recorded as interrupted and made again only inside the budget. Before the round starts
every ahead search has ended (:func:`settle`), so an ahead search's events always come before its
round's :class:`~citewise.audit.events.RoundStarted` and resume folds them into the state. A plan
rejected after some searches started stops the run as before; those searches stay on the record,
with their answers and the budget they spent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from citewise.audit.events import AttemptEnded, AttemptStarted
from citewise.providers.cached import CachedSearch
from citewise.records.budget import BudgetExhausted
from citewise.records.providers import SearchProvider
from citewise.records.research import AttemptKind, CoverageStatus
from citewise.research.collect import recordable_search
from citewise.research.context import ResearchRun
from citewise.research.review_replies import parse_review_text
from citewise.research.round import make_attempt, timed
from citewise.research.state import ResearchState
from citewise.research.urls import query_key

__all__ = ["enabled", "gap_starter", "settle", "start", "starter", "with_ahead"]


def enabled(run: ResearchRun) -> bool:
    """Whether this run searches ahead of its rounds."""
    settings = run.settings
    search = settings.search
    return settings.concurrent and settings.search_ahead and search is not None


def starter(run: ResearchRun, round_no: int) -> Callable[[str], None] | None:
    """``start(query)`` for round ``round_no``'s queries as a streamed reply names them, or None when
    the run does not search ahead."""
    if not enabled(run):
        return None

    def on_query(query: str) -> None:
        start(run, round_no, query)

    return on_query


def gap_starter(run: ResearchRun, round_no: int) -> Callable[[str], None] | None:
    """``on_line(line)`` for round ``round_no``'s streamed review, or None when the run does not search
    ahead: a whole line that assesses a topic as not covered and gives a query starts that query's
    search for the next round, when the loop can go on to one (a round left, no budget ran out during
    this round's collection, no token cap reached) and a search is left. A line
    that is not a topic line is passed over here (the whole reply is judged when it is in)."""
    if not enabled(run):
        return None

    def on_line(line: str) -> None:
        try:
            claims = parse_review_text(line)
        except ValueError:
            return
        state = run.state
        goes_on = state.collect_stop is None and state.usage.remaining("rounds") > 0
        for claim in claims:
            gap = claim.status is not CoverageStatus.COVERED and claim.follow_up_query
            if gap and goes_on and not state.usage.tokens_exhausted():
                start(run, round_no + 1, claim.follow_up_query or "")

    return on_line


def start(run: ResearchRun, round_no: int, query: str) -> bool:
    """Start ``query``'s search for round ``round_no`` now, in a thread of its own, or answer it from
    the cache at once; False when neither (searching ahead is off, the query is empty or already
    tried, or it is not cached and no search is left)."""
    provider = run.settings.search
    target = query.strip()
    key = query_key(target)
    if not enabled(run) or provider is None or not key or key in run.state.collection.tried_queries:
        return False
    if isinstance(provider, CachedSearch) and _from_cache(run, provider, round_no, target):
        return True
    try:
        run.state.usage.check_before("searches")
    except BudgetExhausted:
        return False
    run.record(AttemptStarted(AttemptKind.SEARCH, target, round_no, ahead=True))
    before = run.searching[-1] if run.searching else None
    done: Future[Any] = Future()
    run.searching.append(done)
    thread = threading.Thread(
        target=_search, args=(run, provider, round_no, target, before, done), daemon=True, name="citewise-search-ahead"
    )
    thread.start()
    return True


def _from_cache(run: ResearchRun, provider: CachedSearch, round_no: int, target: str) -> bool:
    """Record ``target``'s fresh cached answer as a hit for round ``round_no`` (no budget, no credits,
    its original retrieval time), as a round records one; False when it is not cached."""
    outcome = timed(lambda: recordable_search(provider.lookup(target)))
    if outcome.value is None:
        return False
    attempt = replace(make_attempt(AttemptKind.SEARCH, target, round_no, outcome), cached=True)
    run.record(AttemptEnded(attempt, search=outcome.value, ahead=True))
    return True


def _search(
    run: ResearchRun,
    provider: SearchProvider,
    round_no: int,
    target: str,
    before: Future[Any] | None,
    done: Future[Any],
) -> None:
    """Make the call; record its end after the end of the search started before it, so the record
    holds the ends in the order the searches started, whichever answered first."""
    try:
        outcome = timed(lambda: provider.search(target))
        response = outcome.value
        attempt = make_attempt(AttemptKind.SEARCH, target, round_no, outcome, response.credits if response else None)
        if before is not None:
            before.exception()  # waits; its failure is its own
        run.record(AttemptEnded(attempt, search=recordable_search(response), ahead=True))
    except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
        done.set_exception(exc)
    else:
        done.set_result(None)


def settle(run: ResearchRun, *, failing: bool = False) -> None:
    """Wait until every search started ahead has ended and is recorded. An error that was not a
    provider's (a bug) is raised here, unless the run is already ``failing``."""
    while run.searching:
        done = run.searching.pop(0)
        error = done.exception()
        if error is not None and not failing:
            raise error


def with_ahead(state: ResearchState, round_no: int, queries: Sequence[str]) -> list[str]:
    """``queries``, then every query searched ahead for round ``round_no`` that is not among them (a
    search already paid for is used, e.g. after a crash the plan made again named other queries)."""
    given = {query_key(q) for q in queries}
    extra = [a.target for k, a in state.collection.ahead.items() if a.round == round_no and k not in given]
    return [*queries, *extra]
