"""The one citation grammar (``citewise.text.citations``) and what each former copy relied on.

The writer, the answer validator, the claim splitter, the native-engine citation placer, the
Markdown export and the sentence splitter each had their own marker regex; they now share one.
"""

from __future__ import annotations

import pytest

from citewise.answer.validate import AnswerRejected, validate_answer
from citewise.engines.citations import place_citations
from citewise.records.answer import Evidence
from citewise.research.writer import cited_ids as writer_cited_ids
from citewise.text.citations import (
    CITATION,
    EVIDENCE_MARKER,
    MARKER,
    QUOTE_REF,
    cited_ids,
    cited_sentence_ids,
    marker_ids,
    source_of,
)
from citewise.text.sentences import parse_sentence_id, split_answer_sentences
from citewise.verify.claims import extract_claims

pytestmark = pytest.mark.unit

E1 = Evidence("E1", "doc", 1, "제4조", "법", "제4조", "임대차는 존속되는 것으로 본다.", "sha256:0")


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("[S1]", ["S1"]),
        ("[S1, S2]", ["S1", "S2"]),
        ("[ S1.3 ;E2 ]", ["S1.3", "E2"]),
        ("[s4] [Abc12]", ["s4", "Abc12"]),  # any scheme of letters is a marker, so an unknown id
        ("[1] [Abcd1] [S] [S1,] (S1)", []),  # footnotes, long words, bare letters are text
    ],
)
def test_what_is_a_marker(text: str, ids: list[str]) -> None:
    assert marker_ids(text) == ids


def test_ids_sources_and_sentences() -> None:
    text = "A [S2]. B [S1.4, S2][S1.4]; C [E7]."
    assert cited_ids(text) == ("S2", "S1", "E7")
    assert cited_sentence_ids(text) == ("S1.4",)
    assert source_of("S1.4") == source_of("S1") == "S1"
    assert parse_sentence_id("S1.4") == ("S1", 4)
    assert writer_cited_ids is cited_ids  # the writer names the grammar's function, not a copy


def test_quote_refs_and_written_citations() -> None:
    assert [m.group(1) for m in QUOTE_REF.finditer("as {{ S1.3 }} and {{E2}} say, not {S1.3}")] == ["S1.3", "E2"]
    # What citewise writes and renders: one id of its own schemes per marker.
    assert [m.groups() for m in CITATION.finditer("[S1] [E2] [S1.3] [S1, S2] [s1] [A1]")] == [
        ("S1", None),
        ("E2", None),
        ("S1", ".3"),
    ]
    assert EVIDENCE_MARKER.findall("[E1][E2] [E3.1] [S1]") == ["E1", "E2"]


def test_the_splitter_keeps_evidence_markers_with_their_sentence() -> None:
    # A marker after the full stop closes the sentence before it; one before it, its own sentence.
    assert split_answer_sentences("2년이다.[E1] 다만 연장된다 [E2]. [E3] 끝.") == [
        "2년이다.[E1]",
        "다만 연장된다 [E2]. [E3]",
        "끝.",
    ]


def test_an_answer_marker_is_canonicalised_and_any_marker_shape_is_checked() -> None:
    reply = {"answer": "존속한다[ E1 ].", "covered": True, "citations": [{"id": "E1", "quote": "존속되는"}]}
    assert validate_answer(reply, [E1]).text == "존속한다[E1]."
    # A sentence id is no answer id: before the grammar was shared, "[E1.2]" passed as plain text
    # next to a valid marker and reached the reader; now it is an unknown id.
    bad = {"answer": "존속한다[E1][E1.2].", "covered": True, "citations": [{"id": "E1", "quote": "존속되는"}]}
    with pytest.raises(AnswerRejected) as rejected:
        validate_answer(bad, [E1])
    assert rejected.value.code == "unknown_id"


def test_claims_cite_every_marker_shape() -> None:
    claims = extract_claims("Rents rose 5% in 2023 [S1.2, S3]. Deposits fell 2% [s2].")
    assert [(c.cited_ids, c.cited_sentences) for c in claims] == [(("S1", "S3"), ("S1.2",)), (("s2",), ())]


def test_engine_text_that_reads_as_a_marker_is_escaped_as_written() -> None:
    draft, _ = place_citations("See [ S1 ] and {{ S2.1 }} here.", [], {})
    assert draft == "See \\[ S1 \\] and \\{\\{ S2.1 \\}\\} here."
    assert MARKER.search(draft.replace("\\[", "").replace("\\]", "")) is None
