"""Publication dates from a page's own signals (SPEC 4.3), never from the retrieval time.

Signals, in the order they are named when they agree:

1. JSON-LD ``datePublished`` (``dateModified`` for the update date);
2. meta tags: Open Graph / ``article:published_time``, Dublin Core, ``citation_publication_date``,
   ``itemprop="datePublished"`` ... (``article:modified_time``, ``og:updated_time`` for updates);
3. ``<time>`` elements marked as the publication (``itemprop="datePublished"``, ``pubdate``), or the
   one date all of an article's ``<time datetime>`` elements share;
4. a visible byline: "Published 12 March 2024", "Posted on ...", "입력 2024.03.12" ("Updated ..." and
   "수정" give the update date);
5. the URL: ``/2024/03/12/`` or ``/2024-03-12/``.

Each raw value is read by htmldate's date parser (``try_date_expr``), which also rejects dates before
1995 and after today. The original date and the update date are kept apart: an update never becomes
``published_at``. When the signals for the original date disagree on the day, or there are none,
``published_at`` stays ``None`` and :attr:`PageDates.notes` says why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import lxml.html
from htmldate.extractors import try_date_expr
from htmldate.settings import MIN_DATE

__all__ = ["PageDates", "dates_from_html", "dates_from_text"]

_FORMAT = "%Y-%m-%d"
_PUBLISHED_META = frozenset(
    {
        "article:published_time",
        "og:published_time",
        "og:article:published_time",
        "datepublished",
        "pubdate",
        "publishdate",
        "publish-date",
        "publish_date",
        "date",
        "dc.date",
        "dc.date.issued",
        "dcterms.issued",
        "dcterms.created",
        "dcterms.date",
        "citation_publication_date",
        "citation_date",
        "sailthru.date",
        "parsely-pub-date",
        "article.published",
        "published_time",
    }
)
_MODIFIED_META = frozenset(
    {
        "article:modified_time",
        "og:updated_time",
        "datemodified",
        "dcterms.modified",
        "last-modified",
        "article.updated",
        "modified_time",
    }
)
_PUBLISHED_WORDS = r"(?:published|posted|first published|date|작성일?|입력|게시일?|등록일?|발행일?)"
_UPDATED_WORDS = r"(?:updated|last updated|modified|수정일?|업데이트)"
_DATE_TEXT = (
    r"(\d{4}[-./]\s?\d{1,2}[-./]\s?\d{1,2}\.?|\d{4}년\s?\d{1,2}월\s?\d{1,2}일"
    r"|\d{1,2}\s+[A-Z][a-z]{2,8}\.?\s+\d{4}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})"
)
_BYLINE = re.compile(rf"\b{_PUBLISHED_WORDS}\b(?:\s+on)?\s*[:：]?\s*{_DATE_TEXT}", re.IGNORECASE)
_BYLINE_KO = re.compile(rf"{_PUBLISHED_WORDS}\s*[:：]?\s*{_DATE_TEXT}")
_UPDATED = re.compile(rf"{_UPDATED_WORDS}(?:\s+on)?\s*[:：]?\s*{_DATE_TEXT}", re.IGNORECASE)
_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-](0[1-9]|1[0-2])[/-](0[1-9]|[12]\d|3[01])(?:[/._-]|$)")
_KO_DATE = re.compile(r"(\d{4})년\s?(\d{1,2})월\s?(\d{1,2})일")


@dataclass(frozen=True)
class PageDates:
    """What a page says about when it was published and last updated."""

    published_at: str | None = None
    """``YYYY-MM-DD`` when the signals agree; ``None`` when missing or conflicting."""
    updated_at: str | None = None
    """The update date the page states (kept apart from ``published_at``)."""
    source: str | None = None
    """The signal ``published_at`` came from, e.g. ``json-ld datePublished``."""
    notes: tuple[str, ...] = field(default=())
    """What was found and decided, for the fetch's decisions."""


def _parse(raw: str, today: datetime) -> str | None:
    text = " ".join(raw.split())[:80]
    if not text:
        return None
    ko = _KO_DATE.search(text)
    if ko:
        text = f"{ko.group(1)}-{int(ko.group(2)):02d}-{int(ko.group(3)):02d}"
    return try_date_expr(text, _FORMAT, False, MIN_DATE, today + timedelta(days=1))


def dates_from_html(html: lxml.html.HtmlElement, url: str, *, today: datetime | None = None) -> PageDates:
    """The dates ``html`` (served at ``url``) states; see the module docstring."""
    now = (today or datetime.now(UTC)).replace(tzinfo=None)
    published: list[tuple[str, str]] = []
    modified: list[tuple[str, str]] = []
    for signal, kind, raw in _signals(html):
        day = _parse(raw, now)
        if day is not None:
            (published if kind == "published" else modified).append((signal, day))
    visible = _visible_text(html)
    return _decide([*published, *_text_signals(visible, url, now, modified)], modified)


