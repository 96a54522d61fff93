"""The fetcher's address guard (SPEC 4.6): every way of reaching a non-public address is refused,
before connecting, on every redirect hop, and after resolution (no DNS rebinding). The loopback
servers here are real; the only thing injected is the resolver."""

from __future__ import annotations

import gzip
import ipaddress
import time
from collections.abc import Iterator, Sequence

import pytest

from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import ALLOW_ENV, AddressPolicy, HostRefusal, allowlist_from_env, check_address
from citewise.fetch.records import FetchOutcome, Step
from citewise.fetch.transport import IPAddress
from citewise.testing.fake_web import FakeWeb

pytestmark = pytest.mark.integration

ARTICLE = (
    "<html><body><article><h1>Deposits</h1>"
    + "<p>Deposits are protected by the insurance fund. " * 30
    + "</p></article></body></html>"
)
FAST = FetchSettings(connect_timeout_s=1.0, read_timeout_s=2.0, total_timeout_s=5.0, max_bytes=1_000_000)


@pytest.fixture
def web() -> Iterator[FakeWeb]:
    with FakeWeb() as server:
        server.page("/a", ARTICLE)
        yield server


def allowing(web: FakeWeb) -> AddressPolicy:
    """The test-only allowlist naming exactly this server."""
    return AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))


def port_only(web: FakeWeb) -> AddressPolicy:
    """The server's port allowed, but no allowlist: only the address rules can refuse."""
    return AddressPolicy(ports=frozenset({80, 443, web.port}))


def fetch(url: str, policy: AddressPolicy, resolver: object = None, settings: FetchSettings = FAST) -> object:
    kwargs = {"resolver": resolver} if resolver is not None else {}
    with Fetcher(settings, policy=policy, **kwargs) as fetcher:  # type: ignore[arg-type]
        return fetcher.fetch(url)


def test_the_allowlisted_fake_is_read(web: FakeWeb) -> None:
    result = fetch(web.url("/a"), allowing(web))
    assert result.ok and "insurance fund" in result.text  # type: ignore[attr-defined]
    assert web.hits("/a") == 1


LOOPBACK_FORMS = [
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "0X7F000001",
    "017700000001",
    "0x7f.1",
    "127.1",
    "127.0.1",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "0x7F.0x00.0x00.0x01",
    "0177.0.0.01",
    "127.000.000.001",
    "127.0.0.1.",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[::127.0.0.1]",
    "[64:ff9b::127.0.0.1]",
    "[2002:7f00:1::]",
    "0.0.0.0",
    "0",
    "[::]",
]
METADATA_FORMS = [
    "169.254.169.254",
    "2852039166",
    "0xa9fea9fe",
    "025177524776",
    "169.254.43518",
    "0xa9.0xfe.0xa9.0xfe",
    "0251.0376.0251.0376",
    "169.16689662",
    "[::ffff:169.254.169.254]",
    "[::ffff:a9fe:a9fe]",
    "[fd00:ec2::254]",
    "100.100.100.200",
    "metadata.google.internal",
    "metadata",
    "instance-data",
]


@pytest.mark.parametrize("host", LOOPBACK_FORMS + METADATA_FORMS)
def test_every_numeric_and_ipv6_form_of_loopback_and_metadata_is_refused_before_connecting(
    web: FakeWeb, host: str
) -> None:
    result = fetch(f"http://{host}:{web.port}/a", port_only(web))
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert not result.text  # type: ignore[attr-defined]
    assert web.requests == []


@pytest.mark.parametrize(
    "host", ["localhost", "LOCALHOST", "app.localhost", "printer.local", "db.internal", "router.home.arpa", "intranet"]
)
def test_local_names_are_refused_without_a_lookup(web: FakeWeb, host: str) -> None:
    asked: list[str] = []

    def resolver(name: str, port: int) -> Sequence[IPAddress]:
        asked.append(name)
        return [ipaddress.ip_address("127.0.0.1")]

    result = fetch(f"http://{host}:{web.port}/a", port_only(web), resolver)
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert asked == [] and web.requests == []


