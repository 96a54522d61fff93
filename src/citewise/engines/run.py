"""A research run by a native engine, through citewise's own evidence and verification.

::

    engine call (its own searches; one bounded retry for a 429/5xx/timeout, inside the budget)
      -> record its searches, tool errors, usage and answer
      -> resolve redirects (Gemini) -> extract every cited page with citewise's extractor -> store
      -> place the citations on the answer's sentences as [S#] ids of the stored sources
      -> check each citation (unreadable page: unreviewed; URL no search returned, cited_text not on
         the page: flagged)
      -> the same delivery as the loop's: every claim verified against the stored page text

The run is recorded like any research run (one round; the engine's answer is its draft), so
``runs show``, ``verify``, ``cost`` and exports read it unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from citewise.audit.events import (
    CollectionEnded,
    DraftMade,
    EngineAnswered,
    EngineCallFailed,
    EngineCitationsChecked,
    EngineRedirectResolved,
    EngineSearched,
    EngineToolFailed,
    ModelCallEnded,
    ModelCallStarted,
    PlanMade,
    RoundEnded,
    RoundStarted,
    RunConfigured,
    SourceStored,
)
from citewise.engines.checks import check_citations
from citewise.engines.citations import place_citations
from citewise.engines.prompt import ENGINE_INSTRUCTIONS
from citewise.engines.redirects import GROUNDING_REDIRECT_HOSTS, is_redirect, resolve
from citewise.records.budget import BudgetExhausted, BudgetUsage
from citewise.records.engines import (
    CitationCheck,
    CitationFlag,
    CitationStatus,
    EngineAnswer,
    EngineError,
    EngineRequest,
    EngineToolUnavailable,
    NativeEngine,
    ProgressCallback,
)
from citewise.records.providers import SearchResponse, SearchResult
from citewise.records.research import Draft, ModelPurpose, ResearchPlan, Source, StopReason
from citewise.records.runs import RunKind
from citewise.research import steps
from citewise.research.context import ResearchResult, ResearchRun
from citewise.research.extraction import build_source, choose_pages, extract_pages
from citewise.research.loop import _closing
from citewise.research.recorder import Progress, Recorder
from citewise.research.round import Round
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState
from citewise.research.urls import WEB_SCHEMES, without_credentials
from citewise.retry import TRANSIENT
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.text.tokens import estimate_text_tokens

__all__ = ["research_with_engine"]


def research_with_engine(
    store: EvidenceStore,
    question: str,
    engine: NativeEngine,
    settings: ResearchSettings,
    progress: Progress | None = None,
    engine_progress: ProgressCallback | None = None,
    redirect_hosts: tuple[str, ...] = GROUNDING_REDIRECT_HOSTS,
) -> ResearchResult:
    """Answer ``question`` with ``engine`` and deliver only what citewise verified (module docstring)."""
    runs = RunStore(store)
    run_id = runs.create(RunKind.RESEARCH, question)
    state = ResearchState(question, BudgetUsage(settings.budget))
    run = ResearchRun(run_id, settings, Recorder(lambda e: runs.append(run_id, e), state, progress))
    with _closing(runs, run):
        run.record(_configured(engine, settings))
        try:
            answer = _ask(run, engine, engine_progress)
        except BudgetExhausted as exhausted:  # a token or money cap the call would cross: not made
            answer, stopped = None, exhausted.stop_reason or StopReason.TOKENS_EXHAUSTED
        else:
            stopped = StopReason.ENGINE_FAILED
        queries = tuple(dict.fromkeys(s.query for s in answer.searches if s.query)) if answer else ()
        run.record(PlanMade(ResearchPlan((question,), queries, f"{engine.name}:{engine.model}")))
        run.record(RoundStarted(1, queries))
        if answer is None:
            run.record(CollectionEnded(1, None))
            run.record(RoundEnded(1, None))
            return steps.finish(run, stopped)
        notes = _collect_and_draft(run, engine, answer, redirect_hosts)
        return steps.finish(run, StopReason.ENGINE_ANSWERED, notes=notes)


def _configured(engine: NativeEngine, settings: ResearchSettings) -> RunConfigured:
    extractor = settings.extractor
    return RunConfigured(
        search=engine.name,
        extract=getattr(extractor, "name", type(extractor).__name__),
        planner_model=engine.model,
        writer_model=engine.model,
        budget=settings.budget,
        concurrent=settings.concurrent,
        pages_per_query=settings.budget.max_extractions,
        search_options={**engine.options, "max_searches": str(settings.budget.max_searches)},
        extract_options={str(k): str(v) for k, v in (getattr(extractor, "options", None) or {}).items()},
        engine=engine.name,
    )


def _ask(run: ResearchRun, engine: NativeEngine, progress: ProgressCallback | None) -> EngineAnswer | None:
    """The engine's answer, with one bounded retry for a transient failure; None when it failed
    (recorded). A token or money cap the call would cross stops it before it is made
    (:class:`BudgetExhausted`); the estimate cannot know the search results the provider feeds its
    model, which the reported usage then counts."""
    budget = run.settings.budget
    request = EngineRequest(run.question, max_searches=budget.max_searches)
    estimate = estimate_text_tokens(run.question) + estimate_text_tokens(ENGINE_INSTRUCTIONS)
    for attempt in range(1, TRANSIENT.attempts + 1):
        admitted = run.state.usage.admit(
            engine.model, prompt_tokens=estimate, max_reply=request.max_output_tokens, prices=run.settings.prices
        )
        request = EngineRequest(run.question, budget.max_searches, admitted.max_reply)
        run.record(ModelCallStarted(ModelPurpose.ENGINE, engine.model, estimate, admitted.max_reply))
        try:
            answer = engine.answer(request, progress)
        except EngineToolUnavailable:
            run.record(ModelCallEnded(ModelPurpose.ENGINE, engine.model, None, "tool_unavailable"))
            raise
        except EngineError as exc:
            usage = exc.usage
            run.record(
                ModelCallEnded(
                    ModelPurpose.ENGINE,
                    engine.model,
                    None,
                    exc.kind.value,
                    usage.input_tokens if usage else None,
                    usage.output_tokens if usage else None,
                )
            )
            run.record(EngineCallFailed(engine.name, exc.kind, str(exc)[:500], exc.status_code, exc.retry_after))
            if attempt < TRANSIENT.attempts and exc.kind.retryable:
                run.settings.sleep(TRANSIENT.wait_s(attempt, exc.retry_after))
                continue
            return None
        answer = _without_credentials(answer)
        _record_answer(run, answer)
        return answer
    return None


def _without_credentials(answer: EngineAnswer) -> EngineAnswer:
    """The answer with any ``user:password@`` in its URLs masked: such a URL is never recorded, and
    it stays unusable, so its page is not read (its claims are unreviewed)."""
    citations = tuple(replace(c, url=without_credentials(c.url)) for c in answer.citations)
    searches = tuple(replace(s, urls=tuple(without_credentials(u) for u in s.urls)) for s in answer.searches)
    return replace(answer, citations=citations, searches=searches)


def _record_answer(run: ResearchRun, answer: EngineAnswer) -> None:
    u = answer.usage
    run.record(
        ModelCallEnded(
            ModelPurpose.ENGINE,
            answer.requested_model,
            answer.model,
            "ok",
            u.input_tokens,
            u.output_tokens,
            u.cached_tokens,
            answer.latency_s,
        )
    )
    for search in answer.searches:
        run.record(EngineSearched(answer.engine, search))
    for error in answer.tool_errors:
        run.record(EngineToolFailed(answer.engine, error))
    run.record(
        EngineAnswered(
            answer.engine,
            answer.requested_model,
            answer.model,
            answer.text,
            answer.citations,
            answer.usage,
            answer.latency_s,
            answer.searched_urls_known,
            answer.response_id,
        )
    )


def _collect_and_draft(
    run: ResearchRun, engine: NativeEngine, answer: EngineAnswer, redirect_hosts: tuple[str, ...]
) -> tuple[str, ...]:
    """Read every cited page, place the citations, check them, record the draft; notes for the report."""
    cited = list(dict.fromkeys(c.url for c in answer.citations if c.url.startswith(("http://", "https://"))))
    page_of: dict[str, str] = {}
    finals: dict[str, str] = {}
    for url in cited:
        page_of[url] = url
        if is_redirect(url, redirect_hosts):
            resolved = resolve(url, redirect_hosts)
            run.record(EngineRedirectResolved(url, resolved.final_url, resolved.error))
            if resolved.final_url:
                page_of[url] = finals[url] = resolved.final_url
    stored = _extract(run, engine.name, answer, cited, page_of)
    ids_by_url = {url: s.source_id for url, s in stored.items()}
    markdown, placed = place_citations(answer.text, answer.citations, ids_by_url)
    checks = check_citations(answer, placed, stored, finals)
    run.record(EngineCitationsChecked(checks))
    draft = Draft(1, markdown, tuple(dict.fromkeys(ids_by_url.values())), f"{engine.name}:{engine.model}")
    run.record(DraftMade(draft))
    run.record(RoundEnded(1, run.state.collect_stop))
    return _notes(checks, answer)


def _extract(
    run: ResearchRun, engine: str, answer: EngineAnswer, cited: list[str], page_of: dict[str, str]
) -> dict[str, Source]:
    """The stored source of each cited URL whose page citewise read (through the extractor, inside
    the page budget), keyed by the URL the engine cited."""
    label = f"cited by {engine}"
    titles = {c.url: c.title or "" for c in answer.citations}
    hits = tuple(
        SearchResult(page_of[url], titles.get(url, ""), "", None, rank, engine, label)
        for rank, url in enumerate(cited, 1)
    )
    settings = run.settings
    step = Round(1, run.state, run.recorder, settings.concurrent, settings.sleep)
    response = SearchResponse(label, hits, engine, datetime.now(UTC))
    schemes = getattr(settings.extractor, "url_schemes", WEB_SCHEMES)
    groups = choose_pages(step, [(label, response)], max(len(hits), 1), schemes)
    pages = extract_pages(step, groups, settings.extractor, retries=1)
    by_page: dict[str, Source] = {}
    excerpt = settings.budget.excerpt_chars
    for (query, wanted), found in zip(groups, pages, strict=True):
        for want in wanted:
            if want.normalized_url in found:
                page, extracted = found[want.normalized_url]
                number = run.state.collection.next_source_number
                source = build_source(step, number, want, page, extracted, query, run.question, excerpt)
                run.record(SourceStored(source))
                by_page[want.hit.url] = source
    run.record(CollectionEnded(1, step.stop))
    return {url: by_page[page_of[url]] for url in cited if page_of[url] in by_page}


_FLAG_NOTES = {
    CitationFlag.NOT_SEARCHED: "none of the engine's searches returned this URL",
    CitationFlag.CITED_TEXT_NOT_ON_PAGE: "the text the engine quoted is not on the page citewise read",
    CitationFlag.NO_SENTENCE: "its offsets cover no sentence of the answer",
}


def _notes(checks: tuple[CitationCheck, ...], answer: EngineAnswer) -> tuple[str, ...]:
    notes: list[str] = []
    for check in checks:
        where = check.final_url or check.url
        if check.status is CitationStatus.UNREVIEWED:
            notes.append(f"{where}: citewise could not read this page, so its claims are unreviewed, never supported")
        notes += [f"{where}: {_FLAG_NOTES[f]}" for f in check.flags if f in _FLAG_NOTES]
    notes += [f"the engine's {e.tool} tool failed: {e.code}" for e in answer.tool_errors]
    return tuple(dict.fromkeys(notes))
