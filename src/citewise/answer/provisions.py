"""Named provisions: the law and article a question names, resolved against the store.

"근로기준법 제2조의 정의는 무엇인가요?" names a law (by its title, or a common short name such as
주택임대차법 for 주택임대차보호법) and an article (제N조, 제N조의M, § N, Article N). Search ranks by
shared words and may well miss the one article asked about; so the named sections are resolved here
and offered first, ahead of every search hit. They still pass through the eligibility gate like any
other candidate: naming a section never makes it eligible.

* a law and an article: that article of that law (every stored version; the gate picks the one in
  force);
* an article only: the article of the one document that has it; when several documents have it the
  question is ambiguous and :mod:`citewise.answer.triage` asks which one is meant;
* a law only: the search hits from that law go first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citewise.records import SearchHit
from citewise.records.gate import SourceRef
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.text.articles import article_references

__all__ = [
    "SHORT_NAMES",
    "NamedLaw",
    "NamedProvisions",
    "named_first",
    "resolve_named",
    "squash",
]

#: Common short names of laws, by the law's title with spaces removed. Data, not code: add a row to
#: teach citewise another name people use.
SHORT_NAMES: dict[str, tuple[str, ...]] = {
    "주택임대차보호법": ("주택임대차법", "주임법"),
    "외국인근로자의고용등에관한법률": ("외국인고용법", "외국인근로자법", "외국인근로자고용법"),
    "개인정보보호법": ("개인정보법",),
    "종합부동산세법": ("종부세법",),
    "근로기준법": ("근기법",),
    "출입국관리법": ("출입국법",),
}


def squash(text: str) -> str:
    """``text`` NFC-normalised, lower-cased, with all whitespace removed (for name matching)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text)).lower()


def _section_id_forms(ref: str) -> list[str]:
    """The ways a store may write the id of a referenced article (``§ 2``, ``Sec. 2``, ``2``)."""
    return [ref] if ref.startswith("제") else [f"§ {ref}", f"Sec. {ref}", ref]


@dataclass(frozen=True, slots=True)
class NamedLaw:
    """A document the question names."""

    doc_id: str
    """The document."""
    title: str
    """Its title."""
    mention: str
    """The name as it matched (the squashed title or a short name)."""


@dataclass(frozen=True, slots=True)
class NamedProvisions:
    """What a question names: laws, articles, and the exact sections they resolve to."""

    laws: tuple[NamedLaw, ...] = ()
    """Documents named by title or short name, in the order they appear."""
    articles: tuple[str, ...] = ()
    """Article references, in the store's notation (``제2조``) or bare (``2``)."""
    refs: tuple[SourceRef, ...] = ()
    """The named sections in every stored version (empty when nothing resolves to one document)."""

    @property
    def doc_ids(self) -> frozenset[str]:
        """The named documents."""
        return frozenset(law.doc_id for law in self.laws)


def _named_laws(store: EvidenceStoreProtocol, question: str) -> list[NamedLaw]:
    text = squash(question)
    found: list[tuple[int, int, NamedLaw]] = []
    for doc in store.documents():
        title = squash(doc.title)
        for name in (title, *SHORT_NAMES.get(title, ())):
            if len(name) >= 3 and (at := text.find(name)) >= 0:
                found.append((at, at + len(name), NamedLaw(doc.doc_id, doc.title, name)))
                break
    # 종합부동산세법 inside 종합부동산세법시행령 names the decree only: drop a match inside a longer one.
    kept = [f for f in found if not any(o[0] <= f[0] and f[1] <= o[1] and o[1] - o[0] > f[1] - f[0] for o in found)]
    return [law for _, _, law in sorted(kept, key=lambda f: f[0])]


def _refs_in(store: EvidenceStoreProtocol, doc_id: str, forms: Sequence[str]) -> list[SourceRef]:
    refs = []
    for v in store.versions(doc_id):
        for s in store.sections(doc_id, v.version):
            if s.section_id in forms:
                refs.append(SourceRef(doc_id, v.version, s.section_id, s.content_hash))
    return refs


def resolve_named(store: EvidenceStoreProtocol, question: str) -> NamedProvisions:
    """The laws and articles ``question`` names, and the sections they resolve to."""
    laws = _named_laws(store, question)
    articles = article_references(question)
    forms = [form for ref in articles for form in _section_id_forms(ref)]
    if not articles:
        return NamedProvisions(tuple(laws), ())
    if laws:
        docs = [law.doc_id for law in laws]
    else:
        docs = sorted({m.doc_id for m in store.find_sections(forms)})
        if len(docs) != 1:
            return NamedProvisions((), tuple(articles))  # none, or ambiguous: triage asks which one
    refs = [ref for doc_id in docs for ref in _refs_in(store, doc_id, forms)]
    # Keep the question's order of articles.
    order = {form: i for i, form in enumerate(forms)}
    refs.sort(key=lambda r: order.get(r.section_id, len(order)))
    return NamedProvisions(tuple(laws), tuple(articles), tuple(refs))


def named_first(hits: Sequence[SearchHit], named: NamedProvisions) -> list[SearchHit | SourceRef]:
    """Search hits with the named provisions ahead of them.

    The named sections come first and outrank every hit (their score is above the best one, so a
    ranker that orders by retrieval score keeps them first); when only a law is named, its hits move
    ahead of the others the same way. The gate still judges every one of them.
    """
    top = max((h.score for h in hits), default=0.0) + 1.0
    pinned = {(r.doc_id, r.section_id) for r in named.refs}
    out: list[SearchHit | SourceRef] = []
    seen: set[tuple[str, int, str]] = set()
    for ref in named.refs:
        if (ref.doc_id, ref.version, ref.section_id) not in seen:
            seen.add((ref.doc_id, ref.version, ref.section_id))
            out.append(_pinned_hit(ref, 2 * top))
    rest = [h for h in hits if (h.doc_id, h.section_id) not in pinned]
    if named.doc_ids:
        boosted = [replace(h, score=h.score + top) for h in rest if h.doc_id in named.doc_ids]
        rest = boosted + [h for h in rest if h.doc_id not in named.doc_ids]
    return [*out, *rest]


def _pinned_hit(ref: SourceRef, score: float) -> SearchHit:
    # A hit built from the exact stored identity; the gate reloads it and trusts none of these flags.
    return SearchHit(
        rank=0,
        score=score,
        doc_id=ref.doc_id,
        title="",
        version=ref.version,
        section_id=ref.section_id,
        heading="",
        snippet="",
        unapproved=False,
        deleted=False,
        reserved=False,
        superseded=False,
        content_hash=ref.content_hash or "",
    )
