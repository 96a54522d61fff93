"""The kr-statute parser on the real legalize-kr files shipped in tests/data/corpora/kr-statutes.

Expected numbers are computed from the raw text with simple regular expressions of their own (never
the parser's helpers), and the most important ones are also pinned as literals.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument
from citewise.ingest.kr_statute import KoreanStatuteParser, restore_article_ids
from citewise.ingest.registry import PARSERS
from citewise.records import SectionKind
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.unit

CORPUS = KR_STATUTES
FILES = sorted(p for p in CORPUS.glob("*.md") if p.name != "SOURCE.md")
HOUSING_2015 = CORPUS / "주택임대차보호법__법률__2015-01-06__MST166548.md"
HOUSING_2025 = CORPUS / "주택임대차보호법__법률__2025-10-01__MST276291.md"
LABOUR = CORPUS / "근로기준법__법률__2024-10-22__MST265959.md"
PROPERTY_TAX = CORPUS / "종합부동산세법__법률__2025-12-23__MST280417.md"
INCOME_TAX = CORPUS / "소득세법__법률__2026-09-08__MST289363.md"
PRIVACY = CORPUS / "개인정보보호법__법률__2026-09-08__MST289415.md"

#: file name prefix -> (article headings, 부칙 sections, deleted articles), counted by hand from the files
PINNED = {
    "개인정보보호법": (131, 14, 2),
    "근로기준법": (132, 26, 1),
    "소득세법": (326, 117, 67),
    "외국인근로자의고용등에관한법률__법률__2003": (32, 1, 0),
    "외국인근로자의고용등에관한법률__법률__2004": (32, 2, 0),
    "외국인근로자의고용등에관한법률__법률__2026": (45, 20, 0),
    "종합부동산세법__법률": (30, 30, 3),
    "종합부동산세법__시행령": (32, 65, 7),
    "주택임대차보호법__법률__2015": (22, 16, 1),
    "주택임대차보호법__법률__2025": (42, 25, 1),
    "출입국관리법": (188, 49, 9),
}


def parse_file(path: Path) -> ParsedDocument:
    return _parse(path, path.read_bytes())


def _parse(path: Path, data: bytes) -> ParsedDocument:
    docs = list(KoreanStatuteParser().parse(path, data))
    assert len(docs) == 1
    return docs[0]


def split_raw(path: Path) -> tuple[str, str]:
    """(main part, 부칙 part) of the raw file, cut at the ``## 부칙`` line."""
    main, _, supplement = path.read_text(encoding="utf-8").partition("\n## 부칙\n")
    return main, supplement


def pinned(path: Path) -> tuple[int, int, int]:
    return next(v for k, v in PINNED.items() if path.name.startswith(k))