def dates_from_text(text: str, url: str, *, today: datetime | None = None) -> PageDates:
    """The dates a plain-text or PDF page states in its opening lines and its URL."""
    now = (today or datetime.now(UTC)).replace(tzinfo=None)
    modified: list[tuple[str, str]] = []
    published = _text_signals(text[:3000], url, now, modified)
    return _decide(published, modified)


def _text_signals(text: str, url: str, now: datetime, modified: list[tuple[str, str]]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for match in (_UPDATED.search(text),):
        day = _parse(match.group(1), now) if match else None
        if day:
            modified.append(("visible update line", day))
    without_updates = _UPDATED.sub(" ", text)
    for pattern in (_BYLINE, _BYLINE_KO):
        match = pattern.search(without_updates)
        day = _parse(match.group(1), now) if match else None
        if day:
            found.append(("visible byline", day))
            break
    match = _URL_DATE.search(url)
    if match:
        day = _parse("-".join(match.groups()), now)
        if day:
            found.append(("url", day))
    return found


def _decide(published: list[tuple[str, str]], modified: list[tuple[str, str]]) -> PageDates:
    notes = [f"{signal}: {day}" for signal, day in published] + [
        f"{signal} (update): {day}" for signal, day in modified
    ]
    updates = sorted({day for _, day in modified})
    updated = updates[-1] if len(updates) == 1 else None
    if len(updates) > 1:
        notes.append(f"update dates conflict ({', '.join(updates)}): no update date")
    days = sorted({day for _, day in published})
    if not days:
        notes.append("no publication date signal: published_at left empty")
        return PageDates(None, updated, None, tuple(notes))
    if len(days) > 1:
        notes.append(f"publication signals conflict ({', '.join(days)}): published_at left empty")
        return PageDates(None, updated, None, tuple(notes))
    return PageDates(days[0], updated, published[0][0], tuple(notes))


def _signals(html: lxml.html.HtmlElement) -> Iterator[tuple[str, str, str]]:
    """``(signal name, "published"|"modified", raw value)`` from JSON-LD, meta tags and ``<time>``."""
    for script in html.xpath('//script[contains(translate(@type, "LDJSON", "ldjson"), "ld+json")]'):
        yield from _json_ld(script.text_content())
    for meta in html.xpath("//meta[@content]"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").strip().lower()
        if key in _PUBLISHED_META:
            yield f"meta {key}", "published", meta.get("content", "")
        elif key in _MODIFIED_META:
            yield f"meta {key}", "modified", meta.get("content", "")
    yield from _time_elements(html)


def _json_ld(text: str) -> Iterator[tuple[str, str, str]]:
    try:
        data = json.loads(text)
    except ValueError:
        return
    for node in _nodes(data):
        for key, kind in (("datePublished", "published"), ("dateModified", "modified")):
            value = node.get(key)
            if isinstance(value, str):
                yield f"json-ld {key}", kind, value


def _nodes(data: Any, depth: int = 0) -> Iterable[dict[str, Any]]:
    """Every JSON object in ``data`` (``@graph`` and nested lists included), depth-bounded."""
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data[:200]:
            yield from _nodes(item, depth + 1)
    elif isinstance(data, dict):
        yield data
        for value in data.values():
            if isinstance(value, (list, dict)):
                yield from _nodes(value, depth + 1)


def _time_elements(html: lxml.html.HtmlElement) -> Iterator[tuple[str, str, str]]:
    marked = False
    for node in html.xpath("//time[@datetime]"):
        prop = (node.get("itemprop") or "").lower()
        if prop == "datepublished" or node.get("pubdate") is not None:
            marked = True
            yield "time element", "published", node.get("datetime", "")
        elif prop == "datemodified":
            yield "time element", "modified", node.get("datetime", "")
    if not marked:
        values = {node.get("datetime", "")[:10] for node in html.xpath("//article//time[@datetime]")}
        if len(values) == 1:
            yield "time element", "published", values.pop()


def _visible_text(html: lxml.html.HtmlElement) -> str:
    """The opening of the page's visible text (scripts and styles left out), where bylines are."""
    parts: list[str] = []
    size = 0
    body = html.find("body")
    for node in (body if body is not None else html).iter():
        if not isinstance(node.tag, str) or node.tag in ("script", "style", "noscript", "template"):
            continue
        for piece in (node.text, node.tail if node.getparent() is not None else None):
            if piece and piece.strip():
                parts.append(piece.strip())
                size += len(piece)
        if size > 6000:
            break
    return " ".join(parts)
