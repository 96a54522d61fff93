"""``citewise research QUESTION --engine ... [--model ...]`` against the loopback fakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.testing import FakeNativeServer, anthropic_web_answer
from citewise.testing.fake_tavily import FakeExtractReply, FakeTavilyServer

pytestmark = pytest.mark.integration

URL = "https://law.example/lease"
PAGE = "# Housing Lease Act\n\nA lease of a dwelling runs for two years.\n"


def _page(request: object) -> FakeExtractReply:
    return FakeExtractReply([{"url": URL, "raw_content": PAGE}])


def test_research_with_a_native_engine_is_verified_and_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "A lease of a dwelling runs for two years."
    with FakeNativeServer("anthropic") as server, FakeTavilyServer(extract_responder=_page) as tavily:
        server.enqueue_body(anthropic_web_answer([(text, [(URL, "Act", text)])], searches=[("lease", [(URL, "Act")])]))
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-cli-test-0123456789")
        monkeypatch.setenv("CITEWISE_ANTHROPIC_BASE_URL", server.base_url)
        monkeypatch.setenv("TAVILY_API_KEY", "tvly-cli-test-0123456789")
        monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", tavily.base_url)
        monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
        result = CliRunner().invoke(
            app, ["research", "How long does a lease run?", "--engine", "anthropic", "--model", "claude-x", "--json"]
        )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["status"] == "report" and out["acceptance"]["accepted"] and out["stop_reason"] == "engine_answered"
    assert server.requests[0].json["model"] == "claude-x"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["research", "q", "--engine", "bing"], "unknown engine 'bing'; valid: anthropic, gemini, openai"),
        (["research", "q", "--engine", "openai", "--search", "tavily"], "without --search"),
        (["research", "q", "--model", "gpt-5"], "--engine ENGINE [--model ID]"),
    ],
)
def test_bad_engine_options_are_one_clear_line(args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-cli-test-0123456789")
    result = CliRunner().invoke(app, [*args, "--store", "sqlite://"])
    assert result.exit_code == 2 and needle in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output


def test_eval_end_to_end_scores_a_native_engine_like_any_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "A lease of a dwelling runs for two years."
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(
        json.dumps(
            {
                "id": "lease",
                "question": "How long does a lease run?",
                "category": "technical",
                "required_subquestions": ["How long does a dwelling lease run?"],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    with FakeNativeServer("anthropic") as server, FakeTavilyServer(extract_responder=_page) as tavily:
        server.enqueue_body(anthropic_web_answer([(text, [(URL, "Act", text)])], searches=[("lease", [(URL, "Act")])]))
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-cli-test-0123456789")
        monkeypatch.setenv("CITEWISE_ANTHROPIC_BASE_URL", server.base_url)
        monkeypatch.setenv("TAVILY_API_KEY", "tvly-cli-test-0123456789")
        monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", tavily.base_url)
        monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
        result = CliRunner().invoke(
            app,
            [
                "eval",
                "end-to-end",
                "--questions",
                str(qfile),
                "--engines",
                "anthropic",
                "--model",
                "anthropic=claude-x",
                "--json",
            ],
        )
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["engines"]
    assert row["label"] == "anthropic" and row["accepted"] == 1 and row["failed"] == 0
    assert row["citation_support_rate"] == 1.0 and row["subquestions_answered"] == 1.0
    assert server.requests[0].json["model"] == "claude-x"
