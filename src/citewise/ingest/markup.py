"""Generic markup parsers: Markdown, reStructuredText, HTML and plain text.

Each parser finds the headings of one document and splits it into sections at them. The rules
are shared, so a section id means the same thing whichever format it came from:

- A numbered provision keeps its number: ``Article 7`` -> ``Article 7`` (kind ``ARTICLE``),
  ``§2`` -> ``§ 2``, ``2.3 Scope`` -> ``2.3``, ``제3조의2 (보증금)`` -> ``제3조의2``.
- Any other heading becomes a slug of its text (``URL Parsing`` -> ``url-parsing``, kind ``HEADING``).
- A repeated id gets ``-2``, ``-3`` ... in document order, so ids are unique and stable as long as
  the headings before them do not change.
- Text before the first heading becomes a section ``preamble`` only if it is not blank; a document
  without any heading is one ``BODY`` section ``body``.
- A section whose whole body is ``[Repealed]``, ``Repealed.`` or ``[Deleted]`` is marked deleted,
  ``[Reserved]`` marks it reserved (also when the heading ends with such a marker and has no body).

Section texts are verbatim slices of the document text (only blank lines at their ends are
trimmed), so a quote found in a section can always be found in the document.

The Korean-statute parser (``kr-statute``) claims the statute Markdown files it recognises; this
``markdown`` parser is the generic fallback for every other ``.md`` file.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import lxml.etree
import lxml.html
import yaml

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection, Parser, register_parser
from citewise.ingest.decode import decode_text
from citewise.records import SectionKind

__all__ = [
    "HtmlParser",
    "MarkdownParser",
    "PlainTextParser",
    "RstParser",
    "as_date",
    "doc_id_from_path",
    "file_stem",
    "slug",
]


# --- shared: headings, ids and sections -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Heading:
    """A heading found in a list of lines."""

    start: int  # index of its first line (an RST overline included)
    end: int  # index just after its last line (a setext/RST underline included)
    text: str
    level: int  # 1 = outermost


_PROVISION_WORD = re.compile(
    r"(?P<word>Article|Section|Clause|Rule)\s+(?P<num>\d+[A-Za-z]?(?:\.\d+)*)(?![\w.]*\w)", re.IGNORECASE
)
_PROVISION_SECTION_SIGN = re.compile(r"§+\s*(?P<num>\d+[A-Za-z]?(?:[.-]\d+)*)")
_PROVISION_KR = re.compile(r"제\s*(?P<num>\d+)\s*조(?:\s*의\s*(?P<branch>\d+))?")
# "2.3 Scope", "4. Definitions", "7 Penalties". A bare number of four digits ("2024 Report") is a
# year far more often than a provision, so single numbers are limited to three digits.
_PROVISION_NUMBER = re.compile(r"(?P<num>\d+(?:\.\d+)+|\d{1,3})\.?(?=\s+\S|$)")

# Markers must make up the whole body: "Repealed provisions are listed below." is text, not a marker.
# A date after the marker is allowed ("Deleted (1 May 2020)", "삭제 <2020. 3. 24.>").
_DELETED_BODY = re.compile(
    r"\[(?:repealed|deleted)\b[^\]]*\]\.?|(?:repealed|deleted|삭제)\.?(?:\s*[<(\[][^>)\]]*[>)\]])?",
    re.IGNORECASE,
)
_RESERVED_BODY = re.compile(r"\[reserved\]\.?|reserved\.?", re.IGNORECASE)
_DELETED_IN_HEADING = re.compile(r"\[(?:repealed|deleted)\b[^\]]*\]\s*$", re.IGNORECASE)
_RESERVED_IN_HEADING = re.compile(r"\[reserved\]\s*$", re.IGNORECASE)

# `:mod:` and similar RST roles say nothing about the heading; they would only lengthen its slug.
_RST_ROLE = re.compile(r":[\w.+-]+:(?=`)")
_KNOWN_SUFFIXES = (".txt", ".rst", ".md", ".markdown", ".html", ".htm", ".pdf", ".jsonl", ".ndjson")


def slug(text: str, fallback: str = "section") -> str:
    """Lower-case ``text`` and join its words with ``-`` (letters of any script are kept).

    >>> slug(":mod:`urllib.parse` --- Parse URLs")
    'urllib-parse-parse-urls'
    """
    words = re.sub(r"[\W_]+", "-", _RST_ROLE.sub("", text).lower()).strip("-")
    return words or fallback


def file_stem(path: Path) -> str:
    """A file name without its format suffixes (``a_b.c.rst.txt`` -> ``a_b.c``)."""
    name = path.name
    while name.lower().endswith(_KNOWN_SUFFIXES) and "." in name[1:]:
        name = name[: name.rindex(".")]
    return name


def doc_id_from_path(path: Path) -> str:
    """Propose a document id from a file name: ``urllib.parse.rst.txt`` -> ``urllib-parse``."""
    return slug(file_stem(path), fallback="document")


def as_date(value: object, field: str, path: str) -> date | None:
    """Read a date given as ``YYYY-MM-DD`` (or already a date); ``None``/empty stays ``None``."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ParseError(f"{field} must be a date written YYYY-MM-DD, got {value!r}", path=path)


