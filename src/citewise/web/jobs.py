"""New research from the page: the run goes through the CLI's configuration path
(:func:`~citewise.research.configure.research_settings`) in a background thread, and the page follows
it over server-sent events made from the run's recorded events (the run store), then opens it."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from citewise.api import Citewise
from citewise.config import redact
from citewise.errors import CitewiseError, InputError
from citewise.export.view import event_summary
from citewise.records.budget import budget_from_env
from citewise.store.runs import RunStatus, RunStore
from citewise.web.context import page, require_write, route, state_of

__all__ = ["ResearchJob", "ResearchRequest", "routes", "start_job"]

log = logging.getLogger(__name__)
POLL_S = 0.25
SEARCHES = ("local", "tavily")


@dataclass(frozen=True, slots=True)
class ResearchRequest:
    """What the new-research form asked for."""

    question: str
    search: str
    no_model: bool
    rounds: int | None = None
    searches: int | None = None
    pages: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None


@dataclass
class ResearchJob:
    """A research run started from the page."""

    job_id: str
    request: ResearchRequest
    run_id: str | None = None
    """Known as soon as the run exists."""
    error: str | None = None
    """Why it failed (one line, redacted)."""
    done: threading.Event = field(default_factory=threading.Event)


def _number(form: Any, name: str, kind: type[int] | type[float]) -> Any:
    raw = form.get(name)
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        value = kind(raw)
    except ValueError:
        raise InputError(f"{name} must be a number (got {raw!r})") from None
    if value <= 0:
        raise InputError(f"{name} must be positive (got {raw!r})")
    return value


def parse_request(form: Any) -> ResearchRequest:
    """The form as a request; a clear error for a bad field."""
    question = form.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InputError("a research run needs a question")
    search = form.get("search") or "local"
    if search not in SEARCHES:
        raise InputError(f"unknown search {search!r}; valid: {', '.join(SEARCHES)}")
    return ResearchRequest(
        question=question.strip(),
        search=str(search),
        no_model=form.get("model") != "configured",
        rounds=_number(form, "rounds", int),
        searches=_number(form, "searches", int),
        pages=_number(form, "pages", int),
        max_tokens=_number(form, "max_tokens", int),
        max_cost=_number(form, "max_cost", float),
    )


def _run(job: ResearchJob, store_url: str) -> None:
    from citewise.research.configure import research_settings

    r = job.request

    def started(run_id: str) -> None:
        job.run_id = run_id

    try:
        budget = budget_from_env(
            max_rounds=r.rounds,
            max_searches=r.searches,
            max_extractions=r.pages,
            max_tokens=r.max_tokens,
            max_cost_usd=r.max_cost,
        )
        with (
            Citewise(store_url) as api,
            research_settings(api.store, search=r.search, no_model=r.no_model, budget=budget) as settings,
        ):
            api.research(r.question, settings, started=started)
    except CitewiseError as exc:
        job.error = redact(str(exc))
    except Exception as exc:  # a bug: the page says so, the log has the traceback
        log.exception("research job %s failed", job.job_id)
        job.error = f"internal error ({type(exc).__name__})"
    finally:
        job.done.set()


def start_job(request: Request, research: ResearchRequest) -> ResearchJob:
    """Start ``research`` in a background thread."""
    serve = state_of(request)
    job = ResearchJob(secrets.token_hex(8), research)
    serve.jobs[job.job_id] = job
    threading.Thread(target=_run, args=(job, serve.store_url), name=f"research-{job.job_id}", daemon=True).start()
    return job


def research_form(request: Request) -> HTMLResponse:
    return page(request, "research.html", searches=SEARCHES)


async def research_start(request: Request) -> Response:
    form = await require_write(request)
    job = start_job(request, parse_request(form))
    return RedirectResponse(f"/jobs/{job.job_id}", status_code=303)


def _job(request: Request) -> ResearchJob:
    job = state_of(request).jobs.get(request.path_params["job_id"])
    if job is None:
        raise HTTPException(404, "no such research job (jobs live as long as the server)")
    return job  # type: ignore[no-any-return]


def job_page(request: Request) -> HTMLResponse:
    return page(request, "job.html", job=_job(request))


def _sse(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _stream(request: Request, job: ResearchJob) -> AsyncIterator[str]:
    runs = RunStore(state_of(request).api.store)
    seen = 0
    yield ": stream open\n\n"
    while True:
        finished = job.done.is_set()
        if job.run_id is not None:
            record = await run_in_threadpool(runs.get, job.run_id)
            for recorded in record.events[seen:]:
                step = recorded.event.kind.value.replace("_", " ")  # "source stored", "report made"
                line = f"{step}: {event_summary(recorded.event)}".rstrip(": ")
                yield _sse("progress", {"seq": recorded.seq, "line": redact(line)})
            seen = len(record.events)
            finished = finished or record.status is not RunStatus.RUNNING
        if finished and job.done.is_set():
            break
        if await request.is_disconnected():
            return
        await asyncio.sleep(POLL_S)
    if job.error:
        yield _sse("failed", {"message": job.error})
    yield _sse("done", {"url": f"/runs/{job.run_id}" if job.run_id else None})


def job_events(request: Request) -> Response:
    job = _job(request)
    return StreamingResponse(_stream(request, job), media_type="text/event-stream")


def routes() -> list[Route]:
    """The research routes."""
    return [
        route("/research", research_form),
        route("/research", research_start, ("POST",)),
        route("/jobs/{job_id}", job_page),
        route("/jobs/{job_id}/events", job_events),
    ]
