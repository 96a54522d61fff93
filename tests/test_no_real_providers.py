"""The suite's guard: no provider key, endpoint or shared service from the developer's environment or
.env reaches a test or a process a test starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from citewise.config import load_dotenv
from tests.conftest import PROVIDER_ENV, REPO


def test_no_provider_setting_is_inherited_by_the_tests() -> None:
    assert [name for name in PROVIDER_ENV if os.environ.get(name)] == []
    assert os.environ["CITEWISE_DOTENV"] == "off"


def test_a_dotenv_with_real_looking_keys_is_ignored_by_processes_the_tests_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("TAVILY_API_KEY=tvly-real-looking-0123456789\n", encoding="utf-8")
    code = "from citewise.config import load_dotenv; import os; load_dotenv(); print(os.environ.get('TAVILY_API_KEY'))"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "None"
    monkeypatch.chdir(tmp_path)
    load_dotenv()  # and in this process too
    assert "TAVILY_API_KEY" not in os.environ