def _classify(heading: str) -> tuple[SectionKind, str]:
    """Return the section kind and the id base a heading proposes."""
    if match := _PROVISION_WORD.match(heading):
        return SectionKind.ARTICLE, f"{match['word'].capitalize()} {match['num']}"
    if match := _PROVISION_SECTION_SIGN.match(heading):
        return SectionKind.ARTICLE, f"§ {match['num']}"
    if match := _PROVISION_KR.match(heading):
        branch = f"의{match['branch']}" if match["branch"] else ""
        return SectionKind.ARTICLE, f"제{match['num']}조{branch}"
    if match := _PROVISION_NUMBER.match(heading):
        return SectionKind.ARTICLE, match["num"]
    return SectionKind.HEADING, slug(heading)


class _SectionIds:
    """Hands out section ids, suffixing ``-2``, ``-3`` ... to an id already taken."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def claim(self, base: str) -> str:
        candidate, n = base, 1
        while candidate in self._taken:
            n += 1
            candidate = f"{base}-{n}"
        self._taken.add(candidate)
        return candidate


def _join_body(lines: Sequence[str]) -> str:
    """Join lines, dropping blank lines at both ends (the rest stays verbatim)."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


def _status(heading: str, body: str) -> tuple[bool, bool]:
    """Return (deleted, reserved) from the markers a section body (or bare heading) carries."""
    text = body.strip()
    if text:
        return bool(_DELETED_BODY.fullmatch(text)), bool(_RESERVED_BODY.fullmatch(text))
    return bool(_DELETED_IN_HEADING.search(heading)), bool(_RESERVED_IN_HEADING.search(heading))


def _build_sections(
    lines: Sequence[str], headings: Sequence[_Heading], start: int = 0
) -> tuple[ParsedSection, ...]:
    """Cut ``lines[start:]`` into sections at ``headings`` (see the module docstring for the rules)."""
    ids = _SectionIds()
    first = headings[0].start if headings else len(lines)
    lead = _join_body(lines[start:first])
    sections: list[ParsedSection] = []
    if lead:
        lead_id = "preamble" if headings else "body"
        sections.append(ParsedSection(ids.claim(lead_id), "", lead, kind=SectionKind.BODY))
    for i, heading in enumerate(headings):
        stop = headings[i + 1].start if i + 1 < len(headings) else len(lines)
        body = _join_body(lines[heading.end : stop])
        kind, base = _classify(heading.text)
        deleted, reserved = _status(heading.text, body)
        sections.append(
            ParsedSection(ids.claim(base), heading.text, body, kind=kind, deleted=deleted, reserved=reserved)
        )
    return tuple(sections)


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _first_heading_text(headings: Sequence[_Heading]) -> str | None:
    return next((h.text for h in headings if h.text), None)


