"""Statute phrasing read before negations are: glosses set aside, a negated list spelled out.

A statute glosses a word in parentheses (징벌(懲罰), "(이하 "부당해고등"이라 한다)") and forbids a list
of acts with one negated 하다 ("해고, 휴직, 정직, 그 밖의 징벌을 하지 못한다"). Read as they stand, the
gloss parts the negation from its predicate and only the last act of the list is negated;
:func:`citewise.verify.qualifiers.negated_keys` reads the text as these functions rewrite it.
"""

from __future__ import annotations

import re

__all__ = ["each_negated", "unglossed"]

_GLOSS = re.compile(r"\((?:[\u4e00-\u9fff]+|이하\s[^()]*)\)")
"""A statute's gloss in parentheses: the Hanja of a word (징벌(懲罰)) or the short name it is given
("(이하 "부당해고등"이라 한다)"). Neither negates nor is negated, and left in they part a negation from
its predicate ("징벌(懲罰)(이하 …)을 하지 못한다")."""


def unglossed(text: str) -> str:
    """``text`` without its glosses (:data:`_GLOSS`).

    >>> unglossed('그 밖의 징벌(懲罰)(이하 "부당해고등"이라 한다)을 하지 못한다')
    '그 밖의 징벌을 하지 못한다'
    """
    return _GLOSS.sub("", text)


_NEGATED_LIST = re.compile(
    r"((?:[가-힣]+\s?,\s?)+)((?:그\s?밖의\s?)?[가-힣]+?)(을|를)\s?((?:하지|하여서는|해서는)\s?(?:못|아니|않|안)[가-힣]*)"
)
"""Acts listed before one negated 하다: "해고, 휴직, 정직, 그 밖의 징벌을 하지 못한다" forbids each."""


def each_negated(text: str) -> str:
    """``text`` with every act of a negated list (:data:`_NEGATED_LIST`) negated on its own.

    >>> each_negated("해고, 휴직, 그 밖의 징벌을 하지 못한다")
    '해고를 하지 못한다 휴직을 하지 못한다 그 밖의 징벌을 하지 못한다'
    >>> each_negated("사용자는 근로자에게, 해고를 하지 못한다")
    '사용자는 근로자에게, 해고를 하지 못한다'
    """

    def each(match: re.Match[str]) -> str:
        listed = [a.strip() for a in match.group(1).split(",") if a.strip()]
        if any(_PARTICLE_END.search(act) for act in listed):
            return match.group()  # "근로자에게, 해고를 하지 못한다": a phrase before the act, no list
        acts = [*listed, match.group(2)]
        return " ".join(f"{act}{_object_particle(act)} {match.group(4)}" for act in acts)

    return _NEGATED_LIST.sub(each, text)


_PARTICLE_END = re.compile(r"(?:에게|에서|에|은|는|이|가|을|를|의|와|과|로|도|만)$")
"""A word ending as a particle does: a phrase of the sentence, not an act of a list."""


def _object_particle(noun: str) -> str:
    """을 after a final consonant, 를 after a vowel (해고를, 징벌을)."""
    last = ord(noun[-1]) - 0xAC00
    return "을" if 0 <= last < 11172 and last % 28 else "를"
