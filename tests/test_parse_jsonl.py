"""The JSONL parser: one document per line; a bad line is yielded as a ParseError, never fatal."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument
from citewise.ingest.jsonl import JsonlParser
from citewise.ingest.registry import PARSERS
from citewise.records import SectionKind

pytestmark = pytest.mark.unit

PATH = Path("corpus.jsonl")


def lines(*rows: object) -> bytes:
    """JSONL bytes: dicts are dumped as JSON, bytes and str are written as they are."""
    out = []
    for row in rows:
        if isinstance(row, bytes):
            out.append(row)
        elif isinstance(row, str):
            out.append(row.encode("utf-8"))
        else:
            out.append(json.dumps(row, ensure_ascii=False).encode("utf-8"))
    return b"\n".join(out) + b"\n"


def parse(data: bytes) -> list[ParsedDocument | ParseError]:
    return list(JsonlParser().parse(PATH, data))


def test_a_row_becomes_one_document_with_one_body_section() -> None:
    (document,) = parse(lines({"_id": "nq-4795", "title": "Google", "text": "Google was founded in 1998."}))
    assert isinstance(document, ParsedDocument)
    assert (document.doc_id, document.title, document.format) == ("nq-4795", "Google", "jsonl")
    assert document.text == "Google was founded in 1998."
    assert document.source == "corpus.jsonl:1"
    (section,) = document.sections
    assert (section.section_id, section.heading, section.kind) == ("body", "Google", SectionKind.BODY)
    assert section.text == document.text


def test_provenance_fields_and_metadata_are_read() -> None:
    row = {
        "doc_id": "reg-1",
        "text": "Rule text.",
        "issuing_authority": "Housing Board",
        "official_publisher": "https://board.example.org",
        "url": "https://mirror.example.org/reg-1",
        "license": "CC0-1.0",
        "language": "en",
        "version_label": "v3",
        "promulgated_on": "2024-01-15",
        "effective_on": "2024-07-01",
        "metadata": {"collection": "rules", "rank": 3, "public": True, "dropped": None},
    }
    (document,) = parse(lines(row))
    assert isinstance(document, ParsedDocument)
    assert document.title == "reg-1"  # no title: the id stands in
    assert document.issuing_authority == "Housing Board"
    assert document.official_publisher == "https://board.example.org"
    assert document.origin_url == "https://mirror.example.org/reg-1"
    assert document.licence == "CC0-1.0"
    assert (document.language, document.version_label) == ("en", "v3")
    assert (document.promulgated_on, document.effective_on) == (date(2024, 1, 15), date(2024, 7, 1))
    assert document.metadata == {"collection": "rules", "rank": "3", "public": "true"}


def test_origin_url_wins_over_url_when_both_are_given() -> None:
    (document,) = parse(lines({"_id": "a", "text": "t", "origin_url": "https://a", "url": "https://b"}))
    assert isinstance(document, ParsedDocument)
    assert document.origin_url == "https://a"


def test_bad_lines_are_yielded_as_errors_and_the_good_ones_still_parse() -> None:
    data = lines(
        {"_id": "a", "text": "first"},
        "{not json",
        "",
        {"title": "no id", "text": "orphan"},
        {"_id": "b"},
        {"_id": "c", "text": "   "},
        {"_id": "a", "text": "again"},
        "[1, 2]",
        b'{"_id": "d", "text": "caf\xe9"}',
        {"_id": "e", "text": "t", "effective_on": "1 July 2024"},
        {"_id": "f", "text": "t", "metadata": {"nested": {"x": 1}}},
        {"_id": "g", "text": "t", "licence": 7},
        "   ",
        {"_id": 42, "text": "last"},
    )
    results = parse(data)
    outcome = [
        (r.source, r.doc_id) if isinstance(r, ParsedDocument) else (r.path, str(r).split(": ", 1)[1]) for r in results
    ]
    assert outcome == [
        ("corpus.jsonl:1", "a"),
        ("corpus.jsonl:2", "invalid JSON: Expecting property name enclosed in double quotes at column 2"),
        ("corpus.jsonl:4", "missing '_id' (or 'doc_id'): every line needs a non-empty id"),
        ("corpus.jsonl:5", "missing 'text' for 'b': every line needs non-empty text"),
        ("corpus.jsonl:6", "missing 'text' for 'c': every line needs non-empty text"),
        ("corpus.jsonl:7", "duplicate id 'a' (first on line 1)"),
        ("corpus.jsonl:8", "expected a JSON object, got list"),
        ("corpus.jsonl:9", "not valid UTF-8 (byte 0xe9 at column 26)"),
        ("corpus.jsonl:10", "'effective_on' must be a date written YYYY-MM-DD, got '1 July 2024'"),
        ("corpus.jsonl:11", "metadata 'nested' must be a string, got dict"),
        ("corpus.jsonl:12", "'licence' must be a string, got int"),
        ("corpus.jsonl:14", "42"),
    ]


def test_a_byte_order_mark_and_crlf_line_ends_are_accepted() -> None:
    data = b"\xef\xbb\xbf" + b'{"_id": "a", "text": "one"}\r\n{"_id": "b", "text": "two"}\r\n'
    assert [r.doc_id for r in parse(data) if isinstance(r, ParsedDocument)] == ["a", "b"]


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "empty file"), (b"\n  \n", "empty file"), ('{"_id": "a", "text": "x"}\n'.encode("utf-16-le"), "UTF-16")],
)
def test_a_file_that_is_not_jsonl_at_all_raises(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse(data)


def test_a_nul_byte_fails_its_own_line_only() -> None:
    data = b'{"_id": "a", "text": "one"}\n{"_id": "b"}\x00\x00\x01\n{"_id": "c", "text": "three"}\n'
    results = list(parse(data))
    assert [r.doc_id for r in results if isinstance(r, ParsedDocument)] == ["a", "c"]
    failed = [r for r in results if isinstance(r, ParseError)]
    assert len(failed) == 1 and failed[0].path.endswith(":2") and "NUL byte at column 13" in str(failed[0])


def test_registered_for_jsonl_and_ndjson() -> None:
    parser = PARSERS["jsonl"]()
    assert parser.sniff(Path("a.ndjson"), "") and parser.sniff(Path("b.JSONL"), "")
    assert not parser.sniff(Path("c.json"), "")


def test_a_corpus_the_size_of_the_evaluation_set_parses_whole() -> None:
    # Its speed is measured by benchmarks/retrieval_quality.py (ingest time), not asserted here.
    rows = [{"_id": f"doc-{n}", "title": f"Title {n}", "text": "word " * 120} for n in range(1446)]
    results = parse(lines(*rows))
    assert len(results) == 1446 and all(isinstance(r, ParsedDocument) for r in results)
