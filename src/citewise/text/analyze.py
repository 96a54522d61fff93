"""Turning text into index terms, for Korean and English alike.

A whitespace or ``[a-z0-9]`` tokenizer fails Korean: particles glue onto nouns (보증금의, 보증금을),
compounds run together (임차권등기명령) and verbs conjugate (신청할, 신청하려면). The analyzer
splits text into script runs and treats each script its own way:

* **Hangul** runs go through Kiwi (``kiwipiepy``, a maintained Korean morphological analyzer whose
  model ships in the ``kiwipiepy-model`` package: nothing is downloaded at run time). A run yields
  its nouns, verb and adjective stems and numerals (괴롭히는 → 괴롭히, 신청하려면 → 신청,
  임차권등기명령을 → 임차권, 등기, 명령, 임차권등기명령) plus the character bigrams inside each of
  them (임차, 차권, 권등, ...). The bigrams are the classic CJK fallback (Lucene's CJKAnalyzer): Kiwi
  tags a word it does not know as a noun, and its bigrams still match a question that splits or
  spells the compound differently. Bigrams never cross a stem and its ending (신청할 → no 청할), and
  a run of function words only (수, 것, 하였다) yields nothing. These are the terms of
  :func:`analyze` and :func:`query_terms`, which the rankers and checks compare texts by.
* **The search index** holds two fields of each Hangul run (:func:`index_terms_many`, and the query
  likewise :func:`search_terms`; analyzer ``cw-kiwi-fused-2``): its plain character bigrams, marked
  with a leading ``q`` so they are a field of their own (임차인은 → q임차, q차인, q인은: across the
  ending, as bigram BM25 indexes it), and its Kiwi words of two syllables or more (nouns, stems,
  the compound: 임차권등기명령을 → 임차권, 등기, 명령, 임차권등기명령), BM25 adding a word match to
  a bigram match. The index holds no bigram inside a word: the field has each one, and the earlier
  ``cw-kiwi-fused-1`` counted it twice (and a long compound, whose words and bigrams all match at
  once, so many times over), so a section sharing one long label with a question outranked those
  sharing its several facts, and it lost to bigram BM25 on the hard ruling-style questions. Nor
  does it hold a one-syllable word (받, 열, 사, 시: each a homograph of many; a run of one syllable
  is in the bigram field). Figures of the variants: ``docs/retrieval-notes.md``.
* **Latin** words are lower-cased, English stop words dropped, and Snowball-stemmed.
* **Digits** stay whole tokens; **Han** characters (hanja) are indexed as bigrams.

Kiwi analyses each Hangul run on its own, so a run has the same terms in a statute and in a
question, and each run's terms (and each English word's stem) are cached: a corpus repeats its
words (the statute corpus has 169,708 Hangul runs, 15,162 of them distinct), so Kiwi sees each
distinct run once, in batches, and a section of known words costs a few dictionary look-ups.
The analyzer's id (with the Kiwi and model versions) is stored with the index; a store built
with another analyzer is re-indexed before it is searched.
"""

from __future__ import annotations

import os
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from citewise.text.english import STOPWORDS as _STOPWORDS
from citewise.text.english import english_stems

__all__ = [
    "ANALYZERS",
    "RUN_BIGRAM_MARK",
    "analyze",
    "analyze_many",
    "analyzer_id",
    "clear_caches",
    "forget_queries",
    "english_stems",
    "index_terms",
    "index_terms_many",
    "kiwi_morphemes",
    "query_terms",
    "search_terms",
    "strip_particle",
    "use_analyzer",
]

_RUNS = re.compile(
    r"(?P<hangul>[\uac00-\ud7a3]+)|(?P<latin>[a-z]+)|(?P<digit>[0-9]+)|(?P<han>[\u4e00-\u9fff\u3400-\u4dbf]+)"
)

# Longest first: the first matching ending is removed. Only endings that are particles in
# practically every position are listed; short stems keep their last syllable (see _strip_particle).
_HANGUL = re.compile(r"[\uac00-\ud7a3]+")

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


_PARTICLE_SET = frozenset(_PARTICLES)
_PARTICLE_LENGTHS = sorted({len(p) for p in _PARTICLES}, reverse=True)


def _strip_particle(run: str) -> str:
    # Keep at least two syllables of stem so that nouns ending in a particle-like syllable
    # (나이, 회의) are not cut to one syllable. Longest particle first.
    for size in _PARTICLE_LENGTHS:
        if len(run) - size >= 2 and run[-size:] in _PARTICLE_SET:
            return run[:-size]
    return run


