"""Frozen evidence packs: the same pages for every model in a same-evidence experiment.

A pack is the pages (URL, title, full text) one research run read for a question. Served through
:class:`PackSearch` and :class:`PackExtractor`, every configuration under test plans, reviews and
writes over exactly those pages: any query "finds" them, extraction returns their stored text, and
passage selection (deterministic) cuts the same excerpts from them. The pack's hash — over every
page's URL and text — is printed beside every model's result, so "same evidence" can be checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from citewise.audit.events import SourceStored
from citewise.errors import InputError
from citewise.records.providers import ExtractedPage, ExtractFailure, ExtractResponse, SearchResponse, SearchResult
from citewise.store.runs import RunRecord

__all__ = ["EvidencePack", "PackExtractor", "PackPage", "PackSearch", "pack_from_run"]


@dataclass(frozen=True, slots=True)
class PackPage:
    url: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class EvidencePack:
    """The pages of one question's evidence, frozen."""

    question: str
    pages: tuple[PackPage, ...]
    origin_run: str | None
    """The run the pages were taken from."""

    @property
    def digest(self) -> str:
        """``sha256:`` over every page's URL and text, in order."""
        h = hashlib.sha256()
        for page in self.pages:
            for part in (page.url, page.title, page.text):
                h.update(part.encode("utf-8"))
                h.update(b"\0")
        return "sha256:" + h.hexdigest()


def pack_from_run(record: RunRecord) -> EvidencePack:
    """The pages a research run stored, as a pack; a clear error when it stored none."""
    sources = [e.source for e in record.of(SourceStored)]
    if not sources:
        raise InputError(f"run {record.run_id} stored no sources: there is no evidence to freeze")
    pages = tuple(PackPage(s.url, s.title, s.page_text) for s in sources)
    return EvidencePack(record.question, pages, record.run_id)


class PackSearch:
    """Search that "finds" the pack's pages for every query (in the pack's order)."""

    name = "pack"

    def __init__(self, pack: EvidencePack) -> None:
        self.pack = pack
        self.options: dict[str, str] = {"pack": pack.digest}

    def search(self, query: str, *args: Any, **kwargs: Any) -> SearchResponse:
        results = tuple(
            SearchResult(
                url=p.url, title=p.title, content=p.text[:200], score=None, rank=i, provider=self.name, query=query
            )
            for i, p in enumerate(self.pack.pages, 1)
        )
        return SearchResponse(query=query, results=results, provider=self.name, retrieved_at=datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release."""


class PackExtractor:
    """Extraction that returns the pack's stored text; a URL outside the pack fails."""

    name = "pack"

    def __init__(self, pack: EvidencePack) -> None:
        self.pages = {p.url: p for p in pack.pages}
        self.options: dict[str, str] = {"pack": pack.digest}

    def extract(self, urls: Sequence[str], *args: Any, **kwargs: Any) -> ExtractResponse:
        found = tuple(
            ExtractedPage(url=u, raw_content=self.pages[u].text, provider=self.name, title=self.pages[u].title)
            for u in urls
            if u in self.pages
        )
        failed = tuple(ExtractFailure(u, "not in the evidence pack") for u in urls if u not in self.pages)
        return ExtractResponse(found, failed, self.name, datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release."""