def test_a_name_resolving_to_loopback_is_refused_even_when_the_address_is_allowlisted(web: FakeWeb) -> None:
    def resolver(name: str, port: int) -> Sequence[IPAddress]:
        return [ipaddress.ip_address("127.0.0.1")]

    policy = AddressPolicy(ports=frozenset({80, 443, web.port}), allow=frozenset({("127.0.0.1", web.port)}))
    result = fetch(f"http://innocent.example:{web.port}/a", policy, resolver)
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert "127.0.0.1" in result.reason and "innocent.example" in result.reason  # type: ignore[attr-defined]
    assert web.requests == []


def test_a_name_with_any_private_address_among_its_answers_is_refused(web: FakeWeb) -> None:
    def resolver(name: str, port: int) -> Sequence[IPAddress]:
        return [ipaddress.ip_address("93.184.215.14"), ipaddress.ip_address("10.0.0.5")]

    result = fetch(f"http://mixed.example:{web.port}/a", port_only(web), resolver)
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert "10.0.0.5" in result.reason  # type: ignore[attr-defined]


def test_rebinding_cannot_swap_the_address_between_check_and_connect(web: FakeWeb) -> None:
    """The name resolves to a public address first and to loopback afterwards. Each connection
    resolves once and connects to exactly the address it checked: the first fetch goes to the public
    address (unreachable here), the second is refused; the loopback server never sees a request."""
    answers = iter(["93.184.215.14", "127.0.0.1"])
    asked: list[str] = []

    def resolver(name: str, port: int) -> Sequence[IPAddress]:
        asked.append(name)
        return [ipaddress.ip_address(next(answers))]

    settings = FetchSettings(connect_timeout_s=0.3, read_timeout_s=0.5, total_timeout_s=1.0, respect_robots=False)
    with Fetcher(settings, policy=port_only(web), resolver=resolver) as fetcher:
        first = fetcher.fetch(f"http://rebind.example:{web.port}/a")
        second = fetcher.fetch(f"http://rebind.example:{web.port}/a")
    connects = [d.detail for d in first.decisions if d.step is Step.CONNECT]
    assert connects and connects[0].startswith("connect 93.184.215.14:")
    assert first.outcome in (FetchOutcome.CONNECT_FAILED, FetchOutcome.TIMEOUT)
    assert second.outcome is FetchOutcome.REFUSED_URL and "127.0.0.1" in second.reason
    assert asked == ["rebind.example", "rebind.example"]  # one resolution per connection
    assert web.requests == []


def test_a_redirect_to_a_loopback_port_not_on_the_allowlist_is_refused(web: FakeWeb) -> None:
    with FakeWeb() as other:
        other.page("/secret", "<html><body>internal admin</body></html>")
        web.page("/r", status=302, headers={"Location": other.url("/secret")})
        result = fetch(web.url("/r"), allowing(web))
        assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
        assert other.requests == []
    assert web.hits("/r") == 1


@pytest.mark.parametrize("target", ["http://2130706433/", "http://[::ffff:7f00:1]/", "http://169.254.169.254/latest/"])
def test_a_redirect_to_a_numeric_internal_address_is_refused(web: FakeWeb, target: str) -> None:
    web.page("/r", status=301, headers={"Location": target})
    result = fetch(web.url("/r"), allowing(web))
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert [d.step for d in result.decisions if not d.allowed] == [Step.URL]  # type: ignore[attr-defined]


def test_five_redirects_are_followed_and_a_sixth_is_refused(web: FakeWeb) -> None:
    for i in range(7):
        web.page(f"/hop{i}", status=302, headers={"Location": f"/hop{i + 1}"})
    web.page("/hop5", ARTICLE)  # /hop0 -> ... -> /hop5: five redirects
    assert fetch(web.url("/hop0"), allowing(web)).ok  # type: ignore[attr-defined]
    web.page("/hop5", status=302, headers={"Location": "/hop6"})
    web.page("/hop6", ARTICLE)
    result = fetch(web.url("/hop0"), allowing(web))
    assert result.outcome is FetchOutcome.TOO_MANY_REDIRECTS  # type: ignore[attr-defined]
    assert web.hits("/hop6") == 0


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.org/file", "only http/https"),
        ("file:///etc/passwd", "only http/https"),
        ("gopher://127.0.0.1:70/", "only http/https"),
        ("http://user:pw@example.org/", "credentials"),
        ("http://example.org:8080/", "port not allowed"),
        ("http://exa mple.org/", "whitespace"),
        ("http://[::1/", "IPv6"),
    ],
)
def test_schemes_credentials_and_ports_are_refused_with_the_reason(url: str, why: str) -> None:
    result = fetch(url, AddressPolicy())
    assert result.outcome is FetchOutcome.REFUSED_URL  # type: ignore[attr-defined]
    assert why in result.reason  # type: ignore[attr-defined]
    assert "pw" not in result.reason  # type: ignore[attr-defined]