# --- Markdown -----------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Lines that cannot be the text of a setext heading: list items, quotes, indented code.
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[-+*]|\d{1,9}[.)])(?:\s|$)| {0,3}>)")

# Front-matter keys -> ParsedDocument fields. Several spellings are common in the wild.
_FRONT_MATTER_FIELDS = {
    "title": "title",
    "doc_id": "doc_id",
    "id": "doc_id",
    "issuing_authority": "issuing_authority",
    "official_publisher": "official_publisher",
    "origin_url": "origin_url",
    "url": "origin_url",
    "licence": "licence",
    "license": "licence",
    "language": "language",
    "lang": "language",
    "version": "version_label",
    "version_label": "version_label",
    "promulgated_on": "promulgated_on",
    "published": "promulgated_on",
    "effective_on": "effective_on",
    "effective": "effective_on",
}
_DATE_FIELDS = frozenset({"promulgated_on", "effective_on"})


def _markdown_headings(lines: Sequence[str], start: int) -> list[_Heading]:
    """Find ATX (``#``) and setext (underlined) headings, skipping fenced code blocks.

    A setext heading takes only the one line above its underline as its text (CommonMark would
    take the whole paragraph); the lines before it stay in the previous section.
    """
    headings: list[_Heading] = []
    fence: str | None = None
    paragraph_line = False  # is the previous line plain paragraph text?
    for i in range(start, len(lines)):
        line = lines[i]
        fence_match = _FENCE.match(line)
        if fence is not None:
            marker = fence_match.group(1) if fence_match else ""
            closes = marker[:1] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker) :]
            fence = None if closes else fence
            paragraph_line = False
            continue
        if fence_match:
            fence, paragraph_line = fence_match.group(1), False
            continue
        if (underline := _SETEXT_UNDERLINE.match(line)) and paragraph_line:
            level = 1 if underline.group(1)[0] == "=" else 2
            headings.append(_Heading(i - 1, i + 1, lines[i - 1].strip(), level))
            paragraph_line = False
            continue
        if atx := _ATX.match(line):
            headings.append(_Heading(i, i + 1, (atx.group(2) or "").strip(), len(atx.group(1))))
            paragraph_line = False
            continue
        paragraph_line = bool(line.strip()) and not _NOT_PARAGRAPH.match(line)
    return headings


def _front_matter(lines: Sequence[str], path: str) -> tuple[dict[str, Any], int]:
    """Read a leading ``---`` YAML block; return its mapping and the index of the first body line."""
    if not lines or lines[0].rstrip() != "---":
        return {}, 0
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise ParseError("broken front matter: the opening '---' line has no closing '---' line", path=path)
    try:
        loaded = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 2})" if where is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ParseError(f"broken front matter: {problem}{line}", path=path) from exc
    if loaded is None:
        return {}, end + 1
    if not isinstance(loaded, dict):
        raise ParseError(
            f"broken front matter: expected 'key: value' lines, got a {type(loaded).__name__}", path=path
        )
    return {str(key): value for key, value in loaded.items()}, end + 1