def strip_particle(word: str) -> str:
    """A Hangul word without its trailing particle, as written (대항력은 → 대항력): for showing a
    key word to a person, where the index terms (stems, bigrams) would not read well.

    >>> strip_particle("주택임대차보호법에서")
    '주택임대차보호법'
    """
    return _strip_particle(word)


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _bigram_terms(run: str) -> list[str]:
    """The particle-stripped run and its character bigrams (the ``cw-bigram`` analysis)."""
    stem = _strip_particle(run)
    if len(stem) <= 2:
        return [stem]
    return [stem, *_bigrams(stem)]


# -- Kiwi ---------------------------------------------------------------------------------------

_NOUNS = frozenset({"NNG", "NNP", "NR", "XR"})  # common and proper nouns, numerals, roots (깨끗)
_PREDICATES = frozenset({"VV", "VA"})  # verb and adjective stems
# Light verbs carry no topic (신청하다 → 신청 is the noun); every statute is full of them.
_LIGHT_STEMS = frozenset({"하", "되", "있", "없", "같", "않", "이", "아니"})
_STEM = "\x00"  # marks a predicate stem among a run's morphemes (each analyzer decides how to index it)


@lru_cache(maxsize=1)
def _kiwi() -> Any:
    from kiwipiepy import Kiwi

    # Batches of runs are analysed on a few threads (the list form of Kiwi.tokenize); one run
    # at a time, as a query is, gains nothing from more. A run has no space in it, so the
    # dictionary of multi-word expressions never applies, and typo correction is off: not
    # loading their dictionaries leaves every analysis as it is and saves ~3 s of start-up
    # (the first analysis took 2.6 s after 2.2 s of construction; now 0.7 s after 0.6 s).
    return Kiwi(num_workers=max(1, min(4, os.cpu_count() or 1)), load_typo_dict=False, load_multi_dict=False)


@lru_cache(maxsize=1)
def _kiwi_versions() -> str:
    import kiwipiepy
    import kiwipiepy_model

    return f"kiwipiepy-{kiwipiepy.__version__}+model-{kiwipiepy_model.__version__}"


_kiwi_lock = threading.Lock()


def kiwi_morphemes(text: str) -> list[tuple[str, str]]:
    """``(form, tag)`` of each morpheme of ``text``, by the one Kiwi configuration of citewise.

    The index analyses Hangul runs (:func:`analyze`); the question analysis
    (:mod:`citewise.answer.question`) analyses whole sentences with it, the same Kiwi.

    >>> kiwi_morphemes("임차인은")
    [('임차인', 'NNG'), ('은', 'JX')]
    """
    with _kiwi_lock:  # one analysis at a time: a Kiwi object is not documented as thread-safe
        return [(token.form, token.tag) for token in _kiwi().tokenize(text)]


_morpheme_cache: dict[str, tuple[str, ...]] = {}
_CACHE_LIMIT = 1_000_000  # distinct runs; a run's terms are a few short strings


def _run_morphemes(tokens: Iterable[Any]) -> tuple[str, ...]:
    """Index terms of one analysed run: nouns (a noun + suffix 임차+권 as one), stems, numerals,
    and the run's compound when it has several nouns (임차권등기명령)."""
    terms: list[str] = []
    nouns: list[str] = []
    for token in tokens:
        tag = token.tag.split("-", 1)[0]  # VV-R / VV-I: regular and irregular conjugation
        form = token.form
        if tag in _NOUNS:
            nouns.append(form)
            terms.append(form)
        elif tag == "XSN" and nouns and terms and terms[-1] == nouns[-1]:
            nouns[-1] = terms[-1] = nouns[-1] + form
        elif tag in _PREDICATES and form not in _LIGHT_STEMS:
            terms.append(_STEM + form)
    if len(nouns) > 1:
        terms.append("".join(nouns))
    return tuple(dict.fromkeys(terms))


def _morphemes(runs: Sequence[str]) -> list[tuple[str, ...]]:
    """Kiwi's index terms of each Hangul run, analysed in one batch for the runs not cached yet."""
    missing = list(dict.fromkeys(r for r in runs if r not in _morpheme_cache))
    if missing:
        with _kiwi_lock:  # one analysis at a time: a Kiwi object is not documented as thread-safe
            analysed = _kiwi().tokenize(missing)
            found = {run: _run_morphemes(tokens) for run, tokens in zip(missing, analysed, strict=True)}
        if len(_morpheme_cache) + len(found) > _CACHE_LIMIT:
            _morpheme_cache.clear()
        _morpheme_cache.update(found)
        return [_morpheme_cache[r] if r in _morpheme_cache else found[r] for r in runs]
    return [_morpheme_cache[r] for r in runs]