def test_a_2_gib_body_is_refused_by_its_length_and_a_streamed_one_stops_at_the_limit(web: FakeWeb) -> None:
    web.page("/huge", stream_bytes=2 * 1024**3)
    web.page("/endless", stream_bytes=2 * 1024**3, declare_length=False)
    started = time.monotonic()
    declared = fetch(web.url("/huge"), allowing(web))
    streamed = fetch(web.url("/endless"), allowing(web))
    assert declared.outcome is FetchOutcome.TOO_LARGE  # type: ignore[attr-defined]
    assert streamed.outcome is FetchOutcome.TOO_LARGE  # type: ignore[attr-defined]
    assert "1000000-byte limit" in streamed.reason  # type: ignore[attr-defined]
    assert time.monotonic() - started < 10


def test_a_gzip_bomb_stops_at_the_decompressed_limit(web: FakeWeb) -> None:
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=6)  # 64 MiB in ~64 KiB; the limit is 1 MB
    web.page("/bomb", bomb, headers={"Content-Encoding": "gzip"})
    result = fetch(web.url("/bomb"), allowing(web))
    assert result.outcome is FetchOutcome.TOO_LARGE  # type: ignore[attr-defined]
    assert result.bytes_read == 0 and not result.text  # type: ignore[attr-defined]


def test_a_slow_drip_stops_at_the_total_time(web: FakeWeb) -> None:
    web.page("/drip", ARTICLE.encode(), drip_s=0.05)  # each byte well inside the read timeout
    settings = FetchSettings(connect_timeout_s=1.0, read_timeout_s=2.0, total_timeout_s=1.0)
    started = time.monotonic()
    result = fetch(web.url("/drip"), allowing(web), settings=settings)
    assert result.outcome is FetchOutcome.TIMEOUT  # type: ignore[attr-defined]
    assert time.monotonic() - started < 2.5


def test_check_address_names_the_range() -> None:
    cases = {
        "10.1.2.3": HostRefusal.PRIVATE,
        "172.16.0.1": HostRefusal.PRIVATE,
        "192.168.0.1": HostRefusal.PRIVATE,
        "100.64.0.1": HostRefusal.SHARED,
        "169.254.1.1": HostRefusal.LINK_LOCAL,
        "224.0.0.251": HostRefusal.MULTICAST,
        "240.0.0.1": HostRefusal.PRIVATE,
        "fe80::1": HostRefusal.LINK_LOCAL,
        "fc00::1": HostRefusal.PRIVATE,
        "ff02::1": HostRefusal.MULTICAST,
        "64:ff9b::808:808": HostRefusal.EMBEDDED_IPV4,
        "::ffff:8.8.8.8": HostRefusal.EMBEDDED_IPV4,
        "2001:db8::1": HostRefusal.PRIVATE,
    }
    for address, reason in cases.items():
        assert check_address(ipaddress.ip_address(address)) is reason, address
    for public in ("8.8.8.8", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001::200e"):
        assert check_address(ipaddress.ip_address(public)) is None, public


def test_the_allowlist_is_off_by_default_and_loud_when_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert allowlist_from_env({}) == frozenset()
    assert allowlist_from_env({ALLOW_ENV: "127.0.0.1:8080, [::1]:9000"}) == {("127.0.0.1", 8080), ("::1", 9000)}
    assert "WARNING" in capsys.readouterr().err
    with pytest.raises(Exception, match="host:port"):
        allowlist_from_env({ALLOW_ENV: "127.0.0.1"})
