"""The MCP server: citewise's operations as MCP tools and its run reports as MCP resources.

::

    citewise mcp --store ~/evidence.sqlite      # stdio transport, for Claude Desktop, IDEs ...

Tools (each calls the :class:`~citewise.api.Citewise` facade, exactly as the command line does):

- ``search(query, k)``: sections of the local evidence store, with status flags;
- ``ask(question, ...)``: an answer from approved, eligible evidence only, verified claim by claim;
- ``research(question, budgets ...)``: the research loop, a verified report citing stored pages
  (progress is reported to clients that ask for it: "searching 3 queries", "verifying" ...);
- ``verify(run_id)``: the claim ledger and acceptance of a run (recorded on it);
- ``get_run(run_id)``: a recorded run in brief: verdict and why, ledger counts, gaps, errors.

Resources: ``citewise://runs`` (recent runs with their verdicts) and
``citewise://runs/{run_id}/report`` (a run's report, as ``citewise runs export`` writes it); every
recent run's report is listed.

A failure is a tool error with a one-line message saying what was wrong (bad input, a provider that
failed — its evidence is kept, a budget exhausted), never a crash of the server. Only protocol goes to
stdout: logs go to stderr.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import Resource
from pydantic import Field

from citewise.api import Citewise
from citewise.audit.events import Event, Verified
from citewise.config import redact
from citewise.errors import CitewiseError, UserError
from citewise.export.summary import summarise
from citewise.mcp_server.ask_settings import ask_settings
from citewise.mcp_server.results import (
    REPORT_URI,
    answer_data,
    hits_data,
    report_data,
    run_summary_data,
    verification_data,
)
from citewise.records.budget import budget_from_env
from citewise.research.progress import Step, counters, render_counters, step_after, worth_a_line
from citewise.research.state import ResearchState
from citewise.store.runs import RunStore
from citewise.version import __version__

__all__ = ["SERVER_NAME", "build_server", "serve"]

SERVER_NAME = "citewise"
LISTED_RUNS = 50
"""How many recent runs ``citewise://runs`` and the resource list show."""

log = logging.getLogger("citewise.mcp")

_INSTRUCTIONS = (
    "citewise answers with evidence it retrieved, stored and checked itself. Use `ask` for questions "
    "about the documents in the local evidence store, `research` for a web research report within hard "
    "budgets, `search` to look at the store's sections, `verify` to re-check a run's claims and "
    "`get_run` to read a run in brief. Every factual sentence cites a source id ([S1], [E1]); a gap "
    "stays stated as a gap. Read `accepted` and `acceptance_reasons` before relying on a result."
)


@contextmanager
def _tool_errors(tool: str) -> Iterator[None]:
    """Any failure of a tool as a tool error with one clear line; the server carries on."""
    try:
        yield
    except ToolError:
        raise
    except UserError as exc:  # the SDK prefixes "Error executing tool NAME: "
        raise ToolError(redact(str(exc))) from None
    except CitewiseError as exc:  # a run error: what failed; a research run's evidence stays recorded
        raise ToolError(f"{type(exc).__name__}: {redact(str(exc))}") from None
    except Exception as exc:
        log.exception("tool %s failed unexpectedly", tool)
        raise ToolError(
            f"{tool} failed unexpectedly ({type(exc).__name__}); the server's log (stderr) has the details"
        ) from None


class _Server(MCPServer[Any]):
    """The SDK's server, listing each recent run's report as a resource of its own."""

    def __init__(self, api: Citewise, **options: Any) -> None:
        super().__init__(**options)
        self.api = api

    async def list_resources(self) -> list[Resource]:
        listed = await super().list_resources()
        records = await anyio.to_thread.run_sync(self.api.runs, LISTED_RUNS)
        for r in records:
            listed.append(
                Resource(
                    uri=REPORT_URI.format(run_id=r.run_id),
                    name=r.run_id,
                    title=f"{r.kind}: {r.question[:80]}",
                    description=f"{r.kind} run, {r.status.value}, outcome {r.outcome or '-'}",
                    mime_type="text/markdown",
                )
            )
        return listed