def _scalar_text(value: object) -> str:
    """Front-matter value as text: lists joined with ``; ``, mappings as JSON."""
    if isinstance(value, list):
        return "; ".join(_scalar_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    return str(value).strip()


def _front_matter_fields(front: Mapping[str, Any], path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Split front matter into ParsedDocument fields and verbatim ``metadata``."""
    fields: dict[str, Any] = {}
    metadata: dict[str, str] = {}
    for key, value in front.items():
        target = _FRONT_MATTER_FIELDS.get(key.lower())
        if target is None:
            if value is not None:
                metadata[key] = _scalar_text(value)
        elif target in _DATE_FIELDS:
            fields[target] = as_date(value, f"front matter {key!r}", path)
        elif value is not None and _scalar_text(value):
            fields[target] = _scalar_text(value)
    return fields, metadata


@register_parser
class MarkdownParser(Parser):
    """Generic Markdown: YAML front matter, ATX and setext headings."""

    name = "markdown"
    suffixes = (".md", ".markdown")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a Markdown file."""
        source = str(path)
        text = _normalise_newlines(decode_text(data, source))
        lines = text.split("\n")
        front, body_start = _front_matter(lines, source)
        fields, metadata = _front_matter_fields(front, source)
        headings = _markdown_headings(lines, body_start)
        sections = _build_sections(lines, headings, start=body_start)
        if not sections:
            raise ParseError("no text after the front matter", path=source)
        fields.setdefault("doc_id", doc_id_from_path(path))
        fields.setdefault("title", _first_heading_text(headings) or file_stem(path))
        # The front matter stays in the hashed text: a changed effective date is a changed document.
        yield ParsedDocument(
            format=self.name, text=text, sections=sections, metadata=metadata, source=source, **fields
        )


# --- reStructuredText ---------------------------------------------------------------------------

# Any non-alphanumeric printable ASCII character may adorn a section title.
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")


def _rst_title_at(lines: Sequence[str], i: int) -> tuple[str, str, bool, int] | None:
    """If a section title starts at line ``i``, return (text, char, overlined, end)."""
    if i > 0 and lines[i - 1].strip():
        return None  # a title follows a blank line (or starts the file)
    line = lines[i]
    if _RST_ADORNMENT.match(line) and i + 2 < len(lines):
        text, under = lines[i + 1], lines[i + 2]
        if text.strip() and not _RST_ADORNMENT.match(text) and under.rstrip() == line.rstrip():
            return text.strip(), line[0], True, i + 3
    if not line.strip() or line[0].isspace() or _RST_ADORNMENT.match(line) or i + 1 >= len(lines):
        return None
    under = lines[i + 1].rstrip()
    if not _RST_ADORNMENT.match(under):
        return None
    # docutils' own rule: an underline shorter than the title still counts if it is 4+ long.
    if len(under) < len(line.rstrip()) and len(under) < 4:
        return None
    return line.strip(), under[0], False, i + 2


def _rst_headings(lines: Sequence[str]) -> list[_Heading]:
    """Find section titles; the level follows the order in which adornment styles first appear."""
    styles: list[tuple[str, bool]] = []
    headings: list[_Heading] = []
    i = 0
    while i < len(lines):
        found = _rst_title_at(lines, i)
        if found is None:
            i += 1
            continue
        text, char, overlined, end = found
        if (char, overlined) not in styles:
            styles.append((char, overlined))
        headings.append(_Heading(i, end, text, styles.index((char, overlined)) + 1))
        i = end
    return headings


@register_parser
class RstParser(Parser):
    """reStructuredText, split at section titles; directives stay in the section text."""

    name = "rst"
    suffixes = (".rst",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.rst`` and ``.rst.txt`` (how Sphinx publishes page sources)."""
        return path.name.lower().endswith((".rst", ".rst.txt"))

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a reStructuredText file."""
        source = str(path)
        text = _normalise_newlines(decode_text(data, source))
        lines = text.split("\n")
        headings = _rst_headings(lines)
        yield ParsedDocument(
            doc_id=doc_id_from_path(path),
            title=_first_heading_text(headings) or file_stem(path),
            format=self.name,
            text=text,
            sections=_build_sections(lines, headings),
            source=source,
        )


# --- plain text ---------------------------------------------------------------------------------

_TEXT_UNDERLINE = re.compile(r"^([=\-~*_^#])\1{2,}[ \t]*$")
_NUMBERED_LINE = re.compile(r"^\s*\d+(?:\.\d+)*[.)]?\s+\S")
_BARE_PROVISION = re.compile(r"(?:(?:Article|Section|Clause|Rule)\s+|§+\s*)\d+[A-Za-z]?(?:\.\d+)*\.?", re.I)
_MAX_HEADING_CHARS = 100


def _looks_like_text_heading(line: str, next_line: str) -> bool:
    """Guess whether a stand-alone line of plain text is a heading.

    Provisions (``Article 7``, ``§ 2``, ``제5조``) and ALL-CAPS lines are headings; a numbered line
    (``2.3 Scope``) is one unless the next line is numbered too (a tight list, not a heading). A line
    ending like a sentence is body text, except a bare provision number such as ``§ 2.``.
    """
    if line.endswith((",", ";", ":")) or (line.endswith(".") and not _BARE_PROVISION.fullmatch(line)):
        return False
    if _PROVISION_WORD.match(line) or _PROVISION_SECTION_SIGN.match(line) or _PROVISION_KR.match(line):
        return True
    letters = [ch for ch in line if ch.isalpha()]
    if len(letters) >= 3 and all(ch.isupper() for ch in letters):
        return True
    if _PROVISION_NUMBER.match(line):
        rest = line.split(None, 1)[1] if " " in line else ""
        return not rest[:1].islower() and not _NUMBERED_LINE.match(next_line)
    return False


def _text_headings(lines: Sequence[str]) -> list[_Heading]:
    """Find heading lines in plain text: each stands after a blank line (or starts the file)."""
    headings: list[_Heading] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        standalone = i == 0 or not lines[i - 1].strip()
        if not standalone or not stripped or line[0].isspace() or len(stripped) > _MAX_HEADING_CHARS:
            i += 1
            continue
        next_line = lines[i + 1] if i + 1 < len(lines) else ""
        if _TEXT_UNDERLINE.match(next_line) and not _TEXT_UNDERLINE.match(line):
            headings.append(_Heading(i, i + 2, stripped, 1))
            i += 2
            continue
        if _looks_like_text_heading(stripped, next_line):
            headings.append(_Heading(i, i + 1, stripped, 2))
        i += 1
    return headings


@register_parser
class PlainTextParser(Parser):
    """Plain text, split at lines that look like headings; otherwise one ``BODY`` section."""

    name = "text"
    suffixes = (".txt",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.txt`` files, except ``.rst.txt`` ones (those are reStructuredText)."""
        name = path.name.lower()
        return name.endswith(".txt") and not name.endswith(".rst.txt")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a text file."""
        source = str(path)
        text = _normalise_newlines(decode_text(data, source))
        lines = text.split("\n")
        headings = _text_headings(lines)
        yield ParsedDocument(
            doc_id=doc_id_from_path(path),
            title=_first_heading_text(headings) or file_stem(path),
            format=self.name,
            text=text,
            sections=_build_sections(lines, headings),
            source=source,
        )


# --- HTML ---------------------------------------------------------------------------------------

_DROPPED_TAGS = ("script", "style", "nav", "noscript", "template")
_HEADING_LEVELS = {f"h{n}": n for n in range(1, 7)}
_BLOCK_TAGS = frozenset(
    {"address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div"}
    | {"dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "li", "main"}
    | {"ol", "p", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul"}
)
_CHARSET = re.compile(rb"""charset\s*=\s*["']?([A-Za-z0-9_.:-]+)|encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _declared_encoding(data: bytes) -> str | None:
    """The charset to decode an HTML file with, when it is not UTF-8 (``None`` means UTF-8 or a BOM).

    Bytes that are valid UTF-8 are read as UTF-8 whatever the page declares: the pipeline re-encodes
    files given with ``--encoding`` to UTF-8, and a stale ``<meta charset>`` must not undo that.
    """
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None  # a byte-order mark outranks a declaration
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    match = _CHARSET.search(data[:4096])
    if match is None:
        return None
    try:
        name = codecs.lookup((match.group(1) or match.group(2)).decode("ascii")).name
    except LookupError:
        return None
    return None if name == "utf-8" else name


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class _HtmlFlow:
    """Collects the visible text of an HTML body as lines, noting which lines are headings."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.headings: list[_Heading] = []
        self._pending: list[str] = []

    def add_text(self, text: str | None) -> None:
        if text:
            self._pending.append(text)

    def end_line(self) -> None:
        line = _collapse("".join(self._pending))
        self._pending.clear()
        if line:
            self.lines.append(line)

    def add_heading(self, text: str, level: int) -> None:
        self.end_line()
        if text:
            self.headings.append(_Heading(len(self.lines), len(self.lines) + 1, text, level))
            self.lines.append(text)

    def add_preformatted(self, text: str) -> None:
        self.end_line()
        self.lines.extend(line.rstrip() for line in text.strip("\n").split("\n"))

    def walk(self, element: lxml.html.HtmlElement) -> None:
        """Add ``element``'s visible text (and its tail) in document order."""
        tag = element.tag if isinstance(element.tag, str) else ""  # comments have no str tag
        if tag in _HEADING_LEVELS:
            self.add_heading(_collapse(element.text_content()), _HEADING_LEVELS[tag])
        elif tag == "pre":
            self.add_preformatted(element.text_content())
        elif tag == "br":
            self.end_line()
        elif tag:
            is_block = tag in _BLOCK_TAGS
            if is_block:
                self.end_line()
            self.add_text(element.text)
            for child in element:
                self.walk(child)
            self.add_text(" " if tag in ("td", "th") else None)
            if is_block:
                self.end_line()
        self.add_text(element.tail)


def _load_html(data: bytes, source: str) -> lxml.html.HtmlElement:
    """Decode and parse HTML, refusing what is not text."""
    text = decode_text(data, source, encoding=_declared_encoding(data))
    # lxml refuses a str that still carries an XML encoding declaration; the text is decoded already.
    text = _XML_DECLARATION.sub("", text, count=1)
    parser = lxml.html.HTMLParser()
    try:
        root = lxml.html.document_fromstring(text, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise ParseError(f"not parseable as HTML: {exc}", path=source) from exc
    # Ordinary tag soup is repaired silently; a fatal error means libxml2 stopped reading part-way
    # (e.g. nesting deeper than 256), and a half-read page must not pass for the whole one.
    fatal = next((e for e in parser.error_log if e.level_name == "FATAL"), None)
    if fatal is not None:
        raise ParseError(f"not parseable as HTML: {fatal.message} (line {fatal.line})", path=source)
    return root


@register_parser
class HtmlParser(Parser):
    """HTML: visible body text split at ``h1``-``h6``; scripts, styles and navigation dropped."""

    name = "html"
    suffixes = (".html", ".htm")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in an HTML file."""
        source = str(path)
        root = _load_html(data, source)
        for tag in _DROPPED_TAGS:
            for element in list(root.iter(tag)):
                element.drop_tree()  # keeps the element's tail text
        body = root.find("body")
        flow = _HtmlFlow()
        if body is not None:
            flow.walk(body)
            flow.end_line()
        if not flow.lines:
            raise ParseError("no visible text in the HTML body (scripts and navigation dropped)", path=source)
        title_element = root.find(".//title")
        title = _collapse(title_element.text_content()) if title_element is not None else ""
        h1 = next((h.text for h in flow.headings if h.level == 1), None)
        language = (root.get("lang") or root.get(_XML_LANG) or "").strip() or None
        yield ParsedDocument(
            doc_id=doc_id_from_path(path),
            title=title or h1 or file_stem(path),
            format=self.name,
            text="\n".join(flow.lines),
            sections=_build_sections(flow.lines, flow.headings),
            language=language,
            source=source,
        )
