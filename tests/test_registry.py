"""One name lookup (``citewise.registry.Registry``) behind providers, parsers, engines and embedders.

Each had its own: a private table in the provider registry, a dict and a lock in the parser
registry, an if-chain and a tuple of names for native engines, a bare dict for embedders. What each
caller relied on, and its error message (pinned by their own tests too), is kept.
"""

from __future__ import annotations

import pytest

from citewise.engines.registry import ENGINES, get_engine
from citewise.errors import ConfigError, InputError
from citewise.ingest.registry import get_parser
from citewise.providers.registry import ProviderRegistry
from citewise.registry import Registry
from citewise.search.embedders import EMBEDDERS, get_embedder

pytestmark = pytest.mark.unit


def test_names_are_compared_stripped_and_case_folded() -> None:
    colours = Registry[int]("colour")
    colours.add(" Red ", 1)
    assert colours.lookup("RED") == colours["red"] == 1 and "red" in colours and colours.names() == ("red",)
    with pytest.raises(ConfigError, match="a colour needs a name"):
        colours.add("  ", 2)


def test_builtins_load_once_on_first_use_and_earlier_entries_win() -> None:
    loads: list[int] = []

    def builtins(r: Registry[str]) -> None:
        loads.append(1)
        r.update(a="built-in a", b="built-in b")

    registry = Registry("letter", builtins=builtins)
    registry.add("a", "mine")  # before any lookup
    assert loads == []
    assert registry.lookup("a") == "mine" and registry.lookup("b") == "built-in b"
    assert sorted(registry) == ["a", "b"] and loads == [1]


def test_a_failing_builtin_is_tried_again_at_the_next_use() -> None:
    attempts: list[int] = []

    def flaky(r: Registry[int]) -> None:
        attempts.append(1)
        if len(attempts) == 1:
            raise ImportError("not yet")
        r.add("x", 1)

    registry = Registry("thing", builtins=flaky)
    with pytest.raises(ImportError):
        registry.lookup("x")
    assert registry.lookup("x") == 1


def test_two_plugins_cannot_claim_one_name_unless_replacing() -> None:
    registry = Registry[object]("search provider")
    first, second = object(), object()
    registry.add("local", first, replace=False)
    registry.add("local", first, replace=False)  # the same entry again is no conflict
    with pytest.raises(ConfigError, match="two plugins register the search provider 'local'"):
        registry.add("local", second, replace=False)
    registry.add("local", second, replace=True)
    assert registry.lookup("local") is second


@pytest.mark.parametrize(
    ("lookup", "error", "message"),
    [
        (
            lambda: ProviderRegistry((), entry_point_group=None).extractor("wget"),
            ConfigError,
            "unknown extractor 'wget'; valid names: none",
        ),
        (lambda: get_parser("docx"), InputError, "unknown format 'docx'; valid formats: html, jsonl, "),
        (
            lambda: get_engine("bing"),
            ConfigError,
            "unknown engine 'bing'; valid: anthropic, gemini, openai (or leave --engine out)",
        ),
        (lambda: get_embedder("word2vec:x"), ConfigError, "unknown embedder 'word2vec'; valid: fastembed, "),
    ],
)
def test_every_lookup_fails_naming_the_valid_names(lookup: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as caught:
        lookup()  # type: ignore[operator]
    assert str(caught.value).startswith(message)


def test_parsers_engines_and_embedders_are_found_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_parser(" HTML ").name == "html"
    assert ENGINES.names() == ("anthropic", "gemini", "openai")
    monkeypatch.setitem(EMBEDDERS, "fake", lambda arg: f"fake:{arg}")  # type: ignore[arg-type,return-value]
    assert get_embedder("Fake:small") == "fake:small"  # type: ignore[comparison-overlap]
    monkeypatch.undo()
    assert "fake" not in EMBEDDERS
