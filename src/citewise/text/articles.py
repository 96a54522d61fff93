"""Statute text primitives: references to articles, and deleted provisions inside an article.

An article is named ``제3조``, ``제 3 조의 2`` (Korean statutes: article 3, its second branch
article), ``§ 5``, ``Section 5``, ``Sec. 5``, ``Article 5`` or ``Art. 5``; the store writes a Korean
article's id as ``제3조의2`` and any other as its number (``555.11``), so that is what
:func:`article_references` returns.

>>> article_references("주택임대차보호법 제 3 조의 2와 제4조, Art. 5 and § 555.11a")
['제3조의2', '제4조', '5', '555.11a']
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "ARTICLE_REFERENCE",
    "KOREAN_ARTICLE",
    "article_references",
    "asks_about_addenda",
    "korean_article_id",
    "strip_deleted_parts",
]

KOREAN_ARTICLE: Final = re.compile(r"제\s*(?P<num>\d+)\s*조(?:\s*의\s*(?P<branch>\d+))?")
"""A Korean article reference: ``제3조``, ``제3조의2``; groups ``num`` and ``branch`` (None for a main article)."""

_NUMBERED: Final = re.compile(
    r"(?:§+|\bsection\b|\bsec\.|\barticle\b|\bart\.)\s*(?P<number>\d+(?:\.\d+)*[a-z]?)", re.IGNORECASE
)

ARTICLE_REFERENCE: Final = re.compile(KOREAN_ARTICLE.pattern + "|" + _NUMBERED.pattern, re.IGNORECASE)
"""Any article reference: Korean (groups ``num``, ``branch``) or numbered (group ``number``)."""


_ADDENDA_CUES: Final = re.compile(
    r"부칙|시행\s?일|시행\s?시기|시행\s?(?:당시|이전|이후|[전후](?:에|의|부터))|시행되|언제부터\s?(?:적용|시행)|경과\s?조치|적용\s?례"
    r"|종전의?\s?(?:규정|법|법률|예)"
    r"|effective date|entry into force|commencement|transitional|addend|supplementary provision",
    re.IGNORECASE,
)


def asks_about_addenda(text: str) -> bool:
    """Whether ``text`` asks about what a law's supplementary provisions (부칙) hold: when it takes
    effect, transitional rules and application rules, or the addenda themselves.

    Words that only look alike are not asked: 시행령 (an enforcement decree) names a law, and 종전 alone
    ("the former employer") is a fact, where 종전의 규정 is the transitional rule.

    >>> asks_about_addenda("이 법 시행일 전에 체결된 계약에도 적용되나요"), asks_about_addenda("소득세법 시행령 제3조")
    (True, False)
    >>> asks_about_addenda("퇴사 후 종전 회사로 재입사한 경우"), asks_about_addenda("What is the effective date?")
    (False, True)
    """
    return _ADDENDA_CUES.search(text) is not None


def korean_article_id(match: re.Match[str]) -> str:
    """The store's id of a :data:`KOREAN_ARTICLE` match: ``제3조``, ``제3조의2`` (spaces dropped)."""
    return f"제{match['num']}조" + (f"의{match['branch']}" if match["branch"] else "")


def article_references(text: str) -> list[str]:
    """The articles ``text`` names, in the store's notation: Korean ones first, each kind in order of
    first mention, repeats dropped."""
    refs = [korean_article_id(m) for m in KOREAN_ARTICLE.finditer(text)]
    refs += [m["number"] for m in _NUMBERED.finditer(text)]
    return list(dict.fromkeys(refs))


_DELETED_LINE = re.compile(r"^\s*\S{1,8}\s*삭제\s*<[^>]*>\s*$", re.MULTILINE)


def strip_deleted_parts(text: str) -> str:
    """Remove lines that are only a deleted paragraph or item (``③ 삭제 <2020. 2. 4.>``).

    Deleted provisions exist but are never evidence, even inside a live article.

    >>> strip_deleted_parts("① 임대인은 ...\\n② 삭제 <2020. 2. 4.>\\n③ 임차인은 ...")
    '① 임대인은 ...\\n\\n③ 임차인은 ...'
    """
    return re.sub(r"\n{3,}", "\n\n", _DELETED_LINE.sub("", text)).strip()