def build_server(api: Citewise) -> MCPServer[Any]:
    """An MCP server over ``api`` (its store stays open while the server runs)."""
    server = _Server(api, name=SERVER_NAME, version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING")
    _search_tools(server, api)
    _research_tools(server, api)
    _run_tools(server, api)
    return server


def _search_tools(server: MCPServer[Any], api: Citewise) -> None:
    @server.tool()
    def search(
        query: Annotated[str, Field(description="What to look for, in any language.")],
        k: Annotated[int, Field(ge=1, le=100, description="How many sections to return.")] = 10,
    ) -> dict[str, Any]:
        """Search the local evidence store: the best-matching document sections with their status
        (unapproved or superseded sections are flagged, not hidden). Search hits are leads, not answers."""
        with _tool_errors("search"):
            return hits_data(query, api.search(query, k))

    @server.tool()
    def ask(
        question: Annotated[str, Field(description="The question.")],
        docs: Annotated[list[str] | None, Field(description="Only these document ids.")] = None,
        pairs: Annotated[list[str] | None, Field(description="Only these DOC_ID:SECTION_ID pairs.")] = None,
        origins: Annotated[
            list[str] | None,
            Field(description="Only these origins: hosts (subdomains too) or URLs (scheme, host, port, path)."),
        ] = None,
        as_of: Annotated[str | None, Field(description="Use the versions in force on YYYY-MM-DD.")] = None,
        no_model: Annotated[bool, Field(description="Use the deterministic composer only.")] = False,
        max_tokens: Annotated[int | None, Field(ge=1, description="Token cap of the model call.")] = None,
        max_cost: Annotated[float | None, Field(gt=0, description="Money cap of the model call (USD).")] = None,
    ) -> dict[str, Any]:
        """Answer from approved, eligible evidence only: an answer whose claims were verified against
        the stored text, a clarifying question, a handoff to a person, or "no eligible evidence"."""
        with _tool_errors("ask"):
            plan = api.plan(pairs=pairs or (), docs=docs or (), origins=origins or (), as_of=as_of)
            with ask_settings(no_model=no_model, max_tokens=max_tokens, max_cost=max_cost) as settings:
                return answer_data(api.ask(question, plan=plan, settings=settings))


def _research_tools(server: MCPServer[Any], api: Citewise) -> None:
    @server.tool()
    async def research(
        question: Annotated[str, Field(description="The research question.")],
        ctx: Context,
        rounds: Annotated[int | None, Field(ge=1, description="Round budget (default 3).")] = None,
        searches: Annotated[int | None, Field(ge=1, description="Search-attempt budget (default 8).")] = None,
        pages: Annotated[int | None, Field(ge=1, description="Page-extraction budget (default 12).")] = None,
        max_tokens: Annotated[int | None, Field(ge=1, description="Model token cap, never crossed.")] = None,
        max_cost: Annotated[float | None, Field(gt=0, description="Model money cap in USD, never crossed.")] = None,
        search: Annotated[str | None, Field(description="tavily or local (default: tavily with a key).")] = None,
        no_model: Annotated[bool, Field(description="Deterministic planner, reviewer and writer.")] = False,
    ) -> dict[str, Any]:
        """Research a question on the web (or the local store) within hard budgets: plan, search, read
        pages, review coverage, follow up on gaps, and return a report whose every claim was verified
        against the pages citewise stored, with the acceptance decision and the gaps left."""
        with _tool_errors("research"):
            budget = budget_from_env(
                max_rounds=rounds,
                max_searches=searches,
                max_extractions=pages,
                max_tokens=max_tokens,
                max_cost_usd=max_cost,
            )
            progress = _ProgressReport(ctx)

            def run() -> dict[str, Any]:
                result = api.research(question, progress=progress, budget=budget, search=search, no_model=no_model)
                return report_data(result)

            return await anyio.to_thread.run_sync(run)


class _ProgressReport:
    """Research progress as MCP progress notifications (for clients that ask) and log lines."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.token = anyio.lowlevel.current_token()
        """The server's event loop: the loop calls back from worker threads."""
        self.shown: Step | None = None
        self.count = 0

    def __call__(self, event: Event, state: ResearchState) -> None:
        step = step_after(event, state)
        if step is None or not worth_a_line(self.shown, step):
            return
        self.shown = step
        self.count += 1
        message = f"{step.describe()} · {render_counters(counters(state, None))}"
        log.info("research: %s", message)
        try:
            anyio.from_thread.run(self.ctx.report_progress, self.count, None, message, token=self.token)
        except Exception:  # noqa: BLE001 - a lost notification (client gone) must not fail the run
            log.debug("progress notification not sent", exc_info=True)


def _run_tools(server: MCPServer[Any], api: Citewise) -> None:
    @server.tool()
    def verify(
        run_id: Annotated[str, Field(description="The run id (from ask, research or get_run).")],
    ) -> dict[str, Any]:
        """Verify a run's report claim by claim against the stored text: the claim ledger, conflicts
        and the acceptance decision (recorded on the run)."""
        with _tool_errors("verify"):
            return verification_data(api.verify(run_id))

    @server.tool()
    def get_run(run_id: Annotated[str, Field(description="The run id.")]) -> dict[str, Any]:
        """A recorded run in brief: the report or answer, acceptance and why, claims by decision, the
        gaps left, failed attempts and errors. The full record: the resource at ``report_uri``."""
        with _tool_errors("get_run"):
            return run_summary_data(summarise(api.run(run_id)))

    @server.resource("citewise://runs", name="runs", mime_type="application/json")
    def runs() -> str:
        """Recent runs, newest first, with their acceptance."""
        records = api.runs(LISTED_RUNS)
        verified = RunStore(api.store).latest_of([r.run_id for r in records], Verified)
        listed = [
            {
                "run_id": r.run_id,
                "kind": r.kind,
                "status": r.status.value,
                "outcome": r.outcome,
                "accepted": verified[r.run_id].acceptance.accepted if r.run_id in verified else None,
                "question": r.question,
                "started_at": r.created_at.isoformat(),
                "report_uri": REPORT_URI.format(run_id=r.run_id),
            }
            for r in records
        ]
        return json.dumps(listed, ensure_ascii=False, indent=2)

    @server.resource(REPORT_URI, name="report", mime_type="text/markdown")
    def report(run_id: str) -> str:
        """A run's report with its citations, claim ledger and provenance (Markdown)."""
        try:
            return api.export(run_id, "md")
        except CitewiseError as exc:
            raise ResourceError(redact(str(exc))) from None


def serve(store: str | None = None) -> None:
    """Serve the store at ``store`` (default: ``CITEWISE_STORE`` or the user data dir) over stdio
    until the client closes the connection."""
    logging.basicConfig(level=logging.INFO, format="citewise-mcp %(levelname)s %(message)s")
    with Citewise(store) as api:
        build_server(api).run("stdio")
