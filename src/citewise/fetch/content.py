"""Reading a fetched body: HTML through trafilatura, PDF through pypdf, plain text as it is.

A page is only *read* when its own text is there to read. Walls are recognised before any text is
taken, and recorded as gaps (SPEC 4.6), never as text read:

* **login wall** — a password field where the main text is nearly empty, or a "sign in to continue"
  prompt that is nearly all there is or cuts a thin main text off;
* **paywall** — JSON-LD ``isAccessibleForFree: false``, or a subscribe-to-continue prompt, as above;
* **consent wall** — a cookie/consent dialog standing where the text should be: the main text is
  nearly empty, or is the dialog's own words. A footer's "Cookie settings" link beside a short
  article is not a wall: a sign elsewhere on the page never outweighs main text that is there;
* **JavaScript-only** — almost no text in the HTML as served, with an empty application root or a
  ``<noscript>`` asking for JavaScript.

HTML is cleaned with ``lxml_html_clean`` (scripts, styles, embedded objects and comments removed)
before trafilatura extracts the main text; the dates are read first, from the uncleaned page
(:mod:`citewise.fetch.dates`). Fetched text is untrusted data throughout.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import lxml.html
import trafilatura
from lxml_html_clean import Cleaner

from citewise.errors import ParseError
from citewise.fetch.dates import PageDates, dates_from_html, dates_from_text
from citewise.fetch.records import FetchOutcome

__all__ = ["HTML_TYPES", "PDF_TYPES", "READABLE_TYPES", "TEXT_TYPES", "Reading", "read_body", "sniff_type"]

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
PDF_TYPES = frozenset({"application/pdf"})
TEXT_TYPES = frozenset({"text/plain"})
READABLE_TYPES = HTML_TYPES | PDF_TYPES | TEXT_TYPES

_THIN = 400  # characters of main text under which a sign-in or subscribe prompt in it cuts the text off
_NEARLY_EMPTY = 150  # characters of main text (besides the wall's own words) under which nothing else is there
_UI_LINE = 40  # a shorter line beside a wall's words is its button or label ("Accept all", "Manage options")
_LOGIN = re.compile(r"\b(sign|log)\s?in\s+(to\s+(continue|read|view)|required)|로그인\s*(후|이 필요)", re.I)
_PAYWALL = re.compile(
    r"subscribe\s+(now\s+)?to\s+(continue|read|keep)|subscribers?\s+only|already\s+a\s+subscriber|"
    r"this\s+(article|content)\s+is\s+for\s+(paid\s+)?subscribers|유료\s*회원",
    re.I,
)
_CONSENT = re.compile(
    r"(we|this site)\s+uses?\s+cookies|cookie\s+(consent|settings|preferences)|"
    r"accept\s+(all\s+)?cookies|consent\s+to\s+(the\s+)?(use|processing)",
    re.I,
)
_NEEDS_JS = re.compile(r"enable\s+javascript|javascript\s+(is\s+)?(required|disabled)|requires\s+javascript", re.I)
_CLEANER = Cleaner(
    scripts=True,
    javascript=True,
    comments=True,
    style=True,
    inline_style=True,
    embedded=True,
    frames=True,
    forms=False,
    annoying_tags=False,
    meta=False,
    page_structure=False,
    processing_instructions=True,
    remove_unknown_tags=False,
    safe_attrs_only=False,
)


@dataclass(frozen=True)
class Reading:
    """What a body said: its text (only when ``outcome`` is ``READ``), title, dates and a note."""

    outcome: FetchOutcome
    text: str = ""
    title: str | None = None
    dates: PageDates = PageDates()
    note: str = ""
    """Why this outcome (the wall's sign, the parser's error), for the decisions."""


def sniff_type(declared: str | None, head: bytes) -> str | None:
    """The media type to read ``head``'s body as: the declared one, or sniffed when none was sent."""
    if declared:
        return declared
    start = head.lstrip()[:512].lower()
    if start.startswith(b"%pdf-"):
        return "application/pdf"
    if start.startswith((b"<!doctype html", b"<html")) or b"<body" in start:
        return "text/html"
    return None


def read_body(body: bytes, media_type: str, charset: str | None, url: str) -> Reading:
    """Read ``body`` of ``media_type`` served at ``url``."""
    if media_type in PDF_TYPES:
        return _read_pdf(body, url)
    if media_type in TEXT_TYPES:
        return _read_text(body, charset, url)
    return _read_html(body, url)


def _read_text(body: bytes, charset: str | None, url: str) -> Reading:
    try:
        text = body.decode(charset or "utf-8")
    except (LookupError, UnicodeDecodeError) as exc:
        return Reading(FetchOutcome.UNREADABLE, note=f"text not decodable as {charset or 'utf-8'}: {exc}")
    if not text.strip():
        return Reading(FetchOutcome.EMPTY, note="the text body is empty")
    return Reading(FetchOutcome.READ, text.strip(), None, dates_from_text(text, url))


