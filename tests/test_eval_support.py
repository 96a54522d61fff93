"""``citewise eval support``: shares of unsupported rows flagged and supported rows passed, clear errors."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from citewise.cli.eval_support import support
from citewise.config import Secret
from citewise.errors import InputError
from citewise.eval.support import evaluate_support, load_pairs
from citewise.llm import ChatClient, ModelSettings
from citewise.records.verify import Decision
from citewise.testing import FakeOpenAIServer

ARTICLE = (
    "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다. "
    "다만, 3개월 미만 근무한 경우에는 그러하지 아니하다."
)
PAGE = "Don Pyke had been an assistant coach at Adelaide from 2005 to 2006. He was appointed senior coach in 2016."

ROWS: list[dict[str, Any]] = [
    {
        "id": "a",
        "claim": "사용자는 해고하려면 적어도 30일 전에 예고해야 한다.",
        "evidence": ARTICLE,
        "label": "supported",
    },
    {
        "id": "b",
        "claim": "사용자는 해고하려면 적어도 60일 전에 예고해야 한다.",
        "evidence": ARTICLE,
        "label": "unsupported",
    },
    {"id": "c", "claim": "사용자는 항상 30일 전에 해고를 예고해야 한다.", "evidence": ARTICLE, "label": "unsupported"},
    {
        "id": "d",
        "question": "What position did Don Pyke hold at Adelaide from 2005 to 2006?",
        "claim": "Assistant coach",
        "evidence": PAGE,
        "label": "supported",
    },
    # Labelled supported, but the checks flag it: one supported row of three is missed.
    {"id": "e", "claim": "Don Pyke was senior coach at Adelaide in 2015.", "evidence": PAGE, "label": "supported"},
]


def write(path: Path, rows: Sequence[dict[str, Any] | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.unit
def test_shares_are_computed_per_label(tmp_path: Path) -> None:
    report = evaluate_support(load_pairs(write(tmp_path / "pairs.jsonl", ROWS)))
    assert (report.pairs, report.unsupported_rows, report.supported_rows) == (5, 2, 3)
    assert report.unsupported_flagged == 1.0
    assert report.supported_passed == pytest.approx(2 / 3)
    assert [(r.id, r.decision, r.correct) for r in report.results] == [
        ("a", Decision.SUPPORTED, True),
        ("b", Decision.UNSUPPORTED, True),
        ("c", Decision.UNSUPPORTED, True),
        ("d", Decision.SUPPORTED, True),
        ("e", Decision.UNSUPPORTED, False),
    ]
    assert report.judge == "deterministic"


@pytest.mark.unit
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "pairs.jsonl:2: not valid JSON"),
        ("[1, 2]", "pairs.jsonl:2: expected a JSON object"),
        ('{"id": "x", "claim": "c", "evidence": "e", "label": "maybe"}', "label must be 'supported' or 'unsupported'"),
        ('{"id": "x", "claim": "", "evidence": "e", "label": "supported"}', "pairs.jsonl:2: 'claim' must be"),
        ('{"id": "x", "claim": "c", "label": "supported"}', "'evidence' must be a non-empty string"),
        ('{"id": "a", "claim": "c", "evidence": "e", "label": "supported"}', "duplicate id 'a'"),
        ('{"id": "x", "question": 3, "claim": "c", "evidence": "e", "label": "supported"}', "'question' must be"),
    ],
)
def test_bad_line_is_a_clear_input_error_naming_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path / "pairs.jsonl", [ROWS[0], line])
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_pairs(path)


@pytest.mark.unit
def test_the_version_a_pairs_origin_names_is_the_pages_context(tmp_path: Path) -> None:
    # The page never says "3.11"; its address does. A version it does not name is still flagged.
    evidence = "The new Self annotation provides a simple way to annotate methods that return an instance."
    rows = [
        {"id": n, "claim": f"Python {v} adds the Self annotation for methods that return an instance.",
         "evidence": evidence, "label": label, "origin": "https://docs.python.org/3.11/whatsnew/3.11.html"}
        for n, v, label in (("a", "3.11", "supported"), ("b", "3.10", "unsupported"))
    ] + [{"id": "c", "claim": "Python 3.11 adds the Self annotation for methods that return an instance.",
          "evidence": evidence, "label": "supported"}]  # fmt: skip
    pairs = load_pairs(write(tmp_path / "pairs.jsonl", rows))
    assert [p.origin for p in pairs] == ["https://docs.python.org/3.11/whatsnew/3.11.html"] * 2 + [""]
    report = evaluate_support(pairs, meaning=False)
    assert [(r.id, r.decision) for r in report.results] == [
        ("a", Decision.SUPPORTED),
        ("b", Decision.UNSUPPORTED),
        ("c", Decision.UNSUPPORTED),
    ]
    assert report.results[1].reason == "number not in the span: 3.10"


@pytest.mark.unit
def test_missing_or_empty_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_pairs(tmp_path / "absent.jsonl")
    with pytest.raises(InputError, match="holds no pairs"):
        load_pairs(write(tmp_path / "empty.jsonl", [""]))


# -- the command ---------------------------------------------------------------------------------------


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COLUMNS", "200")
    app = typer.Typer()
    app.command()(support)
    app.command("other")(lambda: None)  # two commands, so "support" is addressed by name as in citewise eval

    def invoke(*args: str, code: int = 0) -> tuple[str, str]:
        result = CliRunner().invoke(app, ["support", *args])
        assert result.exit_code == code, (result.output, result.exception)
        return result.stdout, result.stderr

    return invoke


@pytest.mark.integration
def test_command_prints_both_shares_and_json_per_row(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path / "pairs.jsonl", ROWS)
    text, _ = run("--pairs", str(path))
    assert "100.0% of 2" in text and "66.7% of 3" in text and "deterministic" in text
    assert "e:" in text
    data = json.loads(run("--pairs", str(path), "--json")[0])
    assert data["unsupported_flagged"] == 1.0 and data["supported_rows"] == 3
    assert [(r["id"], r["decision"]) for r in data["results"]][:2] == [("a", "supported"), ("b", "unsupported")]
    assert data["results"][1]["reason"].startswith("wrong number: 60일")


@pytest.mark.integration
def test_command_reports_a_bad_line_and_exits_2(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path / "pairs.jsonl", [ROWS[0], "{oops"])
    _, err = run("--pairs", str(path), code=2)
    assert "pairs.jsonl:2: not valid JSON" in err


@pytest.mark.integration
def test_llm_without_a_model_name_is_a_config_error(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("PLANNER_MODEL", raising=False)
    _, err = run("--pairs", str(write(tmp_path / "pairs.jsonl", ROWS)), "--llm", code=2)
    assert "PLANNER_MODEL" in err


# -- with the model judge -------------------------------------------------------------------------------


@pytest.fixture
def client() -> Iterator[tuple[FakeOpenAIServer, ChatClient]]:
    with FakeOpenAIServer() as server:
        settings = ModelSettings(api_key=Secret("sk-test-eval"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as chat:
            yield server, chat


@pytest.mark.integration
def test_model_judgements_replace_deterministic_ones_unless_discarded(
    client: tuple[FakeOpenAIServer, ChatClient], tmp_path: Path
) -> None:
    server, chat = client
    rows = [ROWS[0], ROWS[4]]
    # Row a: the model invents a span, so the deterministic verdict (supported) stands.
    server.enqueue_reply(json.dumps({"decision": "unsupported", "reason": "r", "span": "해고는 자유이다"}))
    # Row e: the model quotes the page; its verdict replaces the deterministic one.
    server.enqueue_reply(json.dumps({"decision": "supported", "reason": "r", "span": "appointed senior coach in 2016"}))
    report = evaluate_support(load_pairs(write(tmp_path / "pairs.jsonl", rows)), client=chat, model="judge-1")
    assert [(r.id, r.decision, r.judge) for r in report.results] == [
        ("a", Decision.SUPPORTED, "deterministic"),
        ("e", Decision.SUPPORTED, "judge-1"),
    ]
    assert report.supported_passed == 1.0 and report.judge == "deterministic+judge-1"
    assert len(server.requests) == 2


@pytest.mark.integration
def test_command_json_lists_each_claims_decision(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    row = {
        "id": "two",
        "claim": "The tomllib module parses TOML files. The default timeout is 60 seconds.",
        "evidence": "The tomllib module parses TOML files. The default timeout is 30 seconds.",
        "label": "unsupported",
    }
    data = json.loads(run("--pairs", str(write(tmp_path / "pairs.jsonl", [row])), "--json")[0])
    result = data["results"][0]
    assert [(c["text"], c["decision"]) for c in result["claims"]] == [
        ("The tomllib module parses TOML files.", "supported"),
        ("The default timeout is 60 seconds.", "unsupported"),
    ]
    assert result["reason"] == result["claims"][1]["reason"]
    assert result["reason"].startswith("wrong number: 60 seconds")