def test_corpus_is_present() -> None:
    assert len(FILES) == 11, f"expected the 11 statute files in {CORPUS}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_section_count_is_article_headings_plus_supplementary_lines(path: Path) -> None:
    main, supplement = split_raw(path)
    headings = len(re.findall(r"^##### ", main, re.M))
    supplementary = len(re.findall(r"^부칙(\(.*\))? ?<제\d+호,.*>$", supplement, re.M))
    doc = parse_file(path)
    kinds = [s.kind for s in doc.sections]
    assert kinds.count(SectionKind.ARTICLE) == headings
    assert kinds.count(SectionKind.SUPPLEMENTARY) == supplementary
    assert len(doc.sections) == headings + supplementary
    # no file has article headings inside its 부칙, so this is also every `#####` line of the file
    assert headings == len(re.findall(r"^##### ", path.read_text(encoding="utf-8"), re.M))
    assert (headings, supplementary) == pinned(path)[:2]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_section_ids_are_unique_and_well_formed(path: Path) -> None:
    doc = parse_file(path)
    ids = [s.section_id for s in doc.sections]
    assert len(ids) == len(set(ids))
    articles = [s.section_id for s in doc.sections if s.kind is SectionKind.ARTICLE]
    assert all(re.fullmatch(r"제\d+조(의\d+)?", i) for i in articles)
    supplementary = [s.section_id for s in doc.sections if s.kind is SectionKind.SUPPLEMENTARY]
    assert supplementary == [f"부칙-{n}" for n in range(1, len(supplementary) + 1)]
    # 부칙 come after every article
    assert [s.kind for s in doc.sections] == sorted((s.kind for s in doc.sections), key=lambda k: k.value)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_deleted_articles_and_parts(path: Path) -> None:
    raw = path.read_text(encoding="utf-8")
    main, supplement = split_raw(path)
    deleted_articles = len(re.findall(r"^##### [^\n]*\n\s*삭제 <[^>\n]*>\s*$", main, re.M))
    # every other `삭제 <` line that is not a chapter/section heading is a deleted part of a live provision
    all_deletions = len(re.findall(r"^[^#\n]*삭제 ?<", raw, re.M))
    deleted_paragraphs = len(re.findall(r"^\*\*[①-⑳]\*\* 삭제 <", main, re.M))
    deleted_paragraphs += len(re.findall(r"^[①-⑳] 삭제 <", supplement, re.M))

    doc = parse_file(path)
    deleted = [s for s in doc.sections if s.deleted]
    assert len(deleted) == deleted_articles == pinned(path)[2]
    assert all(s.kind is SectionKind.ARTICLE and s.text.startswith("삭제 <") for s in deleted)
    parts = [p for s in doc.sections for p in s.deleted_parts]
    assert len(parts) == all_deletions - deleted_articles
    assert len([p for p in parts if re.fullmatch(r"[①-⑳]", p)]) == deleted_paragraphs
    assert not any(s.deleted_parts for s in deleted)


def test_deleted_article_without_title() -> None:
    doc = parse_file(HOUSING_2025)
    article = next(s for s in doc.sections if s.section_id == "제5조")
    assert (article.heading, article.text, article.deleted) == ("제5조", "삭제 <1989.12.30>", True)


def test_deleted_paragraphs_stay_inside_a_live_article() -> None:
    doc = parse_file(PRIVACY)
    article = next(s for s in doc.sections if s.section_id == "제7조")
    assert not article.deleted
    assert article.deleted_parts == ("③", "④", "⑤", "⑥", "⑦", "⑧", "⑨")
    assert "③ 삭제 <2020.2.4>" in article.text
    items = {s.section_id: s.deleted_parts for s in parse_file(INCOME_TAX).sections}
    assert items["제62조"] == ("2.가.1)",)  # a sub-item written with ideographic-space indentation
    assert items["제12조"] == ("4.나.", "4.마.")


def test_branch_articles_restored_from_repeated_headings() -> None:
    doc = parse_file(HOUSING_2025)
    headings = [s.heading for s in doc.sections if s.kind is SectionKind.ARTICLE][2:14]
    assert headings == [
        "제3조 (대항력 등)",
        "제3조의2 (보증금의 회수)",
        "제3조의3 (임차권등기명령)",
        "제3조의4 (「민법」에 따른 주택임대차등기의 효력 등)",
        "제3조의5 (경매에 의한 임차권의 소멸)",
        "제3조의6 (확정일자 부여 및 임대차 정보제공 등)",
        "제3조의7 (임대인의 정보 제시 의무)",
        "제4조 (임대차기간 등)",
        "제5조",
        "제6조 (계약의 갱신)",
        "제6조의2 (묵시적 갱신의 경우 계약의 해지)",
        "제6조의3 (계약갱신 요구 등)",
    ]
    # the raw file really wrote them as repeated `##### 제3조` headings
    assert HOUSING_2025.read_text(encoding="utf-8").count("##### 제3조 (") == 7
    sections = {s.section_id: s for s in doc.sections}
    # cross-references in the text agree: 제3조의7 cites 제3조의6제3항 (the 확정일자 article)
    assert "제3조의6제3항에 따른 해당 주택의 확정일자" in sections["제3조의7"].text
    assert "확정일자" in sections["제3조의6"].heading


