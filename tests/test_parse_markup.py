"""Generic markup parsers: Markdown, reStructuredText, HTML and plain text.

Expected section counts and ids for the Python docs were checked by reading the files (and agree
with docutils' own section count).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.markup import (
    HtmlParser,
    MarkdownParser,
    PlainTextParser,
    RstParser,
    _rst_headings,
    doc_id_from_path,
    slug,
)
from citewise.ingest.registry import PARSERS
from citewise.records import SectionKind
from tests.corpora import PYTHON_DOCS

pytestmark = pytest.mark.unit

FIXTURES = Path(__file__).parent / "fixtures" / "markup"


def parse_file(parser: Parser, path: Path) -> ParsedDocument:
    (document,) = parser.parse(path, path.read_bytes())
    return document


def parse_text(parser: Parser, text: str, name: str = "doc.md") -> ParsedDocument:
    (document,) = parser.parse(Path(name), text.encode("utf-8"))
    return document


def ids(document: ParsedDocument) -> list[str]:
    return [section.section_id for section in document.sections]


def assert_sections_are_slices_of_the_text(document: ParsedDocument) -> None:
    assert len(set(ids(document))) == len(document.sections)
    for section in document.sections:
        assert section.text in document.text


# --- registration and shared rules ----------------------------------------------------------------


def test_each_parser_is_registered_under_its_name() -> None:
    for name, cls in [
        ("markdown", MarkdownParser),
        ("rst", RstParser),
        ("html", HtmlParser),
        ("text", PlainTextParser),
    ]:
        assert isinstance(PARSERS[name](), cls)


@pytest.mark.parametrize(
    ("parser", "name", "claimed"),
    [
        (RstParser(), "library_urllib.parse.rst.txt", True),
        (RstParser(), "index.RST", True),
        (RstParser(), "notes.txt", False),
        (PlainTextParser(), "notes.txt", True),
        (PlainTextParser(), "library_urllib.parse.rst.txt", False),
        (MarkdownParser(), "README.markdown", True),
        (HtmlParser(), "page.htm", True),
    ],
)
def test_sniff_by_file_name(parser: Parser, name: str, claimed: bool) -> None:
    assert parser.sniff(Path(name), "") is claimed


def test_doc_id_and_slug_come_from_the_name() -> None:
    assert doc_id_from_path(Path("/x/library_urllib.parse.rst.txt")) == "library-urllib-parse"
    assert doc_id_from_path(Path("whatsnew_3.11.rst.txt")) == "whatsnew-3-11"
    assert doc_id_from_path(Path("Report v2.final.md")) == "report-v2-final"
    assert slug(":mod:`urllib.parse` --- Parse URLs into components") == "urllib-parse-parse-urls-into-components"
    assert slug("제3조 (대항력 등)") == "제3조-대항력-등"
    assert slug("***") == "section"


# --- reStructuredText on the Python documentation --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("library_asyncore.rst.txt", 3),
        ("library_http.client.rst.txt", 5),
        ("library_ipaddress.rst.txt", 20),
        ("library_urllib.parse.rst.txt", 6),
        ("whatsnew_3.11.rst.txt", 82),
    ],
)
def test_python_docs_split_into_their_sections(name: str, count: int) -> None:
    document = parse_file(RstParser(), PYTHON_DOCS / name)
    assert len(document.sections) == count
    assert all(section.kind is SectionKind.HEADING for section in document.sections)
    assert_sections_are_slices_of_the_text(document)
    assert document.text == (PYTHON_DOCS / name).read_text(encoding="utf-8")


def test_urllib_parse_sections_ids_and_title() -> None:
    document = parse_file(RstParser(), PYTHON_DOCS / "library_urllib.parse.rst.txt")
    assert (document.doc_id, document.format) == ("library-urllib-parse", "rst")
    assert document.title == "urllib.parse — Parse URLs into components"  # as the page renders it
    assert document.sections[0].heading == ":mod:`urllib.parse` --- Parse URLs into components"  # hashed as written
    assert ids(document) == [
        "urllib-parse-parse-urls-into-components",
        "url-parsing",
        "url-parsing-security",
        "parsing-ascii-encoded-bytes",
        "structured-parse-results",
        "url-quoting",
    ]
    intro, url_parsing = document.sections[:2]
    # The transition line under the index directive is not a title: it stays in the text.
    assert "\n--------------\n" in intro.text
    assert intro.text.startswith(".. module:: urllib.parse")
    assert url_parsing.heading == "URL Parsing"
    assert url_parsing.text.startswith("The URL parsing functions focus on splitting")
    assert "   .. versionchanged:: 3.2" in url_parsing.text  # directives stay in the text


def test_rst_levels_follow_the_order_adornment_styles_appear() -> None:
    lines = (PYTHON_DOCS / "library_ipaddress.rst.txt").read_text(encoding="utf-8").split("\n")
    levels = [(h.text, h.level) for h in _rst_headings(lines)]
    assert levels[:7] == [
        (":mod:`ipaddress` --- IPv4/IPv6 manipulation library", 1),  # ====
        ("Convenience factory functions", 2),  # ----
        ("IP Addresses", 2),
        ("Address objects", 3),  # ^^^^
        ("Conversion to Strings and Integers", 3),
        ("Operators", 3),
        ("Comparison operators", 4),  # """"
    ]


