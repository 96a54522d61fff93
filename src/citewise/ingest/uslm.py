"""United States Legislative Markup (USLM) XML: CFR volumes, statute compilations, the US Code.

Every ``<section>`` of the document (outside quoted text of other laws, and not nested in another
section) becomes one section. Its id is the number the section is cited by, taken from the text
of its ``<num>`` (``§ 478.25a`` -> ``478.25a``, ``SEC. 2.`` -> ``2``):

* the ``identifier`` attribute is not used for the id because the GPO CFR converter drops letter
  suffixes there (``§ 478.25a`` has ``identifier=".../s478.25"`` and ``num value="478.25"``, the same
  as ``§ 478.25``); the raw identifiers shared by several sections are listed in the metadata;
* a section without a ``<num>`` (an Act's first, undesignated section: "Be it enacted ... That ...")
  is ``1`` when it is the first section and the next one is numbered ``2`` -- the convention for
  Acts, and what their text cites as "section 1(a)" -- otherwise ``unnumbered-1``, ``unnumbered-2``;
* an id still not unique gets ``#2``, ``#3`` (none in the known files).

``[Reserved]`` sections are kept with ``reserved=True``; ``Repealed`` / ``[Repealed]`` sections with
``deleted=True``. Text keeps paragraph breaks: block elements (paragraphs, subsections, ``<p>``,
table rows, notes) start new lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from lxml import etree

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection, Parser
from citewise.ingest.decode import decode_text
from citewise.records import SectionKind

__all__ = ["UslmParser"]

LICENCE = "public domain (17 U.S.C. 105)"
#: USLM namespaces: GPO's (CFR, compilations, USLM 2.x) and the House's (US Code, USLM 1.0).
USLM_NAMESPACES = ("http://schemas.gpo.gov/xml/uslm", "http://xml.house.gov/schemas/uslm/")
_DC = "http://purl.org/dc/elements/1.1/"
_DCTERMS = "http://purl.org/dc/terms/"

_BLOCKS = frozenset(
    "p paragraph subsection subparagraph clause subclause item subitem subsubitem level "
    "continuation source note notes editorialNote footnote quotedContent figure table tr caption "
    "toc referenceItem headingItem".split()
)
_NUM_PREFIX = re.compile(r"^(?:§+|sec(?:tion)?\.?)\s*", re.IGNORECASE)
_ASCII_SPACE = re.compile(r"[ \t\r\n]+")
_RESERVED = re.compile(r"^\[?\s*reserved\s*\]?\.?$", re.IGNORECASE)
_REPEALED = re.compile(r"^\[?\s*repealed\b", re.IGNORECASE)
_LEADING_NOTE = re.compile(r"^\[[^\]\n]*\]\s*")


class UslmParser(Parser):
    """Parser for USLM XML (``uslm``).

    Example::

        doc = next(get_parser("uslm").parse(path, path.read_bytes()))
        doc.doc_id                 # 'us-cfr-title-27-parts-400-end'
        doc.sections[0].heading    # '§ 447.1 General.'
    """

    name = "uslm"
    suffixes = (".xml",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim a ``.xml`` file whose first characters declare a USLM namespace."""
        return path.suffix.lower() in self.suffixes and any(ns in head for ns in USLM_NAMESPACES)

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in ``data``; raise :class:`ParseError` naming what is wrong."""
        source = str(path)
        root = _parse_xml(data, source)
        namespace = etree.QName(root).namespace or ""
        if not namespace.startswith(USLM_NAMESPACES):
            raise ParseError(
                f"not USLM: root element <{etree.QName(root).localname}> is in namespace "
                f"{namespace or '(none)'!r}, not {USLM_NAMESPACES[0]!r}",
                path=source,
            )
        meta = _Meta(root, namespace)
        sections, duplicates = _sections(root, namespace)
        metadata = meta.values()
        if duplicates:
            metadata["duplicate_section_identifiers"] = " ".join(duplicates)
        encoding = root.getroottree().docinfo.encoding or "utf-8"
        yield ParsedDocument(
            doc_id=meta.doc_id(path),
            title=meta.title() or path.stem,
            format=self.name,
            text=decode_text(data, source, encoding=encoding),
            sections=tuple(sections),
            issuing_authority=meta.issuing_authority(),
            official_publisher=meta.first(_DC, "publisher"),
            version_label=meta.version_label(),
            promulgated_on=meta.date("approvedDate"),
            effective_on=meta.date("docReleasePoint"),
            language="en",
            licence=LICENCE,
            metadata=metadata,
            source=source,
        )


def _parse_xml(data: bytes, source: str) -> etree._Element:
    if not data.strip():
        raise ParseError("empty file: there is no XML to ingest", path=source)
    # No entity expansion (billion laughs), no DTD or network fetches, default size limits.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ParseError(f"invalid XML: {exc}", path=source) from None


# -- document metadata --------------------------------------------------------------------------


class _Meta:
    """What the ``<meta>`` (and, for a few facts, ``<preface>``/``<main>``) of a document states."""

    def __init__(self, root: etree._Element, namespace: str) -> None:
        self.root, self.ns = root, namespace
        self.meta = root.find(f"{{{namespace}}}meta")
        self.kind = etree.QName(root).localname

    def all(self, namespace: str, name: str) -> list[str]:
        if self.meta is None:
            return []
        found = (_flat(e) for e in self.meta.iterfind(f"{{{namespace}}}{name}"))
        return [text for text in found if text]

    def first(self, namespace: str, name: str) -> str | None:
        return next(iter(self.all(namespace, name)), None)

    def own(self, name: str) -> str | None:
        return self.first(self.ns, name)

    def title(self) -> str | None:
        return self.first(_DC, "title")

    def doc_id(self, path: Path) -> str:
        """A stable slug from the document's own identity (not its edition or release date)."""
        if identifier := self.first(_DC, "identifier"):
            return _slug(identifier)
        number = self.own("docNumber")
        if self.kind == "cfrDoc" and number:
            parts = [p for p in (self.own("startingProvision"), self.own("endingProvision")) if p]
            return _slug(f"us cfr title {number}" + (" parts " + " ".join(parts) if parts else ""))
        if self.kind == "uscDoc" and number:
            return _slug(f"us usc title {number}")
        if self.kind == "statuteCompilation" and number and (congress := self.own("congress")):
            return _slug(f"us pl {congress} {number}")
        return _slug(f"us {self.title() or path.stem}")

    def issuing_authority(self) -> str | None:
        """The agency named by a CFR chapter heading, else ``dc:creator`` as stated."""
        if self.kind == "cfrDoc":
            chapters = self.root.iterfind(f".//{{{self.ns}}}chapter/{{{self.ns}}}heading")
            agencies = list(dict.fromkeys(text for e in chapters if (text := _flat(e))))
            if agencies:
                return "; ".join(agencies)
        return ", ".join(self.all(_DC, "creator")) or None

    def version_label(self) -> str | None:
        if release := self.own("docReleasePoint"):
            return f"revised as of {release}"
        # the preface states what a compilation is amended through; <meta> repeats the base law
        preface = self.root.find(f"{{{self.ns}}}preface")
        through = preface.find(f".//{{{self.ns}}}currentThroughPublicLaw") if preface is not None else None
        label = _flat(through) if through is not None else self.own("currentThroughPublicLaw")
        return f"amended through {label}" if label else None

    def date(self, name: str) -> date | None:
        value = self.own(name)
        try:
            return date.fromisoformat(value[:10]) if value else None
        except ValueError:
            return None  # a free-text date ("As of April 1, 2017") stays in the metadata only

    def values(self) -> dict[str, str]:
        """Every simple ``<meta>`` child as text (repeated names joined with ``; ``)."""
        values: dict[str, list[str]] = {}
        for child in self.meta if self.meta is not None else ():
            if not isinstance(child.tag, str) or not (text := _flat(child)):
                continue
            qname = etree.QName(child)
            key = qname.localname if qname.namespace == self.ns else f"{_prefix(qname)}:{qname.localname}"
            if child.get("role"):
                key = f"{key}:{child.get('role')}"
            values.setdefault(key, []).append(text)
        return {key: "; ".join(texts) for key, texts in values.items()} | {"root": self.kind}


