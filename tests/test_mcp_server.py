"""``citewise mcp`` (issue 14, point 5): the MCP SDK's own client calls every tool over stdio against
a test store and the fake Tavily and model servers; failures are tool errors, never a crash."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyError, FakeTavilyServer
from citewise.version import __version__
from tests.conftest import REPO
from tests.loop_harness import Brain, Web, covered, draft_citing, page, plan_reply

pytestmark = pytest.mark.integration

TAVILY_KEY = "tvly-secret-mcp-5e81c0aa"
MODEL_KEY = "sk-secret-mcp-0c7d9b21"
TOOLS = {"search", "ask", "research", "verify", "get_run"}
KR_QUESTION = "임대차 보증금은 어떻게 보호되나요?"
ASK_QUESTION = "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요?"

Session = Callable[[ClientSession], Awaitable[None]]


def serve(store: Path, errlog: Path, session: Session, **env: str) -> None:
    """Start ``citewise mcp`` as a subprocess (as an MCP client would) and run ``session`` against it."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from citewise.cli import main; main()", "mcp"],
        env={
            "CITEWISE_STORE": str(store),
            "CITEWISE_EMBEDDER": "none",
            "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
            **env,
        },
        cwd=str(store.parent),  # no .env of the repository is read
    )

    async def main() -> None:
        with errlog.open("w", encoding="utf-8") as log:
            async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                await session(client)

    anyio.run(main)


def text_of(result: CallToolResult) -> str:
    (content,) = [c for c in result.content if isinstance(c, TextContent)]
    return content.text


