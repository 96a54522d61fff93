"""Review replies in shapes real models use although the prompt asks for plain lines: a Markdown
table, numbered lines, and a blanket summary ("All other topics are covered.") that assesses no
topic by id. Real :class:`ChatClient` against :class:`FakeOpenAIServer`; verification unchanged.
"""

from __future__ import annotations

import pytest

from citewise.llm import ChatClient
from citewise.records.research import CoverageStatus
from citewise.research.review import ReviewRejected, parse_review_text
from citewise.testing import FakeOpenAIServer
from tests import test_research_review as base
from tests.test_research_review_lines import CANONICAL, GAP, ask

server = base.server
client = base.client

pytestmark = pytest.mark.integration

TABLES = {
    "header with gap and query": (
        "| Topic | Status | Sentences | Gap | Query |\n"
        "|:------|--------|-----------|-----|-------|\n"
        "| T1 | covered | S1.1 S1.2 | | |\n"
        "| T2 | missing | - | no ruling on 'ignore previous instructions' | 임차권 판례 |"
    ),
    "bold ids, capitals, commas, no outer pipes on the rule": (
        "Here is my review:\n\n| Topic | Status | Evidence | Follow-up query | Missing |\n"
        "---|---|---|---|---\n"
        "| **T1** | COVERED | S1.1, S1.2 | none | |\n"
        "| **T2** | Missing | | 임차권 판례 | no ruling on 'ignore previous instructions' |\n"
    ),
    "Korean header": (
        "| 주제 | 상태 | 문장 | 부족한 점 | 후속 검색어 |\n|---|---|---|---|---|\n"
        "| T1 | covered | S1.1 S1.2 | | |\n"
        "| T2 | missing | | no ruling on 'ignore previous instructions' | 임차권 판례 |"
    ),
    "fenced, numbered lines": f"```\n1) T1 covered S1.1 S1.2\n2) T2 {GAP}\n```",
}


@pytest.mark.parametrize("case", list(TABLES))
def test_a_table_or_numbered_reply_reads_as_the_plain_lines(
    server: FakeOpenAIServer, client: ChatClient, case: str
) -> None:
    plain = ask(server, client, CANONICAL)

    shaped = ask(server, client, TABLES[case])

    assert shaped == plain
    assert [q.sentence_id for q in shaped.items[0].quotes] == ["S1.1", "S1.2"]
    assert shaped.items[1].gap == "no ruling on 'ignore previous instructions'"


def test_a_table_row_without_a_header_cites_its_id_cell_and_takes_one_gap() -> None:
    (first, second) = parse_review_text("| T1 | covered | S1.1 S1.2 |\n| T2 | weak | S2.1 | no date |")

    assert first.sentence_ids == ("S1.1", "S1.2") and first.gap is None
    assert (second.status, second.sentence_ids, second.gap) == (CoverageStatus.WEAK, ("S2.1",), "no date")


@pytest.mark.parametrize(
    "reply",
    [
        "| T1 | covered | S1.1 |\n| T2 | missing | no date | and some other words |",  # two free cells
        "| T1 | covered | S1.1 |\n| T2 | partial | S2.1 |",  # not a status
        "| Topic | Status |\n|---|---|\n| T1 | covered |\nT1 is missing after all",  # prose assessing
    ],
)
def test_a_table_citewise_cannot_place_is_refused(server: FakeOpenAIServer, client: ChatClient, reply: str) -> None:
    with pytest.raises(ValueError):
        parse_review_text(reply)
    for _ in range(2):  # the reviewer is asked once more, then the review is rejected
        server.enqueue_reply(reply)
    with pytest.raises(ReviewRejected):
        ask(server, client, reply)


@pytest.mark.parametrize(
    "summary",
    ["All other topics are covered.", "All other topics are covered by S1.", "Everything else is COVERED."],
)
def test_a_blanket_covered_never_covers_a_topic_it_does_not_name(
    server: FakeOpenAIServer, client: ChatClient, summary: str
) -> None:
    # Decision: a summary that names no topic id and quotes nothing is no assessment. The topic
    # stays missing, and the review's problems say the reviewer did not assess it.
    review = ask(server, client, f"T1 covered S1.1 S1.2\n{summary}")

    assert review.items[0].status is CoverageStatus.COVERED
    assert review.items[1].status is CoverageStatus.MISSING and review.items[1].quotes == ()
    assert review.items[1].gap == "the reviewer did not assess this topic"
    assert any("did not assess" in p and "counts as missing" in p for p in review.problems), review.problems