def _read_pdf(body: bytes, url: str) -> Reading:
    from citewise.ingest.pdf import PdfParser

    name = PurePosixPath(url.split("?", 1)[0]).name or "page.pdf"
    try:
        document = next(iter(PdfParser().parse(Path(name), body)))
    except ParseError as exc:
        return Reading(FetchOutcome.UNREADABLE, note=str(exc))
    return Reading(FetchOutcome.READ, document.text, document.title, dates_from_text(document.text, url))


def _read_html(body: bytes, url: str) -> Reading:
    tree = trafilatura.load_html(body)
    if tree is None:
        return Reading(FetchOutcome.UNREADABLE, note="the HTML could not be parsed")
    dates = dates_from_html(tree, url)
    title = _title(tree)
    cleaned = _CLEANER.clean_html(lxml.html.fromstring(lxml.html.tostring(tree)))
    text = (trafilatura.extract(cleaned, url=url, include_comments=False, include_tables=True) or "").strip()
    wall = _wall(tree, text)
    if wall is not None:
        return Reading(wall[0], "", title, dates, wall[1])
    if not text:
        return Reading(FetchOutcome.EMPTY, "", title, dates, "no main text in the HTML")
    return Reading(FetchOutcome.READ, text, title, dates)


def _title(tree: lxml.html.HtmlElement) -> str | None:
    for xpath in ('//meta[@property="og:title"]/@content', "//title/text()", "//h1//text()"):
        values = [" ".join(str(v).split()) for v in tree.xpath(xpath)]
        if values and values[0]:
            return values[0][:300]
    return None


def _wall(tree: lxml.html.HtmlElement, text: str) -> tuple[FetchOutcome, str] | None:
    """The wall standing where the page's text should be, with its sign; ``None`` when there is none.

    A sign anywhere on the page (a password field, a prompt, a cookie notice) makes a wall only when
    the main text is nearly empty; a prompt inside the main text makes one when the text is the
    prompt's own words (consent) or is thin and cut off by it (sign-in, subscribe)."""
    if _not_free(tree):
        return FetchOutcome.PAYWALL, "the page's JSON-LD says isAccessibleForFree: false"
    page = " ".join(tree.xpath("//body//text()[not(ancestor::script) and not(ancestor::style)]"))
    empty = len(text) < _NEARLY_EMPTY
    if empty and tree.xpath('//input[@type="password"]'):
        return FetchOutcome.LOGIN_WALL, "a password field stands where the text should be"
    cut_off = len(text) < _THIN
    if _LOGIN.search(page) and (empty or (cut_off and _LOGIN.search(text))):
        return FetchOutcome.LOGIN_WALL, "the page asks to sign in to read it"
    if _PAYWALL.search(page) and (empty or (cut_off and _PAYWALL.search(text))):
        return FetchOutcome.PAYWALL, "the page asks to subscribe to read it"
    if _CONSENT.search(page) and (empty or _only_wall_words(text, _CONSENT)):
        return FetchOutcome.CONSENT_WALL, "a cookie/consent dialog stands where the text should be"
    if len(text) < 200 and _script_shell(tree):
        return FetchOutcome.JAVASCRIPT_ONLY, "the HTML as served has no text: it is rendered by scripts"
    return None


def _only_wall_words(text: str, sign: re.Pattern[str]) -> bool:
    """Whether the main text is the wall's own words: without its lines that carry the sign and the
    short labels and buttons around them, nearly nothing is left."""
    if not sign.search(text):
        return False
    rest = [line for line in text.splitlines() if not sign.search(line) and len(line.strip()) >= _UI_LINE]
    return sum(len(line) for line in rest) < _NEARLY_EMPTY


def _not_free(tree: lxml.html.HtmlElement) -> bool:
    for script in tree.xpath('//script[contains(translate(@type, "LDJSON", "ldjson"), "ld+json")]'):
        try:
            data = json.loads(script.text_content())
        except ValueError:
            continue
        items = data if isinstance(data, list) else [data]
        for item in items:
            if isinstance(item, dict) and str(item.get("isAccessibleForFree", "")).lower() == "false":
                return True
    return False


def _script_shell(tree: lxml.html.HtmlElement) -> bool:
    noscript = " ".join(tree.xpath("//noscript//text()"))
    if _NEEDS_JS.search(noscript):
        return True
    roots = tree.xpath('//*[@id="root" or @id="app" or @id="__next" or @id="__nuxt"]')
    has_scripts = bool(tree.xpath("//script[@src]"))
    return has_scripts and any(not "".join(node.itertext()).strip() for node in roots)