def _bare(morphemes: tuple[str, ...]) -> tuple[str, ...]:
    # A stem as written (주), as the first analyzers index it: the same string as a noun (주, week).
    return tuple(dict.fromkeys(m.removeprefix(_STEM) for m in morphemes))


def _kiwi_terms(run: str, morphemes: tuple[str, ...]) -> list[str]:
    # Morphemes alone, with bigrams only for a run Kiwi found no content word in (an unknown word).
    morphemes = _bare(morphemes)
    return list(morphemes) if morphemes else _bigram_terms(run)


def _kiwi_bigram_terms(run: str, morphemes: tuple[str, ...]) -> list[str]:
    morphemes = _bare(morphemes)
    bigrams = _bigram_terms(run)
    seen = set(bigrams)
    return [*bigrams, *(m for m in morphemes if m not in seen)]


def _kiwi_noun_bigram_terms(run: str, morphemes: tuple[str, ...]) -> list[str]:
    # Bigrams inside the morphemes only (임차권등기명령 → 임차, 차권, 권등, ...), never across a
    # stem and its ending (신청할 → 청할). Kiwi tags a word it does not know as a noun, so an
    # unknown word of three syllables or more is matched by its bigrams too; a run of function
    # words only (수, 것, 하였다) yields nothing.
    morphemes = _bare(morphemes)
    return _with_bigrams(list(morphemes), morphemes)


def _kiwi_stem_terms(run: str, morphemes: tuple[str, ...]) -> list[str]:
    # As cw-kiwi-nbigram-1, but a verb or adjective stem is indexed in its dictionary form (주 → 주다,
    # 밀리 → 밀리다) and without bigrams: 주 (to give) no longer matches 주 (a week), nor 괴롭히 the
    # bigram 롭히 of some noun.
    terms = list(dict.fromkeys(m[len(_STEM) :] + "다" if m.startswith(_STEM) else m for m in morphemes))
    return _with_bigrams(terms, [m for m in morphemes if not m.startswith(_STEM)])


def _with_bigrams(terms: list[str], words: Sequence[str]) -> list[str]:
    # ``terms``, then the bigrams of each of ``words`` of three syllables or more, each term once.
    seen = set(terms)
    for word in words:
        if len(word) > 2:
            for bigram in _bigrams(word):
                if bigram not in seen:
                    seen.add(bigram)
                    terms.append(bigram)
    return terms


# -- the analyzers ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Analyzer:
    name: str
    hangul: Callable[[str, tuple[str, ...]], list[str]] | None
    """Terms of a Hangul run from its Kiwi morphemes; None: no Kiwi (particle-stripped bigrams)."""
    run_bigrams: bool = False
    """Whether the index and the search add the bigram field (:func:`index_terms_many`)."""
    index_hangul: Callable[[str, tuple[str, ...]], list[str]] | None = None
    """Terms of a Hangul run in the index and the search, beside the bigram field, when they are not
    ``hangul``'s (which :func:`analyze` gives every ranker); None: ``hangul``'s."""


def _kiwi_word_terms(run: str, morphemes: tuple[str, ...]) -> list[str]:
    # The run's words of two syllables or more (nouns, stems, the compound), without bigrams: the
    # bigram field holds every bigram of the run, so bigrams here would count each one twice, and a
    # one-syllable word (받, 열, 사, 시) is a homograph of many; a one-syllable run is in the field.
    return [m for m in _bare(morphemes) if len(m) > 1]


#: The analyzers by name: the default first (``cw-kiwi-fused-2``; ``cw-kiwi-fused-1``, whose index
#: also held the bigrams inside the words and the one-syllable words, before it, and
#: ``cw-kiwi-nbigram-1`` before that). ``cw-bigram-1`` is the analyzer before Kiwi, kept so that
#: benchmarks can compare against it.
ANALYZERS: dict[str, _Analyzer] = {
    a.name: a
    for a in (
        _Analyzer("cw-kiwi-fused-2", _kiwi_noun_bigram_terms, run_bigrams=True, index_hangul=_kiwi_word_terms),
        _Analyzer("cw-kiwi-fused-1", _kiwi_noun_bigram_terms, run_bigrams=True),
        _Analyzer("cw-kiwi-nbigram-1", _kiwi_noun_bigram_terms),
        _Analyzer("cw-kiwi-stem-1", _kiwi_stem_terms),
        _Analyzer("cw-kiwi-bigram-1", _kiwi_bigram_terms),
        _Analyzer("cw-kiwi-1", _kiwi_terms),
        _Analyzer("cw-bigram-1", None),
    )
}
_active = next(iter(ANALYZERS.values()))


