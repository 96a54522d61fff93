"""Hostile files fail alone: each is reported in one line naming the file, the problem and the fix,
within its bounds, while the good file of the same command is ingested (cases in
:mod:`citewise.testing.hostile_files`, generated at test time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.errors import ParseError
from citewise.ingest.limits import ParseBudget, ParseLimits, load_yaml
from citewise.ingest.pipeline import IngestOptions, ingest_paths
from citewise.records import IngestOutcome
from citewise.store.evidence import EvidenceStore
from citewise.testing.hostile_files import GOOD_FILE, HostileCase, hostile_cases

CASES = hostile_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hostile_file_fails_alone_with_one_line_and_the_good_file_is_ingested(
    case: HostileCase, store: EvidenceStore, tmp_path: Path
) -> None:
    folder = case.write(tmp_path / case.name)
    results = ingest_paths(store, [folder], IngestOptions(limits=case.limits))

    good = [r for r in results if r.source.endswith(GOOD_FILE)]
    assert [r.outcome for r in good] == [IngestOutcome.NEW_DOCUMENT]
    failed = [r for r in results if r.outcome is IngestOutcome.FAILED]
    if case.expect is None:
        assert failed == []
        assert len(results) == len(case.files) + 1
        return
    assert len(failed) == case.failures, failed
    for r in failed:
        assert r.error is not None and "\n" not in r.error
        assert case.expect in r.error
        assert r.error.startswith(r.source + ":")  # names the file (and line)
    stored_others = [r for r in results if r.outcome is IngestOutcome.NEW_DOCUMENT and r not in good]
    jsonl = next(iter(case.files)).endswith(".jsonl") and case.name != "utf16-jsonl"
    assert len(stored_others) == (2 if jsonl else 0)  # the good rows around a bad JSONL line


def test_the_whole_suite_runs_in_bounded_memory_and_time(tmp_path: Path) -> None:
    # Address space capped at 1.5 GB: the alias bomb alone used to reach 6.3 GB. The timeout is a
    # bound (it used to take minutes), not a speed target; benchmarks/hostile_files.py measures.
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))\n"
        "from pathlib import Path\n"
        "from citewise.ingest.pipeline import IngestOptions, ingest_paths\n"
        "from citewise.store.evidence import EvidenceStore\n"
        "from citewise.testing.hostile_files import hostile_cases\n"
        "root = Path(sys.argv[1])\n"
        "with EvidenceStore.open(str(root / 'store.sqlite')) as store:\n"
        "    for case in hostile_cases():\n"
        "        ingest_paths(store, [case.write(root / case.name)], IngestOptions(limits=case.limits))\n"
        "print('done')\n"
    )
    env = {**os.environ, "CITEWISE_EMBEDDER": "none"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr[-2000:]


def test_human_output_escapes_markup_and_control_characters_in_names(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "names"
    folder.mkdir()
    (folder / "[bold]x[bold].md").write_text("# M\n\nx\n")
    (folder / "new\nline\u202e.md").write_text("# C\n\nx\n")
    (folder / "[red]missing.md").symlink_to(folder / "nowhere.md")
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COLUMNS", "250")
    result = CliRunner().invoke(app, ["ingest", str(folder), "--no-embed"])
    out = result.output
    assert "[bold]x[bold].md" in out  # printed as written, not read as markup
    assert "[red]missing.md" in out and "broken link" in out
    assert "new\\nline\\u202e.md" in out
    assert "\u202e" not in out and "new\nline" not in out
    assert result.exit_code == 1


def test_json_output_keeps_names_exact(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "names"
    folder.mkdir()
    (folder / "new\nline\u202e.md").write_text("# C\n\nx\n")
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
    result = CliRunner().invoke(app, ["ingest", str(folder), "--json", "--no-embed"])
    assert result.exit_code == 0, result.output
    assert [r["source"] for r in json.loads(result.output)] == [str(folder / "new\nline\u202e.md")]


def test_yaml_within_the_bounds_loads_aliases_and_all() -> None:
    loaded = load_yaml("base: &b {x: 1}\nfirst: *b\nsecond: *b\n", "front matter")
    assert loaded == {"base": {"x": 1}, "first": {"x": 1}, "second": {"x": 1}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: &a [1, 2]\nb: [*a, *a, *a, *a, *a, *a]\n", "expands to more than 10"),
        ("a: " + "[" * 12 + "]" * 12 + "\n", "nested deeper than 10"),
    ],
)
def test_yaml_past_the_bounds_is_refused(text: str, message: str) -> None:
    budget = ParseBudget("m.yaml", ParseLimits(yaml_max_nodes=10, yaml_max_depth=10))
    with budget.running(), pytest.raises(ParseError, match=message):
        load_yaml(text, "m.yaml")