def data_of(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    data = json.loads(text_of(result))
    assert isinstance(data, dict)
    return data


@pytest.fixture
def store(sample_store_file: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store.sqlite"
    copy.write_bytes(sample_store_file.read_bytes())
    return copy


def test_every_tool_and_the_reports_keyless(store: Path, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def session(client: ClientSession) -> None:
        tools = await client.list_tools()
        seen["tools"] = {t.name: t for t in tools.tools}
        seen["search"] = data_of(await client.call_tool("search", {"query": "보증금", "k": 3}))
        seen["ask"] = data_of(await client.call_tool("ask", {"question": ASK_QUESTION}))
        seen["research"] = data_of(
            await client.call_tool("research", {"question": KR_QUESTION, "search": "local", "rounds": 2})
        )
        run_id = seen["research"]["run_id"]
        seen["verify"] = data_of(await client.call_tool("verify", {"run_id": run_id}))
        seen["get_run"] = data_of(await client.call_tool("get_run", {"run_id": run_id}))
        listed = await client.list_resources()
        seen["uris"] = [str(r.uri) for r in listed.resources]
        report = await client.read_resource(f"citewise://runs/{run_id}/report")
        seen["report"] = report.contents[0].text  # type: ignore[union-attr]
        runs = await client.read_resource("citewise://runs")
        seen["runs"] = json.loads(runs.contents[0].text)  # type: ignore[union-attr]

    serve(store, tmp_path / "err.log", session)

    tools = seen["tools"]
    assert set(tools) == TOOLS
    schema = tools["research"].input_schema["properties"]
    assert {"rounds", "searches", "pages", "max_tokens", "max_cost", "search", "no_model"} <= set(schema)
    assert all(tools[name].description for name in TOOLS)

    hits = seen["search"]["hits"]
    assert 0 < len(hits) <= 3 and all("보증금" in h["snippet"] for h in hits)

    ask = seen["ask"]
    ask = seen["ask"]
    assert ask["outcome"] == "deterministic_evidence_fallback" and ask["accepted"] is True
    assert ask["citations"] and "[E1]" in ask["text"]
    assert {c["evidence_id"] for c in ask["citations"]} == {e["evidence_id"] for e in ask["evidence"]}

    research = seen["research"]
    assert research["status"] == "report" and research["accepted"] is True
    assert research["acceptance_reasons"] and research["stop_reason"] == "coverage_passed"
    assert research["usage"]["rounds"].endswith("/2")  # the budget given to the tool
    assert research["sources"] and all(s["url"].startswith("citewise://") for s in research["sources"])
    assert "[S1]" in research["report"] and "page_text" not in json.dumps(research)

    assert seen["verify"]["accepted"] is True and seen["verify"]["claims"]
    assert set(seen["verify"]["claims_by_decision"]) <= {"supported", "unsupported", "conflicting", "unreviewed"}
    got = seen["get_run"]
    assert got["kind"] == "research" and got["accepted"] is True and got["ledger"]
    assert got["report_uri"] == f"citewise://runs/{research['run_id']}/report" in seen["uris"]
    assert f"citewise://runs/{ask['run_id']}/report" in seen["uris"] and "citewise://runs" in seen["uris"]
    assert seen["report"].startswith("# ") and research["run_id"] in seen["report"]
    by_id = {r["run_id"]: r for r in seen["runs"]}
    assert by_id[research["run_id"]]["accepted"] is True


def test_research_with_tavily_and_a_model_reports_progress(store: Path, tmp_path: Path) -> None:
    web, brain = Web(), Brain()
    urls = ["https://law.example/a", "https://law.example/b"]
    web.hits["deposit law"] = urls
    web.pages.update({u: page(u) for u in urls})
    brain.script("plan", plan_reply(queries=("deposit law",)))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1", "S2"))
    brain.script("revise", draft_citing("S1", "S2"))
    seen: dict[str, Any] = {}
    progress: list[str] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def session(client: ClientSession) -> None:
        arguments = {"question": "How are rental deposits protected?", "searches": 3, "pages": 4, "max_tokens": 50000}
        seen["research"] = data_of(await client.call_tool("research", arguments, progress_callback=on_progress))

    with (
        FakeTavilyServer(api_key=TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY) as model,
    ):
        model.responder = brain
        serve(
            store,
            tmp_path / "err.log",
            session,
            TAVILY_API_KEY=TAVILY_KEY,
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            CITEWISE_LLM_API_KEY=MODEL_KEY,
            CITEWISE_LLM_BASE_URL=model.base_url,
            PLANNER_MODEL="planner-x",
            WRITER_MODEL="writer-y",
        )
        searched = [r.json["query"] for r in tavily.requests if r.path.rstrip("/") == "/search"]

    research = seen["research"]
    assert research["accepted"] is True and research["stop_reason"] == "coverage_passed"
    assert [s["url"] for s in research["sources"]] == urls and searched == ["deposit law"]
    assert research["usage"]["searches"] == "1/3" and research["usage"]["extractions"] == "2/4"
    steps = [m.split(" · ")[0] for m in progress]
    assert steps[0] == "planning" and steps[-1] == "done"
    assert "searching 1 query" in steps and "reading 2 pages" in steps and "verifying" in steps
    assert all("searches " in m and "/3" in m for m in progress)
    log = (tmp_path / "err.log").read_text(encoding="utf-8")
    assert "research: reviewing coverage" in log  # progress is logged on stderr, never on stdout
    assert TAVILY_KEY not in log and MODEL_KEY not in log and TAVILY_KEY not in json.dumps(research)


def test_failures_are_tool_errors_and_the_server_carries_on(store: Path, tmp_path: Path) -> None:
    web = Web(search_errors={"deposits": [FakeTavilyError(401, f"Unauthorized: invalid key {TAVILY_KEY}")]})
    seen: dict[str, CallToolResult] = {}
    errors: dict[str, str] = {}

    async def session(client: ClientSession) -> None:
        calls = {
            "unknown run": ("get_run", {"run_id": "research-nope"}),
            "verify unknown": ("verify", {"run_id": "ask-nope"}),
            "bad budget": ("research", {"question": "q", "rounds": 0}),
            "bad provider": ("research", {"question": "q", "search": "bing"}),
            "bad date": ("ask", {"question": "보증금", "as_of": "yesterday"}),
            "unknown doc": ("ask", {"question": "보증금", "docs": ["no-such-doc"]}),
            "bad k": ("search", {"query": "보증금", "k": 0}),
            "wrong type": ("search", {"query": ["not", "a", "string"]}),
            "unknown tool": ("delete_everything", {}),
            "provider refuses": ("research", {"question": "deposits", "no_model": True, "searches": 1}),
            "invalid plan": ("research", {"question": "How are deposits protected?", "search": "local"}),
        }
        for name, (tool, arguments) in calls.items():
            seen[name] = await client.call_tool(tool, arguments)
        if os.environ.get("SHOW_MCP_ERRORS"):
            for name in calls:
                print(name, "=>", text_of(seen[name])[:300], file=sys.stderr)
        try:
            await client.read_resource("citewise://runs/research-nope/report")
        except MCPError as exc:
            errors["resource"] = str(exc)
        seen["still serving"] = await client.call_tool("search", {"query": "보증금", "k": 1})

    brain = Brain()
    brain.script("plan", "Sure! Here is my plan: search the web.")  # not JSON: the run must stop
    with (
        FakeTavilyServer(api_key=TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY) as model,
    ):
        model.responder = brain
        serve(
            store,
            tmp_path / "err.log",
            session,
            TAVILY_API_KEY=TAVILY_KEY,
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            CITEWISE_LLM_API_KEY=MODEL_KEY,
            CITEWISE_LLM_BASE_URL=model.base_url,
            PLANNER_MODEL="planner-x",
        )

    for name in (
        "unknown run",
        "verify unknown",
        "bad budget",
        "bad provider",
        "bad date",
        "unknown doc",
        "bad k",
        "wrong type",
        "unknown tool",
        "invalid plan",
    ):
        assert seen[name].is_error, name
        assert "\n  File " not in text_of(seen[name]), name  # a message, not a traceback
    assert text_of(seen["unknown run"]) == (
        "Error executing tool get_run: no run 'research-nope'; see `citewise runs list`"
    )
    assert "no run 'ask-nope'" in text_of(seen["verify unknown"])
    assert "rounds" in text_of(seen["bad budget"]) and "greater than or equal to 1" in text_of(seen["bad budget"])
    assert "unknown search provider 'bing'; valid: tavily, local" in text_of(seen["bad provider"])
    assert "yesterday" in text_of(seen["bad date"]) and "no-such-doc" in text_of(seen["unknown doc"])
    assert "research-nope" in errors["resource"]
    assert text_of(seen["invalid plan"]).startswith("Error executing tool research: PlanRejected: ")
    # A search the provider refused is recorded, and the run says it found no evidence; the key the
    # provider echoed reaches neither the result nor the log.
    refused = data_of(seen["provider refuses"])
    assert refused["status"] == "no_evidence" and refused["accepted"] is None
    assert TAVILY_KEY not in json.dumps(refused)
    assert TAVILY_KEY not in (tmp_path / "err.log").read_text(encoding="utf-8")
    assert data_of(seen["still serving"])["hits"]


def test_stdout_carries_nothing_but_protocol(store: Path, tmp_path: Path) -> None:
    """Every byte the server writes to stdout is a JSON-RPC message, even while a run prints."""
    import subprocess

    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "research", "arguments": {"question": KR_QUESTION, "search": "local"}},
        },
    ]
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("TAVILY_API_KEY", "COMETAPI_KEY", "CITEWISE_LLM_API_KEY")},
        "CITEWISE_STORE": str(store),
        "CITEWISE_EMBEDDER": "none",
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
    }
    with subprocess.Popen(
        [sys.executable, "-c", "from citewise.cli import main; main()", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=str(tmp_path),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for message in requests:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
        lines = []
        while True:
            line = proc.stdout.readline()
            assert line, "the server closed stdout before answering"
            lines.append(json.loads(line))  # every line parses as JSON-RPC
            if lines[-1].get("id") == 2:
                break
        proc.stdin.close()
        proc.wait(timeout=30)
    assert all(message["jsonrpc"] == "2.0" for message in lines)
    (initialized,) = [m for m in lines if m.get("id") == 1]
    assert initialized["result"]["serverInfo"] == {"name": "citewise", "version": __version__}  # not blank
    result = lines[-1]["result"]
    assert not result.get("isError") and json.loads(result["content"][0]["text"])["status"] == "report"


def test_without_the_sdk_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    for name in [m for m in sys.modules if m == "mcp" or m.startswith(("mcp.", "citewise.mcp_server"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if the extra were not installed
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["mcp", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2
    assert "needs the MCP SDK (the `mcp` package), which is not installed: pip install 'citewise[mcp]'" in result.stderr
    assert "Traceback" not in result.output
