"""The question is analysed once per search query in research, not again for every page it found
(issue 20: analyse once). Counted at the analyser's door: every call of ``query_terms`` made by
passage selection during a real run against the fakes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from citewise.records.budget import Budget
from citewise.research import select
from tests.loop_harness import Env, covered, draft_citing, plan_reply
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name

pytestmark = pytest.mark.integration


def _long_page(n: int) -> str:
    words = ["harbour", "orchard", "railway", "granite", "lantern", "meadow"]
    filler = "\n\n".join(
        f"Note {i * (n + 3)}: the {words[(i + n) % 6]} of site {n} in year {1900 + i * n}." for i in range(60)
    )
    return f"# Site {n}\n\n{filler}\n\nThe deposit is protected by act number {n}.\n\n{filler}"


def test_selection_analyses_the_question_once_per_query_however_many_pages(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls = [f"https://site{i}.example/deposits" for i in range(3)]
    env.web.hits["rental deposit law"] = urls
    env.web.pages.update({u: _long_page(i) for i, u in enumerate(urls)})
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))
    env.brain.script("revise", draft_citing("S1", "S2"))
    analysed: list[str] = []
    real = select.query_terms

    def counted(text: str) -> Any:
        analysed.append(text)
        return real(text)

    monkeypatch.setattr(select, "query_terms", counted)
    result = env.run(budget=Budget(max_rounds=1, excerpt_chars=800), pages_per_query=3)

    assert [len(s.page_text) > 800 for s in result.sources] == [True, True, True]  # each excerpt was selected
    assert all(len(s.content) <= 800 for s in result.sources)
    assert analysed == [f"{result.question}\nrental deposit law"]  # one query, three pages: analysed once


@pytest.mark.integration
def test_ask_analyses_its_question_once(
    sample_store_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ask: the question's content analysis (triage, relevance, the composer) and its search terms
    (search, the ranker) are each made once, however many stages read them."""
    import shutil

    from citewise.answer import question as questions
    from citewise.answer.ask import ask
    from citewise.evidence.plan import RetrievalPlan
    from citewise.records.answer import AskOutcome
    from citewise.store.evidence import EvidenceStore
    from citewise.text import analyze

    text = "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요"
    content: list[str] = []
    search_terms: list[str] = []
    real_content, real_terms = questions._analyse, analyze._distinct_terms
    monkeypatch.setattr(questions, "_analyse", lambda t: content.append(t) or real_content(t))
    monkeypatch.setattr(analyze, "_distinct_terms", lambda t: search_terms.append(t) or real_terms(t))
    questions._analysed.cache_clear()
    analyze._query_terms.cache_clear()
    copy = tmp_path / "ask.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as store:
        result = ask(store, text, RetrievalPlan())

    assert result.outcome is AskOutcome.FALLBACK and result.text
    assert content.count(text) == 1
    assert search_terms.count(text) == 1
