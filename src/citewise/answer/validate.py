"""Validation of a model's answer against the evidence it was given.

A model's reply is untrusted input. :func:`validate_answer` accepts it only when every rule holds,
and otherwise raises :class:`AnswerRejected` with a machine-readable :attr:`~AnswerRejected.code`;
it never repairs a citation (an invented id is rejected, not replaced by a plausible one):

=========================  ==================================================================
code                       the reply ...
=========================  ==================================================================
``not_json_object``        is not a JSON object
``schema_mismatch``        lacks ``answer``/``covered``/``citations`` or has a wrong type there
``not_covered``            says ``"covered": false`` (the caller turns that into a handoff)
``empty_answer``           has an empty ``answer``
``contains_url``           has a URL (``http://``, ``https://``, ``www.``) in ``answer``
``no_citations``           has no citations
``unknown_id``             cites an id, or has an ``[E#]`` marker, naming no given passage
``quote_not_in_passage``   quotes text that does not occur in the cited passage
``marker_without_quote``   marks ``[E#]`` in the text without a citation quoting that passage
``uncited_sentence``       has a sentence without an ``[E#]`` marker
=========================  ==================================================================

Quotes are compared after Unicode (NFKC) and whitespace normalisation and with surrounding
quotation marks removed; the :class:`~citewise.records.answer.Citation` keeps the model's quote
as written. Document, version and section of a citation come from the
:class:`~citewise.records.answer.Evidence`, never from the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from citewise.errors import RunError
from citewise.records.answer import Citation, ComposedAnswer, Evidence
from citewise.text.citations import EVIDENCE_MARKER, MARKER, ids_in_marker
from citewise.text.quotes import QUOTE_MARKS, normalise_for_match
from citewise.text.sentences import split_answer_sentences

__all__ = ["REJECTION_CODES", "AnswerRejected", "validate_answer"]

REJECTION_CODES: Final = frozenset(
    {
        "not_json_object",
        "schema_mismatch",
        "not_covered",
        "empty_answer",
        "contains_url",
        "no_citations",
        "unknown_id",
        "quote_not_in_passage",
        "marker_without_quote",
        "uncited_sentence",
    }
)
"""Every value :attr:`AnswerRejected.code` can take."""


class AnswerRejected(RunError):
    """A model's answer broke a rule; :attr:`code` says which (one of :data:`REJECTION_CODES`)."""

    def __init__(self, reason: str, *, code: str) -> None:
        if code not in REJECTION_CODES:
            raise ValueError(f"unknown rejection code {code!r}; valid: {', '.join(sorted(REJECTION_CODES))}")
        super().__init__(reason)
        self.reason = reason
        """What was wrong, for the run record."""
        self.code = code
        """Machine-readable rule name, e.g. ``unknown_id``."""


_URL = re.compile(r"https?://|www\.", re.IGNORECASE)


