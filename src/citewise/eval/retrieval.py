"""Retrieval evaluation over the current store: recall@k and MRR@10 from gold entries.

Query file: JSONL, one ``{"id", "query", "gold": [...]}`` per line, optionally with a ``"split"`` name
(``"dev"``, ``"test"``) that :func:`load_queries` can select on. A gold entry names a document by
its id or its exact title, optionally followed by ``#`` and a section id (``종합부동산세법#제7조``).
A hit matches a document-level gold entry when it is any section of that document.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import InputError
from citewise.records import SearchHit

__all__ = ["GoldEntry", "QueryResult", "RetrievalQuery", "RetrievalReport", "evaluate", "load_queries"]


@dataclass(frozen=True, slots=True)
class GoldEntry:
    """A document (by id or exact title), optionally narrowed to one section."""

    document: str
    section_id: str | None = None

    @classmethod
    def parse(cls, text: str) -> GoldEntry:
        document, sep, section = text.partition("#")
        if not document or (sep and not section):
            raise InputError(f"bad gold entry {text!r}: expected DOC or DOC#SECTION")
        return cls(document, section or None)


@dataclass(frozen=True, slots=True)
class RetrievalQuery:
    """One evaluation query."""

    id: str
    query: str
    gold: tuple[GoldEntry, ...]


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Where the first gold hit ranked for one query (None: not in the top 10)."""

    id: str
    query: str
    rank: int | None
    top: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RetrievalReport:
    """Aggregate metrics and per-query ranks."""

    queries: int
    recall_at_1: float
    recall_at_5: float
    recall_at_10: float
    mrr_at_10: float
    k: int
    results: tuple[QueryResult, ...]
    search: str = "lexical"
    """Which search was measured: ``lexical``, or ``hybrid (MODEL)`` when the store held the active
    embedder's vectors (set by :meth:`citewise.api.Citewise.eval_retrieval`)."""
    missing_gold: tuple[str, ...] = ()
    """Gold documents (by the id or title the query file names) that this store does not hold, in
    first-mention order: no search can find them, and recall counts their queries as misses."""
    unanswerable: int = 0
    """Queries none of whose gold documents is in the store."""


def load_queries(path: Path, split: str | None = None) -> list[RetrievalQuery]:
    """Read and validate a query file; errors name the line.

    With ``split``, only the queries whose ``"split"`` field equals it are returned (every line is
    still validated, and ids are unique over the whole file).
    """
    queries: list[RetrievalQuery] = []
    seen: set[str] = set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON ({exc.msg})") from exc
        if (
            not isinstance(row, dict)
            or not row.get("query")
            or not isinstance(row.get("gold"), list)
            or not row["gold"]
        ):
            raise InputError(f'{where}: expected {{"id", "query", "gold": [...]}} with a non-empty gold list')
        qid = str(row.get("id") or number)
        if qid in seen:
            raise InputError(f"{where}: duplicate query id {qid!r}")
        seen.add(qid)
        gold = tuple(GoldEntry.parse(str(g)) for g in row["gold"])
        if split is not None and row.get("split") != split:
            continue
        queries.append(RetrievalQuery(qid, str(row["query"]), gold))
    if not queries:
        wanted = f" with split {split!r}" if split is not None else ""
        raise InputError(f"{path}: no queries{wanted}")
    return queries


def _matches(hit: SearchHit, gold: GoldEntry, titles: dict[str, set[str]]) -> bool:
    names = {hit.doc_id, hit.title, *titles.get(hit.doc_id, ())}
    return gold.document in names and (gold.section_id is None or gold.section_id == hit.section_id)


def evaluate(
    queries: Sequence[RetrievalQuery],
    search: Callable[[str, int], list[SearchHit]],
    titles: dict[str, set[str]],
    k: int = 10,
) -> RetrievalReport:
    """Run every query through ``search`` and score the hits against the gold entries.

    ``titles`` maps each document id to all titles its versions have had; a gold document that is
    neither is reported in ``missing_gold`` (and its queries in ``unanswerable``).
    """
    depth = max(k, 10)
    results = []
    for q in queries:
        hits = search(q.query, depth)
        rank = next(
            (h.rank for h in hits if any(_matches(h, g, titles) for g in q.gold)),
            None,
        )
        results.append(QueryResult(q.id, q.query, rank, tuple(f"{h.doc_id}#{h.section_id}" for h in hits[:k])))
    n = len(results)
    known = set(titles) | {title for names in titles.values() for title in names}
    missing = [g.document for q in queries for g in q.gold if g.document not in known]
    unanswerable = sum(1 for q in queries if all(g.document not in known for g in q.gold))

    def recall(at: int) -> float:
        return sum(1 for r in results if r.rank is not None and r.rank <= at) / n

    mrr = sum(1 / r.rank for r in results if r.rank is not None and r.rank <= 10) / n
    return RetrievalReport(
        n, recall(1), recall(5), recall(10), mrr, k, tuple(results),
        missing_gold=tuple(dict.fromkeys(missing)), unanswerable=unanswerable,
    )  # fmt: skip
