"""URL normalisation for dedupe (SPEC 4.3): what is the same page, and what is never collected."""

from __future__ import annotations

import pytest

from citewise.errors import InputError
from citewise.research.urls import UnusableURL, normalize_url

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("HTTPS://Example.ORG/Path/To?Q=Yes", "https://example.org/Path/To?Q=Yes"),  # path and query keep case
        ("http://example.org", "http://example.org/"),  # empty path -> "/"
        ("http://example.org?a=1", "http://example.org/?a=1"),
        ("https://example.org/a#section-2", "https://example.org/a"),  # fragment dropped
        ("https://example.org/a?x=1#frag", "https://example.org/a?x=1"),
        ("http://example.org:80/a", "http://example.org/a"),  # default ports dropped
        ("https://example.org:443/a", "https://example.org/a"),
        ("http://example.org:443/a", "http://example.org:443/a"),  # not the default for http
        ("https://example.org:8443/a", "https://example.org:8443/a"),
        ("https://example.org./a", "https://example.org/a"),  # trailing root dot
        ("https://EXAMPLE.org.:443/", "https://example.org/"),
        ("https://한국.kr/법령?id=1", "https://xn--3e0b707e.kr/%EB%B2%95%EB%A0%B9?id=1"),  # IDN host, path escaped
        ("https://XN--3E0B707E.KR/a", "https://xn--3e0b707e.kr/a"),  # ...equal to its ASCII form
        ("https://example.org/a%2Fb?q=%EB%B3%B4", "https://example.org/a%2Fb?q=%EB%B3%B4"),  # escapes kept
        ("https://example.org/a/", "https://example.org/a/"),  # a trailing slash is meaningful
        ("http://[2606:4700::ABCD]:80/x", "http://[2606:4700::abcd]/x"),
        ("  https://example.org/a  ", "https://example.org/a"),  # surrounding whitespace
    ],
)
def test_normalised_form(url: str, expected: str) -> None:
    assert normalize_url(url) == expected


def test_same_page_spelled_differently_normalises_equal() -> None:
    spellings = [
        "https://Example.org/doc?id=7",
        "HTTPS://EXAMPLE.ORG:443/doc?id=7#top",
        "https://example.org./doc?id=7",
    ]
    assert len({normalize_url(u) for u in spellings}) == 1


def test_different_pages_stay_different() -> None:
    assert normalize_url("https://example.org/Doc") != normalize_url("https://example.org/doc")
    assert normalize_url("https://example.org/doc?id=1") != normalize_url("https://example.org/doc?id=2")
    assert normalize_url("http://example.org/doc") != normalize_url("https://example.org/doc")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("javascript:alert(1)", "javascript:"),
        ("JavaScript:alert(document.cookie)", "javascript:"),
        ("ftp://example.org/file.txt", "ftp:"),
        ("file:///etc/passwd", "file:"),
        ("data:text/html,<script>alert(1)</script>", "data:"),
        ("mailto:someone@example.org", "mailto:"),
        ("example.org/page", "no scheme"),
        ("//example.org/page", "no scheme"),
        ("http://u:p@example.org/", "credentials"),
        ("https://user@example.org/", "credentials"),
        ("https://:secret@example.org/", "credentials"),
        ("http:///path-only", "no usable host"),
        ("http://example..org/", "no usable host"),
        ("http://example.org:99999/", "invalid port"),
        ("http://example.org:http/", "invalid port"),
        ("https://example.org/a b", "whitespace"),
        ("https://example.org/a\nb", "whitespace"),
        ("", "empty"),
        ("http://[::1/", "cannot be parsed"),
    ],
)
def test_unusable_urls_are_refused_with_the_reason(url: str, why: str) -> None:
    with pytest.raises(UnusableURL, match=why):
        normalize_url(url)


def test_unusable_url_is_an_input_error() -> None:
    assert issubclass(UnusableURL, InputError)


def test_credentials_are_not_echoed_in_the_message() -> None:
    with pytest.raises(UnusableURL) as info:
        normalize_url("https://admin:hunter2@example.org/")
    assert "hunter2" not in str(info.value)


def test_an_extra_scheme_can_be_allowed_and_is_kept_opaque() -> None:
    url = "citewise://kr-law-001248@2/%EC%A0%9C2%EC%A1%B0#x"
    with pytest.raises(UnusableURL):
        normalize_url(url)
    assert normalize_url(url, schemes=("citewise",)) == "citewise://kr-law-001248@2/%EC%A0%9C2%EC%A1%B0"
    with pytest.raises(UnusableURL, match="citewise"):
        normalize_url("https://example.org/", schemes=("citewise",))
