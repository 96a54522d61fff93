"""The read pages over HTTP: the runs list (search, filters, pages, acceptance and cost per run), the
costs page with its chart, a document's versions and provenance, and one-line errors for bad input."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.records.answer import AskOutcome
from citewise.records.research import ReportStatus
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from citewise.web.app import create_app
from citewise.web.pages import PAGE_SIZE, cost_chart
from tests.conftest import make_doc
from tests.web_runs import TOKEN, record_run

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    path = tmp_path_factory.mktemp("pages") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        accepted = record_run(store, sources=2)
        runs = RunStore(store)
        for i in range(PAGE_SIZE + 5):
            run_id = runs.create("ask", f"ask question {i} with 100% odd_chars")
            runs.finish(run_id, status=RunStatus.FINISHED, outcome=AskOutcome.FALLBACK)
        failed = runs.create("research", "a failed one")
        runs.finish(failed, status=RunStatus.FAILED, outcome=None)
        doc = make_doc("doc-p", {"§ 1": "Scope.", "§ 2": "Repealed."}, title="Act <b>P</b>", deleted=("§ 2",))
        store_document(store, doc, Path("doc-p.txt"), IngestOptions(), {})
    with TestClient(create_app(str(path), token=TOKEN), base_url="http://127.0.0.1:8765") as client:
        yield {"client": client, "accepted": accepted, "failed": failed}


def _rows(html: str) -> list[str]:
    body = html.split('<table id="runs">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<a href="/runs/([^"]+)">', body)


def test_the_runs_list_pages_newest_first_with_acceptance_and_cost(site: dict[str, Any]) -> None:
    client = site["client"]
    first = client.get("/").text
    assert f"{PAGE_SIZE + 7} runs" in first and "page 1 of 2" in first and len(_rows(first)) == PAGE_SIZE
    second = client.get("/?page=2").text
    assert len(_rows(second)) == 7 and site["accepted"] in _rows(second)  # the oldest run, last
    row = second.split(f'href="/runs/{site["accepted"]}"', 1)[1].split("</tr>", 1)[0]
    assert "accepted" in row and re.search(r'<td class="amount">\$\d+\.\d{2,6}</td>', row)  # Tavily credits, priced
    assert "at least" not in row
    assert "not verified" in first


def test_search_and_filters(site: dict[str, Any]) -> None:
    client = site["client"]
    assert len(_rows(client.get("/?q=QUESTION 7 with").text)) == 1
    assert _rows(client.get("/?kind=research").text) == [site["failed"], site["accepted"]]
    assert _rows(client.get("/?status=failed").text) == [site["failed"]]
    assert _rows(client.get("/?q=100%25 odd_").text)  # % and _ are text, not wildcards
    assert _rows(client.get("/?q=1_0").text) == []
    assert _rows(client.get("/?status=interrupted").text) == []
    bad = client.get("/?status=done")
    assert bad.status_code == 400 and "unknown status &#39;done&#39;; valid: running, finished" in bad.text


def test_the_costs_page_totals_by_component_and_charts_cost_per_accepted_report(site: dict[str, Any]) -> None:
    html = site["client"].get("/costs").text
    assert '<table id="components">' in html and "<td>search</td>" in html
    assert "cost per accepted report" in html and "<svg" in html and "<polyline" in html
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', html)
    assert "$0.00" in ticks and any(re.fullmatch(r"\d{4}-\d\d-\d\d", t) for t in ticks)  # both axes labelled
    assert not re.search(r"\d\.\d{6}\b", html)  # amounts are rounded as the terminal rounds them


def test_a_cost_chart_has_a_round_top_and_a_lone_day_in_the_middle() -> None:
    from datetime import date
    from decimal import Decimal

    chart = cost_chart([(date(2026, 12, 1), Decimal("0.12"), Decimal("0.048"))], "USD")
    assert chart is not None and len(chart.points) == 1
    ((x, y, label),) = chart.points
    assert x == 330.0 and label == "2026-12-01: $0.048"
    assert [amount for _, amount in chart.y_ticks] == ["$0.00", "$0.0125", "$0.025", "$0.0375", "$0.05"]
    assert chart.y_ticks[0][0] > y > chart.y_ticks[-1][0]  # the point lies between zero and the top
    assert [day for _, day in chart.x_ticks] == ["2026-12-01"]
    two = cost_chart([(date(2026, 11, 30), Decimal(1), Decimal(3)), (date(2026, 12, 1), Decimal(2), None)], "EUR")
    assert two is not None and [a for _, a in two.y_ticks][-1] == "5.00 EUR"
    assert cost_chart([(date(2026, 12, 1), Decimal(1), None)], "USD") is None


def test_a_run_whose_model_is_not_priced_costs_at_least_its_priced_part(tmp_path: Path) -> None:
    from tests.test_cost import _attempt, _model_call, _record

    path = tmp_path / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        runs = RunStore(store)
        run_id = runs.create("research", "a run with an unpriced model")
        _record(runs, run_id, "attempt", _attempt("search", 1.0))
        _record(runs, run_id, "model_call", _model_call("write", "mystery-model", 5_000, 700))
        runs.finish(run_id, status=RunStatus.FINISHED, outcome=ReportStatus.REPORT)
    with TestClient(create_app(str(path), token=TOKEN), base_url="http://127.0.0.1:8765") as client:
        row = client.get("/").text.split(f'href="/runs/{run_id}"', 1)[1].split("</tr>", 1)[0]
        costs = client.get("/costs").text
    assert re.search(r'<td class="amount"><span [^>]*>at least</span> \$\d+\.\d{2,6}</td>', row), row
    assert "unknown" not in row
    assert re.search(r"<th>total</th><th class=\"amount\">at least \$", costs)


def test_the_review_queue_is_at_review(site: dict[str, Any]) -> None:
    client = site["client"]
    review = client.get("/review")
    assert review.status_code == 200 and "<h1>Review queue</h1>" in review.text and "doc-p@1" in review.text
    assert '<a href="/review">Review</a>' in client.get("/").text


def test_a_document_shows_versions_provenance_and_deleted_provisions(site: dict[str, Any]) -> None:
    client = site["client"]
    html = client.get("/documents/doc-p?version=1").text
    assert "Act &lt;b&gt;P&lt;/b&gt;" in html and "<th>content hash</th>" in html
    assert '<tr class="deleted"><td>§ 2</td>' in html and "review_required" in html
    assert client.get("/documents/doc-p?version=x").status_code == 400
    missing = client.get("/documents/nope")
    assert missing.status_code == 404 and "<h1>404</h1>" in missing.text


def test_a_listed_run_shows_its_new_acceptance_after_a_claim_review(site: dict[str, Any]) -> None:
    from citewise.verify.service import review_claim

    client = site["client"]

    def verdict() -> str:
        html = client.get("/?kind=research").text
        return html.split(f'href="/runs/{site["accepted"]}"', 1)[1].split("</tr>", 1)[0]

    assert ">accepted<" in verdict()
    store = client.app.state.serve.api.store  # type: ignore[attr-defined]
    review_claim(store, site["accepted"], "C1", "unsupported", reviewer="Kim", reason="misread")
    assert ">not accepted<" in verdict()
    review_claim(store, site["accepted"], "C1", "supported", reviewer="Kim", reason="read again")
    assert ">accepted<" in verdict()


def test_a_run_that_cannot_start_streams_its_reason_and_ends(
    site: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)  # so nothing could reach the real Tavily
    client = site["client"]
    client.cookies.set("citewise_token", TOKEN)
    csrf = client.app.state.serve.guard.csrf  # type: ignore[attr-defined]
    started = client.post("/research", data={"question": "q", "search": "tavily", "csrf": csrf}, follow_redirects=False)
    client.cookies.clear()
    assert started.status_code == 303
    job = started.headers["location"]
    with client.stream("GET", f"{job}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        text = "".join(stream.iter_text())
    events = re.findall(r"event: (\w+)\ndata: (.*)\n\n", text)
    assert [name for name, _ in events] == ["failed", "done"]
    assert "TAVILY_API_KEY" in events[0][1] and events[1][1] == '{"url": null}'


def test_a_document_page_reads_its_origin_and_retrieval_time(sample_store_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "store.sqlite"
    copy.write_bytes(sample_store_file.read_bytes())
    with TestClient(create_app(str(copy), token=TOKEN), base_url="http://127.0.0.1:8765") as client:
        html = client.get("/documents/kr-law-001248?version=2").text
    origin = html.split("<th>origin</th><td>", 1)[1].split("</td>", 1)[0]
    assert origin.startswith("file://") and origin.endswith("주택임대차보호법__법률__2025-10-01__MST276291.md")
    retrieved = html.split("<th>retrieved at</th><td>", 1)[1].split("</td>", 1)[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", retrieved), retrieved