def test_whatsnew_overlined_title_and_repeated_headings() -> None:
    document = parse_file(RstParser(), PYTHON_DOCS / "whatsnew_3.11.rst.txt")
    assert document.title == "What's New In Python 3.11"
    assert document.sections[0].section_id == "what-s-new-in-python-3-11"
    by_id = {section.section_id: section for section in document.sections}
    for repeated in (
        "new-features",
        "porting-to-python-3-11",
        "deprecated",
        "pending-removal-in-python-3-12",
    ):
        assert by_id[repeated].heading == by_id[f"{repeated}-2"].heading
    assert "os" in by_id and "re" in by_id  # titles with a two-character underline
    lines = document.text.split("\n")
    top = [h.text for h in _rst_headings(lines) if h.level == 1]
    assert top == ["What's New In Python 3.11"]  # the overlined style is a level of its own


def test_rst_overline_and_underline_styles_are_different_levels() -> None:
    text = "=====\nTitle\n=====\n\nIntro.\n\nPart\n====\n\nBody.\n\nShort\n--\n\nNot a title (underline too short).\n"
    lines = text.split("\n")
    assert [(h.text, h.level) for h in _rst_headings(lines)] == [("Title", 1), ("Part", 2)]
    document = parse_text(RstParser(), text, "guide.rst")
    assert ids(document) == ["title", "part"]
    assert "Short\n--" in document.sections[1].text


# --- Markdown ----------------------------------------------------------------------------------------


def test_markdown_fixture_front_matter_and_sections() -> None:
    document = parse_file(MarkdownParser(), FIXTURES / "handbook.md")
    assert (document.doc_id, document.title, document.format) == (
        "records-handbook",
        "Records Retention Handbook",
        "markdown",
    )
    assert document.issuing_authority == "Office of Records Management"
    assert document.official_publisher == "https://records.example.org/handbook"
    assert document.origin_url == "https://records.example.org/handbook.md"
    assert (document.licence, document.language, document.version_label) == (
        "CC-BY-4.0",
        "en",
        "2024 edition",
    )
    assert (document.promulgated_on, document.effective_on) == (date(2024, 3, 1), date(2024, 4, 1))
    assert document.metadata == {"audience": "staff", "reviewers": "A. Clerk; B. Archivist"}
    assert document.text.startswith("---\ntitle: Records Retention Handbook\n")  # hashed with its front matter
    assert [(s.section_id, s.kind) for s in document.sections] == [
        ("preamble", SectionKind.BODY),
        ("records-retention-handbook", SectionKind.HEADING),
        ("1", SectionKind.ARTICLE),
        ("definitions", SectionKind.HEADING),
        ("retention-periods", SectionKind.HEADING),
        ("Article 7", SectionKind.ARTICLE),
        ("Article 8", SectionKind.ARTICLE),
        ("§ 9", SectionKind.ARTICLE),
        ("definitions-2", SectionKind.HEADING),
        ("appendix", SectionKind.HEADING),
    ]
    assert_sections_are_slices_of_the_text(document)


