"""The same-evidence experiment and evaluation history through the CLI, against the fake Tavily and
model servers: one pack per question, the identical pack for every contender, the same ledger for
every report, a resumed experiment that sends no model call again, and a drift chart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.errors import InputError
from citewise.eval.pack import EvidencePack, PackExtractor, PackPage, PackSearch
from citewise.eval.questions import load_question_set
from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.conftest import REPO
from tests.loop_harness import Brain, Web, covered, draft_citing, plan_reply

pytestmark = pytest.mark.integration

TAVILY_KEY = "tvly-eval-1a2b3c"
MODEL_KEY = "sk-eval-4d5e6f"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Brain, FakeTavilyServer]]:
    web, brain = Web(), Brain()
    brain.script("plan", lambda data: plan_reply(queries=(f"evidence for {data['question'][:30]}",)))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1"))
    with (
        FakeTavilyServer(api_key=TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY) as model,
    ):
        model.responder = brain
        for name, value in {
            "CITEWISE_STORE": str(tmp_path / "s.sqlite"),
            "COLUMNS": "220",
            "TAVILY_API_KEY": TAVILY_KEY,
            "CITEWISE_TAVILY_BASE_URL": tavily.base_url,
            "COMETAPI_KEY": MODEL_KEY,
            "CITEWISE_LLM_BASE_URL": model.base_url,
        }.items():
            monkeypatch.setenv(name, value)
        runner = CliRunner()

        def run(*args: str, code: int = 0) -> str:
            result = runner.invoke(app, list(args))
            assert result.exit_code == code, (result.output, result.exception)
            return result.stdout

        yield run, brain, tavily


def _questions(path: Path) -> Path:
    rows = [
        {
            "id": "q1",
            "question": "How are rental deposits protected?",
            "category": "technical",
            "required_subquestions": ["Which law protects deposits?", "How is a deposit returned?"],
        },
        {
            "id": "q2",
            "question": "보증금은 어떻게 돌려받나요?",
            "category": "conflicting",
            "required_subquestions": ["보증금 반환 절차는 무엇인가요?"],
        },
    ]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_every_contender_gets_the_identical_pack_and_the_same_ledger(cli: Any, tmp_path: Path) -> None:
    run, brain, tavily = cli
    qfile = _questions(tmp_path / "q.jsonl")
    out = json.loads(
        run(
            "eval",
            "same-evidence",
            "--questions",
            str(qfile),
            "--writers",
            "writer-a,writer-b",
            "--planner",
            "planner-x",
            "--json",
        )
    )
    searches_for_packs = len(tavily.requests)
    labels = [c["label"] for c in out["contenders"]]
    assert labels == ["single writer-a", "planner-x + writer-a", "single writer-b", "planner-x + writer-b"]
    digests = {tuple(c["pack_digests"]) for c in out["contenders"]}
    assert len(digests) == 1 and len(next(iter(digests))) == 2  # one pack per question, the same for all
    for row in out["contenders"]:
        assert row["questions"] == 2 and row["accepted"] == 2 and row["failed"] == 0
        assert row["citation_support_rate"] == 1.0 and row["valid_citation_rate"] == 1.0
        assert row["tokens"] > 0 and row["subquestions_answered"] is not None
    writers = {m for p, d in brain.seen if p == "write" for m in [d.get("model")] if m}
    assert len(out["cells"]) == 8 and writers <= {"writer-a", "writer-b", None}
    # resuming a finished experiment makes no model call and no search
    seen = len(brain.seen)
    again = json.loads(
        run(
            "eval",
            "same-evidence",
            "--questions",
            str(qfile),
            "--writers",
            "writer-a,writer-b",
            "--planner",
            "planner-x",
            "--resume",
            out["evaluation_id"],
            "--json",
        )
    )
    assert len(again["cells"]) == 8 and again["contenders"] == out["contenders"]
    assert len(brain.seen) == seen and len(tavily.requests) == searches_for_packs  # nothing sent again
    chart = tmp_path / "history.html"
    table = run("eval", "history", "--questions", str(qfile), "--chart", str(chart))
    assert "single writer-a" in table and out["evaluation_id"][:12] in table
    page = chart.read_text(encoding="utf-8")
    assert page.count("<polyline") == 8 and "<script" not in page  # two panels x four contenders, no script


def test_packs_serve_only_their_pages_and_hash_every_byte() -> None:
    pack = EvidencePack(
        "q", (PackPage("https://a.example/1", "A", "text one"), PackPage("https://b.example/2", "B", "two")), None
    )
    other = EvidencePack("q", (PackPage("https://a.example/1", "A", "text one!"), pack.pages[1]), None)
    assert pack.digest != other.digest and pack.digest.startswith("sha256:")
    hits = PackSearch(pack).search("anything at all")
    assert [h.url for h in hits.results] == ["https://a.example/1", "https://b.example/2"]
    got = PackExtractor(pack).extract(["https://a.example/1", "https://evil.example/x"])
    assert [p.raw_content for p in got.pages] == ["text one"]
    assert [f.url for f in got.failures] == ["https://evil.example/x"]


def test_a_bad_question_set_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "question": "q?", "category": "gossip"}\n', encoding="utf-8")
    with pytest.raises(InputError, match='"category" must be one of technical, current, market'):
        load_question_set(bad)
    shipped = load_question_set(REPO / "examples" / "questions" / "research.jsonl")
    assert len(shipped.questions) == 10
    assert {q.category for q in shipped.questions} == {"technical", "current", "market", "science", "conflicting"}


def test_end_to_end_runs_each_engine_on_its_own_evidence_and_joins_the_history(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, brain, tavily = cli
    monkeypatch.setenv("PLANNER_MODEL", "planner-x")
    monkeypatch.setenv("WRITER_MODEL", "writer-y")
    qfile = _questions(tmp_path / "q.jsonl")
    out = json.loads(
        run("eval", "end-to-end", "--questions", str(qfile), "--engines", "citewise", "--searches", "4", "--json")
    )
    (row,) = out["engines"]
    assert row["label"] == "citewise" and row["questions"] == 2 and row["accepted"] == 2
    assert row["query_relevance"] is not None and row["sources_per_accepted"] >= 1
    # site figures per report: the engine's own sources, each with its site
    scores = [c["score"] for c in out["cells"]]
    assert all(s["sites"] >= 1 and 0 < s["largest_site_share"] <= 1 for s in scores)
    assert row["mean_sites"] >= 1 and 0 < row["largest_site_share"] <= 1
    assert len([r for r in tavily.requests if r.path.rstrip("/") == "/search"]) == 2  # it searched for itself
    run("eval", "end-to-end", "--questions", str(qfile), "--engines", "bing", code=2)  # one clear line
    rows = json.loads(run("eval", "history", "--questions", str(qfile), "--json"))["rows"]
    assert [r["kind"] for r in rows] == ["end-to-end"]
    assert rows[0]["mean_sites"] == row["mean_sites"] and rows[0]["largest_site_share"] == row["largest_site_share"]


def test_experiments_share_a_provider_rate_limit_across_concurrent_cells(cli: Any, tmp_path: Path) -> None:
    import time
    from collections import deque

    run, brain, tavily = cli
    qfile = _questions(tmp_path / "q.jsonl")
    first = json.loads(run("eval", "same-evidence", "--questions", str(qfile), "--writers", "writer-a", "--json"))
    runs = [a for c in first["cells"] for a in ("--evidence", c["score"]["run_id"])]
    times: list[float] = []
    for purpose, steps in brain.steps.items():
        if steps:
            step = steps[-1]

            def timed(data: Any, step: Any = step) -> Any:
                times.append(time.monotonic())
                return step(data) if callable(step) else step

            brain.steps[purpose] = deque([timed])
    out = json.loads(
        run(
            "eval",
            "same-evidence",
            "--questions",
            str(qfile),
            "--writers",
            "writer-b,writer-c",
            "--concurrency",
            "4",
            "--rate",
            "model=4/s",
            *runs,
            "--json",
        )
    )
    assert all(row["accepted"] == 2 for row in out["contenders"])
    times.sort()
    assert len(times) >= 12  # plan, review and write for 4 cells, run concurrently
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 0.2, gaps  # 4 a second, shared by every concurrent cell (0.25 s, less clock jitter)
