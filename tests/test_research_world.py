"""The research benchmark's scripted reviewer (benchmarks/research_world.py) writes its lines in the
order the prompt it is sent asks for: the topics not covered first under review-v6, in topic order
under review-v5, and a JSON object under review-v4."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.research_world import FACTS, Latencies, Model  # noqa: E402

from citewise.records.research import CoverageStatus  # noqa: E402
from citewise.research.prompts import (  # noqa: E402
    REVIEW_V4_SYSTEM_PROMPT,
    REVIEW_V5_SYSTEM_PROMPT,
    REVIEW_V6_SYSTEM_PROMPT,
    REVIEW_V7_SYSTEM_PROMPT,
)
from citewise.research.review_replies import parse_review_text  # noqa: E402

QUICK = Latencies(search_s=0.0, extract_s=0.0, model_s=0.0, tokens_per_s=1000.0)
DATA = {
    "question": "q",
    "topics": {"T1": "a?", "T2": "b?", "T3": "c?"},
    "sources": [{"id": "S1", "title": "t", "sentences": {"S1.1": FACTS[0][0], "S1.2": FACTS[1][0]}}],
    "already_tried_queries": [],
}


def reply_to(system: str) -> str:
    model = Model(QUICK, "reference")
    request = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": json.dumps(DATA)}]}
    content = model(request).content
    assert content is not None
    return content


@pytest.mark.parametrize(
    ("system", "order"),
    [
        (REVIEW_V6_SYSTEM_PROMPT, ["T3", "T1", "T2"]),
        (REVIEW_V5_SYSTEM_PROMPT, ["T1", "T2", "T3"]),
        (REVIEW_V7_SYSTEM_PROMPT, ["T3", "T1", "T2"]),
    ],
)
def test_the_scripted_reviewer_writes_its_lines_in_the_order_its_prompt_asks(system: str, order: list[str]) -> None:
    claims = parse_review_text(reply_to(system))

    assert [c.topic for c in claims] == order
    by_topic = {c.topic: c for c in claims}
    assert by_topic["T3"].status is CoverageStatus.MISSING and by_topic["T3"].follow_up_query
    assert by_topic["T1"].sentence_ids == ("S1.1",) and by_topic["T2"].sentence_ids == ("S1.2",)


def test_both_line_orders_say_the_same_and_v4_gets_json() -> None:
    v6, v5 = parse_review_text(reply_to(REVIEW_V6_SYSTEM_PROMPT)), parse_review_text(reply_to(REVIEW_V5_SYSTEM_PROMPT))
    assert sorted(v6, key=lambda c: c.topic) == list(v5)
    assert [t["topic"] for t in json.loads(reply_to(REVIEW_V4_SYSTEM_PROMPT))["topics"]] == ["T1", "T2", "T3"]


def test_under_review_v7_the_gap_line_gives_its_query_before_its_gap_and_says_the_same() -> None:
    v7, v6 = reply_to(REVIEW_V7_SYSTEM_PROMPT), reply_to(REVIEW_V6_SYSTEM_PROMPT)
    first = v7.splitlines()[0]
    assert first.startswith("T3 missing | query: ") and first.index("| query:") < first.index("| gap:")
    assert v6.splitlines()[0].startswith("T3 missing: ")
    assert parse_review_text(v7) == parse_review_text(v6)  # the same judgements, only written in another order
