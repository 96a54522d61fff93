"""Local search over the evidence store: BM25 over analysed section text, fused with dense vectors.

The query is analysed here (:mod:`citewise.text.analyze`), the store's index ranks the sections
(:meth:`~citewise.store.evidence.EvidenceStore.search`, FTS5 on SQLite, postings on PostgreSQL),
and identical sections of several versions collapse into one hit. Search marks every hit with the
status flags the eligibility gate acts on; it filters nothing.

**Hybrid.** When the store holds vectors of the configured embedder (:mod:`citewise.search.dense`),
the nearest texts are fused with the BM25 ranking by their scores, each list's scores first made
z-scores (so BM25 and cosine, which live on unrelated scales, count alike):

    score = LEXICAL_SHARE * z(BM25) + (1 - LEXICAL_SHARE) * z(cosine)

over the two candidate lists (40 BM25 hits and the 80 nearest texts for a top 10,
:data:`DENSE_CANDIDATE_FACTOR`, hub texts discounted: :mod:`citewise.search.hubs`); a section
missing from one list gets that list's lowest z-score.
Unlike rank fusion, a list that is sure of its first hit (a BM25 score far above the rest) says so.
Equal shares, chosen on development questions and reported on held-out ones; rank fusion stays
available as :func:`fuse` (the dense reranker fuses an order, which has no scores). The figures
and the variants tried and not kept are in ``docs/retrieval-notes.md``.

**Supplementary provisions (부칙)** share the words of almost any question about their law (they
restate it: "제5조의 개정규정은 이 법 시행 후 최초로 ... 부터 적용한다") and answer almost none. Unless the
query asks about them (:func:`citewise.text.articles.asks_about_addenda`: 부칙, 시행일, 경과조치,
적용례, effective date ...), their score loses :data:`ADDENDUM_DEMOTION` standard deviations of the
candidates' scores, so they rank after the provisions of comparable score and above those far
below them; none is dropped, and on equal scores an article comes first. In hybrid search the
dense list's 부칙 are demoted before its z-scores are taken (they hold 13-20 % of its top 10), and the
fused list's once more (:func:`fuse_hybrid`).
"""

from __future__ import annotations

import functools
import math
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date

from citewise.errors import InputError
from citewise.records import DocumentVersion, ReviewStatus, SearchHit, SectionKind
from citewise.records.versions import in_force_from, version_in_force
from citewise.search import hubs
from citewise.search.dense import active_embedder, query_vector, vector_index
from citewise.search.embedders import Embedder
from citewise.store.index import COLUMN_WEIGHTS
from citewise.store.known_versions import known_versions
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import IndexMatch
from citewise.text.analyze import query_terms, search_terms
from citewise.text.articles import asks_about_addenda
from citewise.text.lay_terms import lay_readings, reading_search_terms
from citewise.text.sentences import split_answer_sentences

__all__ = [
    "ADDENDUM_DEMOTION",
    "AUTO",
    "COLUMN_WEIGHTS",
    "DENSE_CANDIDATE_FACTOR",
    "DENSE_WEIGHT",
    "LEXICAL_SHARE",
    "LEXICAL_WEIGHT",
    "RRF_K",
    "fuse",
    "fuse_hybrid",
    "fuse_scores",
    "reindex",
    "search",
    "snippet",
    "version_flags",
]

_CANDIDATE_FACTOR = 4  # fetch more than k so that hits collapsed across versions still fill k
DENSE_CANDIDATE_FACTOR = 8
"""Nearest texts fetched per hit asked for in hybrid search (twice the lexical candidates): chosen
with ``benchmarks/fusion_dev.py`` on the development sets (``docs/retrieval-notes.md``)."""

