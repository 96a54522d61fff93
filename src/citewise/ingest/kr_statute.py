"""Korean statutes and decrees in the legalize-kr Markdown format.

A file is YAML front matter (제목, 법령ID, 법령MST, 공포일자, 소관부처, 출처, ...) followed by the law:
``## 제1장`` chapter headings, ``##### 제N조 (제목)`` article headings and, after ``## 부칙``, the
supplementary provisions, each opened by a line such as ``부칙 <제3379호,1981.3.5>``.

Sections, and how many there are:

* every ``#####`` article heading before ``## 부칙`` is one section (kind ARTICLE), deleted articles
  included;
* every ``부칙 <...>`` / ``부칙(법률명) <...>`` line after ``## 부칙`` opens one section (kind
  SUPPLEMENTARY, ids ``부칙-1``, ``부칙-2``, ... in order). Articles inside a 부칙 (``제1조(시행일)``)
  stay in its text: their numbers restart in every 부칙 and would collide with the main articles.
  A ``#####`` heading inside the 부칙 part (none of the known files has one) is kept in the text of
  the 부칙 it falls in for the same reason.

So the section count of a file is its article headings before ``## 부칙`` plus its 부칙 lines.

Generator quirks handled here (see the corpus README):

* ids and dates may be quoted or not: the front matter is read with the YAML *base* loader, so
  ``법령ID: 001248`` stays the string ``"001248"`` instead of becoming the octal integer 672;
* numbered items may be written ``1\\.`` or ``1.``: Markdown backslash escapes are removed, and the
  ``**①**`` paragraph markers unbolded, so both variants give the same section text;
* the old generator wrote branch articles (제3조의2, 제3조의3) as repeated ``##### 제3조`` headings.
  In a file that writes no ``제N조의M`` heading at all, a heading repeating the number of the heading
  just before it is the next branch of that article (제3조, 제3조 -> 제3조의2, 제3조 -> 제3조의3).
  Any id that is still not unique (a heading genuinely repeated or out of order) becomes
  ``제N조#2``, ``제N조#3``: visibly not an official number, rather than a guessed one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.limits import checkpoint, load_yaml
from citewise.records import SectionKind

__all__ = ["KoreanStatuteParser", "restore_article_ids"]

LICENCE = "public domain (Korean Copyright Act art. 7)"
_METADATA_KEYS = ("법령MST", "법령ID", "법령구분", "공포번호", "상태", "공포일자", "시행일자")

_FENCE = re.compile(r"^---\s*$")
_ARTICLE = re.compile(r"^#####\s*제(?P<num>\d+)조(?:의(?P<branch>\d+))?(?P<rest>.*)$")
_TITLE = re.compile(r"^\s*\((?P<title>.*)\)\s*$")
_ANY_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_SUPPLEMENT_HEADING = re.compile(r"^#{1,6}\s*부칙\s*$")
#: ``부칙 <제3379호,1981.3.5>`` or ``부칙(민사집행법) <제6627호,2002.1.26>``; the closing ``>`` must end the
#: line, which keeps body sentences such as ``부칙 제12조제2항을 삭제한다.`` out.
_SUPPLEMENT_LINE = re.compile(r"^부칙(?:\([^\n]*?\))?\s*<[^<>\n]+>\s*$")
_DELETED = re.compile(r"^삭제\s*<[^<>\n]*>$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: a backslash before ASCII punctuation

# Parts of a provision, as they open a line of the rendered text: 항 (①, or <16> past ⑳),
# 호 (1., 2의2.), 목 (가.) and the sub-items 1) of a 목. A 부칙 may also delete one of its articles.
_PARAGRAPH = re.compile(r"^\s*(?P<m>[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf]|<\d+>)\s*(?P<rest>.*)$")
_ITEM = re.compile(r"^\s*(?P<m>\d+(?:의\d+)?)\.\s*(?P<rest>.*)$")
_SUBITEM = re.compile(r"^\s*(?P<m>[가-힣])\.\s*(?P<rest>.*)$")
_SUBSUBITEM = re.compile(r"^\s*(?P<m>\d+)\)\s*(?P<rest>.*)$")
_SUPPLEMENT_ARTICLE = re.compile(r"^\s*(?P<m>제\d+조(?:의\d+)?)\s*(?P<rest>삭제.*)$")


class KoreanStatuteParser(Parser):
    """Parser for legalize-kr Markdown statutes (``kr-statute``).

    Example::

        doc = next(get_parser("kr-statute").parse(path, path.read_bytes()))
        doc.doc_id          # 'kr-law-001248'
        doc.sections[3]     # ParsedSection(section_id='제3조의2', heading='제3조의2 (보증금의 회수)', ...)
    """

    name = "kr-statute"
    suffixes = (".md",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim a ``.md`` file only when its front matter has 법령MST, or both 제목 and 법령ID.

        Generic Markdown belongs to the markup parser, so the suffix alone is not enough.
        """
        if path.suffix.lower() not in self.suffixes:
            return False
        lines = head.lstrip("\ufeff").splitlines()
        if not lines or not _FENCE.match(lines[0]):
            return False
        keys: set[str] = set()
        for line in lines[1:]:
            if _FENCE.match(line):
                break
            keys.add(line.split(":", 1)[0].strip())
        return "법령MST" in keys or {"제목", "법령ID"} <= keys

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one statute in ``data``; raise :class:`ParseError` naming what is wrong."""
        source = str(path)
        text = decode_text(data, source)
        lines = text.splitlines()
        fields, body_start = _read_front_matter(lines, source)
        title = _required(fields, "제목", source)
        law_id = _required(fields, "법령ID", source)
        mst = _optional(fields, "법령MST")
        yield ParsedDocument(
            doc_id=f"kr-law-{law_id}",
            title=title,
            format=self.name,
            text=text,
            sections=tuple(_sections(lines, body_start, source)),
            issuing_authority=_authorities(fields.get("소관부처")),
            official_publisher=_optional(fields, "출처"),
            version_label=f"MST{mst}" if mst else None,
            promulgated_on=_date(fields, "공포일자", source),
            effective_on=_date(fields, "시행일자", source),
            language="ko",
            licence=LICENCE,
            metadata={k: v for k in _METADATA_KEYS if (v := _optional(fields, k)) is not None},
            source=source,
        )


# -- front matter -------------------------------------------------------------------------------


def _read_front_matter(lines: list[str], source: str) -> tuple[dict[str, Any], int]:
    """The front matter as a mapping of strings, and the index of the first line after it."""
    if not lines or not _FENCE.match(lines[0]):
        raise ParseError("no YAML front matter: a kr-statute file starts with a '---' line", path=source)
    end = next((i for i in range(1, len(lines)) if _FENCE.match(lines[i])), None)
    if end is None:
        raise ParseError("broken YAML front matter: no closing '---' line", path=source)
    try:
        # BaseLoader keeps every scalar a string: 001248 stays "001248", dates stay "2025-10-01".
        fields = load_yaml("\n".join(lines[1:end]), source, loader=yaml.BaseLoader)
    except yaml.YAMLError as exc:
        problem = str(exc).replace("\n", " ")
        raise ParseError(f"broken YAML front matter: {problem}", path=source) from exc
    if not isinstance(fields, dict):
        raise ParseError("broken YAML front matter: expected 'key: value' lines", path=source)
    return fields, end + 1


def _optional(fields: dict[str, Any], key: str) -> str | None:
    value = fields.get(key)
    if not isinstance(value, str):
        return None
    value = value.strip().strip("'\"").strip()
    return value or None


def _required(fields: dict[str, Any], key: str, source: str) -> str:
    value = _optional(fields, key)
    if value is None:
        raise ParseError(f"front matter has no {key}: a kr-statute file needs 제목 and 법령ID", path=source)
    return value


def _date(fields: dict[str, Any], key: str, source: str) -> date | None:
    value = _optional(fields, key)
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ParseError(f"front matter {key} is not a YYYY-MM-DD date: {value!r}", path=source) from None


def _authorities(value: Any) -> str | None:
    """소관부처 as written (a list, or one name); ``None`` when the file names none."""
    names = value if isinstance(value, list) else [value]
    cleaned = [n.strip() for n in names if isinstance(n, str) and n.strip()]
    return ", ".join(cleaned) or None


# -- sections -----------------------------------------------------------------------------------


@dataclass
class _Block:
    """Lines of one future section, before ids are settled."""

    kind: SectionKind
    num: int = 0
    branch: int | None = None
    title: str = ""
    heading_deleted: bool = False
    header: str = ""
    body: list[str] = field(default_factory=list)


def _sections(lines: list[str], start: int, source: str) -> list[ParsedSection]:
    blocks = _split_blocks(lines, start, source)
    articles = [b for b in blocks if b.kind is SectionKind.ARTICLE]
    ids = iter(restore_article_ids([(b.num, b.branch) for b in articles]))
    supplement_no = 0
    sections = []
    for block in blocks:
        text = _render(block.body)
        if block.kind is SectionKind.ARTICLE:
            section_id = next(ids)
            heading = f"{section_id} ({block.title})" if block.title else section_id
            deleted = block.heading_deleted or bool(_DELETED.match(text))
        else:
            supplement_no += 1
            section_id, heading, deleted = f"부칙-{supplement_no}", block.header, False
        parts = () if deleted else _deleted_parts(text)
        sections.append(ParsedSection(section_id, heading, text, block.kind, deleted, False, parts))
    return sections


def _split_blocks(lines: list[str], start: int, source: str) -> list[_Block]:
    """Cut the body into article and 부칙 blocks; text outside any of them is an error."""
    blocks: list[_Block] = []
    current: _Block | None = None
    in_supplement = False
    for no, line in enumerate(lines[start:], start=start + 1):
        if not no % 256:
            checkpoint()
        if not in_supplement and _SUPPLEMENT_HEADING.match(line):
            in_supplement, current = True, None
        elif in_supplement and _SUPPLEMENT_LINE.match(line.strip()):
            current = _Block(SectionKind.SUPPLEMENTARY, header=line.strip())
            blocks.append(current)
        elif in_supplement:
            if current is None and line.strip():
                # text before the first 부칙 line: an untitled 부칙 rather than lost text
                current = _Block(SectionKind.SUPPLEMENTARY, header="부칙")
                blocks.append(current)
            if current is not None:
                current.body.append(line)
        elif line.startswith("#####"):
            current = _article_block(line, no, source)
            blocks.append(current)
        elif _ANY_HEADING.match(line):
            current = None  # a chapter, section or title heading: structure, not a section
        elif current is not None:
            current.body.append(line)
        elif line.strip():
            raise ParseError(f"line {no}: text outside any article: {line.strip()[:60]!r}", path=source)
    return blocks


def _article_block(line: str, no: int, source: str) -> _Block:
    match = _ARTICLE.match(line.strip())
    if match is None:
        raise ParseError(f"line {no}: not an article heading (제N조 or 제N조의M): {line!r}", path=source)
    rest = match["rest"].strip()
    title_match = _TITLE.match(rest)
    title = title_match["title"].strip() if title_match else rest
    return _Block(
        SectionKind.ARTICLE,
        num=int(match["num"]),
        branch=int(match["branch"]) if match["branch"] else None,
        title="" if _DELETED.match(title) else title,
        heading_deleted=bool(_DELETED.match(title)),
    )


def restore_article_ids(headings: list[tuple[int, int | None]]) -> list[str]:
    """Section ids for article headings given as ``(N, M or None)`` in document order.

    When no heading carries a branch number, a heading repeating the number just before it is the
    next branch (the old legalize-kr generator wrote 제3조의2 as a second ``제3조``). Ids that are
    still not unique get ``#2``, ``#3``.

    >>> restore_article_ids([(3, None), (3, None), (3, None), (4, None)])
    ['제3조', '제3조의2', '제3조의3', '제4조']
    """
    restore = all(branch is None for _, branch in headings)
    ids: list[str] = []
    previous: tuple[int, int] | None = None
    for num, branch in headings:
        if restore and previous is not None and previous[0] == num:
            branch = previous[1] + 1
        previous = (num, branch or 1)
        ids.append(f"제{num}조의{branch}" if branch and branch > 1 else f"제{num}조")
    return _unique(ids)


def _unique(ids: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for section_id in ids:
        seen[section_id] = seen.get(section_id, 0) + 1
        result.append(section_id if seen[section_id] == 1 else f"{section_id}#{seen[section_id]}")
    return result


def _render(body: list[str]) -> str:
    """Section text: markers unbolded, escapes and indentation removed, blank runs collapsed.

    Markdown indentation goes because the generators disagree on it (the old one indents lines of
    부칙 that the others do not) while the markers (``1.``, ``가.``, ``1)``) already carry the nesting.
    Ideographic spaces (U+3000) are kept: they come from the official text itself.
    """
    out: list[str] = []
    for raw in body:
        line = _ESCAPE.sub(r"\1", _BOLD.sub(r"\1", raw.strip(" \t")))
        if line.strip() or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def _deleted_parts(text: str) -> tuple[str, ...]:
    """Markers of deleted parts (``③``, ``②3.``, ``3.가.``) inside a live provision.

    A part is named by its path from the paragraph down, so item 3 of paragraph ② is ``②3.``.
    """
    path = ["", "", "", ""]  # 항, 호, 목, sub-item
    found: list[str] = []
    for line in text.splitlines():
        for depth, pattern, suffix in _PART_PATTERNS:
            match = pattern.match(line)
            if match is None:
                continue
            path[depth] = match["m"] + suffix
            path[depth + 1 :] = [""] * (len(path) - depth - 1)
            if _DELETED.match(match["rest"].strip()):
                found.append("".join(path[: depth + 1]))
            break
    return tuple(found)


_PART_PATTERNS = (
    (0, _PARAGRAPH, ""),
    (0, _SUPPLEMENT_ARTICLE, ""),
    (1, _ITEM, "."),
    (2, _SUBITEM, "."),
    (3, _SUBSUBITEM, ")"),
)
