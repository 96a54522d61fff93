"""A wall is declared only where it stands in place of the text: the main text is nearly empty, or
is the wall's own words (or, for sign-in and subscribe prompts, a thin text they cut off). A short
article whose footer links to "Cookie settings", mentions a login or a subscription, is read."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.fetch.records import FetchOutcome
from citewise.testing.fake_web import FakeWeb

SHORT_ARTICLE = (
    "<p>The city council approved the new bus route on Tuesday. Buses will run every ten minutes "
    "between the station and the hospital from March, the transport office said.</p>"
    "<p>The route costs 2.1 million won a year to run.</p>"
)


def _page(article: str, footer: str = "", head: str = "") -> str:
    return (
        f"<html><head><title>Bus route approved</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>Bus route approved</h1>{article}</article></main>"
        f"<footer>{footer}</footer></body></html>"
    )


FOOTERS = [
    "<a href='/cookies'>Cookie settings</a> · <a href='/privacy'>Privacy</a>",
    "<p>We use cookies to improve this site. <a href='/cookies'>Cookie preferences</a></p>",
    "<a href='/login'>Log in</a> · <a href='/subscribe'>Subscribers only: the archive</a>",
    "<form><input type='email'><input type='password'><button>Sign in</button></form>",
    "<div class='banner'>We use cookies. <button>Accept all cookies</button></div>",
]


@pytest.fixture
def web() -> Iterator[FakeWeb]:
    with FakeWeb() as server:
        yield server


@pytest.fixture
def fetcher(web: FakeWeb) -> Iterator[Fetcher]:
    settings = FetchSettings(connect_timeout_s=1.0, read_timeout_s=2.0, total_timeout_s=10.0)
    with Fetcher(settings, policy=AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))) as f:
        yield f


@pytest.mark.parametrize("footer", FOOTERS)
def test_a_short_article_with_a_wall_word_in_its_footer_is_read(web: FakeWeb, fetcher: Fetcher, footer: str) -> None:
    result = fetcher.fetch(web.page("/story", _page(SHORT_ARTICLE, footer)))
    assert result.outcome is FetchOutcome.READ, (result.outcome, result.decisions[-1].detail)
    assert "bus route" in result.text and "every ten minutes" in result.text


def test_a_short_article_under_a_cookie_banner_is_read(web: FakeWeb, fetcher: Fetcher) -> None:
    banner = "<div id='cookie-banner'><p>We use cookies to personalise content.</p><button>Accept all</button></div>"
    result = fetcher.fetch(web.page("/story", _page(banner + SHORT_ARTICLE)))
    assert result.outcome is FetchOutcome.READ and "every ten minutes" in result.text


@pytest.mark.parametrize(
    ("body", "outcome"),
    [
        (
            "<div id='consent'><h2>We value your privacy</h2><p>We use cookies to personalise content and ads. "
            "Accept all cookies to continue to the site.</p><button>Accept all</button>"
            "<button>Manage options</button></div>",
            FetchOutcome.CONSENT_WALL,
        ),
        ("<p>The council approved it.</p><div>Subscribe now to continue reading.</div>", FetchOutcome.PAYWALL),
        ("<p>Sign in to continue reading this report.</p>", FetchOutcome.LOGIN_WALL),
        ("<form><input type='password'><button>Go</button></form>", FetchOutcome.LOGIN_WALL),
    ],
)
def test_a_wall_in_place_of_the_text_is_still_a_wall(
    web: FakeWeb, fetcher: Fetcher, body: str, outcome: FetchOutcome
) -> None:
    result = fetcher.fetch(web.page("/walled", _page(body)))
    assert result.outcome is outcome and result.text == ""
