"""The peer benchmark's fake world (benchmarks/research_peer.py), without the peer installed."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import research_peer  # noqa: E402
from benchmarks.research_world import FACTS, QUESTION, Latencies, page_text  # noqa: E402

QUICK = Latencies(search_s=0.0, extract_s=0.0, model_s=0.0, tokens_per_s=1000.0)


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers["content-type"], response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["content-type"], exc.read()


def test_missing_peer_python_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        research_peer.main(["--peer-python", str(tmp_path / "no-python")])
    assert stop.value.code == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "no gpt-researcher at" in out


def test_search_answers_custom_retriever_results_pointing_at_its_own_pages() -> None:
    with research_peer.PeerWeb(QUICK) as web:
        status, kind, body = _get(f"{web.base_url}/search?query=landlord+fee")
        results = json.loads(body)
        assert (status, kind) == (200, "application/json")
        assert [r["url"] for r in results] == [f"{web.base_url}/landlord-fee/{n}" for n in range(1, 6)]
        assert all(len(r["body"]) < 100 for r in results)  # a snippet: the peer fetches the page itself
        status, kind, page = _get(results[1]["url"])
        assert (status, kind) == (200, "text/html; charset=utf-8")
        text = page.decode()
        for paragraph in page_text(results[1]["url"], 2).split("\n\n")[1:]:
            assert f"<p>{paragraph}</p>" in text
        assert _get(f"{web.base_url}/robots.txt")[0] == 404
        assert (web.searches, web.pages) == (["landlord fee"], ["/landlord-fee/2"])


def _request(system: str | None, user: str) -> dict[str, object]:
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": user}]
    return {"model": "gpt-4.1", "messages": messages}


def test_scripted_model_answers_each_peer_prompt_in_the_shape_it_asks_for() -> None:
    model = research_peer.PeerModel(QUICK, words=0)
    agent = model(_request("\nThis task involves researching a given topic, regardless ...", f"task: {QUESTION}"))
    assert set(json.loads(agent.content or "")) == {"server", "agent_role_prompt"}
    queries = model(_request(None, f'Write 3 search queries to research the following task: "{QUESTION}"'))
    assert json.loads(queries.content or "") == research_peer.QUERIES
    urls = [f"http://127.0.0.1:1/q/{n}" for n in (1, 2)]
    context = "\n\n".join(f"Source: None\nTitle: t\nContent: {page_text(u, n)}" for n, u in enumerate(urls, 1))
    report = model(_request("You are an AI critical thinker", f'\nInformation: "{context}"\n---\nUsing the above'))
    text = report.content or ""
    assert text.startswith(f"# {QUESTION}")
    for fact in (f for pair in FACTS for f in pair):
        stated_on = next(u for n, u in enumerate(urls, 1) if fact in " ".join(page_text(u, n).split()))
        assert f"{fact} ([source]({stated_on}))" in text
    assert sorted(text.split("## References\n\n", 1)[1].splitlines()) == [f"- [{u}]({u})" for u in urls]
    assert model.calls == {"agent choice": 1, "sub-queries": 1, "report": 1}


def test_peer_words_pads_the_report() -> None:
    short = research_peer._report("", 0)
    padded = research_peer._report("", 300)
    assert "## Background" not in short
    assert len(padded.split()) >= 300 > len(short.split())
