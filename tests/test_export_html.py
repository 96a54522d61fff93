"""The HTML export (SPEC 6): the web UI's run page as one standalone file. Research citations show
their quote on hover, every source has an anchor, the ledger is a real table, Markdown is rendered by
markdown-it-py (no raw ``---``, ``**`` or ``|`` rows), an accepted run says so, and attacker-controlled
text is escaped with unsafe links dropped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import Markup

from citewise.audit.events import ReportMade, Verified
from citewise.export.html import export_csp, report_html, stylesheet
from citewise.export.markdown import render_markdown
from citewise.export.run import export_run
from citewise.export.view import CitationTip, run_view
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.verify.service import review_claim
from tests.web_runs import HOSTILE_TITLE, record_run

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, RunRecord]]:
    path = tmp_path_factory.mktemp("export") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        run_id = record_run(store, sources=3)
        yield str(path), RunStore(store).get(run_id)


def test_research_citations_show_their_quote_and_jump_to_an_anchor(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    html = export_run(record, "html")
    cites = re.findall(r'<a class="cite" href="#(S\d+)" aria-describedby="(tip-\d+)" data-cite="(S\d+)">', html)
    assert len(cites) == 9 and {c[0] for c in cites} == {"S1", "S2", "S3"}
    for sid in ("S1", "S2", "S3"):
        assert f'<li id="{sid}"' in html  # every source has an anchor
    tip = html.split('id="tip-2">', 1)[1].split("</span></span>", 1)[0]
    assert "<q>Rental deposits rule 1 is protected under section 1 of the deposit act.</q>" in tip
    assert "Deposit rule 1" in tip and "https://web1.example/deposits" in tip and "claim C2" in tip


def test_the_ledger_is_a_table_and_markdown_is_rendered(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    html = export_run(record, "html")
    ledger = html.split('<h2 id="ledger">', 1)[1].split("<h2", 1)[0]
    assert ledger.count('<tr id="claim-C') == 9 and "<th>decision</th>" in ledger and "override" not in ledger
    assert "|---" not in html and "| claim |" not in html and "**" not in html and "\n---\n" not in html
    assert "<h2>How are rental deposits protected?</h2>" in html and "<ul>\n<li>" in html


def test_an_accepted_run_says_so_and_an_override_shows(recorded: tuple[str, RunRecord]) -> None:
    path, record = recorded
    assert "<strong>Accepted</strong>" in export_run(record, "html")
    assert "Not verified" not in export_run(record, "html")
    with EvidenceStore.open(path) as store:
        review_claim(store, record.run_id, "C3", "unsupported", reviewer="Park", reason="wrong section")
        again = RunStore(store).get(record.run_id)
        review_claim(store, record.run_id, "C3", "supported", reviewer="Park", reason="right after all")
    assert again.last(Verified).acceptance.accepted is False  # type: ignore[union-attr]
    html = export_run(again, "html")
    assert "<strong>Not accepted</strong>" in html and "by Park: wrong section" in html


def test_an_unverified_run_says_it_is_not_verified(tmp_path: Path) -> None:
    with EvidenceStore.open(str(tmp_path / "s.sqlite")) as store:
        runs = RunStore(store)
        run_id = runs.create("research", "a question <b>bold</b>")
        html = export_run(runs.get(run_id), "html")
    assert "<strong>Not verified</strong>" in html and "a question &lt;b&gt;bold&lt;/b&gt;" in html


def test_attacker_text_is_escaped_and_nothing_can_run(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    html = export_run(record, "html")
    assert "<script" not in html and "<img" not in html and "<textarea" not in html.lower()
    assert "&lt;/textarea&gt;&lt;script&gt;" in html and str(Markup.escape(HOSTILE_TITLE)) in html
    assert not re.search(r"""(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):""", html, re.I)
    assert not re.search(r"\son\w+\s*=", html.replace("onerror=alert", ""))  # no live handler attribute
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert csp is not None and "script-src &#39;none&#39;" in csp.group(1) and export_csp().startswith("default-src")


def test_the_standalone_policy_allows_exactly_the_shipped_stylesheet(recorded: tuple[str, RunRecord]) -> None:
    import base64
    import hashlib

    html = export_run(recorded[1], "html")
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    assert style == stylesheet()
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert f"sha256-{digest}" in export_csp()


def _cite(tip: CitationTip, anchor: str, n: int) -> str:
    return f"<CITE {anchor} {n}>"


@pytest.mark.parametrize(
    ("markdown", "forbidden"),
    [
        ("[x](javascript:alert(1))", 'href="javascript'),
        ("[x](JAVASCRIPT:alert(1))", "href="),
        ("[x](data:text/html;base64,PHNjcmlwdD4=)", "href="),
        ("![i](data:image/svg+xml;base64,PHN2Zz4=)", "<img"),
        ("[x](vbscript:msgbox)", "href="),
        ("<script>alert(1)</script>", "<script"),
        ("<a href='javascript:alert(1)'>x</a>", "<a "),
        ("<img src=x onerror=alert(1)>", "<img"),
        ("[x]: javascript:alert(1)\n\n[x]", "href="),
    ],
)
def test_markdown_never_makes_unsafe_markup(markdown: str, forbidden: str) -> None:
    html = render_markdown(markdown, None, _cite)
    assert forbidden not in html


def test_markdown_links_to_the_web_open_nothing_else() -> None:
    html = render_markdown("See [the act](https://law.example/act) [S1].", None, _cite)
    assert '<a href="https://law.example/act" rel="nofollow noopener noreferrer">the act</a>' in html
    assert "<CITE S1 1>" in html


def test_a_citation_in_code_or_a_link_title_is_left_alone(recorded: tuple[str, RunRecord]) -> None:
    view = run_view(recorded[1])
    html = str(report_html(view))
    assert html.count('class="cite"') == 9
    code = render_markdown('`[S1]` and [a](https://x.example "[S2]")', view, _cite)
    assert "<CITE" not in code


def test_dates_read_as_minutes_in_utc_with_the_instant_kept_for_machines(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    html = export_run(record, "html")
    started = re.search(r'started <time datetime="([^"]+)">([^<]+)</time>', html)
    assert started is not None
    assert started.group(1) == record.created_at.isoformat()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", started.group(2))
    assert re.search(r"retrieved \d{4}-\d\d-\d\d \d\d:\d\d UTC", html)
    shown = re.sub(r'datetime="[^"]*"', "", html)  # the attributes keep ISO 8601; the text never does
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", shown)
    assert re.search(r"- started: \d{4}-\d\d-\d\d \d\d:\d\d UTC", export_run(record, "md"))


def test_a_store_source_shows_its_section_as_written(sample_store_file: Path, tmp_path: Path) -> None:
    """A research source from the local store is ``citewise://doc@2/제4조``, not its escaped wire form."""
    from citewise.providers.local import LocalExtractor, LocalSearch
    from citewise.research.loop import research
    from citewise.research.settings import ResearchSettings

    copy = tmp_path / "store.sqlite"
    copy.write_bytes(sample_store_file.read_bytes())
    with EvidenceStore.open(str(copy)) as store:
        settings = ResearchSettings(search=LocalSearch(store), extractor=LocalExtractor(store))
        record = RunStore(store).get(research(store, "임대차 보증금은 어떻게 보호되나요?", settings).run_id)
    urls = [s.url for s in run_view(record).sources if s.url]
    assert urls and all(u.startswith("citewise://kr-law-") and "%" not in u for u in urls)
    html = export_run(record, "html")
    assert "%EC" not in html and all(u in html for u in urls)
    assert "%EC" not in export_run(record, "md")


def _with_writer(record: RunRecord, writer: str) -> RunRecord:
    """``record`` with its report's writer replaced (a recorded value citewise did not choose)."""
    events = tuple(
        replace(r, event=replace(r.event, writer=writer)) if isinstance(r.event, ReportMade) else r
        for r in record.events
    )
    return replace(record, events=events)


def test_the_html_shows_the_answer_provenance_the_markdown_shows(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    markdown, html = export_run(record, "md"), export_run(record, "html")
    lines = re.findall(r"^- (answer [^:]+): (.*)$", markdown, re.MULTILINE)

    shown = html.split('<dl id="provenance"', 1)[1].split("</dl>", 1)[0]

    assert "answer path" in {label for label, _ in lines}
    for label, value in lines:
        assert f"<dt>{label}</dt><dd>{Markup.escape(value)}</dd>" in shown


def test_a_hostile_provenance_value_is_escaped(recorded: tuple[str, RunRecord]) -> None:
    _, record = recorded
    hostile = _with_writer(record, '</dd><script>alert(1)</script><a href="javascript:x">')

    html = export_run(hostile, "html")

    assert "<script" not in html and 'href="javascript:' not in html
    assert "<dt>answer writer</dt><dd>&lt;/dd&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
