"""HTML: visible body text split at ``h1``-``h6``; scripts, styles and navigation dropped.

Sections follow the shared rules in :mod:`citewise.ingest.sections`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from pathlib import Path

import lxml.etree
import lxml.html

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, Parser
from citewise.ingest.decode import decode_text
from citewise.ingest.sections import Heading, build_sections, doc_id_from_path, file_stem

__all__ = ["HtmlParser"]


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
        self.headings: list[Heading] = []
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
            self.headings.append(Heading(len(self.lines), len(self.lines) + 1, text, level))
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
            id_declared=False,
            title=title or h1 or file_stem(path),
            format=self.name,
            text="\n".join(flow.lines),
            sections=build_sections(flow.lines, flow.headings),
            language=language,
            source=source,
        )
