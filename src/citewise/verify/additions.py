"""Unsupported additions: a clause of an answer that the span does not state.

A writer model restates a provision and joins a detail the provision does not have with a
connective ending and a comma ("…지급해야 하며, 계좌이체로 지급할 때에는 근로자의 서면 동의가
필요합니다"). The whole sentence still shares most of its terms with the span, so the overlap
rule passes it. :func:`unsupported_addition` reads each clause on its own: a clause of which less
than :data:`CLAUSE_MIN_OVERLAP` of its own terms (those not given by the question, figures left to
the figure rule) occur in the span is an addition the span does not support.

English claims are read by their joined clauses too (", and …", "; …", "and they …"), with a
second condition: on the English dev pairs an added clause ("its items are converted to lowercase")
and a faithful one in other words ("percent escapes are left as they are") share as little with the
span and are as close to it by the embedder (0.85 against 0.86), so share alone does not tell them
apart. An English clause is an addition only when it also brings :data:`EN_MIN_NEW_TERMS` terms the
page never uses ("the body is compressed with gzip before it is sent"); see
``benchmarks/data/README.md``.
"""

from __future__ import annotations

import re
from typing import Final

from citewise.text.analyze import analyze
from citewise.verify.figures import as_digits

__all__ = [
    "CLAUSE_MIN_OVERLAP",
    "EN_CLAUSE_MIN_OVERLAP",
    "EN_MIN_NEW_TERMS",
    "clauses",
    "english_clauses",
    "unsupported_addition",
]

CLAUSE_MIN_OVERLAP: Final = 0.5
"""Share of a clause's own terms that must occur in the span (chosen on the dev split)."""
MIN_CLAUSE_TERMS: Final = 2
"""A clause with fewer own terms than this is not read on its own (해야 합니다, 그렇습니다)."""

_CLAUSE_BREAK = re.compile(r"(?<=[가-힣])(?:며|고),\s+")
"""A connective ending (하며, 하고, 이며, 이고) followed by a comma: where a Korean sentence joins two
statements. Without the comma 고 is as often part of one predicate (지니고 있다, 알리고)."""


def _terms(text: str) -> frozenset[str]:
    return frozenset(t for t in analyze(as_digits(text)) if (len(t) > 1 or not t.isascii()) and not t.isdigit())


def _mostly_hangul(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(1 for c in letters if "\uac00" <= c <= "\ud7a3") * 2 > len(letters)


_EN_CLAUSE_BREAK = re.compile(
    r"(?:,|;)\s+(?:and|but|so|while|whereas|which)\s+(?:also\s+|therefore\s+|then\s+)?|;\s+"
    r"|\s+and\s+(?:also\s+|therefore\s+|then\s+)?(?=(?:it|its|they|their|this|these|such|is|are|also|therefore)\b)",
    re.IGNORECASE,
)
"""Where an English answer joins a second statement: ", and …", "; …", "and it / and they / and is …"."""
EN_CLAUSE_MIN_OVERLAP: Final = 0.34
"""Share of an English clause's own terms that must occur in the span (chosen on the dev and seen splits)."""
EN_MIN_NEW_TERMS: Final = 4
"""An English clause is an addition only when this many of its own terms occur nowhere on the page:
a faithful clause in other words ("a channel is removed from its map once it is closed" for "as
channels are closed they are deleted from their map") shares as little with the span, but brings
fewer words the page never uses."""


def english_clauses(claim: str) -> list[str]:
    """The statements an English claim joins (one when none).

    >>> english_clauses("urlparse returns a named tuple, and its items are converted to lowercase.")
    ['urlparse returns a named tuple', 'its items are converted to lowercase.']
    """
    return [part.strip() for part in _EN_CLAUSE_BREAK.split(claim) if part.strip()]


def _english_addition(claim: str, span: str, context: str, page: str) -> str | None:
    parts = english_clauses(claim)
    if len(parts) < 2:
        return None
    given, span_terms, page_terms = _terms(context), _terms(span), _terms(page or span)
    for part in parts[1:]:
        own = _terms(part) - given
        shared = own & span_terms
        if len(own - page_terms) >= EN_MIN_NEW_TERMS and len(shared) < EN_CLAUSE_MIN_OVERLAP * len(own):
            counted = f"{len(shared)} of {len(own)}"
            return f"unsupported addition: the clause '{part}' shares {counted} of its terms with the span"
    return None


def clauses(claim: str) -> list[str]:
    """The statements a Korean claim joins with a connective ending and a comma (one when none).

    >>> clauses("임금은 전액 지급해야 하며, 그 한도는 월급의 절반입니다.")
    ['임금은 전액 지급해야 하', '그 한도는 월급의 절반입니다.']
    """
    return [part.strip() for part in _CLAUSE_BREAK.split(claim) if part.strip()]


def unsupported_addition(claim: str, span: str, context: str = "", page: str = "") -> str | None:
    """Why a clause of ``claim`` is not in ``span`` (an addition), or None.

    >>> span = "사용자는 연장근로에 대하여는 통상임금의 100분의 50 이상을 가산하여 지급하여야 한다."
    >>> claim = "연장근로에는 통상임금의 50% 이상을 가산해야 하고, 이 가산금은 다음 달 월급날까지 줘야 한다."
    >>> print(unsupported_addition(claim, span))  # doctest: +ELLIPSIS
    unsupported addition: the clause '이 가산금은 다음 달 월급날까지 줘야 한다.' shares 1 of 9 of its terms ...
    """
    if not _mostly_hangul(claim):
        return _english_addition(claim, span, context, page)
    parts = clauses(claim)
    if len(parts) < 2:
        return None
    given = _terms(context)
    span_terms = _terms(span)
    for part in parts:
        own = _terms(part) - given
        if len(own) < MIN_CLAUSE_TERMS:
            continue
        shared = own & span_terms
        if len(shared) < CLAUSE_MIN_OVERLAP * len(own):
            counted = f"{len(shared)} of {len(own)}"
            return f"unsupported addition: the clause '{part}' shares {counted} of its terms with the span"
    return None