LEXICAL_SHARE = 0.5
"""Share of the lexical z-scores in the hybrid's score fusion (:func:`fuse_scores`); dense has the rest."""
RRF_K = 60
"""Reciprocal rank fusion constant (the usual 60: a rank-1 hit outweighs rank 2 only a little)."""
LEXICAL_WEIGHT = 1.0
"""Weight of the BM25 ranking in the fusion."""
DENSE_WEIGHT = 1.0
"""Weight of the dense ranking in the fusion."""
ADDENDUM_DEMOTION = 2.0
"""Standard deviations of the candidates' scores a 부칙 loses when the query does not ask about one
(:func:`demote_addenda`). On the development questions (none of whose answers is a 부칙) the
figures rise with it and flatten at 2, where a 부칙 scoring far above the other candidates still
ranks in the top 10 (0-2 % of top-10 slots stay addenda, against 11-17 % undemoted)."""


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
    chosen = active_embedder(store) if isinstance(embedder, _Auto) else embedder
    if chosen is None:
        terms = _query_terms(query)
        lexical = demote_addenda(store.search(_index_lookup(query), k * _CANDIDATE_FACTOR), query)
        hits = _collapse(lexical, terms, k)
        return version_flags(store, hits, on or date.today())
    # The question is embedded on a second core from the start (the embedding is most of a hybrid
    # search's time), while this thread analyses it, reads the lexical index, checks the vector index
    # for new vectors and prepares what the lexical candidates (most of a hybrid top 10) will need:
    # their documents' versions and, while the vector is not there yet, their snippets. Only what
    # needs the vector comes after it. Kiwi, SQLite and the embedding engine release the GIL; the
    # store is read on this thread only (an in-memory SQLite store is one connection).
    model = chosen.model
    embedding = _embedding_threads().submit(query_vector, chosen, query)
    terms = _query_terms(query)
    lexical = store.search(_index_lookup(query), k * _CANDIDATE_FACTOR)
    vectors = vector_index(store, model.model_id, model.version)
    versions = known_versions.reader(store)
    versions.of([m.section.doc_id for m in lexical])
    snippets = _Snippets(terms)
    snippets.prepare((m.section.text for m in lexical), until=embedding.done)
    dense = hubs.nearest_sections(store, vectors, embedding.result(), k * DENSE_CANDIDATE_FACTOR)  # hubs discounted
    hits = _collapse(fuse_hybrid(lexical, dense, query), terms, k, digits=6, snippets=snippets)
    return _flagged(hits, on or date.today(), versions.of([hit.doc_id for hit in hits]))


_THREADS_LOCK = threading.Lock()
_threads: ThreadPoolExecutor | None = None


def _embedding_threads() -> ThreadPoolExecutor:
    """The threads questions are embedded on, started once per process (starting a thread for every
    search put its start-up before the embedding, the longest part of a hybrid search); an idle one
    is reused, so one thread serves searches made one after another."""
    global _threads
    with _THREADS_LOCK:
        if _threads is None:
            _threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="citewise-embed")
        return _threads


def _forget_threads() -> None:
    # A forked child has none of its parent's threads: it starts its own when it searches.
    global _threads, _THREADS_LOCK
    _threads, _THREADS_LOCK = None, threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_threads)


def _query_terms(query: str) -> list[str]:
    terms = query_terms(query)
    if not terms:
        raise InputError(f"the query {query!r} has no searchable words")
    return terms


def _index_lookup(query: str) -> list[str]:
    """The terms the index is searched by: the query's terms and the bigram field's, then the statute
    terms its everyday words are read as (집주인 → 임대인: :mod:`citewise.text.lay_terms`), in the word
    field only, so that each weighs less than the word it stands for."""
    _query_terms(query)
    terms = search_terms(query)
    return [*terms, *(t for t in reading_search_terms(lay_readings(query)) if t not in terms)]


def demote_addenda(matches: Sequence[IndexMatch], query: str, *, by: float | None = None) -> list[IndexMatch]:
    """``matches`` with the score of every supplementary provision lowered by ``by`` (default
    :data:`ADDENDUM_DEMOTION`) standard deviations of the candidates' scores, unless ``query`` asks
    about addenda; the order is left to the caller, which sorts by score.

    >>> demote_addenda([], "임대차 기간")
    []
    """
    if not matches or asks_about_addenda(query):
        return list(matches)
    scores = list({_key(m): m.score for m in matches}.values())
    mean = math.fsum(scores) / len(scores)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in scores) / len(scores))
    penalty = (ADDENDUM_DEMOTION if by is None else by) * spread
    return [replace(m, score=m.score - penalty) if m.section.kind is SectionKind.SUPPLEMENTARY else m for m in matches]


