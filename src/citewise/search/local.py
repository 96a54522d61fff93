"""Local search over the evidence store: BM25 over analysed section text.

The query is analysed here (:mod:`citewise.search.analyze`), the store's index ranks the sections
(:meth:`~citewise.store.evidence.EvidenceStore.search`, FTS5 on SQLite, postings on PostgreSQL),
and identical sections of several versions collapse into one hit. Search marks every hit with the
status flags the eligibility gate acts on; it filters nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from citewise.errors import InputError
from citewise.records import ReviewStatus, SearchHit
from citewise.search.analyze import analyze, query_terms
from citewise.store.index import COLUMN_WEIGHTS
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import IndexMatch

__all__ = ["COLUMN_WEIGHTS", "reindex", "search", "snippet"]

_CANDIDATE_FACTOR = 4  # fetch more than k so that hits collapsed across versions still fill k


def reindex(store: EvidenceStoreProtocol, *, force: bool = False) -> int:
    """Rebuild the store's index when another analyzer built it (or ``force``); return rows indexed."""
    return store.reindex(force=force)


def search(store: EvidenceStoreProtocol, query: str, k: int = 10) -> list[SearchHit]:
    """Top ``k`` sections for ``query``, identical sections of several versions collapsed."""
    if k < 1:
        raise InputError("k must be at least 1")
    terms = query_terms(query)
    if not terms:
        raise InputError(f"the query {query!r} has no searchable words")
    return _collapse(store.search(terms, k * _CANDIDATE_FACTOR), terms, k)


def _collapse(matches: Sequence[IndexMatch], terms: Sequence[str], k: int) -> list[SearchHit]:
    # Identical text of one section in several versions is one hit (the newest version), so
    # a law with three versions does not fill the top k with three copies of one article.
    groups: dict[tuple[str, str, str], list[IndexMatch]] = {}
    for match in matches:
        s = match.section
        groups.setdefault((s.doc_id, s.section_id, s.content_hash), []).append(match)
    hits: list[SearchHit] = []
    for members in groups.values():
        best = max(members, key=lambda m: m.section.version)
        section = best.section
        hits.append(
            SearchHit(
                rank=0,
                score=round(max(m.score for m in members), 4),
                doc_id=section.doc_id,
                title=best.title,
                version=section.version,
                section_id=section.section_id,
                heading=section.heading,
                snippet=section.text,  # trimmed to a snippet below, for the hits kept only
                unapproved=best.version_status not in (ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED)
                or section.status is not ReviewStatus.APPROVED,
                deleted=section.deleted,
                reserved=section.reserved,
                superseded=best.version_status is ReviewStatus.SUPERSEDED,
                content_hash=section.content_hash,
                also_in_versions=tuple(sorted(m.section.version for m in members if m is not best)),
            )
        )
    hits.sort(key=lambda h: (-h.score, h.doc_id, h.section_id))
    return [replace(h, rank=i, snippet=snippet(h.snippet, terms)) for i, h in enumerate(hits[:k], start=1)]


_SENTENCE = re.compile(r"[^\n.!?。]+[.!?。]?")


def snippet(text: str, terms: Sequence[str], width: int = 240) -> str:
    """The sentence (or line) of ``text`` that shares the most terms with the query, trimmed."""
    wanted = set(terms)
    best, best_score = "", -1
    for match in _SENTENCE.finditer(text):
        piece = match.group().strip()
        if not piece:
            continue
        score = len(wanted.intersection(analyze(piece)))
        if score > best_score:
            best, best_score = piece, score
    best = best or text.strip()
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"
