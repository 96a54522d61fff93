"""The everyday command-line surface (issue 24): ``--version``, help without type noise, and the
documented exit code for a malformed URL."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from citewise.cli import app
from citewise.version import __version__
from tests.conftest import REPO

pytestmark = pytest.mark.unit

SAMPLE = REPO / "examples" / "corpus"


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and group of the CLI, as the words that reach it."""
    paths: list[tuple[str, ...]] = [()]

    def walk(command: object, path: tuple[str, ...]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            paths.append((*path, name))
            walk(sub, (*path, name))

    walk(get_command(app), ())
    return paths


def test_version_prints_the_package_version() -> None:
    code, out = _invoke("--version")
    assert code == 0 and out.strip() == f"citewise {__version__}"


@pytest.mark.parametrize("path", _command_paths(), ids=lambda p: " ".join(p) or "citewise")
def test_help_shows_no_type_noise(path: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out = _invoke(*path, "--help")
    assert code == 0, out
    noise = re.findall(r"<(?:bool|str|list\[str\])>", out)
    assert not noise, f"{' '.join(path)} --help shows {noise}"


def test_help_keeps_types_that_tell_the_reader_something(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    _code, out = _invoke("search", "--help")
    assert "<int>" in out  # -k takes a number


@pytest.mark.parametrize(
    "url", ["htp:/bad url", "http://", "ftp://example.com/x", "http://[::1", "example.com/no-scheme", ""]
)
def test_fetch_of_a_malformed_url_is_a_usage_error(url: str) -> None:
    code, out = _invoke("fetch", url)
    assert code == 2, out
    assert out.startswith("error: ") and "Traceback" not in out
    assert len(out.strip().splitlines()) == 1, out  # one line, even past 80 columns
    code, out = _invoke("fetch", url, "--json")
    assert code == 2 and '"user_error": true' in out


def test_ingesting_an_empty_folder_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "store.sqlite"))
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".hidden").write_text("not a document", encoding="utf-8")
    code, out = _invoke("ingest", str(empty))
    assert code == 2 and out.strip().startswith("error: nothing to ingest") and str(empty) in " ".join(out.split())
    result = CliRunner().invoke(app, ["ingest", str(empty), "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["user_error"] is True


def test_search_takes_top_as_the_long_name_of_k(sample_store_file: Path, tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    shutil.copyfile(sample_store_file, store)
    code, out = _invoke("search", "보증금", "--top", "2", "--json", "--store", str(store))
    assert code == 0 and len(json.loads(out)) == 2


def test_eval_retrieval_says_which_gold_documents_the_store_does_not_hold(
    sample_store_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store.sqlite"
    shutil.copyfile(sample_store_file, store)
    rows = [
        {"id": "q1", "query": "보증금을 돌려받지 못하면", "gold": ["주택임대차보호법#제4조"]},  # in the sample corpus
        {"id": "q2", "query": "양도소득세 세율", "gold": ["소득세법#제104조"]},
        {"id": "q3", "query": "개인정보 유출 통지", "gold": ["개인정보 보호법#제34조", "소득세법"]},
    ]
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setenv("COLUMNS", "200")
    code, out = _invoke("eval", "retrieval", "--queries", str(queries), "--store", str(store))
    assert code == 0, out
    assert "2 of 3 queries ask about documents this store does not hold" in out
    assert "2 gold documents missing: 소득세법, 개인정보 보호법" in out
    result = CliRunner().invoke(app, ["eval", "retrieval", "--queries", str(queries), "--store", str(store), "--json"])
    data = json.loads(result.stdout)
    assert data["missing_gold"] == ["소득세법", "개인정보 보호법"] and data["unanswerable"] == 2


def test_piped_ingest_prints_progress_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where stderr is not a terminal a bar shows nothing: the steps print plain lines instead."""
    from citewise.search import dense
    from citewise.search.embedders import EMBEDDER_ENV, EMBEDDERS
    from citewise.testing.embedder import HashingEmbedder

    embedder = HashingEmbedder()
    monkeypatch.setitem(EMBEDDERS, "fake", lambda _arg: embedder)
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    monkeypatch.setenv(EMBEDDER_ENV, "fake")
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["ingest", str(SAMPLE / "kr-statutes")])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("ingesting 1/3 files") and "ingesting 3/3 files" in lines
    embedding = [line for line in lines if line.startswith("embedding ")]
    total = int(embedding[0].split("/")[1].split()[0])
    assert total > 100 and embedding[0] == f"embedding 0/{total} section texts"
    assert embedding[-1] == f"embedding {total}/{total} section texts"


def test_piped_progress_speaks_at_most_every_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.cli.common import err_console
    from citewise.cli.ingest import PipedProgress

    clock = iter([0.0, 0.0, 1.0, 2.0, 12.0, 13.0, 14.0])
    printed: list[str] = []
    monkeypatch.setattr(err_console, "print", lambda line, **_: printed.append(line))
    progress = PipedProgress("embedding", "section texts", every_s=10.0, clock=lambda: next(clock))
    for done in (0, 32, 64, 96, 128, 160):
        progress(done, 160)
    assert printed == [
        "embedding 0/160 section texts",
        "embedding 96/160 section texts (60%, 8.0/s, about 8 s left)",
        "embedding 160/160 section texts",
    ]