def _prefix(qname: etree.QName) -> str:
    return {_DC: "dc", _DCTERMS: "dcterms"}.get(qname.namespace or "", "meta")


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("–", "-")).strip("-")
    return slug or "uslm-document"


# -- sections -----------------------------------------------------------------------------------


def _sections(root: etree._Element, ns: str) -> tuple[list[ParsedSection], list[str]]:
    """The document's sections, and the raw identifiers that more than one section shares."""
    section_tag = f"{{{ns}}}section"
    quoted = {f"{{{ns}}}quotedContent", f"{{{ns}}}quotedText"}
    elements = [
        e for e in root.iter(section_tag) if not any(a.tag == section_tag or a.tag in quoted for a in e.iterancestors())
    ]
    numbers = [_number(e, ns) for e in elements]
    ids = _unique(_fill_unnumbered(numbers))
    sections = [_section(e, ns, section_id) for e, section_id in zip(elements, ids, strict=True)]
    identifiers = Counter(e.get("identifier") for e in elements if e.get("identifier"))
    return sections, sorted(i for i, count in identifiers.items() if count > 1)


def _number(section: etree._Element, ns: str) -> str | None:
    num = section.find(f"{{{ns}}}num")
    if num is None:
        return None
    text = _NUM_PREFIX.sub("", _flat(num)).rstrip(". ").strip()
    return text or (num.get("value") or "").strip() or None