def test_markdown_code_fences_and_thematic_breaks_are_not_headings() -> None:
    sections = {s.section_id: s for s in parse_file(MarkdownParser(), FIXTURES / "handbook.md").sections}
    assert "## still inside the fence" in sections["definitions"].text
    assert "# Not a heading" in sections["definitions"].text
    assert "- a list item\n---\n" in sections["retention-periods"].text
    assert sections["appendix"].text == "~~~\n# a tilde fence, also not a heading\n~~~"
    assert sections["definitions-2"].heading == "Definitions"  # closing #s removed


def test_markdown_deleted_and_reserved_provisions() -> None:
    sections = {s.section_id: s for s in parse_file(MarkdownParser(), FIXTURES / "handbook.md").sections}
    assert sections["Article 8"].deleted and not sections["Article 8"].reserved
    assert sections["§ 9"].reserved and not sections["§ 9"].deleted
    assert sections["§ 9"].heading == "§ 9 [Reserved]"
    assert not any(sections[key].deleted for key in ("1", "Article 7", "definitions"))


def test_markdown_setext_headings_and_heading_levels() -> None:
    text = "Intro line\nTitle\n=====\n\nText.\n\nSub *part*\n---\nMore.\n\n#No space is not a heading\n"
    document = parse_text(MarkdownParser(), text)
    assert [(s.section_id, s.heading) for s in document.sections] == [
        ("preamble", ""),
        ("title", "Title"),
        ("sub-part", "Sub *part*"),
    ]
    assert document.sections[0].text == "Intro line"
    assert document.sections[2].text == "More.\n\n#No space is not a heading"
    assert document.title == "Title"


def test_markdown_without_headings_is_one_body_section_titled_by_the_file() -> None:
    document = parse_text(MarkdownParser(), "Just a note.\n\nTwo paragraphs.\n", "meeting_notes.md")
    assert [(s.section_id, s.kind, s.text) for s in document.sections] == [
        ("body", SectionKind.BODY, "Just a note.\n\nTwo paragraphs.")
    ]
    assert (document.doc_id, document.title) == ("meeting-notes", "meeting_notes")


def test_markdown_numbered_provisions_and_duplicates() -> None:
    text = (
        "# Article 7\nA.\n# Article 7\nB.\n# §2\nC.\n# 2.3 Scope\nD.\n"
        "# 2024 Annual report\nE.\n# 제3조의2 (보증금)\nF.\n"
    )
    document = parse_text(MarkdownParser(), text)
    assert ids(document) == ["Article 7", "Article 7-2", "§ 2", "2.3", "2024-annual-report", "제3조의2"]
    assert [s.kind for s in document.sections].count(SectionKind.ARTICLE) == 5