def version_flags(store: EvidenceStoreProtocol, hits: Sequence[SearchHit], on: date) -> list[SearchHit]:
    """``hits`` with ``superseded`` and ``not_yet_in_force`` set by effective date on ``on``.

    A hit is superseded when a later reviewed version of its document is in force on ``on``
    (:func:`citewise.records.versions.version_in_force`), and not yet in force when its own version
    takes effect after ``on``. The ``superseded`` review status is not read: a newer version that
    is approved but not yet in effect supersedes nothing until its effective date. Of identical
    texts collapsed into one hit, the hit shows the version in force when it is one of them.
    """
    return _flagged(hits, on, known_versions.of(store, [hit.doc_id for hit in hits]))


def _flagged(hits: Sequence[SearchHit], on: date, stored: dict[str, list[DocumentVersion]]) -> list[SearchHit]:
    """:func:`version_flags` once the versions of the hits' documents (``stored``) are read."""
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
            key = _key(match)
            fused[key] = fused.get(key, 0.0) + weight / (rrf_k + rank)
            first.setdefault(key, match)
    order = sorted(fused, key=lambda key: (-fused[key], key))
    return [replace(first[key], score=fused[key]) for key in order]


def fuse_scores(
    lexical: Sequence[IndexMatch], dense: Sequence[IndexMatch], *, lexical_share: float = LEXICAL_SHARE
) -> list[IndexMatch]:
    """Score fusion of two rankings of sections, best first (score: the fused z-score).

    Each list's scores become z-scores over its distinct sections; a section missing from a list
    gets that list's lowest z-score; the fused score is ``lexical_share`` of the lexical z plus the
    rest of the dense z. Ties are broken by (document, version, section).

    >>> from citewise.store.records import IndexMatch
    >>> fuse_scores([], [])
    []
    """
    lexical_z, dense_z = _z_scores(lexical), _z_scores(dense)
    lexical_floor = min(lexical_z.values(), default=0.0)
    dense_floor = min(dense_z.values(), default=0.0)
    first: dict[tuple[str, int, str], IndexMatch] = {}
    for match in (*lexical, *dense):
        first.setdefault(_key(match), match)
    fused = {
        key: lexical_share * lexical_z.get(key, lexical_floor) + (1.0 - lexical_share) * dense_z.get(key, dense_floor)
        for key in first
    }
    order = sorted(fused, key=lambda key: (-fused[key], key))
    return [replace(first[key], score=fused[key]) for key in order]


def fuse_hybrid(
    lexical: Sequence[IndexMatch],
    dense: Sequence[IndexMatch],
    query: str,
    *,
    lexical_share: float = LEXICAL_SHARE,
) -> list[IndexMatch]:
    """What hybrid search ranks by: the dense list's 부칙 demoted (:func:`demote_addenda`) before
    its z-scores are taken, the two lists fused (:func:`fuse_scores`), and the fused list's 부칙
    demoted, best first. Unless ``query`` asks about addenda, a 부칙 near the top of the dense list
    no longer sets the z-scale its articles are measured on.

    >>> fuse_hybrid([], [], "임대차 기간")
    []
    """
    fused = fuse_scores(lexical, demote_addenda(dense, query), lexical_share=lexical_share)
    return sorted(demote_addenda(fused, query), key=lambda m: (-m.score, _key(m)))


def _key(match: IndexMatch) -> tuple[str, int, str]:
    s = match.section
    return (s.doc_id, s.version, s.section_id)


def _z_scores(matches: Sequence[IndexMatch]) -> dict[tuple[str, int, str], float]:
    scores: dict[tuple[str, int, str], float] = {}
    for match in matches:
        scores.setdefault(_key(match), match.score)
    if not scores:
        return {}
    mean = math.fsum(scores.values()) / len(scores)
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in scores.values()) / len(scores))
    if spread == 0.0:
        return dict.fromkeys(scores, 0.0)
    return {key: (value - mean) / spread for key, value in scores.items()}


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