def test_restored_ids_match_the_version_that_writes_them() -> None:
    """The 2015 version writes 제3조의2 explicitly; the 2025 one repeats 제3조. Same ids, same titles."""
    explicit = {s.section_id: s.heading for s in parse_file(HOUSING_2015).sections}
    restored = {s.section_id: s.heading for s in parse_file(HOUSING_2025).sections}
    articles = [i for i in explicit if not i.startswith("부칙")]
    assert len(articles) == 22
    assert {i: restored[i] for i in articles} == {i: explicit[i] for i in articles}


@pytest.mark.parametrize(
    ("path", "section_id", "title"),
    [
        (LABOUR, "제43조의2", "체불사업주 명단 공개"),
        (LABOUR, "제43조의8", "체불 임금등에 대한 손해배상청구"),
        (LABOUR, "제44조의3", "건설업의 공사도급에 있어서의 임금에 관한 특례"),
        (LABOUR, "제51조의3", "근로한 기간이 단위기간보다 짧은 경우의 임금 정산"),
        (LABOUR, "제76조의2", "직장 내 괴롭힘의 금지"),
        (LABOUR, "제102조의2", "자료 제공의 요청"),
        (PROPERTY_TAX, "제7조의2", "신탁주택 관련 수탁자의 물적납세의무"),
        (PROPERTY_TAX, "제10조의2", "공동명의 1주택자의 납세의무 등에 관한 특례"),
        (PROPERTY_TAX, "제20조의2", "납부유예"),
    ],
)
def test_branch_restoration_in_other_old_format_files(path: Path, section_id: str, title: str) -> None:
    headings = {s.section_id: s.heading for s in parse_file(path).sections}
    assert headings[section_id] == f"{section_id} ({title})"


def test_branch_restoration_agrees_with_cross_references() -> None:
    labour = {s.section_id: s for s in parse_file(LABOUR).sections}
    # 제43조의3 provides 체불자료; other articles cite 제43조의2 (명단 공개) and 제43조의4 by number
    assert "체불" in labour["제43조의3"].heading
    decree = (CORPUS / "종합부동산세법__시행령__2026-09-30__MST290557.md").read_text(encoding="utf-8")
    assert "법 제20조의2" in decree  # the decree implements the law's 납부유예 article
    property_tax = {s.section_id: s for s in parse_file(PROPERTY_TAX).sections}
    assert property_tax["제20조의2"].heading == "제20조의2 (납부유예)"


def test_restore_article_ids_edge_cases() -> None:
    assert restore_article_ids([(3, None), (3, None), (3, None), (4, None)]) == [
        "제3조",
        "제3조의2",
        "제3조의3",
        "제4조",
    ]
    # out of order: not a branch of the article just before, so a visibly non-official unique id
    assert restore_article_ids([(3, None), (4, None), (3, None)]) == ["제3조", "제4조", "제3조#2"]
    # a file that writes branch numbers is not "old format": a repeated heading is a real duplicate
    assert restore_article_ids([(3, None), (3, 2), (3, 2)]) == ["제3조", "제3조의2", "제3조의2#2"]
    assert restore_article_ids([(1, None), (1, None)]) == ["제1조", "제1조의2"]