def test_front_matter_doc_id_and_published_spellings() -> None:
    text = "---\nid: 42\npublished: 2020-01-02\neffective_on: null\n---\n# Heading\nBody.\n"
    document = parse_text(MarkdownParser(), text)
    assert (document.doc_id, document.promulgated_on, document.effective_on) == ("42", date(2020, 1, 2), None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "---\ntitle: Never closed\n# Heading\n",
            "broken front matter: the opening '---' line has no closing",
        ),
        ("---\ntitle: [unclosed\n---\nBody.\n", "broken front matter: .*line"),
        ("---\n- a\n- b\n---\nBody.\n", "broken front matter: expected 'key: value' lines, got a list"),
        ("---\ntitle: x\neffective: next Tuesday\n---\nBody.\n", "front matter 'effective' must be a date"),
        ("---\ntitle: Only front matter\n---\n\n", "no text after the front matter"),
    ],
)
def test_broken_front_matter_is_refused(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        parse_text(MarkdownParser(), text, "broken.md")
    assert caught.value.path == "broken.md"


# --- plain text --------------------------------------------------------------------------------------


def test_text_fixture_headings() -> None:
    document = parse_file(PlainTextParser(), FIXTURES / "regulation.txt")
    assert (document.doc_id, document.title, document.format) == (
        "regulation",
        "TENANCY DEPOSIT REGULATION",
        "text",
    )
    assert [(s.section_id, s.heading, s.kind) for s in document.sections] == [
        ("tenancy-deposit-regulation", "TENANCY DEPOSIT REGULATION", SectionKind.HEADING),
        ("1", "1 General Provisions", SectionKind.ARTICLE),
        ("1.1", "1.1 Purpose", SectionKind.ARTICLE),
        ("1.2", "1.2 Scope", SectionKind.ARTICLE),
        ("Article 7", "Article 7", SectionKind.ARTICLE),
        ("Article 8", "Article 8", SectionKind.ARTICLE),
        ("§ 9", "§ 9", SectionKind.ARTICLE),
        ("schedule-of-fees", "Schedule of Fees", SectionKind.HEADING),
    ]
    sections = {s.section_id: s for s in document.sections}
    assert (
        sections["1.2"].text == "It applies to residential tenancies:\n1. fixed-term tenancies;\n2. periodic tenancies."
    )
    assert sections["Article 8"].deleted and sections["§ 9"].reserved
    assert "Notes on applying the schedule" in sections["schedule-of-fees"].text
    assert_sections_are_slices_of_the_text(document)


@pytest.mark.parametrize(
    ("body", "deleted", "reserved"),
    [
        ("[Repealed]", True, False),
        ("Repealed.", True, False),
        ("[Deleted]", True, False),
        ("[Repealed by Act 12 of 2020]", True, False),
        ("[Reserved]", False, True),
        ("Repealed provisions are listed in the annex.", False, False),
    ],
)
def test_text_deleted_and_reserved_markers(body: str, deleted: bool, reserved: bool) -> None:
    document = parse_text(PlainTextParser(), f"Article 1\nIn force.\n\nArticle 2\n{body}\n", "act.txt")
    assert (document.sections[1].deleted, document.sections[1].reserved) == (deleted, reserved)
    assert not document.sections[0].deleted


def test_text_lists_and_sentences_are_not_headings() -> None:
    text = (
        "Shopping\n\n1. Buy milk\n2. Buy eggs\n\nThe meeting ended.\n\n3 apples were bought,\n\n"
        "Article 9 of the treaty applies here.\n"
    )
    document = parse_text(PlainTextParser(), text, "notes.txt")
    assert [(s.section_id, s.kind) for s in document.sections] == [("body", SectionKind.BODY)]
    assert document.sections[0].text == text.strip()
    assert document.title == "notes"


def test_text_underlined_heading_and_preamble() -> None:
    text = "Some opening words.\n\nBackground\n----------\nWhy this exists.\n"
    document = parse_text(PlainTextParser(), text, "memo.txt")
    assert [(s.section_id, s.text) for s in document.sections] == [
        ("preamble", "Some opening words."),
        ("background", "Why this exists."),
    ]


# --- HTML --------------------------------------------------------------------------------------------


def test_html_fixture_sections_title_and_language() -> None:
    document = parse_file(HtmlParser(), FIXTURES / "notice.html")
    assert (document.doc_id, document.title, document.language, document.format) == (
        "notice",
        "Notice of Fee Changes",
        "en-GB",
        "html",
    )
    assert [(s.section_id, s.kind) for s in document.sections] == [
        ("preamble", SectionKind.BODY),
        ("fee-changes-for-2025", SectionKind.HEADING),
        ("Article 3", SectionKind.ARTICLE),
        ("exemptions", SectionKind.HEADING),
        ("exemptions-2", SectionKind.HEADING),
    ]
    sections = {s.section_id: s for s in document.sections}
    assert sections["preamble"].text == "Published by the Licensing Office."
    assert sections["fee-changes-for-2025"].text == "The annual fee rises to 120 pounds."
    assert sections["Article 3"].text == "Fees are payable by 1 April.\nLate payment costs extra.\nCard\nTransfer"
    assert sections["exemptions"].text == "Group Fee\nStudents 0\nfee = base   * 1.2\n  rounded up"
    assert_sections_are_slices_of_the_text(document)


def test_html_drops_scripts_styles_navigation_and_comments() -> None:
    document = parse_file(HtmlParser(), FIXTURES / "notice.html")
    for hidden in ("tracking", "color: red", "Home", "JavaScript", "internal comment", "console"):
        assert hidden not in document.text


def test_html_title_falls_back_to_the_first_h1_then_the_file_name() -> None:
    with_h1 = parse_text(HtmlParser(), "<h2>Intro</h2><p>a</p><h1>Main <i>Title</i></h1><p>b</p>", "p.html")
    assert with_h1.title == "Main Title"
    bare = parse_text(HtmlParser(), "<html><body><p>Only text.</p></body></html>", "bare_page.htm")
    assert (bare.title, ids(bare), bare.language) == ("bare_page", ["body"], None)


def test_html_declared_charset_is_used_for_bytes_that_are_not_utf8() -> None:
    data = b'<html><head><meta charset="windows-1252"></head><body><h1>Caf\xe9</h1><p>\x93ok\x94</p></body></html>'
    (document,) = HtmlParser().parse(Path("cafe.html"), data)
    assert document.title == "Café"
    assert document.sections[0].text == "\u201cok\u201d"


def test_html_that_libxml2_cannot_read_to_the_end_is_refused() -> None:
    deep = "<html><body>" + "<div>" * 300 + "lost" + "</div>" * 300 + "<h1>Later</h1></body></html>"
    with pytest.raises(ParseError, match="not parseable as HTML: Excessive depth in document"):
        parse_text(HtmlParser(), deep, "deep.html")


def test_html_tag_soup_is_repaired() -> None:
    document = parse_text(HtmlParser(), "<h1>Title</h2><p>Open <b>bold</i> text", "soup.html")
    assert [(s.section_id, s.text) for s in document.sections] == [("title", "Open bold text")]


def test_html_with_only_scripts_is_refused() -> None:
    with pytest.raises(ParseError, match="no visible text in the HTML body"):
        parse_text(HtmlParser(), "<html><body><script>x()</script><nav>Menu</nav></body></html>", "s.html")


# --- inputs that are not text ------------------------------------------------------------------------

ALL_PARSERS = [
    (MarkdownParser(), "x.md"),
    (RstParser(), "x.rst"),
    (PlainTextParser(), "x.txt"),
    (HtmlParser(), "x.html"),
]


@pytest.mark.parametrize(("parser", "name"), ALL_PARSERS, ids=lambda value: getattr(value, "name", value))
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty file"),
        (b"  \n\n\t", "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        (b"Stra\xdfe und Pl\xe4tze\n", r"not valid utf-8 \(byte 0xdf at offset 4\)"),
    ],
    ids=["empty", "blank", "binary", "latin-1"],
)
def test_inputs_that_are_not_utf8_text_are_refused(parser: Parser, name: str, data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message) as caught:
        list(parser.parse(Path(name), data))
    assert caught.value.path == name


@pytest.mark.parametrize(("parser", "name"), ALL_PARSERS, ids=lambda value: getattr(value, "name", value))
def test_crlf_and_bom_are_normalised(parser: Parser, name: str) -> None:
    (document,) = parser.parse(Path(name), b"\xef\xbb\xbfFirst line\r\nsecond line\r\n")
    assert "\r" not in document.text and "\ufeff" not in document.text
    # HTML collapses white space, line breaks included; the other formats keep their lines.
    expected = "First line second line" if parser.name == "html" else "First line\nsecond line"
    assert document.sections[0].text == expected


@pytest.mark.parametrize("name", sorted(p.name for p in PYTHON_DOCS.glob("*.rst.txt")))
def test_rst_titles_read_as_rendered(name: str) -> None:
    title = parse_file(RstParser(), PYTHON_DOCS / name).title
    assert title and not any(mark in title for mark in ("`", ":mod:", " --- ", "**")), title
