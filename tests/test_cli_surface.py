"""The everyday command-line surface (issue 24): ``--version``, help without type noise, and the
documented exit code for a malformed URL."""

from __future__ import annotations

import re

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from citewise.cli import app
from citewise.version import __version__

pytestmark = pytest.mark.unit


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
    code, out = _invoke("fetch", url, "--json")
    assert code == 2 and '"user_error": true' in out
