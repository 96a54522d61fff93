"""The snippet a search hit shows is whole sentences: a full stop inside brackets, a number, a date
or a list item's number does not end one (issue 24: a snippet began at "이하 같다)...")."""

from __future__ import annotations

import pytest

from citewise.ingest.kr_statute import KoreanStatuteParser
from citewise.search.local import snippet
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "terms", "expected"),
    [
        (
            "① 주택이란 주거용 건물(그 부속 건물을 포함한다. 이하 같다)을 말한다. 다른 문장이다.",
            ["이하", "같다"],
            "① 주택이란 주거용 건물(그 부속 건물을 포함한다. 이하 같다)을 말한다.",
        ),
        (
            '앞 문장이다. 계좌[연금계좌(이하 "연금계좌"라 한다)를 말한다. 이하 같다]에서 인출한다. 끝.',
            ["인출"],
            '계좌[연금계좌(이하 "연금계좌"라 한다)를 말한다. 이하 같다]에서 인출한다.',
        ),
        (
            "앞 문장이다. 임차인은 2020. 3. 24. 이후 신청할 수 있다. 끝.",
            ["신청"],
            "임차인은 2020. 3. 24. 이후 신청할 수 있다.",
        ),
        ("The rate is 3.5 percent of the deposit. Other text.", ["percent"], "The rate is 3.5 percent of the deposit."),
        ("intro line\n1. 「은행법」에 따른 은행\n2. 보험회사", ["은행"], "1. 「은행법」에 따른 은행"),
        # a bracket left open does not swallow the next line
        ("열린 괄호(닫히지 않음. 여기\n은행 다음 줄이다.", ["은행"], "은행 다음 줄이다."),
    ],
)
def test_a_snippet_is_whole_sentences(text: str, terms: list[str], expected: str) -> None:
    assert snippet(text, terms) == expected


def test_no_snippet_of_a_real_statute_starts_inside_a_parenthesis() -> None:
    """Over every section of a real statute that defines terms in parentheses: whatever the query
    term, the chosen sentence opens no more brackets than it closes before its first opening one."""
    path = KR_STATUTES / "소득세법__법률__2026-09-08__MST289363.md"
    (document,) = KoreanStatuteParser().parse(path, path.read_bytes())
    checked = 0
    for section in document.sections:
        if ". 이하 같다)" not in section.text:
            continue
        shown = snippet(section.text, ["이하", "같다"], width=10_000)
        assert not shown.startswith("이하 같다"), (section.section_id, shown)
        assert shown.count("(") >= shown.count(")"), (section.section_id, shown)
        checked += 1
    assert checked >= 10