def test_front_matter_ids_stay_zero_padded_strings_and_dates_become_dates() -> None:
    quoted, unquoted = parse_file(HOUSING_2015), parse_file(HOUSING_2025)
    assert "법령ID: '001248'\n" in HOUSING_2015.read_text(encoding="utf-8")
    assert "법령ID: 001248\n" in HOUSING_2025.read_text(encoding="utf-8")
    assert quoted.doc_id == unquoted.doc_id == "kr-law-001248"
    assert unquoted.metadata == {
        "법령MST": "276291",
        "법령ID": "001248",
        "법령구분": "법률",
        "공포번호": "21065",
        "상태": "시행",
        "공포일자": "2025-10-01",
        "시행일자": "2026-01-02",
    }
    assert quoted.metadata["공포번호"] == "12989"
    assert (unquoted.promulgated_on, unquoted.effective_on) == (date(2025, 10, 1), date(2026, 1, 2))
    assert (quoted.promulgated_on, quoted.effective_on) == (date(2015, 1, 6), date(2015, 7, 1))
    assert unquoted.title == "주택임대차보호법"
    assert unquoted.version_label == "MST276291"
    assert unquoted.issuing_authority == "법무부"
    assert unquoted.official_publisher == "https://www.law.go.kr/법령/주택임대차보호법"
    assert (unquoted.language, unquoted.format) == ("ko", "kr-statute")
    assert unquoted.licence == "public domain (Korean Copyright Act art. 7)"
    assert unquoted.text == HOUSING_2025.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_front_matter_of_every_file(path: Path) -> None:
    doc = parse_file(path)
    law_id = re.search(r"^법령ID: '?(\d+)'?$", path.read_text(encoding="utf-8"), re.M)
    assert law_id is not None
    assert doc.doc_id == f"kr-law-{law_id[1]}" and len(law_id[1]) == 6
    assert doc.version_label == "MST" + path.stem.rsplit("MST", 1)[1]
    assert doc.promulgated_on == date.fromisoformat(path.stem.split("__")[2])
    assert isinstance(doc.effective_on, date)
    assert all(isinstance(v, str) for v in doc.metadata.values())
    assert doc.issuing_authority and doc.official_publisher.startswith("https://www.law.go.kr/")


def test_title_change_between_versions_keeps_the_doc_id() -> None:
    old = parse_file(CORPUS / "외국인근로자의고용등에관한법률__법률__2003-08-16__MST61298.md")
    new = parse_file(CORPUS / "외국인근로자의고용등에관한법률__법률__2026-06-09__MST286817.md")
    assert old.doc_id == new.doc_id == "kr-law-009542"
    assert (old.title, new.title) == ("외국인근로자의고용등에관한법률", "외국인근로자의 고용 등에 관한 법률")


def test_escaped_and_unescaped_versions_give_the_same_text() -> None:
    """2015 (mid generator, ``1\\.``) against 2025 (old generator, ``1.``, 부칙 lines indented).

    No article with numbered items is unchanged between the two versions, so the check is: in
    제3조의2 only the two lines amended in 2016 differ, and every 부칙 both versions share is equal.
    """
    raw_2015 = HOUSING_2015.read_text(encoding="utf-8")
    assert "  1\\. 「은행법」에 따른 은행" in raw_2015
    assert "  1. 「은행법」에 따른 은행" in HOUSING_2025.read_text(encoding="utf-8")
    old = {s.section_id: s for s in parse_file(HOUSING_2015).sections}
    new = {s.section_id: s for s in parse_file(HOUSING_2025).sections}
    old_lines, new_lines = old["제3조의2"].text.splitlines(), new["제3조의2"].text.splitlines()
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=True) if a != b]
    assert len(changed) == 2
    assert changed[1] == (
        "5. 「수산업협동조합법」에 따른 수산업협동조합중앙회",
        "5. 「수산업협동조합법」에 따른 수협은행",
    )
    assert "1. 「은행법」에 따른 은행" in new_lines and "\\" not in old["제3조의2"].text
    shared = [i for i in old if i.startswith("부칙")]
    assert len(shared) == 16
    assert all(old[i].text == new[i].text for i in shared)
    assert new["부칙-7"].text != "" and "  <42>" in HOUSING_2025.read_text(encoding="utf-8")


FRONT = "---\n제목: 시험법\n법령MST: 1\n법령ID: 000001\n공포일자: 2020-01-01\n소관부처: []\n---\n"


def _synthetic(body: str, front: str = FRONT) -> ParsedDocument:
    return _parse(Path("시험법.md"), (front + body).encode("utf-8"))


