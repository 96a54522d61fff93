"""Turning text into index terms, for Korean and English alike.

A whitespace or ``[a-z0-9]`` tokenizer fails Korean: particles glue onto nouns (보증금의, 보증금을),
compounds run together (임차권등기명령) and verbs conjugate (신청할, 신청하려면). The analyzer
splits text into script runs and treats each script its own way:

* **Hangul** runs lose a trailing particle (josa) and are indexed as the stem itself plus its
  character bigrams, so 임차권등기명령을 matches 임차권, 등기, 명령 and 신청할 matches 신청하려면.
  Bigram indexing is the classic CJK approach (Lucene's CJKAnalyzer); it needs no model and is
  fast enough to index the statute corpus many times over.
* **Latin** words are lower-cased, English stop words dropped, and Snowball-stemmed.
* **Digits** stay whole tokens; **Han** characters (hanja) are indexed as bigrams too.

The analyzer's name and version are stored with the index; a store built with another analyzer is
re-indexed before it is searched.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["ANALYZER_ID", "analyze", "query_terms"]

ANALYZER_ID = "cw-bigram-1"

_RUNS = re.compile(
    r"(?P<hangul>[\uac00-\ud7a3]+)|(?P<latin>[a-z]+)|(?P<digit>[0-9]+)|(?P<han>[\u4e00-\u9fff\u3400-\u4dbf]+)"
)

# Longest first: the first matching ending is removed. Only endings that are particles in
# practically every position are listed; short stems keep their last syllable (see _strip_particle).
_PARTICLES = tuple(
    sorted(
        """
        으로부터 에서부터 로부터 에게서 으로서 으로써 이라도 이라는 이라고 에서는
        에서도 에게는 으로는 까지는 부터는 이라 에서 에게 한테 께서 으로 로서
        로써 까지 부터 마다 조차 처럼 보다 이나 이며 이고 이든 이면 와는 과는
        에는 에도 에만 으로 은 는 이 가 을 를 의 에 로 와 과 도 만 나
        """.split(),
        key=len,
        reverse=True,
    )
)

_STOPWORDS = frozenset(
    """
    a an and are as at be been but by can could did do does for from had has have how i if in into
    is it its may might must no not of on or shall should so such than that the their them then
    there these they this those to was were what when where which who whom why will with would you
    your
    """.split()
)


@lru_cache(maxsize=1)
def _stemmer():  # noqa: ANN202 - PyStemmer has no type hints
    import Stemmer

    return Stemmer.Stemmer("english")


_PARTICLE_SET = frozenset(_PARTICLES)
_PARTICLE_LENGTHS = sorted({len(p) for p in _PARTICLES}, reverse=True)


def _strip_particle(run: str) -> str:
    # Keep at least two syllables of stem so that nouns ending in a particle-like syllable
    # (나이, 회의) are not cut to one syllable. Longest particle first.
    for size in _PARTICLE_LENGTHS:
        if len(run) - size >= 2 and run[-size:] in _PARTICLE_SET:
            return run[:-size]
    return run


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _hangul_terms(run: str) -> list[str]:
    stem = _strip_particle(run)
    if len(stem) <= 2:
        return [stem]
    return [stem, *_bigrams(stem)]


def _iter_terms(text: str, *, keep_stopwords: bool) -> Iterable[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    for match in _RUNS.finditer(text):
        kind = match.lastgroup
        run = match.group()
        if kind == "hangul":
            yield from _hangul_terms(run)
        elif kind == "latin":
            if keep_stopwords or run not in _STOPWORDS:
                yield "\x00" + run  # placeholder, stemmed in bulk below
        elif kind == "digit":
            yield run
        else:
            yield from (run if len(run) == 1 else _bigrams(run))


def analyze(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Index terms of ``text`` in order (repeats kept: BM25 counts them).

    >>> analyze("임차인은 등기명령을 신청할 수")
    ['임차인', '임차', '차인', '등기명령', '등기', '기명', '명령', '신청할', '신청', '청할', '수']
    >>> analyze("The tenants were renting houses")
    ['tenant', 'rent', 'hous']
    """
    raw = list(_iter_terms(text, keep_stopwords=keep_stopwords))
    words = [t[1:] for t in raw if t.startswith("\x00")]
    stems = iter(_stemmer().stemWords(words)) if words else iter(())
    return [next(stems) if t.startswith("\x00") else t for t in raw]


def query_terms(text: str) -> list[str]:
    """Distinct terms of a query, in first-seen order."""
    seen: dict[str, None] = {}
    for term in analyze(text):
        seen.setdefault(term, None)
    if not seen:
        # A query made only of stop words still deserves an answer.
        for term in analyze(text, keep_stopwords=True):
            seen.setdefault(term, None)
    return list(seen)
