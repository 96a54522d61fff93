"""The citation grammar: ids, the markers that carry them, and quotes by reference.

An id is one to three letters and a number — ``S1`` (a stored source of a research run), ``E2`` (an
evidence passage of an ask) — optionally followed by a sentence number: ``S1.3`` is the third
sentence of ``S1``'s excerpt (:mod:`citewise.text.sentences`). A marker is one or more ids in square
brackets, separated by commas or semicolons: ``[S1]``, ``[S1, S2]``, ``[S1.3; E2]``. A quote by
reference, ``{{S1.3}}``, stands for the stored sentence.

Whoever reads model output matches *any* scheme of letters, so a marker in a scheme citewise does
not use (``[A1]``, ``[s1]``) is an unknown id to reject rather than plain text; ids are
case-sensitive. What citewise itself writes once a draft is accepted is one id per marker:
``[E1][E2]`` in an answer, ``[S1]`` or ``[S1.3]`` in a report (:data:`CITATION`).

>>> marker_ids("A [S2]. B [S1.4, S2]; C [E7] and [ x1 ].")
['S2', 'S1.4', 'S2', 'E7', 'x1']
>>> source_of("S1.4"), cited_ids("A [S2]. B [S1.4, S2]; C [E7]."), cited_sentence_ids("B [S1.4, S2][S1.4].")
('S1', ('S2', 'S1', 'E7'), ('S1.4',))
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "CITATION",
    "EVIDENCE_MARKER",
    "ID",
    "MARKER",
    "QUOTE_REF",
    "SENTENCE_ID",
    "cited_ids",
    "cited_sentence_ids",
    "ids_in_marker",
    "marker_ids",
    "source_of",
]

ID: Final = r"[A-Za-z]{1,3}\d+(?:\.\d+)?"
"""The pattern of one id, a source's (``S1``) or a sentence's (``S1.3``), in any scheme of letters."""

MARKER: Final = re.compile(r"\[\s*(" + ID + r"(?:\s*[,;]\s*" + ID + r")*)\s*\]")
"""Anything shaped like a citation marker: ``[S1]``, ``[S1, S2]``, ``[S1.3]``, ``[e2]``; group 1 holds the ids."""

_ONE_ID: Final = re.compile(ID)

QUOTE_REF: Final = re.compile(r"\{\{\s*(" + ID + r")\s*\}\}")
"""A quote by reference, ``{{S1.3}}``; group 1 is the id."""

EVIDENCE_MARKER: Final = re.compile(r"\[(E\d+)\]")
"""One evidence id in its marker, as an accepted answer writes it: ``[E1]``; group 1 is the id."""

CITATION: Final = re.compile(r"\[((?:S|E)\d+)(\.\d+)?\]")
"""One citation as citewise writes it in a delivered report or answer: ``[S1]``, ``[E2]``, or a
sentence citation ``[S1.3]``; group 1 is the source id, group 2 the sentence part (``.3``) if any."""

SENTENCE_ID: Final = re.compile(r"([A-Za-z]{1,3}\d+)\.(\d+)")
"""A sentence id: a source id, a full stop, the sentence's 1-based number (``S1.3``)."""


def marker_ids(text: str) -> list[str]:
    """Every id inside every marker of ``text``, in order, repeats kept."""
    return [ident for marker in MARKER.finditer(text) for ident in _ONE_ID.findall(marker.group(1))]


def ids_in_marker(marker: re.Match[str]) -> list[str]:
    """The ids of one :data:`MARKER` match, in order."""
    return _ONE_ID.findall(marker.group(1))


def source_of(ident: str) -> str:
    """The source id an id cites: ``S1`` for ``S1`` and for the sentence id ``S1.3``."""
    return ident.split(".", 1)[0]


def cited_ids(text: str) -> tuple[str, ...]:
    """Every source id cited in ``text``, in order of first citation, known or not; a sentence
    citation ``[S1.3]`` cites its source ``S1``."""
    return tuple(dict.fromkeys(source_of(ident) for ident in marker_ids(text)))


def cited_sentence_ids(text: str) -> tuple[str, ...]:
    """Every sentence id cited in ``text`` (``[S1.3]``), in order of first citation, known or not."""
    return tuple(dict.fromkeys(ident for ident in marker_ids(text) if "." in ident))