def test_escape_variants_of_one_article_are_equal() -> None:
    escaped = _synthetic("##### 제1조 (정의)\n\n**①** 뜻은 다음과 같다.\n\n  1\\. 가\n    가\\. 나\n")
    plain = _synthetic("##### 제1조 (정의)\n\n**①** 뜻은 다음과 같다.\n\n  1. 가\n    가. 나\n")
    assert escaped.sections[0].text == plain.sections[0].text == "① 뜻은 다음과 같다.\n\n1. 가\n가. 나"
    assert escaped.issuing_authority is None  # an empty 소관부처 is not replaced by anything


def test_article_headings_inside_supplementary_provisions_stay_in_their_text() -> None:
    doc = _synthetic(
        "##### 제1조 (목적)\n\n본문.\n\n## 부칙\n\n부칙 <제1호,2020.1.1>\n\n"
        "##### 제1조 (시행일)\n\n이 법은 공포한 날부터 시행한다.\n\n부칙(다른법) <제2호,2021.1.1>\n\n"
        "부칙 제12조제2항을 삭제한다.\n"
    )
    assert [(s.section_id, s.heading) for s in doc.sections] == [
        ("제1조", "제1조 (목적)"),
        ("부칙-1", "부칙 <제1호,2020.1.1>"),
        ("부칙-2", "부칙(다른법) <제2호,2021.1.1>"),
    ]
    assert doc.sections[1].text.startswith("##### 제1조 (시행일)")
    assert doc.sections[2].text == "부칙 제12조제2항을 삭제한다."


def test_registered_by_name() -> None:
    assert isinstance(PARSERS["kr-statute"](), KoreanStatuteParser)


def test_sniff_claims_only_statute_front_matter() -> None:
    parser = KoreanStatuteParser()
    assert parser.sniff(HOUSING_2025, HOUSING_2025.read_text(encoding="utf-8")[:4096])
    assert parser.sniff(Path("a.md"), "---\n제목: 시험법\n법령ID: 000001\n---\n")
    assert not parser.sniff(Path("a.md"), "---\n제목: 시험법\n---\n# 제목\n")
    assert not parser.sniff(Path("a.md"), "---\ntitle: Notes\nauthor: me\n---\n# Notes\n")
    assert not parser.sniff(Path("a.md"), "# 법령MST: not front matter\n")
    assert not parser.sniff(CORPUS / "SOURCE.md", (CORPUS / "SOURCE.md").read_text(encoding="utf-8"))
    assert not parser.sniff(Path("a.txt"), "---\n법령MST: 1\n---\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty file"),
        (b"  \n\n", "empty file"),
        (b"\x00\x01\x02binary\x00", "binary file"),
        ("---\n제목: 시험법\n---\n".encode("cp949"), "not valid utf-8"),
        (b"# just markdown\n\ntext\n", "no YAML front matter"),
        ("---\n제목: 시험법\n법령ID: 000001\n\n##### 제1조\n".encode(), "no closing '---'"),
        ("---\n제목: [시험법\n법령ID: 000001\n---\n".encode(), "broken YAML front matter"),
        ("---\n- 제목\n- 법령ID\n---\n".encode(), "broken YAML front matter"),
        ("---\n제목: 시험법\n---\n##### 제1조 (목적)\n".encode(), "front matter has no 법령ID"),
        ((FRONT.replace("2020-01-01", "2020-13-45") + "##### 제1조\n").encode(), "공포일자 is not"),
        ((FRONT + "# 시험법\n\n떠도는 문장\n").encode(), "text outside any article"),
        ((FRONT + "##### 별표 1\n\n표\n").encode(), "not an article heading"),
    ],
    ids=[
        "empty",
        "blank",
        "binary",
        "cp949",
        "no-front-matter",
        "unclosed",
        "bad-yaml",
        "not-a-mapping",
        "no-id",
        "bad-date",
        "orphan-text",
        "bad-heading",
    ],
)
def test_bad_input_raises_parse_error_naming_the_problem(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        _parse(Path("bad.md"), data)
    assert info.value.path == "bad.md"