def _fill_unnumbered(numbers: list[str | None]) -> list[str]:
    """Ids for sections without a number (see the module docstring)."""
    ids, missing = [], 0
    for index, number in enumerate(numbers):
        if number is None:
            following = numbers[index + 1] if index + 1 < len(numbers) else None
            if index == 0 and following == "2" and "1" not in numbers:
                number = "1"
            else:
                missing += 1
                number = f"unnumbered-{missing}"
        ids.append(number)
    return ids


def _unique(ids: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    result = []
    for section_id in ids:
        seen[section_id] += 1
        result.append(section_id if seen[section_id] == 1 else f"{section_id}#{seen[section_id]}")
    return result


def _section(element: etree._Element, ns: str, section_id: str) -> ParsedSection:
    num, heading = element.find(f"{{{ns}}}num"), element.find(f"{{{ns}}}heading")
    num_text = _flat(num) if num is not None else ""
    heading_text = _flat(heading) if heading is not None else ""
    skip = {e for e in (num, heading) if e is not None}
    text = _block_text(element, skip)
    reserved = "reserved" in (element.get("role") or "").split() or bool(_RESERVED.match(heading_text))
    reserved = reserved or (element.get("status") or "").lower() == "reserved"
    # "[16 U.S.C. 757g] Repealed by ..." : an editorial note may precede the word
    unnoted = _LEADING_NOTE.sub("", text)
    deleted = (element.get("status") or "").lower() == "repealed" or any(
        _REPEALED.match(t) for t in (heading_text, text, unnoted)
    )
    return ParsedSection(
        section_id=section_id,
        heading=" ".join(t for t in (num_text, heading_text) if t) or "(undesignated section)",
        text=text,
        kind=SectionKind.ARTICLE,
        deleted=deleted,
        reserved=reserved and not deleted,
    )


def _flat(element: etree._Element) -> str:
    """Text of an element on one line (comments and processing instructions left out)."""
    return _ASCII_SPACE.sub(" ", "".join(element.itertext())).strip()


def _block_text(section: etree._Element, skip: set[etree._Element]) -> str:
    """Text of ``section`` without ``skip``, one line per block element."""
    pieces: list[str] = []
    _collect(section, skip, pieces)
    lines = (_ASCII_SPACE.sub(" ", line).strip() for line in "".join(pieces).split("\n"))
    return "\n".join(line for line in lines if line)


def _collect(element: etree._Element, skip: set[etree._Element], pieces: list[str]) -> None:
    block = etree.QName(element).localname in _BLOCKS
    if block:
        pieces.append("\n")
    if element.text:
        pieces.append(_ASCII_SPACE.sub(" ", element.text))
    for child in element:
        if isinstance(child.tag, str) and child not in skip:
            if etree.QName(child).localname in ("td", "th"):
                pieces.append(" ")
            _collect(child, skip, pieces)
        if child.tail:  # the tail of a comment or <?page?> instruction is still text
            pieces.append(_ASCII_SPACE.sub(" ", child.tail))
    if block:
        pieces.append("\n")
