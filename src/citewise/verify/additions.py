"""Unsupported additions: a clause of a Korean answer that the span does not state.

A writer model restates a provision and joins a detail the provision does not have with a
connective ending and a comma ("…지급해야 하며, 계좌이체로 지급할 때에는 근로자의 서면 동의가
필요합니다"). The whole sentence still shares most of its terms with the span, so the overlap
rule passes it. :func:`unsupported_addition` reads each clause on its own: a clause of which less
than :data:`CLAUSE_MIN_OVERLAP` of its own terms (those not given by the question, figures left to
the figure rule) occur in the span is an addition the span does not support.

Only Hangul claims are read this way. On the English dev pairs an added clause ("its items are
converted to lowercase") and a faithful one in other words ("percent escapes are left as they
are") share as little with the span and are as close to it by the embedder (0.85 against 0.86),
so no rule on terms or similarity told them apart there; see ``benchmarks/data/README.md``.
"""

from __future__ import annotations

import re
from typing import Final

from citewise.text.analyze import analyze
from citewise.verify.figures import as_digits

__all__ = ["CLAUSE_MIN_OVERLAP", "clauses", "unsupported_addition"]

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


def clauses(claim: str) -> list[str]:
    """The statements a Korean claim joins with a connective ending and a comma (one when none).

    >>> clauses("임금은 전액 지급해야 하며, 그 한도는 월급의 절반입니다.")
    ['임금은 전액 지급해야 하', '그 한도는 월급의 절반입니다.']
    """
    return [part.strip() for part in _CLAUSE_BREAK.split(claim) if part.strip()]


def unsupported_addition(claim: str, span: str, context: str = "") -> str | None:
    """Why a clause of ``claim`` is not in ``span`` (an addition), or None.

    >>> span = "사용자는 연장근로에 대하여는 통상임금의 100분의 50 이상을 가산하여 지급하여야 한다."
    >>> claim = "연장근로에는 통상임금의 50% 이상을 가산해야 하고, 이 가산금은 다음 달 월급날까지 줘야 한다."
    >>> print(unsupported_addition(claim, span))  # doctest: +ELLIPSIS
    unsupported addition: the clause '이 가산금은 다음 달 월급날까지 줘야 한다.' shares 1 of 9 of its terms ...
    """
    if not _mostly_hangul(claim):
        return None
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
