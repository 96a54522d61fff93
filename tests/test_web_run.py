"""The run page in a real browser (headless Chromium): citations show their quote on hover and on
keyboard focus and jump to their source; the ledger override changes acceptance on the page; a source
whose text and title carry scripts, ``onerror`` handlers, ``javascript:``/``data:`` links and a
``</textarea>`` breakout runs nothing, in the UI and in the HTML export."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.export.run import export_run
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from tests.web_runs import HOSTILE_TITLE, TOKEN, Watched, browser_or_skip, record_run, serving

pytestmark = pytest.mark.integration

HOSTILE_QUOTE = "Rental deposits are protected by the deposit act <script>alert('s1')</script> with"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    path = tmp_path_factory.mktemp("web") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        run_id = record_run(store, sources=3)
        export = export_run(RunStore(store).get(run_id), "html")
    export_file = path.parent / "export.html"
    export_file.write_text(export, encoding="utf-8")
    playwright, chromium = browser_or_skip()
    with serving(str(path)) as base, playwright as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True)
        try:
            yield {"base": base, "run_id": run_id, "browser": browser, "export": export_file, "store": str(path)}
        finally:
            browser.close()


@pytest.fixture
def tab(site: dict[str, Any]) -> Iterator[tuple[Any, Watched]]:
    context = site["browser"].new_context(viewport={"width": 1200, "height": 900})
    watched = Watched()
    page = watched.attach(context.new_page())
    page.goto(f"{site['base']}/?token={TOKEN}")  # sets the token cookie, as the printed address does
    page.goto(f"{site['base']}/runs/{site['run_id']}")
    try:
        yield page, watched
    finally:
        context.close()


def test_hovering_a_citation_shows_its_quote_source_dates_and_decision(tab: tuple[Any, Watched]) -> None:
    page, _ = tab
    cite = page.locator("#report a.cite").first
    tip = page.locator("#tip-1")
    assert not tip.is_visible()
    cite.hover()
    tip.wait_for(state="visible", timeout=2000)
    text = tip.inner_text()
    assert HOSTILE_QUOTE in text  # the verbatim quote, shown as text
    assert HOSTILE_TITLE in text and "https://web0.example/deposits" in text
    assert "retrieved 20" in text and "published unknown" in text and "claim C1: supported" in text
    if os.environ.get("CITEWISE_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["CITEWISE_SCREENSHOTS"]) / "run-page.png"), full_page=False)


def test_keyboard_focus_on_a_citation_shows_its_quote(tab: tuple[Any, Watched]) -> None:
    page, _ = tab
    second = page.locator("#report a.cite").nth(1)
    second.focus()
    assert page.evaluate("document.activeElement.dataset.cite") == "S2"
    tip = page.locator("#tip-2")
    tip.wait_for(state="visible", timeout=2000)
    assert "Rental deposits rule 1 is protected under section 1 of the deposit act." in tip.inner_text()
    page.keyboard.press("Tab")  # focus moves on: the tip goes
    tip.wait_for(state="hidden", timeout=2000)


def test_clicking_a_citation_jumps_to_its_source(tab: tuple[Any, Watched]) -> None:
    page, _ = tab
    page.locator("#report a.cite").nth(2).click()
    assert page.url.endswith("#S3")
    entry = page.locator("li#S3")
    assert entry.is_visible() and "Deposit rule 2" in entry.inner_text()
    top = page.evaluate("document.getElementById('S3').getBoundingClientRect().top")
    assert 0 <= top < 900  # scrolled into view


def test_the_ledger_override_changes_acceptance_on_the_page(tab: tuple[Any, Watched]) -> None:
    page, _ = tab
    assert page.locator("#acceptance").inner_text().startswith("Accepted")
    row = page.locator("#claim-C2")
    row.locator("select[name=decision]").select_option("unsupported")
    row.locator("input[name=reviewer]").fill("Kim")
    row.locator("input[name=reason]").fill("the page says rule 1 only for some leases")
    row.locator("button[type=submit]").click()
    page.wait_for_url("**/runs/*#claim-C2")
    assert page.locator("#acceptance").inner_text().startswith("Not accepted")
    assert "by Kim: the page says rule 1 only for some leases" in page.locator("#claim-C2").inner_text()
    # and back: a person's decision again, recorded with who and why
    row = page.locator("#claim-C2")
    row.locator("select[name=decision]").select_option("supported")
    row.locator("input[name=reviewer]").fill("Kim")
    row.locator("input[name=reason]").fill("checked the lease dates")
    row.locator("button[type=submit]").click()
    page.wait_for_url("**/runs/*#claim-C2")
    assert page.locator("#acceptance").inner_text().startswith("Accepted")


def _nothing_ran(page: Any, watched: Watched) -> None:
    body = page.locator("body").inner_text()
    assert "<script>alert('s1')</script>" in body and "<img src=x onerror=alert('img')>" in body
    assert "</textarea><script>alert('ta')</script>" in body and HOSTILE_TITLE in body
    assert page.locator("script:not([src])").count() == 0 and page.locator("img").count() == 0
    assert page.locator("[href^='javascript:' i], [href^='data:' i], [src^='data:' i]").count() == 0
    assert watched.dialogs == [] and watched.errors == []


def test_hostile_source_text_runs_nothing_in_the_ui(tab: tuple[Any, Watched]) -> None:
    page, watched = tab
    page.reload()
    page.locator("#report a.cite").first.hover()
    page.locator("li#S1").scroll_into_view_if_needed()
    _nothing_ran(page, watched)


def test_hostile_source_text_runs_nothing_in_the_html_export(site: dict[str, Any]) -> None:
    context = site["browser"].new_context()
    watched = Watched()
    page = watched.attach(context.new_page())
    try:
        page.goto(site["export"].as_uri())
        page.locator("a.cite").first.hover()
        assert HOSTILE_QUOTE in page.locator("#tip-1").inner_text()
        page.locator("a.cite").first.click()
        assert page.url.endswith("#S1")
        _nothing_ran(page, watched)
    finally:
        context.close()


def test_a_write_without_the_token_is_refused_in_the_browser(site: dict[str, Any]) -> None:
    context = site["browser"].new_context()  # no token cookie
    page = context.new_page()
    try:
        page.goto(f"{site['base']}/runs/{site['run_id']}")
        row = page.locator("#claim-C1")
        row.locator("select[name=decision]").select_option("unsupported")
        row.locator("input[name=reviewer]").fill("Mallory")
        row.locator("input[name=reason]").fill("no token")
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            row.locator("button[type=submit]").click()
        assert posted.value.status == 403
        assert "needs the serve token" in page.locator("body").inner_text()
        page.goto(f"{site['base']}/runs/{site['run_id']}")
        assert "Mallory" not in page.locator("#ledger ~ table").first.inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 700, 1200])
@pytest.mark.parametrize("where", ["ui", "export"])
def test_every_citation_tip_stays_on_the_page_under_its_citation(site: dict[str, Any], width: int, where: str) -> None:
    """Wherever a citation falls on its line (the start of a line included), its tip opens below it
    and inside the window, at phone and desktop widths alike."""
    context = site["browser"].new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        if where == "ui":
            page.goto(f"{site['base']}/?token={TOKEN}")
            page.goto(f"{site['base']}/runs/{site['run_id']}")
        else:
            page.goto(site["export"].as_uri())
        cites = page.locator("#report a.cite")
        assert cites.count() >= 3
        for i in range(cites.count()):
            cite = cites.nth(i)
            cite.scroll_into_view_if_needed()
            cite.hover()
            tip = page.locator(f"#{cite.get_attribute('aria-describedby')}")
            tip.wait_for(state="visible", timeout=2000)
            box, at = tip.bounding_box(), cite.bounding_box()
            assert box is not None and at is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (i, box, at)
            assert box["y"] >= at["y"] + at["height"] - 1, (i, box, at)  # below, not over, its citation
            assert box["x"] <= at["x"] + at["width"]  # and not beside it, out of reach
        style = page.evaluate("getComputedStyle(document.querySelector('#report')).wordBreak")
        assert style == "keep-all"  # Korean words wrap at spaces, not mid-word
    finally:
        context.close()


def test_the_runs_list_ledger_and_costs_pages_render(tab: tuple[Any, Watched], site: dict[str, Any]) -> None:
    """The pages the README shows; with ``CITEWISE_SCREENSHOTS=DIR`` their screenshots are written
    there, so the README's pictures are made by this test and stay current."""
    page, watched = tab
    shots = os.environ.get("CITEWISE_SCREENSHOTS")
    ledger = page.locator("#ledger")
    ledger.scroll_into_view_if_needed()
    assert page.locator("#ledger ~ table tr[id^=claim-]").count() >= 3
    heads = page.locator("#ledger ~ table th")
    tall = [heads.nth(i).inner_text() for i in range(heads.count()) if heads.nth(i).bounding_box()["height"] > 40]
    assert tall == []  # no column is squeezed until its heading's letters stack
    table = page.evaluate("document.querySelector('#ledger ~ table').getBoundingClientRect().right")
    assert table <= page.viewport_size["width"]  # and the table fits the window, override column included
    if shots:
        page.evaluate("document.getElementById('ledger').scrollIntoView()")
        page.screenshot(path=str(Path(shots) / "ledger.png"), full_page=False)
    page.goto(f"{site['base']}/")
    assert site["run_id"] in page.locator("#runs").inner_html() and "accepted" in page.locator("#runs").inner_text()
    if shots:
        page.screenshot(path=str(Path(shots) / "runs-list.png"), full_page=False)
    page.goto(f"{site['base']}/costs")
    assert page.locator("svg.chart text.tick").count() >= 6  # both axes labelled
    if shots:
        page.screenshot(path=str(Path(shots) / "costs.png"), full_page=False)
    assert watched.errors == []
