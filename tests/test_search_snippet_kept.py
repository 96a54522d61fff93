"""Snippets come from each text's sentences kept per text: a search shows the same hits, snippets
included, whether the sentences were kept or split anew, and a kept text's snippet is the one the
sentences of the text give for every query."""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from citewise.search import local
from citewise.search.local import search, snippet
from citewise.store.evidence import EvidenceStore

QUERIES = ("보증금 회수", "임차권등기명령 신청", "개인정보 처리", "section 2 definitions", "ip network")


def _snippet_as_before(text: str, terms: Sequence[str], width: int = 240) -> str:
    # snippet() as it was, splitting and normalising the text's sentences on every call.
    wanted = [t for t in dict.fromkeys(terms) if t]
    best, best_score = "", -1
    for piece in local._labelled_sentences(text):
        surface = unicodedata.normalize("NFKC", piece).lower()
        score = sum(1 for term in wanted if term in surface)
        if score > best_score:
            best, best_score = piece, score
    best = best or text.strip()
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"


def test_searches_show_the_same_hits_with_kept_and_new_sentences(sample_store_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    shutil.copy(sample_store_file, path)
    with EvidenceStore.open(str(path)) as store:
        local._sentence_surfaces.cache_clear()
        first = {q: search(store, q, 10, embedder=None) for q in QUERIES}
        assert local._sentence_surfaces.cache_info().currsize > 0
        again = {q: search(store, q, 10, embedder=None) for q in QUERIES}
        assert local._sentence_surfaces.cache_info().hits > 0
        assert again == first and all(first[q] for q in QUERIES[:3])
        texts = {h.content_hash: store.sections_with_hashes([(h.content_hash, 0.0)], 1)[0].section.text
                 for hits in first.values() for h in hits}  # fmt: skip
    for text in texts.values():
        for query in QUERIES:
            terms = query.split()
            assert snippet(text, terms) == _snippet_as_before(text, terms)
            assert snippet(text, terms, width=30) == _snippet_as_before(text, terms, width=30)
