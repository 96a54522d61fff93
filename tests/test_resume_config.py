"""A resumed run goes on with the configuration it recorded (issue 23): the same search provider,
extractor and fallback, models and budget; what this process cannot rebuild is a clear error, never a
silent substitute."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from citewise.api import Citewise
from citewise.audit.events import RunConfigured
from citewise.cli import app
from citewise.errors import ConfigError, InputError
from citewise.records.budget import Budget
from citewise.records.runs import RunKind
from citewise.store.runs import RunStore

pytestmark = pytest.mark.integration

BUDGET = Budget(max_rounds=2, max_searches=5, max_extractions=7)


def _stopped_run(api: Citewise, **fields: object) -> str:
    run_id = RunStore(api.store).create(RunKind.RESEARCH, "How are rental deposits protected?")
    values: dict[str, object] = {
        "search": "tavily",
        "extract": "own",
        "planner_model": "deterministic",
        "writer_model": "deterministic",
        "budget": BUDGET,
        "concurrent": False,
        "pages_per_query": 2,
        "extract_options": {"fallback": "tavily"},
    }
    values.update(fields)
    RunStore(api.store).append(run_id, RunConfigured(**values))  # type: ignore[arg-type]
    return run_id


def test_the_recorded_extractor_fallback_and_budget_come_back(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-resume-test")
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api)
        with api.resume_settings(run_id) as settings:
            assert settings.search is not None and settings.search.name == "tavily"
            assert settings.extractor.name == "own"  # not Tavily Extract, the default
            assert dict(settings.extractor.options)["fallback"] == "tavily"
            assert settings.budget == BUDGET and settings.concurrent is False
            assert not settings.uses_models


def test_a_run_made_with_models_does_not_resume_without_a_model_key(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-resume-test")
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api, planner_model="planner-x", writer_model="writer-y")
        with pytest.raises(ConfigError, match="COMETAPI_KEY"), api.resume_settings(run_id):
            pass


def test_a_run_searched_with_tavily_does_not_resume_on_the_local_store_without_its_key(
    tmp_path: pytest.TempPathFactory,
) -> None:
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api, extract="tavily", extract_options={})
        with pytest.raises(ConfigError, match="TAVILY_API_KEY"), api.resume_settings(run_id):
            pass


def test_the_configuration_cannot_be_changed_on_resume(tmp_path: pytest.TempPathFactory) -> None:
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api)
        with (
            pytest.raises(InputError, match="recorded configuration; search"),
            api.resume_settings(run_id, search="local"),
        ):
            pass
    done = CliRunner().invoke(
        app, ["research", "--resume", run_id, "--extract", "tavily", "--store", str(tmp_path / "s.sqlite")]
    )
    assert done.exit_code == 2
    assert "recorded configuration; leave out --extract" in " ".join(done.output.split())
    switched = CliRunner().invoke(
        app, ["research", "--resume", run_id, "--no-model", "--sequential", "--store", str(tmp_path / "s.sqlite")]
    )
    assert switched.exit_code == 2
    assert "leave out --no-model, --sequential" in " ".join(switched.output.split())


def test_a_budget_limit_can_be_raised_to_go_on(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-resume-test")
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api)
        with api.resume_settings(run_id, budget_changes={"max_searches": 9}) as settings:
            assert settings.budget.max_searches == 9
            assert (settings.budget.max_rounds, settings.budget.max_extractions) == (2, 7)  # the rest as recorded


@pytest.mark.parametrize(
    ("recorded", "resumed_under"),
    [({}, "review-v4"), ({"review_prompt": "review-v4"}, "review-v4"), ({"review_prompt": "review-v5"}, "review-v5")],
)
def test_a_resumed_run_reviews_under_the_prompt_it_started_with(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, recorded: dict[str, str], resumed_under: str
) -> None:
    # a record made before runs recorded their review prompt was reviewed under review-v4
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-resume-test")
    with Citewise(str(tmp_path / "s.sqlite")) as api:
        run_id = _stopped_run(api, **recorded)
        with api.resume_settings(run_id) as settings:
            assert settings.review_prompt == resumed_under
            assert settings.describe()["review_prompt"] == resumed_under
