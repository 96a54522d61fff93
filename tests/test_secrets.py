"""Secrets never leave the process (issue 11, point 5), tried with canary keys.

Keys are validated when loaded (a line break or control character is an error naming the variable,
never echoing the value); run events are redacted as they enter the store, so a key a provider echoes
back — whole or masked as ``sk-CANAR********1111`` — reaches neither the store file, nor ``--json``
output, nor stderr, nor any export; a token in a configured endpoint's query string is a secret too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.audit.events import RunConfigured
from citewise.cli import app
from citewise.config import REDACTED, Secret, redact, redact_url_credentials
from citewise.errors import ConfigError
from citewise.export.run import export_run
from citewise.llm import ModelSettings
from citewise.providers.tavily import TavilySettings
from citewise.records.budget import Budget
from citewise.serial import to_data
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyError
from tests.conftest import REPO
from tests.loop_harness import TAVILY_KEY, Env, plan_reply
from tests.loop_harness import env as env  # noqa: F401 - the loop tests' fixture, by its name

pytestmark = pytest.mark.integration

SAMPLE = REPO / "examples" / "corpus"
CANARY = "sk-CANARY-5f1e2d3c4b5a1111"
MASKED = "sk-CANAR********1111"


def _store_bytes(path: Path) -> bytes:
    """The SQLite file and its write-ahead log (recent pages of an open store are only there)."""
    return b"".join(p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists())


@pytest.mark.parametrize(
    ("variable", "load"),
    [("TAVILY_API_KEY", TavilySettings.from_env), ("COMETAPI_KEY", ModelSettings.from_env)],
)
@pytest.mark.parametrize("bad", ["tvly-CANARY\nX-Injected: 1", "tvly-CANARY\tkey", "tvly-CANARY\x1bkey"])
def test_a_key_with_a_line_break_or_control_character_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, variable: str, load: object, bad: str
) -> None:
    for name in ("CITEWISE_LLM_API_KEY", "COMETAPI_KEY", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, bad)
    with pytest.raises(ConfigError) as caught:
        load()  # type: ignore[operator]
    assert variable in str(caught.value) and "CANARY" not in str(caught.value)


def test_a_secret_with_a_line_break_cannot_be_made_directly() -> None:
    with pytest.raises(ConfigError) as caught:
        Secret("sk-CANARY\nrest")
    assert "CANARY" not in str(caught.value)


def test_known_secrets_and_their_masked_echoes_are_redacted() -> None:
    Secret(CANARY)
    text = f"bad key {CANARY}; provider says: Incorrect API key provided: {MASKED}. Also ****1111 and sk-CANA...1111"
    cleaned = redact(text)
    assert "CANA" not in cleaned and "1111" not in cleaned
    assert cleaned.count(REDACTED) == 4
    assert redact("The deposit is 1111 won, see sk-other.") == "The deposit is 1111 won, see sk-other."


def test_credentials_in_urls_are_redacted_and_other_parameters_kept() -> None:
    url = "https://user:pw@api.example/v1?api_key=abc&q=rent&sig=zz&access_token=t"
    assert redact_url_credentials(url) == (
        f"https://{REDACTED}@api.example/v1?api_key={REDACTED}&q=rent&sig={REDACTED}&access_token={REDACTED}"
    )


def test_a_token_in_the_tavily_base_url_never_reaches_the_run_record(tmp_path: Path) -> None:
    token = "tok-CANARY-77aa88bb99"
    base_url = f"https://tavily.proxy.example/api?token={token}"
    TavilySettings(api_key=Secret("tvly-CANARY-key-0001"), base_url=base_url)  # the token is now a known secret
    path = tmp_path / "s.sqlite"
    with EvidenceStore.open(str(path)) as store:
        runs = RunStore(store)
        run_id = runs.create("research", "q")
        configured = RunConfigured(
            search="tavily",
            extract="tavily",
            planner_model="p",
            writer_model="w",
            budget=Budget(),
            concurrent=False,
            pages_per_query=2,
            search_options={"base_url": base_url, "note": f"failed at {base_url}"},
            extract_options={"base_url": "https://other.example/x?key=abc123456&depth=basic"},
        )
        runs.append(run_id, configured)
        record = runs.get(run_id)
        exports = [export_run(record, fmt) for fmt in ("md", "json", "html")]
    (stored,) = record.of(RunConfigured)
    assert stored.search_options == {
        "base_url": f"https://tavily.proxy.example/api?token={REDACTED}",
        "note": f"failed at https://tavily.proxy.example/api?token={REDACTED}",
    }
    assert stored.extract_options == {"base_url": f"https://other.example/x?key={REDACTED}&depth=basic"}
    blob = _store_bytes(path)
    assert b"redacted" in blob and token.encode() not in blob and b"abc123456" not in blob
    assert all(token not in text for text in exports)


def test_a_masked_key_echoed_on_401_reaches_no_record_output_or_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "cli.sqlite"
    monkeypatch.setenv("CITEWISE_STORE", str(store))
    runner = CliRunner()

    def run(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(app, list(args))
        return result.exit_code, result.stdout, result.stderr

    assert run("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))[0] == 0
    assert run("review", "apply", str(SAMPLE / "review.yaml"))[0] == 0
    with FakeOpenAIServer() as server:
        monkeypatch.setenv("CITEWISE_LLM_API_KEY", CANARY)
        monkeypatch.setenv("CITEWISE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WRITER_MODEL", "writer-x")
        message = f"Incorrect API key provided: {MASKED}. You can find your API key at the dashboard."
        server.enqueue_error(401, message, type="invalid_request_error", code="invalid_api_key")
        server.enqueue_error(401, f"key {CANARY} is not valid", type="invalid_request_error")
        outputs = [run("ask", "해고 예고는 며칠 전에 해야 하나요?", "--json") for _ in range(2)]
        outputs.append(run("ask", "해고 예고는 며칠 전에 해야 하나요?"))  # human output
        assert len(server.requests) == 3 and server.requests[0].headers["authorization"] == f"Bearer {CANARY}"
    texts = [out for _, stdout, stderr in outputs for out in (stdout, stderr)]
    run_ids = [json.loads(stdout)["run_id"] for _, stdout, _ in outputs[:2] if '"run_id"' in stdout]
    for run_id in run_ids:
        for fmt in ("md", "json", "html"):
            code, stdout, stderr = run("runs", "export", run_id, "--format", fmt)
            assert code == 0
            texts += [stdout, stderr]
        texts.append(run("runs", "show", run_id)[1])
    blob = _store_bytes(store)
    assert REDACTED.encode() in blob  # the echoes were there, and were redacted on the way in
    for form in (CANARY, MASKED, "CANAR"):
        assert form.encode() not in blob
        assert all(form not in text for text in texts), form


def test_a_key_tavily_echoes_in_a_failed_search_reaches_no_attempt_record_or_export(env: Env) -> None:
    masked = TAVILY_KEY[:8] + "********" + TAVILY_KEY[-4:]
    env.web.search_errors["first query"] = [FakeTavilyError(500, f"upstream refused {masked} (key {TAVILY_KEY})")]
    env.brain.script("plan", plan_reply(queries=["first query"]))
    result = env.run(budget=Budget(max_searches=1))
    record = env.record(result.run_id)
    texts = [export_run(record, fmt) for fmt in ("md", "json", "html")]
    texts.append(json.dumps([to_data(e.event) for e in record.events]))
    assert any("ProviderUnavailable" in t for t in texts)  # the failure is recorded ...
    blob = _store_bytes(Path(env.store.url))
    assert REDACTED.encode() in blob
    for form in (TAVILY_KEY, masked, TAVILY_KEY[-10:]):
        assert form.encode() not in blob  # ... without the key, whole or masked
        assert all(form not in text for text in texts)


MASKS = [
    "sk-CANAR********1111",  # 8 + 4
    "sk-...1111",  # 3 + 4
    "sk-C...1111",
    "sk-CANARY-5f1e…1111",
    "***1111",
    "••••••••1111",
    "xx...1111",
]


@pytest.mark.parametrize("mask", MASKS)
def test_every_mask_of_a_known_key_is_redacted_whole(mask: str) -> None:
    Secret(CANARY)
    cleaned = redact(f"Incorrect API key provided: {mask}. Check it.")
    assert cleaned == f"Incorrect API key provided: {REDACTED}. Check it."


@pytest.mark.parametrize("mask", ["sk-CANAR********1111", "sk-...1111"])
def test_a_masked_key_in_a_401_reaches_neither_the_human_output_nor_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mask: str
) -> None:
    store = tmp_path / "cli.sqlite"
    monkeypatch.setenv("CITEWISE_STORE", str(store))
    monkeypatch.setenv("COLUMNS", "300")
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml")]).exit_code == 0
    assert runner.invoke(app, ["review", "apply", str(SAMPLE / "review.yaml")]).exit_code == 0
    with FakeOpenAIServer() as server:
        monkeypatch.setenv("CITEWISE_LLM_API_KEY", CANARY)
        monkeypatch.setenv("CITEWISE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WRITER_MODEL", "writer-x")
        server.enqueue_error(401, f"Incorrect API key provided: {mask}.", type="invalid_request_error")
        human = runner.invoke(app, ["ask", "해고 예고는 며칠 전에 해야 하나요?"])
    assert len(server.requests) == 1
    texts = [human.stdout, human.stderr]
    with EvidenceStore.open(str(store)) as opened:
        runs = RunStore(opened)
        records = [runs.get(r.run_id) for r in runs.list(10)]
    texts += [export_run(record, fmt) for record in records for fmt in ("md", "json", "html")]
    assert records and any(REDACTED in t for t in texts)  # the echo was there, and was redacted
    assert all(mask not in t for t in texts), mask
    assert mask.encode() not in _store_bytes(store)
