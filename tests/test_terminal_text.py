"""Text from documents and pages cannot drive the terminal: every control character and escape
sequence is shown escaped in human output, Rich markup and emoji shortcodes in data are printed as
written, exports drop the controls and JSON keeps the exact value with them written as escapes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citewise.cli import app
from citewise.export.run import export_run
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.text.terminal import json_safe, strip_controls, terminal_safe

# Sequences a hostile title or body may carry: set the window title (OSC 0, ended by BEL or ST),
# clear the screen, move the cursor, 8-bit CSI and OSC, a DCS string, a hyperlink (OSC 8), bell,
# backspace, a carriage return that overwrites the line, bidi overrides and isolates, a line
# separator, a private-use and an unassigned code point.
SEQUENCES = [
    "\x1b]0;pwned\x07",
    "\x1b]2;pwned\x1b\\",
    "\x1b[2J\x1b[H",
    "\x1b[31;1m",
    "\x1b[?1049h",
    "\x9b2J",
    "\x9d0;pwned\x9c",
    "\x1bP+q544e\x1b\\",
    "\x1b]8;;https://evil.example\x07link\x1b]8;;\x07",
    "\x07\x08\x0b\x0c\x7f",
    "\rFAKE",
    "\u202eexe.txt",
    "\u2066isolate\u2069",
    "\u2028",
    "\ue000",
    "\U000e0041",
]
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ue000]")


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_terminal_safe_leaves_nothing_a_terminal_acts_on(sequence: str) -> None:
    shown = terminal_safe(f"before{sequence}after")
    assert not RAW.search(shown) and shown.isprintable()
    assert shown.startswith("before") and shown.endswith("after")


def test_terminal_safe_keeps_every_script_spaces_joiners_and_line_feeds_when_asked() -> None:
    text = "제1조(목적) 東京 مرحبا\u200cها नमस्ते 👩\u200d💻 a\u3000b\u00a0c"
    assert terminal_safe(text) == text
    assert terminal_safe("a\nb\tc\rd", keep_newlines=True) == "a\nb\tc\\rd"
    assert terminal_safe("a\nb") == "a\\nb"
    assert terminal_safe(None) == "None"


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_exports_strip_controls_and_sequences_whole(sequence: str) -> None:
    stripped = strip_controls(f"before{sequence}after\nline two\r\n")
    assert not RAW.search(stripped)
    assert stripped.startswith("before") and "after\nline two\n" in stripped
    assert "pwned" not in stripped and "544e" not in stripped  # the whole sequence goes, not only ESC


def test_json_safe_keeps_the_exact_value() -> None:
    value = {"title": "".join(SEQUENCES) + " 한국어", "n": [1, 2]}
    text = json_safe(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(text) == value and not RAW.search(text.replace("\n", ""))


# -- through the commands ---------------------------------------------------------------------------

TITLE = "Deposit \x1b]0;pwned\x07rules\x1b[2J [bold]kept[/bold] root:x:0:0 :smile: \u202eevil"
BODY = "The deposit \x9b2J is returned\x1b[H within [red]30[/red] days: root:x:0:0."


def _clean(output: str) -> None:
    # CliRunner is not a terminal: Rich adds no styling, so any ESC at all came from the data.
    assert not re.search("[\x1b\x07\x08\x9b\x9c\x9d\u202e]", output), output


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


@pytest.fixture
def hostile_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "hostile.md").write_text(f"# {TITLE}\n\n## Return {TITLE}\n\n{BODY}\n", encoding="utf-8")
    store = tmp_path / "store.sqlite"
    monkeypatch.setenv("CITEWISE_STORE", str(store))
    monkeypatch.setenv("CITEWISE_EMBEDDER", "none")
    monkeypatch.setenv("COLUMNS", "400")
    _invoke("ingest", str(folder), "--no-embed")
    with EvidenceStore.open(str(store)) as s:
        [doc] = s.documents()
        assert "\x1b]0;pwned" in doc.title  # stored as it came: the output is what must be safe
    return store


@pytest.mark.parametrize(
    "args", [("docs", "list"), ("review", "list"), ("search", "deposit returned"), ("docs", "show", "@", "--sections")]
)
def test_document_text_cannot_drive_the_terminal(hostile_store: Path, args: tuple[str, ...]) -> None:
    if "@" in args:
        with EvidenceStore.open(str(hostile_store)) as s:
            doc_id = s.documents()[0].doc_id
        args = tuple(doc_id if a == "@" else a for a in args)
    output = _invoke(*args)
    _clean(output)
    assert "\\x1b]0;pwned\\x07" in output  # shown, escaped, for the reader to see
    assert "[bold]kept[/bold]" in output  # markup in data printed as written
    assert "root:x:0:0" in output and ":smile:" in output  # no emoji shortcodes
    if args[0] == "search":
        assert "[red]30[/red]" in output and "\\x9b2J" in output


def test_json_output_keeps_the_exact_title_without_raw_controls(hostile_store: Path) -> None:
    output = _invoke("docs", "list", "--json")
    assert not re.search("[\x1b\x07\x9b\u202e]", output)
    assert json.loads(output)[0]["title"].startswith("Deposit \x1b]0;pwned\x07")


# -- runs: runs show and the exports --------------------------------------------------------------


@pytest.fixture
def hostile_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    from tests.web_runs import page_text, record_run

    path = tmp_path / "runs.sqlite"
    with EvidenceStore.open(str(path)) as store:
        run_id = record_run(
            store,
            question="How are deposits \x1b]0;pwned\x07 protected [bold]now[/bold]?",
            hostile_title=TITLE,
            hostile_text=page_text(0).replace("protected", "protected \x1b[2J\x9b2J"),
        )
    monkeypatch.setenv("CITEWISE_STORE", str(path))
    monkeypatch.setenv("COLUMNS", "400")
    return path, run_id


def test_runs_show_and_list_cannot_drive_the_terminal(hostile_run: tuple[Path, str]) -> None:
    _, run_id = hostile_run
    for args in (("runs", "show", run_id), ("runs", "list")):
        output = _invoke(*args)
        _clean(output)
        assert "\\x1b]0;pwned\\x07" in output


def test_exports_strip_what_pages_planted(hostile_run: tuple[Path, str]) -> None:
    path, run_id = hostile_run
    with EvidenceStore.open(str(path)) as store:
        record = RunStore(store).get(run_id)
    for fmt in ("md", "html"):
        text = export_run(record, fmt)
        assert not RAW.search(text.replace("\n", "").replace("\t", "")), fmt
    data: Any = json.loads(export_run(record, "json"))
    assert data["question"] == "How are deposits \x1b]0;pwned\x07 protected [bold]now[/bold]?"  # the exact value
    assert not re.search("[\x1b\x07\x9b]", export_run(record, "json"))
