"""What the fetcher reads (SPEC 4.3, 4.6): realistic pages with their expected text and date
(tests/fixtures/pages/), date signals that conflict or are missing, walls recorded as gaps, content
types, robots.txt — all served by a real loopback server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.fetch.records import FetchOutcome, FetchResult, Step
from citewise.testing.fake_web import FakeWeb

pytestmark = pytest.mark.integration

PAGES = Path(__file__).parent / "fixtures" / "pages"
PROSE = "".join(
    f"<p>Paragraph {i}: the deposit insurance fund covers savings at banks and savings banks up to the limit.</p>"
    for i in range(8)
)


@pytest.fixture
def web() -> Iterator[FakeWeb]:
    with FakeWeb() as server:
        yield server


@pytest.fixture
def fetcher(web: FakeWeb) -> Iterator[Fetcher]:
    policy = AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))
    with Fetcher(FetchSettings(total_timeout_s=10), policy=policy) as f:
        yield f


def _fixture(name: str) -> tuple[bytes, dict[str, Any]]:
    stem, _, suffix = name.partition(".")
    return (PAGES / name).read_bytes(), json.loads((PAGES / f"{stem}.expected.json").read_text())


@pytest.mark.parametrize(
    ("name", "media"),
    [("news_article.html", "text/html"), ("blog_byline.html", "text/html"), ("report.pdf", "application/pdf")],
)
def test_realistic_pages_give_their_expected_text_title_and_date(
    web: FakeWeb, fetcher: Fetcher, name: str, media: str
) -> None:
    body, expected = _fixture(name)
    path = expected["url"].split("://", 1)[1].split("/", 1)[1]
    result = fetcher.fetch(web.page(f"/{path}", body, content_type=media))
    assert result.ok, result.reason
    for text in expected["contains"]:
        assert text in result.text
    for text in expected["excludes"]:
        assert text not in result.text
    assert result.title == expected["title"]
    assert (result.published_at, result.publication_date_source) == (
        expected["published_at"],
        expected["publication_date_source"],
    )
    assert result.updated_at == expected["updated_at"]
    assert result.content_type == media


def _html(head: str = "", body: str = PROSE) -> str:
    return f"<html><head><title>T</title>{head}</head><body><article>{body}</article></body></html>"


def test_conflicting_publication_signals_leave_the_date_empty(web: FakeWeb, fetcher: Fetcher) -> None:
    page = _html(
        '<script type="application/ld+json">{"@type": "Article", "datePublished": "2024-02-01"}</script>'
        '<meta property="article:published_time" content="2023-07-09">'
    )
    result = fetcher.fetch(web.page("/conflict", page))
    assert result.ok and result.published_at is None and result.publication_date_source is None
    assert any("conflict" in d.detail for d in result.decisions if d.step is Step.DATE)


def test_no_signal_means_no_date_never_the_retrieval_time(web: FakeWeb, fetcher: Fetcher) -> None:
    result = fetcher.fetch(web.page("/undated", _html()))
    assert result.ok and result.published_at is None and result.updated_at is None


def test_an_update_date_never_becomes_the_publication_date(web: FakeWeb, fetcher: Fetcher) -> None:
    page = _html('<meta property="article:modified_time" content="2024-05-06T10:00:00Z">')
    result = fetcher.fetch(web.page("/updated-only", page))
    assert (result.published_at, result.updated_at) == (None, "2024-05-06")


def test_time_element_and_url_dates_are_named(web: FakeWeb, fetcher: Fetcher) -> None:
    marked = _html(body='<time itemprop="datePublished" datetime="2022-10-03">3 Oct</time>' + PROSE)
    result = fetcher.fetch(web.page("/t", marked))
    assert (result.published_at, result.publication_date_source) == ("2022-10-03", "time element")
    result = fetcher.fetch(web.page("/news/2021/06/30/story", _html()))
    assert (result.published_at, result.publication_date_source) == ("2021-06-30", "url")


def test_a_future_date_is_not_a_publication_date(web: FakeWeb, fetcher: Fetcher) -> None:
    result = fetcher.fetch(web.page("/future", _html('<meta name="date" content="2999-01-01">')))
    assert result.ok and result.published_at is None


LOGIN = """<html><head><title>Sign in</title></head><body><h1>Members area</h1>
<form action="/login" method="post"><label>Email <input type="email" name="e"></label>
<label>Password <input type="password" name="p"></label><button>Sign in</button></form>
<p>Sign in to continue reading this report.</p></body></html>"""
JS_ONLY = """<html><head><title>Dashboard</title><script src="/static/bundle.4f3a.js" defer></script></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>"""
PAYWALL = _html(
    '<script type="application/ld+json">{"@type": "NewsArticle", "isAccessibleForFree": "False"}</script>',
    "<p>The first paragraph of the story is visible to everyone, the rest is not.</p>"
    "<div class='paywall'>Subscribe to continue reading. Already a subscriber? Log in.</div>",
)
CONSENT = """<html><head><title>News</title></head><body><div id="consent-wall"><h2>We value your privacy</h2>
<p>We use cookies to personalise content. Accept all cookies to continue to the site.</p>
<button>Accept all</button><button>Manage options</button></div></body></html>"""


@pytest.mark.parametrize(
    ("page", "outcome"),
    [
        (LOGIN, FetchOutcome.LOGIN_WALL),
        (JS_ONLY, FetchOutcome.JAVASCRIPT_ONLY),
        (PAYWALL, FetchOutcome.PAYWALL),
        (CONSENT, FetchOutcome.CONSENT_WALL),
    ],
)
def test_walls_are_gaps_never_text_read(web: FakeWeb, fetcher: Fetcher, page: str, outcome: FetchOutcome) -> None:
    result = fetcher.fetch(web.page("/walled", page))
    assert result.outcome is outcome and outcome.is_wall
    assert not result.ok and result.text == ""


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (401, FetchOutcome.LOGIN_WALL),
        (402, FetchOutcome.PAYWALL),
        (404, FetchOutcome.HTTP_ERROR),
        (500, FetchOutcome.HTTP_ERROR),
    ],
)
def test_error_statuses_read_nothing(web: FakeWeb, fetcher: Fetcher, status: int, outcome: FetchOutcome) -> None:
    result = fetcher.fetch(web.page("/status", _html(), status=status))
    assert (result.outcome, result.status_code, result.text) == (outcome, status, "")


def test_plain_text_is_read_and_other_types_are_refused_and_recorded(web: FakeWeb, fetcher: Fetcher) -> None:
    text = fetcher.fetch(
        web.page(
            "/notes.txt", "Published: 2020-04-01\nPlain notes on deposits.", content_type="text/plain; charset=utf-8"
        )
    )
    assert text.ok and text.text.endswith("Plain notes on deposits.") and text.published_at == "2020-04-01"
    image = fetcher.fetch(web.page("/logo.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64, content_type="image/png"))
    assert image.outcome is FetchOutcome.UNSUPPORTED_TYPE and "image/png" in image.reason


def test_a_broken_pdf_is_unreadable_not_an_error(web: FakeWeb, fetcher: Fetcher) -> None:
    result = fetcher.fetch(web.page("/broken.pdf", b"%PDF-1.4\n garbage", content_type="application/pdf"))
    assert result.outcome is FetchOutcome.UNREADABLE and not result.text


def test_robots_txt_disallow_is_respected_and_recorded(web: FakeWeb, fetcher: Fetcher) -> None:
    web.page("/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    refused = fetcher.fetch(web.page("/private/report", _html()))
    allowed = fetcher.fetch(web.page("/public/report", _html()))
    assert refused.outcome is FetchOutcome.REFUSED_ROBOTS and web.hits("/private/report") == 0
    assert allowed.ok
    assert [d.allowed for d in allowed.decisions if d.step is Step.ROBOTS] == [True]
    assert web.hits("/robots.txt") == 1  # read once per origin


def test_robots_txt_that_answers_5xx_keeps_the_site_closed(web: FakeWeb, fetcher: Fetcher) -> None:
    web.page("/robots.txt", "oops", status=503, content_type="text/plain")
    result = fetcher.fetch(web.page("/a", _html()))
    assert result.outcome is FetchOutcome.REFUSED_ROBOTS and web.hits("/a") == 0


def test_the_user_agent_names_citewise_and_the_contact(web: FakeWeb) -> None:
    policy = AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))
    with Fetcher(FetchSettings(contact="mailto:ops@example.org"), policy=policy) as fetcher:
        fetcher.fetch(web.page("/a", _html()))
    agents = {r.headers["user-agent"] for r in web.requests}  # robots.txt and the page
    assert len(web.requests) == 2 and len(agents) == 1
    agent = agents.pop()
    assert agent.startswith("citewise/") and "mailto:ops@example.org" in agent


def test_decisions_tell_the_whole_story_in_order(web: FakeWeb, fetcher: Fetcher) -> None:
    web.page("/old", status=301, headers={"Location": "/new"})
    web.page("/new", _html('<meta name="date" content="2020-01-02">'))
    result: FetchResult = fetcher.fetch(web.url("/old"))
    steps = [d.step for d in result.decisions]
    assert steps[0] is Step.URL and steps[-1] is Step.CONTENT
    assert steps.index(Step.ROBOTS) < steps.index(Step.RESPONSE) < steps.index(Step.REDIRECT)
    after = steps[steps.index(Step.REDIRECT) + 1 :]
    assert after[0] is Step.URL and Step.RESPONSE in after and Step.DATE in after
    assert all(d.allowed for d in result.decisions)
    assert result.final_url == web.url("/new") and result.published_at == "2020-01-02"


@pytest.mark.parametrize(
    ("html", "url", "expected"),
    [
        (
            '<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, {"@type": "NewsArticle",'
            ' "datePublished": "2024-06-01T07:00:00Z"}]}</script>',
            "https://a.example/x",
            ("2024-06-01", "json-ld datePublished"),
        ),
        (
            '<meta name="citation_publication_date" content="2019/04/22">',
            "https://a.example/x",
            ("2019-04-22", "meta citation_publication_date"),
        ),
        ("<p>입력 2023.07.14 09:12 수정 2023.07.15</p>", "https://news.example.kr/a", ("2023-07-14", "visible byline")),
        ("<p>게시일: 2022년 1월 5일</p>", "https://gov.example.kr/b", ("2022-01-05", "visible byline")),
        (
            '<script type="application/ld+json">{not json</script>',
            "https://a.example/2020/02/03/x",
            ("2020-02-03", "url"),
        ),
        ("<p>Copyright 2021</p>", "https://a.example/x", (None, None)),
    ],
)
def test_date_signals(html: str, url: str, expected: tuple[str | None, str | None]) -> None:
    import lxml.html

    from citewise.fetch.dates import dates_from_html

    dates = dates_from_html(lxml.html.fromstring(f"<html><head></head><body>{html}</body></html>"), url)
    assert (dates.published_at, dates.source) == expected