def validate_answer(reply: object, evidence: Sequence[Evidence]) -> ComposedAnswer:
    """The answer in ``reply`` (the model's decoded JSON), checked against ``evidence``.

    Raises :class:`AnswerRejected` when any rule of the module docstring fails. The returned text
    is the model's, stripped, with grouped markers written one per id (``[E1, E2]`` becomes
    ``[E1][E2]``); citations are in the model's order, exact repeats dropped.

    >>> from citewise.records.answer import Evidence
    >>> e1 = Evidence("E1", "doc", 1, "제4조", "법", "제4조", "임대차는 존속되는 것으로 본다.", "sha256:0")
    >>> reply = {"answer": "존속한다[E1].", "covered": True, "citations": [{"id": "E1", "quote": "존속되는"}]}
    >>> validate_answer(reply, [e1]).citations[0].section_id
    '제4조'
    """
    by_id = _index(evidence)
    answer, covered, raw_citations = _fields(reply)
    if not covered:
        raise AnswerRejected("the model said the passages do not answer the question", code="not_covered")
    text = answer.strip()
    if not text:
        raise AnswerRejected("the answer is empty", code="empty_answer")
    if _URL.search(text):
        raise AnswerRejected("the answer contains a URL; citewise attaches sources itself", code="contains_url")
    if not raw_citations:
        raise AnswerRejected("the answer has no citations", code="no_citations")
    text = _canonical_markers(text, by_id)
    citations = tuple(dict.fromkeys(_citation(item, by_id) for item in raw_citations))
    quoted = {citation.evidence_id for citation in citations}
    for evidence_id in dict.fromkeys(EVIDENCE_MARKER.findall(text)):
        if evidence_id not in quoted:
            raise AnswerRejected(
                f"[{evidence_id}] is marked in the answer but no citation quotes {evidence_id}",
                code="marker_without_quote",
            )
    for sentence in split_answer_sentences(text):
        if not EVIDENCE_MARKER.search(sentence):
            raise AnswerRejected(f"sentence without an [E#] marker: {_short(sentence)!r}", code="uncited_sentence")
    return ComposedAnswer(text=text, citations=citations)


def _index(evidence: Sequence[Evidence]) -> dict[str, Evidence]:
    by_id: dict[str, Evidence] = {}
    for item in evidence:
        if item.evidence_id in by_id:
            raise ValueError(f"evidence id {item.evidence_id!r} is given twice")
        by_id[item.evidence_id] = item
    return by_id


def _fields(reply: object) -> tuple[str, bool, list[Any]]:
    if not isinstance(reply, dict):
        raise AnswerRejected(f"the reply is {_json_type(reply)}, not a JSON object", code="not_json_object")
    expected = {"answer": str, "covered": bool, "citations": list}
    for key, kind in expected.items():
        if not isinstance(reply.get(key), kind):
            shown = "missing" if key not in reply else _json_type(reply[key])
            raise AnswerRejected(f"{key} must be {kind.__name__}, got {shown}", code="schema_mismatch")
    return reply["answer"], reply["covered"], reply["citations"]


def _canonical_markers(text: str, by_id: dict[str, Evidence]) -> str:
    # Anything shaped like a citation marker ([E1], [E1, E2], [S3], [e2], [E1.2]) is one: each id
    # inside must name a given passage, so a marker in another scheme is an unknown id, not text.
    def rewrite(match: re.Match[str]) -> str:
        ids = ids_in_marker(match)
        for evidence_id in ids:
            if evidence_id not in by_id:
                raise AnswerRejected(
                    f"the answer cites [{evidence_id}], which is not among the passages ({_known(by_id)})",
                    code="unknown_id",
                )
        return "".join(f"[{evidence_id}]" for evidence_id in ids)

    return MARKER.sub(rewrite, text)


def _citation(item: object, by_id: dict[str, Evidence]) -> Citation:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not isinstance(item.get("quote"), str):
        raise AnswerRejected(f"a citation must be an object with string id and quote: {item!r}", code="schema_mismatch")
    evidence_id, quote = item["id"], item["quote"]
    evidence = by_id.get(evidence_id)
    if evidence is None:
        raise AnswerRejected(
            f"a citation names {evidence_id!r}, which is not among the passages ({_known(by_id)})", code="unknown_id"
        )
    # Quotation marks around the quote are the model's punctuation, not part of the passage.
    wanted = normalise_for_match(quote).strip(QUOTE_MARKS).strip()
    if not wanted or wanted not in normalise_for_match(evidence.text):
        raise AnswerRejected(
            f"the quote for {evidence_id} does not occur in that passage: {_short(quote)!r}",
            code="quote_not_in_passage",
        )
    return Citation(
        evidence_id=evidence_id,
        quote=quote,
        doc_id=evidence.doc_id,
        version=evidence.version,
        section_id=evidence.section_id,
    )


def _known(by_id: dict[str, Evidence]) -> str:
    return ", ".join(by_id) or "none given"


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__
