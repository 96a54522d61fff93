"""The uslm parser on the real USLM files shipped in tests/data/corpora/us-cfr."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument
from citewise.ingest.registry import PARSERS
from citewise.ingest.uslm import UslmParser
from citewise.records import SectionKind
from tests.corpora import US_CFR

pytestmark = pytest.mark.unit

CORPUS = US_CFR
CFR = CORPUS / "CFR-2018-title27-vol3-uslm.xml"
FISH = CORPUS / "COMPS-1656.xml"
MANDATES = CORPUS / "COMPS-339.xml"


def parse(path: Path, data: bytes | None = None) -> ParsedDocument:
    docs = list(UslmParser().parse(path, path.read_bytes() if data is None else data))
    assert len(docs) == 1
    return docs[0]


@pytest.fixture(scope="module")
def cfr() -> ParsedDocument:
    return parse(CFR)


def by_id(doc: ParsedDocument) -> dict:
    return {s.section_id: s for s in doc.sections}


@pytest.mark.parametrize(
    ("path", "sections", "reserved", "deleted"),
    [(CFR, 344, 1, 0), (FISH, 8, 0, 1), (MANDATES, 22, 0, 0)],
    ids=["cfr", "comps-1656", "comps-339"],
)
def test_section_counts(path: Path, sections: int, reserved: int, deleted: int) -> None:
    raw = path.read_text(encoding="utf-8")
    assert raw.count("<section ") == sections  # no nested or quoted sections in these files
    doc = parse(path)
    assert len(doc.sections) == sections
    assert sum(s.reserved for s in doc.sections) == reserved
    assert sum(s.deleted for s in doc.sections) == deleted
    ids = [s.section_id for s in doc.sections]
    assert len(ids) == len(set(ids))
    assert all(s.kind is SectionKind.ARTICLE for s in doc.sections)


def test_cfr_ids_come_from_the_printed_number(cfr: ParsedDocument) -> None:
    assert all(re.fullmatch(r"\d{3}\.\d+[a-z]?", s.section_id) for s in cfr.sections)
    sections = by_id(cfr)
    # the converter gives §478.25 and §478.25a the same identifier and num value
    assert sections["478.25"].heading == "§\u2009478.25 Disclosure of information."
    assert sections["478.25a"].heading == "§\u2009478.25a Responses to requests for information."
    assert sections["478.25a"].text.startswith("Each licensee shall respond immediately")
    duplicated = cfr.metadata["duplicate_section_identifiers"].split()
    assert len(duplicated) == 10 and "/us/cfr/t27/s478.25" in duplicated
    assert sum(1 for s in cfr.sections if s.section_id.endswith("a")) == 10


def test_cfr_section_text_keeps_paragraph_breaks(cfr: ParsedDocument) -> None:
    terms = by_id(cfr)["555.11"]
    assert terms.heading == "§\u2009555.11 Meaning of terms."
    lines = terms.text.splitlines()
    assert lines[0].startswith("When used in this part, terms are defined as follows")
    assert lines[1] == "Act. 18 U.S.C. Chapter 40."
    assert "(1) Is a danger to himself or to others; or" in lines
    assert "§ 555.11" not in terms.text and "Meaning of terms" not in lines[0]
    disclosure = by_id(cfr)["478.25"].text.splitlines()
    assert disclosure[-1] == "[T.D. ATF–270, 53 FR 10493, Mar. 31, 1988]"
    assert all(line == line.strip() and "  " not in line for line in terms.text.splitlines())


def test_reserved_section(cfr: ParsedDocument) -> None:
    reserved = [s for s in cfr.sections if s.reserved]
    assert [(s.section_id, s.heading, s.text, s.deleted) for s in reserved] == [
        ("555.130", "§\u2009555.130 [Reserved]", "", False)
    ]


def test_cfr_document_facts(cfr: ParsedDocument) -> None:
    assert cfr.doc_id == "us-cfr-title-27-parts-400-end"
    assert cfr.title == "Title 27 Alcohol, Tobacco Products and Firearms Part 400 to End"
    assert cfr.official_publisher == "United States Government Publishing Office"
    assert cfr.issuing_authority == "BUREAU OF ALCOHOL, TOBACCO, FIREARMS, AND EXPLOSIVES, DEPARTMENT OF JUSTICE"
    assert cfr.metadata["dc:creator"] == "Office of the Federal Register"
    assert (cfr.version_label, cfr.effective_on, cfr.promulgated_on) == (
        "revised as of 2017-04-01",
        date(2017, 4, 1),
        None,
    )
    assert (cfr.language, cfr.licence, cfr.format) == ("en", "public domain (17 U.S.C. 105)", "uslm")
    assert cfr.metadata["docNumber"] == "27" and cfr.metadata["root"] == "cfrDoc"
    assert cfr.text == CFR.read_text(encoding="utf-8")


def test_statute_compilation_with_undesignated_first_section_and_repealed_section() -> None:
    doc = parse(FISH)
    assert [s.section_id for s in doc.sections] == ["1", "2", "3", "4", "5", "6", "7", "8"]
    sections = by_id(doc)
    assert sections["1"].heading == "(undesignated section)"
    assert sections["1"].text.splitlines()[1].startswith("That (a) for the purpose of conserving")
    assert "pursuant to section 1(a) of this Act" in sections["2"].text  # why it is section 1
    assert sections["4"].heading == "SEC. 4. AUTHORIZATION OF APPROPRIATIONS."
    repealed = sections["7"]
    assert repealed.deleted and not repealed.reserved
    assert repealed.text.startswith("Repealed by section 3(a) of the Atlantic Striped Bass")
    assert doc.doc_id == "us-pl-89-304"
    assert doc.title == "ANADROMOUS FISH CONSERVATION ACT"
    assert doc.issuing_authority == "United States House of Representatives, Office of the Legislative Counsel"
    assert doc.official_publisher is None  # the file names no publisher
    assert doc.promulgated_on == date(1965, 10, 30)
    assert doc.version_label == "amended through Public Law 109–479"


def test_statute_compilation_sections() -> None:
    doc = parse(MANDATES)
    ids = [s.section_id for s in doc.sections]
    assert ids[:6] == ["1", "2", "3", "4", "5", "103"] and ids[-1] == "401"
    sections = by_id(doc)
    assert sections["1"].heading == "SECTION 1. SHORT TITLE."
    assert (
        sections["1"].text
        == "[2 U.S.C. 1501 note]\nThis Act may be cited as the “Unfunded Mandates Reform Act of 1995”."
    )
    purposes = sections["2"].text.splitlines()
    assert purposes[1] == "The purposes of this Act are—"
    assert purposes[2].startswith("(1) to strengthen the partnership")
    assert doc.doc_id == "us-pl-104-4" and doc.promulgated_on == date(1995, 3, 22)


def test_sniff() -> None:
    parser = UslmParser()
    for path in (CFR, FISH, MANDATES):
        assert parser.sniff(path, path.read_bytes()[:4096].decode("utf-8", errors="replace"))
    assert not parser.sniff(Path("a.xml"), '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>')
    assert not parser.sniff(Path("a.txt"), '<cfrDoc xmlns="http://schemas.gpo.gov/xml/uslm"/>')
    assert isinstance(PARSERS["uslm"](), UslmParser)


def test_us_code_namespace_is_uslm() -> None:
    data = (
        b'<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        b"<meta><dc:title>Title 1</dc:title><docNumber>1</docNumber></meta><main>"
        b'<section identifier="/us/usc/t1/s1"><num value="1">\xc2\xa71.</num><heading>Words denoting number'
        b"</heading><content>In determining the meaning</content></section>"
        b'<section><num value="2">\xc2\xa72.</num><heading>[Repealed]</heading></section></main></uscDoc>'
    )
    doc = parse(Path("usc01.xml"), data)
    assert [(s.section_id, s.deleted) for s in doc.sections] == [("1", False), ("2", True)]
    assert doc.doc_id == "us-usc-title-1"


def test_entities_are_not_expanded() -> None:
    data = (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><statuteCompilation xmlns="http://schemas.gpo.gov/xml/uslm">'
        b'<main><section><num value="1">Sec. 1.</num><content>x &c; y</content></section></main>'
        b"</statuteCompilation>"
    )
    doc = parse(Path("lol.xml"), data)
    assert doc.sections[0].text == "x y"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty file"),
        (b"<cfrDoc xmlns='http://schemas.gpo.gov/xml/uslm'><section>", "invalid XML: "),
        (b"\x00\x01\x02\x03binary", "invalid XML: "),
        (b"<?xml version='1.0' encoding='UTF-8'?><a>caf\xe9</a>", "invalid XML: "),
        (b"<html xmlns='http://www.w3.org/1999/xhtml'><body/></html>", "not USLM: root element <html>"),
        (b"<cfrDoc><section/></cfrDoc>", "not USLM: root element <cfrDoc> is in namespace '(none)'"),
    ],
    ids=["empty", "truncated", "binary", "not-utf8", "xhtml", "no-namespace"],
)
def test_bad_input(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse(Path("bad.xml"), data)
    assert info.value.path == "bad.xml"
