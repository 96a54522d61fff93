"""URLs by the WHATWG standard (SPEC 4.3, 4.6): the host a browser would connect to, what the standard
rejects refused with a reason, no input crashing the parser, and non-public hosts refused for every
extractor. The table (tests/fixtures/urls/whatwg_cases.json) is citewise's own, in the shape of the
standard's test data."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest

from citewise.fetch.target import UnusableURL, parse_target
from citewise.research.urls import normalize_url

pytestmark = pytest.mark.unit

TABLE = json.loads((Path(__file__).parent / "fixtures" / "urls" / "whatwg_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("url", "host"), TABLE["valid"])
def test_valid_urls_get_the_standards_host(url: str, host: str) -> None:
    assert parse_target(url).host == host


@pytest.mark.parametrize("url", TABLE["invalid"])
def test_what_the_standard_rejects_is_refused_with_a_one_line_reason(url: str) -> None:
    with pytest.raises(UnusableURL) as info:
        parse_target(url)
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 300


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://[::1]/",
        "http://[::ffff:7f00:1]/",
        "http://10.1.2.3/",
        "http://192.168.257/",
        "http://169.254.169.254/",
        "http://2852039166/",
        "http://100.64.0.1/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://localhost/",
        "http://LOCALHOST./",
        "http://a.localhost/",
        "http://metadata.google.internal/",
        "http://intranet/",
        "http://0/",
        "http://[::]/",
    ],
)
def test_non_public_hosts_are_never_collected(url: str) -> None:
    with pytest.raises(UnusableURL, match="is not public"):
        normalize_url(url)


def test_public_numeric_forms_are_collected_in_dotted_form() -> None:
    assert normalize_url("http://134744072/x") == "http://8.8.8.8/x"
    assert normalize_url("http://0x08.0x08.0x08.0x08/") == "http://8.8.8.8/"


def test_the_allowlist_lets_exactly_its_pair_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEWISE_FETCH_ALLOW", "127.0.0.1:8123")
    assert normalize_url("http://2130706433:8123/a") == "http://127.0.0.1:8123/a"
    with pytest.raises(UnusableURL):
        normalize_url("http://127.0.0.1:8124/a")
    with pytest.raises(UnusableURL):
        normalize_url("http://localhost:8123/a")


def test_no_input_crashes_the_parser() -> None:
    rng = random.Random(12)
    alphabet = "ab:/@[]%.?#\\\t \x00\x7f0x1fß한☃\ud7ff\ufffd-_~!$&'()*+,;=<>^|`{}\"" + "9" * 5
    for _ in range(3000):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        for url in (f"http://{body}", f"https://{body}/p", body):
            with contextlib.suppress(UnusableURL):  # a reason is fine; any other exception fails
                parse_target(url)
