"""``citewise serve`` security at the HTTP boundary: writes need the token, the CSRF value and a
same-origin request; other hosts are refused; every page carries a strict CSP; serving beyond
loopback needs an explicit flag and token; no secret reaches a page; unsafe URLs never become links."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from citewise.audit.events import RunConfigured
from citewise.errors import ConfigError
from citewise.export.view import safe_href
from citewise.records.budget import Budget
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.web.app import create_app
from citewise.web.security import check_bind
from tests.web_runs import TOKEN, record_run

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    path = tmp_path_factory.mktemp("sec") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        run_id = record_run(store, sources=2)
    app = create_app(str(path), token=TOKEN)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:
        yield {"client": client, "run_id": run_id, "app": app, "path": path}


def _csrf(served: dict[str, Any]) -> str:
    return served["app"].state.serve.guard.csrf  # type: ignore[no-any-return]


def _override(client: TestClient, run_id: str, **extra: Any) -> Any:
    form = {"decision": "unsupported", "reviewer": "Mallory", "reason": "forged", **extra.pop("form", {})}
    return client.post(f"/runs/{run_id}/claims/C1/review", data=form, follow_redirects=False, **extra)


def test_every_write_without_the_token_is_refused(served: dict[str, Any]) -> None:
    client, run_id = served["client"], served["run_id"]
    client.cookies.clear()
    csrf = _csrf(served)
    for path, form in (
        (f"/runs/{run_id}/claims/C1/review", {"decision": "unsupported", "reviewer": "M", "reason": "r"}),
        ("/documents/review", {"target": "doc@1", "decision": "approve", "reviewer": "M", "reason": "r"}),
        ("/research", {"question": "anything"}),
    ):
        refused = client.post(path, data={**form, "csrf": csrf}, follow_redirects=False)
        assert refused.status_code == 403 and "needs the serve token" in refused.text
    wrong = client.post("/research", data={"question": "q", "csrf": csrf}, headers={"authorization": "Bearer nope"})
    assert wrong.status_code == 403
    assert served["app"].state.serve.jobs == {}  # nothing started
    page = client.get(f"/runs/{run_id}").text
    assert "Mallory" not in page


def test_a_write_with_the_token_but_without_csrf_or_from_another_site_is_refused(served: dict[str, Any]) -> None:
    client, run_id = served["client"], served["run_id"]
    client.cookies.set("citewise_token", TOKEN)
    assert _override(client, run_id).status_code == 403  # no csrf field
    assert _override(client, run_id, form={"csrf": "0" * 64}).status_code == 403
    cross = _override(client, run_id, form={"csrf": _csrf(served)}, headers={"origin": "https://evil.example"})
    assert cross.status_code == 403 and "cross-site" in cross.text
    ok = _override(client, run_id, form={"csrf": _csrf(served), "decision": "supported"})
    assert ok.status_code == 303 and ok.headers["location"] == f"/runs/{run_id}#claim-C1"
    client.cookies.clear()


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port on the same host is another site
        "https://127.0.0.1:8765",  # another scheme
        "http://localhost:8766",
        "http://127.0.0.1.evil.example:8765",
        "http://evil.example@127.0.0.1:8765",
        "null",
    ],
)
def test_a_write_from_another_port_or_scheme_on_loopback_is_refused(served: dict[str, Any], origin: str) -> None:
    client, run_id = served["client"], served["run_id"]
    client.cookies.set("citewise_token", TOKEN)
    cross = _override(client, run_id, form={"csrf": _csrf(served)}, headers={"origin": origin})
    client.cookies.clear()
    assert cross.status_code == 403 and "cross-site" in cross.text


def test_a_write_from_the_servers_own_origin_is_accepted(served: dict[str, Any]) -> None:
    client, run_id = served["client"], served["run_id"]
    client.cookies.set("citewise_token", TOKEN)
    form = {"csrf": _csrf(served), "decision": "supported"}
    ok = _override(client, run_id, form=form, headers={"origin": "http://127.0.0.1:8765"})
    client.cookies.clear()
    assert ok.status_code == 303


@pytest.mark.parametrize(
    ("bind", "address", "answers"),
    [
        ("127.0.0.2", "http://127.0.0.2:8765", True),  # a loopback address other than 127.0.0.1 serves itself
        ("127.0.0.2", "http://localhost:8765", True),
        ("0.0.0.0", "http://127.0.0.1:8765", True),  # all interfaces: loopback included
        ("0.0.0.0", "http://[::1]:8765", True),
        ("::", "http://localhost:8765", True),
        ("0.0.0.0", "http://evil.example:8765", False),  # DNS rebinding still refused
        ("192.168.1.5", "http://127.0.0.1:8765", False),  # bound to one interface: only that one
    ],
)
def test_the_server_answers_to_the_addresses_it_is_bound_to(
    tmp_path: Path, bind: str, address: str, answers: bool
) -> None:
    from citewise.web.security import served_hosts

    app = create_app(str(tmp_path / "s.sqlite"), token=TOKEN, hosts=served_hosts(bind))
    with TestClient(app, base_url=address) as client:
        status = client.get("/").status_code
    assert (status != 421) is answers


def test_the_printed_address_sets_the_token_cookie_and_drops_it_from_the_url(served: dict[str, Any]) -> None:
    client = served["client"]
    client.cookies.clear()
    login = client.get(f"/?token={TOKEN}&q=deposit", follow_redirects=False)
    assert login.status_code == 303 and login.headers["location"] == "/?q=deposit"
    cookie = login.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("samesite", "SameSite")
    assert client.get("/?token=wrong", follow_redirects=False).status_code == 403
    client.cookies.clear()


def test_other_hosts_are_refused_and_every_page_has_a_strict_policy(served: dict[str, Any]) -> None:
    client, run_id = served["client"], served["run_id"]
    assert client.get("/", headers={"host": "rebound.evil.example"}).status_code == 421
    for path in ("/", f"/runs/{run_id}", "/costs", "/documents", "/research", "/runs/nope", "/static/app.css"):
        response = client.get(path)
        csp = response.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp and response.headers["x-content-type-options"] == "nosniff"
    missing = client.get("/runs/nope")
    assert missing.status_code == 404 and "citewise runs list" in missing.text


def test_no_token_or_key_ever_reaches_a_page(served: dict[str, Any]) -> None:
    client = served["client"]
    key = "tvly-LEAKED-9f8e7d6c5b4a"
    with EvidenceStore.open(str(served["path"])) as store:
        runs = RunStore(store)
        leaky = runs.create("research", f"what about {key}?")  # a key pasted into the question
        runs.append(
            leaky,
            RunConfigured(
                "tavily",
                "tavily",
                "m",
                "m",
                Budget(),
                True,
                2,
                search_options={"base_url": f"https://x.example/?api_key={key}"},
            ),
        )
    from citewise.config import Secret

    Secret(key)  # a key citewise knows (from the environment, in real use)
    client.cookies.set("citewise_token", TOKEN)
    pages = [client.get(p).text for p in ("/", f"/runs/{leaky}", f"/runs/{leaky}/export.html", "/research")]
    client.cookies.clear()
    assert all(TOKEN not in p and key not in p for p in pages)
    assert "&lt;redacted&gt;" in pages[1]


def test_serving_beyond_loopback_needs_a_flag_and_a_token(tmp_path: Path) -> None:
    check_bind("127.0.0.1", False, False)
    check_bind("::1", False, False)
    with pytest.raises(ConfigError, match="--allow-remote"):
        check_bind("0.0.0.0", False, True)
    with pytest.raises(ConfigError, match="CITEWISE_SERVE_TOKEN"):
        check_bind("192.168.1.5", True, False)
    check_bind("192.168.1.5", True, True)
    app = create_app(str(tmp_path / "s.sqlite"), token=TOKEN, hosts=("192.168.1.5",), remote=True)
    with TestClient(app, base_url="http://192.168.1.5:8765") as client:
        assert client.get("/").status_code == 401  # reads need the token too
        assert client.get("/", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_the_serve_command_refuses_a_remote_host_without_the_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app

    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2 and "--allow-remote" in result.output


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "//evil.example/x",
        "/relative",
        "https://",
        "",
    ],
)
def test_unsafe_urls_never_become_links(url: str) -> None:
    assert safe_href(url) is None


def test_web_urls_do_become_links() -> None:
    assert safe_href("https://law.example/a?b=1") == "https://law.example/a?b=1"
    assert safe_href("http://x.example") == "http://x.example"
