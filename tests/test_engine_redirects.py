"""Grounding redirects are resolved by parsed hosts, and a Location that does not parse is a recorded
failure of that citation, never an exception out of the engine run."""

from __future__ import annotations

import pytest

from citewise.engines.redirects import is_redirect, resolve
from citewise.testing.fake_web import FakeWeb

HOSTS = ("vertexaisearch.cloud.google.com",)


@pytest.mark.parametrize(
    ("url", "redirect"),
    [
        ("https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC", True),
        ("https://VERTEXAISEARCH.cloud.google.com./x", True),
        ("https://vertexaisearch.cloud.google.com.evil.example/x", False),
        ("https://vertexaisearch.cloud.google.com@evil.example/x", False),
        ("https://evil.example/https://vertexaisearch.cloud.google.com/", False),
        ("javascript:alert(1)", False),
        ("not a url", False),
    ],
)
def test_a_redirect_host_is_recognised_parsed(url: str, redirect: bool) -> None:
    assert is_redirect(url, HOSTS) is redirect


@pytest.mark.parametrize("location", ["http:\\\\host\\x", "http://[::1", "http://xn--/", "javascript:alert(1)"])
def test_a_location_that_does_not_parse_is_a_failure_of_that_citation(location: str) -> None:
    with FakeWeb() as web:
        web.page("/r", status=302, headers={"Location": location})
        hosts = (f"127.0.0.1:{web.port}",)
        assert is_redirect(web.url("/r"), hosts)
        resolved = resolve(web.url("/r"), hosts, timeout_s=5)
    assert resolved.final_url is None and resolved.error


def test_a_redirect_off_the_hosts_is_the_page() -> None:
    with FakeWeb() as web:
        web.page("/r", status=302, headers={"Location": "https://example.org/story"})
        resolved = resolve(web.url("/r"), (f"127.0.0.1:{web.port}",), timeout_s=5)
    assert resolved.final_url == "https://example.org/story"
