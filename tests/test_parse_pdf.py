"""The PDF parser: one PAGE section per page with text; encrypted, scanned and corrupt files refused.

The test PDFs are written by hand (a few objects and a text content stream), so every byte of
the input is visible here and no binary fixture has to be trusted.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument
from citewise.ingest.pdf import PdfParser
from citewise.ingest.registry import PARSERS
from citewise.records import SectionKind

pytestmark = pytest.mark.unit


def _content_stream(text: str | None) -> bytes:
    """A page content stream: text lines in Helvetica, or (for None) a line drawing with no text."""
    if text is None:
        return b"0 0 m 100 100 l S"
    ops = [b"BT /F1 12 Tf 72 720 Td 14 TL"]
    for line in text.split("\n"):
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(b"(" + escaped.encode("latin-1") + b") Tj T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def minimal_pdf(pages: list[str | None], title: str | None = None, lang: str | None = None) -> bytes:
    """Write a small valid PDF: catalog, page tree, one font, one content stream per page."""
    catalog = b"<< /Type /Catalog /Pages 2 0 R" + (b" /Lang (%s)" % lang.encode() if lang else b"") + b" >>"
    objects: dict[int, bytes] = {1: catalog, 3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    page_ids = []
    next_id = 4
    for text in pages:
        page_id, content_id = next_id, next_id + 1
        next_id += 2
        page_ids.append(page_id)
        stream = _content_stream(text)
        objects[page_id] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content_id
        )
        objects[content_id] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
    kids = b" ".join(b"%d 0 R" % page_id for page_id in page_ids)
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages))
    info_id = None
    if title is not None:
        info_id, next_id = next_id, next_id + 1
        objects[info_id] = b"<< /Title (%s) >>" % title.encode("latin-1")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = {}
    for number in range(1, next_id):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, objects[number]))
    xref_at = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % next_id)
    for number in range(1, next_id):
        out.write(b"%010d 00000 n \n" % offsets[number])
    info = b" /Info %d 0 R" % info_id if info_id else b""
    out.write(b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (next_id, info, xref_at))
    return out.getvalue()


def encrypted(data: bytes, user_password: str) -> bytes:
    """``data`` re-written encrypted (RC4, which pypdf handles without extra packages)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def parse(data: bytes, name: str = "report.pdf") -> ParsedDocument:
    (document,) = PdfParser().parse(Path(name), data)
    return document


THREE_PAGES = minimal_pdf(
    ["Annual Report 2024\nRevenue rose (slightly).", None, "Outlook\nCosts will fall."],
    title="Annual Report",
    lang="en",
)


def test_the_builder_writes_a_pdf_pypdf_reads_text_from() -> None:
    reader = PdfReader(io.BytesIO(THREE_PAGES))
    assert [page.extract_text().strip() for page in reader.pages] == [
        "Annual Report 2024\nRevenue rose (slightly).",
        "",
        "Outlook\nCosts will fall.",
    ]


def test_one_page_section_per_page_with_text_keeping_physical_page_numbers() -> None:
    document = parse(THREE_PAGES, "annual_report.2024.pdf")
    assert [(s.section_id, s.heading, s.kind) for s in document.sections] == [
        ("p1", "Page 1", SectionKind.PAGE),
        ("p3", "Page 3", SectionKind.PAGE),
    ]
    assert document.sections[0].text == "Annual Report 2024\nRevenue rose (slightly)."
    assert document.sections[1].text == "Outlook\nCosts will fall."
    assert document.text == "Annual Report 2024\nRevenue rose (slightly).\n\nOutlook\nCosts will fall."
    assert document.doc_id == "annual-report-2024"
    assert document.title == "Annual Report"
    assert document.language == "en"
    assert document.format == "pdf"
    assert document.source == "annual_report.2024.pdf"
    assert document.metadata == {"pages": "3"}


def test_title_falls_back_to_the_first_line_of_text() -> None:
    document = parse(minimal_pdf(["  Minutes of the Board  \nAttendees: four."]))
    assert document.title == "Minutes of the Board"
    assert document.language is None


def test_sniff_claims_pdf_names_and_pdf_bytes_under_any_name() -> None:
    parser = PdfParser()
    assert parser.sniff(Path("x.PDF"), "")
    assert parser.sniff(Path("download"), "%PDF-1.7\n...")
    assert not parser.sniff(Path("notes.txt"), "plain text")
    assert PARSERS["pdf"]().name == "pdf"


def test_pdf_readable_with_an_empty_password_is_parsed() -> None:
    # Owner-password-only files restrict printing or editing, not reading.
    document = parse(encrypted(THREE_PAGES, user_password=""))
    assert [s.section_id for s in document.sections] == ["p1", "p3"]


def test_pdf_needing_a_password_is_refused_as_encrypted() -> None:
    with pytest.raises(ParseError, match="encrypted PDF: it needs a password") as caught:
        parse(encrypted(THREE_PAGES, user_password="s3cret"), "locked.pdf")
    assert caught.value.path == "locked.pdf"


def test_pdf_without_any_text_layer_is_refused_as_scanned() -> None:
    with pytest.raises(ParseError, match=r"no extractable text in any of its 2 page\(s\).*OCR"):
        parse(minimal_pdf([None, None]))


@pytest.mark.parametrize(
    "data",
    [THREE_PAGES[: len(THREE_PAGES) // 2], b"%PDF-1.4\n" + bytes(range(256)) * 4],
    ids=["truncated", "garbage-after-header"],
)
def test_corrupt_pdf_is_refused_naming_the_problem(data: bytes) -> None:
    # pytest turns warnings into errors here: pypdf's own diagnostics must not escape the parser.
    with pytest.raises(ParseError, match="corrupt PDF: pypdf cannot read it"):
        parse(data)


def test_repairable_damage_is_parsed_and_noted() -> None:
    damaged = THREE_PAGES.replace(b"startxref\n", b"startxref\n9")
    document = parse(damaged)
    assert [s.section_id for s in document.sections] == ["p1", "p3"]
    assert "incorrect startxref pointer" in document.metadata["pdf_warnings"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty file"),
        (b" \n\t", "empty file"),
        (b"Just some text saved as .pdf", "not a PDF"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a PDF"),
    ],
)
def test_inputs_that_are_not_pdfs_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse(data)