def _collapse(
    matches: Sequence[IndexMatch], terms: Sequence[str], k: int, digits: int = 4, snippets: _Snippets | None = None
) -> list[SearchHit]:
    # Identical text of one section in several versions is one hit (the newest version), so
    # a law with three versions does not fill the top k with three copies of one article.
    # ``snippets``: the search's snippets made so far (hybrid search prepares its lexical ones).
    snippet_of = snippets if snippets is not None else _Snippets(terms)
    groups: dict[tuple[str, str, str], list[IndexMatch]] = {}
    for match in matches:
        s = match.section
        groups.setdefault((s.doc_id, s.section_id, s.content_hash), []).append(match)
    scored = [(round(max(m.score for m in members), digits), key) for key, members in groups.items()]
    # On equal scores an article before a 부칙 (demote_addenda), then by document and section.
    scored.sort(key=lambda pair: (-pair[0], _is_addendum(groups[pair[1]]), pair[1][0], pair[1][1]))
    # Only the k hits kept are built (with their snippets); the sort is stable, as it was over hits.
    return [_hit(rank, score, groups[key], snippet_of) for rank, (score, key) in enumerate(scored[:k], start=1)]


def _is_addendum(members: Sequence[IndexMatch]) -> bool:
    return members[0].section.kind is SectionKind.SUPPLEMENTARY


class _Snippets:
    """One search's snippets (:func:`snippet` for its ``terms``), each text's made once."""

    def __init__(self, terms: Sequence[str]) -> None:
        self._terms = terms
        self._made: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        made = self._made.get(text)
        if made is None:
            made = self._made[text] = snippet(text, self._terms)
        return made

    def prepare(self, texts: Iterable[str], *, until: Callable[[], bool]) -> None:
        """Make the snippets of ``texts`` in order, stopping as soon as ``until()`` is true."""
        for text in texts:
            if until():
                return
            self(text)


def _hit(rank: int, score: float, members: list[IndexMatch], snippet_of: Callable[[str], str]) -> SearchHit:
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
        snippet=snippet_of(section.text),
        unapproved=best.version_status not in (ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED)
        or section.status is not ReviewStatus.APPROVED,
        deleted=section.deleted,
        reserved=section.reserved,
        superseded=False,  # set by date in version_flags
        content_hash=section.content_hash,
        also_in_versions=tuple(sorted(m.section.version for m in members if m is not best)),
        kind=section.kind,
    )


def snippet(text: str, terms: Sequence[str], width: int = 240) -> str:
    """The sentence (or line) of ``text`` in which the most query terms occur, trimmed.

    Terms are matched in the sentence's normalised surface text, not by analysing every sentence:
    Korean index terms (morphemes and bigrams), digits and English stems all occur as written, and a
    snippet is for the reader, so a search never pays for analysing the text of the hits it shows.

    >>> snippet("임대차는 2년이다. 임차인은 임차권등기명령을 신청할 수 있다.", ["임차권", "등기", "명령"])
    '임차인은 임차권등기명령을 신청할 수 있다.'
    >>> snippet("주거용 건물(부속 건물을 포함한다. 이하 같다)을 말한다. 다른 문장.", ["이하"])
    '주거용 건물(부속 건물을 포함한다. 이하 같다)을 말한다.'
    """
    wanted = [t for t in dict.fromkeys(terms) if t]
    best, best_score = "", -1
    for piece, surface in _sentence_surfaces(text):
        score = sum(1 for term in wanted if term in surface)
        if score > best_score:
            best, best_score = piece, score
    best = best or text.strip()
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"


_ITEM_LABEL = re.compile(r"[ \t]*((?:\d{1,3}|[가-힣])\.)[ \t]+")


@functools.lru_cache(maxsize=4096)
def _sentence_surfaces(text: str) -> tuple[tuple[str, str], ...]:
    """Each of ``text``'s sentences (:func:`_labelled_sentences`) with its normalised lower-case
    surface. Kept per text: the hits of one search at scale are often one text in many documents
    (copies, versions), and the sentences of a text shown once are shown again by later searches."""
    return tuple((piece, unicodedata.normalize("NFKC", piece).lower()) for piece in _labelled_sentences(text))


def _labelled_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (:func:`split_answer_sentences`), a list item's number ("1.", "가.")
    kept in front of the item's first sentence, as the reader sees the item."""
    out: list[str] = []
    for line in text.splitlines():
        label = _ITEM_LABEL.match(line)
        pieces = split_answer_sentences(line)
        if label and pieces and not pieces[0].startswith(label.group(1)):
            pieces[0] = f"{label.group(1)} {pieces[0]}"
        out += pieces
    return out