def use_analyzer(name: str) -> None:
    """Make ``name`` (a key of :data:`ANALYZERS`) the analyzer of this process — for benchmarks and
    tests that compare analyzers. A store indexed by another analyzer is rebuilt when next opened."""
    global _active
    if name not in ANALYZERS:
        raise ValueError(f"unknown analyzer {name!r}; valid: {', '.join(ANALYZERS)}")
    if ANALYZERS[name] is not _active:
        _run_terms.clear()
        _index_run_terms.clear()
        _query_terms.cache_clear()
        _search_terms.cache_clear()
    _active = ANALYZERS[name]


def analyzer_id() -> str:
    """The id stored with the index: the analyzer's name and, for Kiwi, the Kiwi and model versions.

    >>> analyzer_id().startswith("cw-kiwi-fused-2/kiwipiepy-")
    True
    """
    if _active.hangul is None:
        return _active.name
    return f"{_active.name}/{_kiwi_versions()}"


# A Hangul run's terms under the active analyzer, and each Latin word's stem, cached: a corpus
# repeats its words, so most runs of a new section were seen before, and a search's snippets
# analyse sentences of sections that were indexed.
_run_terms: dict[str, tuple[str, ...]] = {}
_index_run_terms: dict[str, tuple[str, ...]] = {}  # the analyzer's index_hangul terms, when it has them
_word_stems: dict[str, str] = {}


def clear_caches() -> None:
    """Forget every analysed run and word (benchmarks that time the analysis of new text)."""
    _morpheme_cache.clear()
    _run_terms.clear()
    _index_run_terms.clear()
    _word_stems.clear()
    _query_terms.cache_clear()
    _search_terms.cache_clear()


def forget_queries() -> None:
    """Forget the analysed questions (not the runs and words): the next search of any question
    analyses it again, as its first search in a process does."""
    _query_terms.cache_clear()
    _search_terms.cache_clear()


def _learn_runs(runs: Iterable[str], *, index: bool = False) -> None:
    """Cache the terms of every Hangul run in ``runs`` not cached yet (Kiwi analyses them in one batch);
    ``index``: the active analyzer's ``index_hangul`` terms."""
    cache = _index_run_terms if index else _run_terms
    missing = [r for r in dict.fromkeys(runs) if r not in cache]
    if not missing:
        return
    hangul = _active.index_hangul if index else _active.hangul
    found = (
        {r: tuple(hangul(r, m)) for r, m in zip(missing, _morphemes(missing), strict=True)}
        if hangul is not None
        else {r: tuple(_bigram_terms(r)) for r in missing}
    )
    if len(cache) + len(found) > _CACHE_LIMIT:
        cache.clear()
    cache.update(found)


def _learn_words(words: Iterable[str]) -> None:
    missing = [w for w in dict.fromkeys(words) if w not in _word_stems]
    if not missing:
        return
    if len(_word_stems) + len(missing) > _CACHE_LIMIT:
        _word_stems.clear()
    _word_stems.update(zip(missing, english_stems(missing), strict=True))


Pieces = list[tuple[str, str, str, str]]
"""A text's runs in order, as (hangul, latin, digit, han): one of the four is not empty."""


def _pieces(text: str) -> Pieces:
    return _RUNS.findall(unicodedata.normalize("NFKC", text).lower())


def _terms(pieces: Pieces, *, keep_stopwords: bool, index: bool = False) -> list[str]:
    terms: list[str] = []
    cache = _index_run_terms if index else _run_terms
    for hangul, latin, digit, han in pieces:
        if hangul:
            found = cache.get(hangul)
            if found is None:  # the cache was emptied since this text's runs were learnt
                _learn_runs([hangul], index=index)
                found = cache[hangul]
            # keep_stopwords (a query of function words only): the run itself, particle stripped
            terms.extend(found if found or not keep_stopwords else _bigram_terms(hangul))
        elif latin:
            if keep_stopwords or latin not in _STOPWORDS:
                stem = _word_stems.get(latin)
                terms.append(stem if stem is not None else english_stems([latin])[0])
        elif digit:
            terms.append(digit)
        else:
            terms.extend((han,) if len(han) == 1 else _bigrams(han))
    return terms


