"""Duties said to be needless: a claim that an act need not be done where the span says it must be.

"30일 전에 예고하지 않은 사용자는 통상임금을 지급할 필요가 없다" against "… 통상임금을 지급하여야
한다" is a negation the predicate keys of :mod:`citewise.verify.qualifiers` do not see: the claim
negates 필요, not 지급. Read here by the constructions that deny a duty (필요가 없다, 하지 않아도
된다) and those that state one (하여야 한다, 해야 한다), and unless a proviso of the span lifts the duty
where the claim says it does not hold.
"""

from __future__ import annotations

import re

__all__ = ["obligation_denied"]

_NO_NEED = re.compile(
    r"([가-힣]+)\s?(?:필요가|필요는|필요도)\s?(?:없|전혀\s?없)|([가-힣]+?)지\s?않아도\s?(?:되|된|됩|돼)"
)
"""지급할 필요가 없다, 받지 않아도 된다: an act the claim says need not be done."""
_MUST = re.compile(r"([가-힣]+?)(?:하여야|해야|아야|어야|여야)(?:만|\s?한다|\s?합니다|\s?하며|\s?하고|\s?하는)")
"""지급하여야 한다, 받아야 한다: an act the span says must be done."""


def _stem(word: str) -> str:
    """A verb's stem as both texts write it, at most two syllables: 지급할 and 지급 (of 지급하여야) →
    지급, 받을 and 받 (of 받아야) → 받."""
    return re.sub(r"(?:할|하|을|를|될|되)$", "", word)[:2] if len(word) > 1 else word


def obligation_denied(claim: str, span: str) -> str | None:
    """The reason ``claim`` says an act need not be done (:data:`_NO_NEED`) that ``span`` says must be
    (:data:`_MUST`), or None. A proviso of the span that lifts the duty ("다만, 17세 미만인 외국인의
    경우에는 그러하지 아니하다") supports the claim when it names what the claim adds to the duty's
    own words (17세 미만).

    >>> obligation_denied("예고하지 않은 사용자는 통상임금을 지급할 필요가 없다.", "통상임금을 지급하여야 한다.")
    "negation mismatch: the claim says '지급…' need not be done, the span that it must"
    >>> obligation_denied("17세 미만인 외국인은 여권을 지니지 않아도 된다.",
    ...     "외국인은 여권을 지니고 있어야 한다. 다만, 17세 미만인 외국인의 경우에는 그러하지 아니하다.")
    """
    needless = {_stem(m.group(1) or m.group(2)) for m in _NO_NEED.finditer(claim)} - {""}
    if not needless:
        return None
    required = {_stem(m.group(1)) for m in _MUST.finditer(span)}
    for key in sorted(needless & required):
        if _lifted(claim, span):
            return None
        return f"negation mismatch: the claim says '{key}…' need not be done, the span that it must"
    return None


_PROVISO = re.compile(r"다만\s?,?\s")
_LIFTED = re.compile(r"그러하지\s?(?:아니|않)")
_PROVISO_WORD = re.compile(r"[가-힣]{2,}|\d+")


def _lifted(claim: str, span: str) -> bool:
    """Whether a proviso of ``span`` lifts its rule where ``claim`` says it does not hold: the claim's
    words that the rule does not hold (17세, 미만) are in the proviso."""
    found = _PROVISO.search(span)
    if found is None or not _LIFTED.search(span, found.end()):
        return False

    def words(text: str) -> set[str]:
        return {w[:2] for w in _PROVISO_WORD.findall(text)}

    return bool((words(claim) - words(span[: found.start()])) & words(span[found.end() :]))