def analyze(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Index terms of ``text`` in order (repeats kept: BM25 counts them).

    >>> analyze("임차인은 등기명령을 신청할 수")
    ['임차인', '임차', '차인', '등기', '명령', '등기명령', '기명', '신청']
    >>> analyze("The tenants were renting houses")
    ['tenant', 'rent', 'hous']
    """
    return analyze_many([text], keep_stopwords=keep_stopwords)[0]


def analyze_many(texts: Sequence[str], *, keep_stopwords: bool = False) -> list[list[str]]:
    """:func:`analyze` of each text, with the new Hangul runs of all of them sent to Kiwi in one
    batch (what indexing a batch of sections wants: Kiwi analyses a list of runs on several threads)."""
    pieces = [_pieces(text) for text in texts]
    _learn_runs(p[0] for each in pieces for p in each if p[0])
    _learn_words(p[1] for each in pieces for p in each if p[1])
    return [_terms(each, keep_stopwords=keep_stopwords) for each in pieces]


def query_terms(text: str) -> list[str]:
    """Distinct terms of a query, in first-seen order. A question or query is analysed once: the
    stages that read the same text (search, the rankers, passage selection) share the analysis."""
    return list(_query_terms(text))


RUN_BIGRAM_MARK = "q"
"""Prefix of the bigram field's terms: a Latin letter glued to Hangul, which no English stem and no
morpheme is spelled as, so the field's terms never meet the morphemes'."""


def _run_bigrams(pieces: Pieces) -> list[str]:
    out: list[str] = []
    for hangul, _latin, _digit, _han in pieces:
        if hangul:
            pairs = [hangul] if len(hangul) == 1 else _bigrams(hangul)
            out.extend(RUN_BIGRAM_MARK + pair for pair in pairs)
    return out


def index_terms_many(texts: Sequence[str]) -> list[list[str]]:
    """What the search index holds for each text: :func:`analyze_many`'s terms (under an analyzer with
    ``index_hangul``, its terms of the Hangul runs instead), then (when the active analyzer has the
    bigram field) the marked character bigrams of every Hangul run, function words included
    (할 수 → q할, q수: without them the development figures fell).

    >>> index_terms_many(["임차인은 신청할 수"])[0]
    ['임차인', '신청', 'q임차', 'q차인', 'q인은', 'q신청', 'q청할', 'q수']
    """
    if not _active.run_bigrams:
        return analyze_many(texts)
    if _active.index_hangul is None:
        return [terms + _run_bigrams(_pieces(text)) for terms, text in zip(analyze_many(texts), texts, strict=True)]
    pieces = [_pieces(text) for text in texts]
    words = _index_words(pieces)
    return [terms + _run_bigrams(each) for terms, each in zip(words, pieces, strict=True)]


def _index_words(pieces: Sequence[Pieces]) -> list[list[str]]:
    """The terms of each text beside the bigram field under an analyzer with ``index_hangul``: its
    terms of every Hangul run, the other scripts' terms as :func:`analyze` gives them."""
    _learn_runs((p[0] for each in pieces for p in each if p[0]), index=True)
    _learn_words(p[1] for each in pieces for p in each if p[1])
    return [_terms(each, keep_stopwords=False, index=True) for each in pieces]


def index_terms(text: str) -> list[str]:
    """:func:`index_terms_many` of one text."""
    return index_terms_many([text])[0]


def search_terms(text: str) -> list[str]:
    """The distinct terms a search looks up in the index: the query's terms as the index holds them
    (:func:`query_terms` when the analyzer has no ``index_hangul``, or the query no such term), then
    the bigram field's terms not among them (an empty list when the query has no searchable word).

    >>> search_terms("등기명령을 받으려면")
    ['등기', '명령', '등기명령', 'q등기', 'q기명', 'q명령', 'q령을', 'q받으', 'q으려', 'q려면']
    """
    return list(_search_terms(text))


@lru_cache(maxsize=1024)
def _search_terms(text: str) -> tuple[str, ...]:
    terms = _query_terms(text)
    if not _active.run_bigrams:
        return terms
    pieces = _pieces(text)
    if _active.index_hangul is not None:
        # The index's own terms of the query; a query with none (stop words, one-syllable words only)
        # keeps the query's terms, as a search without index_hangul does.
        terms = tuple(_index_words([pieces])[0]) or terms
    return tuple(dict.fromkeys((*terms, *_run_bigrams(pieces))))


@lru_cache(maxsize=1024)
def _query_terms(text: str) -> tuple[str, ...]:
    return tuple(_distinct_terms(text))


def _distinct_terms(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for term in analyze(text):
        seen.setdefault(term, None)
    if not seen:
        # A query made only of stop words still deserves an answer.
        for term in analyze(text, keep_stopwords=True):
            seen.setdefault(term, None)
    return list(seen)
