"""The deterministic coverage reviewer: no model, only the topics' key words.

:func:`review_deterministic` returns the same :class:`~citewise.records.research.CoverageReview` as
:func:`~citewise.research.review.review_with_model`; its quotes are copied from the sources, so they
verify.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from citewise.records.research import CoverageReview, CoverageStatus, Quote, ResearchPlan, Source, TopicCoverage
from citewise.research.matching import new_query, topic_queries, tried_key
from citewise.research.planner import FACET_SEPARATOR, key_words
from citewise.text.analyze import analyze
from citewise.text.lay_terms import lay_readings
from citewise.text.quotes import MIN_QUOTE_CHARS, normalise_for_match, quote_occurs
from citewise.text.sentences import split_answer_sentences
from citewise.text.weights import rarity_weights

__all__ = ["COVERED_SHARE", "DETERMINISTIC", "WEAK_SHARE", "review_deterministic"]

DETERMINISTIC: Final = "deterministic"

COVERED_SHARE: Final = 0.6
"""Deterministic review: a sentence holding this share of the topic's key words, each weighed by its
rarity among the sources' sentences (:func:`_word_weights`), covers it."""
WEAK_SHARE: Final = 0.3
"""Deterministic review: ... and this share makes it weak."""

MAX_DETERMINISTIC_QUOTES: Final = 3
MAX_QUOTE_CHARS: Final = 400

_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True, slots=True)
class _Match:
    source_id: str
    sentence: str
    found: tuple[str, ...]


def review_deterministic(
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    round: int,
    *,
    tried_queries: Iterable[str] = (),
) -> CoverageReview:
    """A review without a model: for each topic, the source sentences sharing most of its key words.

    A topic is covered when one sentence holds at least :data:`COVERED_SHARE` of its key words
    (:func:`~citewise.research.planner.key_words`, Korean particles aside), each weighed by how few
    of the sources' sentences hold it and found also as the statute term an everyday word is read
    as; weak from :data:`WEAK_SHARE`, else missing; it is never ``conflicting`` (that needs
    reading). Quotes are those sentences, copied from the source's ``content`` (so they verify), the
    best per source, at most three. The gap names the key words no sentence had; the follow-up query is the topic
    plus those words. ``question`` is unused: the topics carry it.
    """
    del question  # the plan's topics are what gets reviewed
    tried = {tried_key(q) for q in tried_queries}
    items = tuple(_review_topic(topic, sources, tried) for topic in plan.topics)
    return CoverageReview(round=round, items=items, reviewer=DETERMINISTIC)


def _review_topic(topic: str, sources: Sequence[Source], tried: set[str]) -> TopicCoverage:
    base = topic.split(FACET_SEPARATOR)[0]
    words = key_words(base)
    read = [(s, _read_sentences(s.content)) for s in sources]
    weights = _word_weights(words, [sentence for _, sentences in read for sentence in sentences])
    matches = [m for m in (_best_sentence(s, sentences, words, weights) for s, sentences in read) if m is not None]
    matches.sort(key=lambda m: -_share(m.found, weights))  # stable: source order among equals
    best = matches[0].found if matches else ()
    share = _share(best, weights)
    if share >= COVERED_SHARE:
        status = CoverageStatus.COVERED
    elif share >= WEAK_SHARE:
        status = CoverageStatus.WEAK
    else:
        status = CoverageStatus.MISSING
    kept = [m for m in matches if _share(m.found, weights) >= WEAK_SHARE][:MAX_DETERMINISTIC_QUOTES]
    if status is CoverageStatus.MISSING:
        kept = []
    quotes = tuple(
        Quote(m.source_id, m.sentence, quote_occurs(m.sentence, _content(sources, m.source_id))) for m in kept
    )
    missing = [w for w in words if w not in best]
    gap = None
    follow_up = None
    if status is not CoverageStatus.COVERED:
        gap = _deterministic_gap(words, missing)
        base_text = base.rstrip("?？ ")
        follow_up = new_query((f"{base_text} {' '.join(missing)}".strip(), *topic_queries(topic)), tried)
    return TopicCoverage(
        topic=topic,
        status=status,
        claimed_status=status,
        source_ids=tuple(dict.fromkeys(q.source_id for q in quotes)),
        quotes=quotes,
        gap=gap,
        follow_up=follow_up,
    )


def _word_weights(words: Sequence[str], sentences: Sequence[_Sentence]) -> dict[str, float]:
    """How much each key word tells (:func:`~citewise.text.weights.rarity_weights` over every
    sentence of the sources). Without the weights, a sentence of the right law that shared the
    topic's common words (임대인 and 임차인 in a lease statute) covered a topic it does not answer."""
    held = {w: sum(1 for s in sentences if _holds(s, _wanted(w))) for w in words}
    return rarity_weights(held, len(sentences))


def _share(found: Sequence[str], weights: dict[str, float]) -> float:
    """The weighted share of the topic's key words that ``found`` holds (0 without key words)."""
    whole = math.fsum(weights.values())
    return math.fsum(weights[w] for w in found) / whole if whole > 0 else 0.0


def _deterministic_gap(words: Sequence[str], missing: Sequence[str]) -> str:
    if not words:
        return "the topic has no key words to look for"
    if len(missing) == len(words):
        return f"no source sentence mentions {', '.join(missing)}"
    return f"no source sentence also mentions {', '.join(missing)}"


@dataclass(frozen=True, slots=True)
class _Sentence:
    text: str
    terms: frozenset[str]
    korean: tuple[str, ...]
    """The sentence's Korean words as letters (jamo)."""


def _read_sentences(content: str) -> list[_Sentence]:
    """The quotable sentences of ``content``, each analysed once."""
    return [
        _Sentence(sentence, frozenset(analyze(sentence)), tuple(_jamo(w) for w in _HANGUL_WORD.findall(sentence)))
        for sentence in _sentences(content)
        if len(normalise_for_match(sentence)) >= MIN_QUOTE_CHARS
    ]


_Form = tuple[Sequence[str], str | None]
"""A word as it is looked for: its terms, and its letters (jamo) when it is Korean."""


@lru_cache(maxsize=4096)
def _wanted(word: str) -> tuple[_Form, ...]:
    """The forms a key word is found by: itself, then the statute terms an everyday word is read as
    (돌려받 as 반환: :mod:`citewise.text.lay_terms`, as search and the ask's relevance gate read it)."""
    forms = [word, *(t for reading in lay_readings(word) for t in reading.statute)]
    return tuple((analyze(f), _jamo(f) if _HANGUL_WORD.fullmatch(f) else None) for f in dict.fromkeys(forms))


def _holds(sentence: _Sentence, forms: Sequence[_Form]) -> bool:
    return any(_word_in(terms, jamo, sentence.terms, sentence.korean) for terms, jamo in forms)


def _best_sentence(
    source: Source, sentences: Sequence[_Sentence], words: Sequence[str], weights: dict[str, float]
) -> _Match | None:
    if not words:
        return None
    wanted = [_wanted(word) for word in words]
    best: _Match | None = None
    best_share = 0.0
    for sentence in sentences:
        found = tuple(word for word, forms in zip(words, wanted, strict=True) if _holds(sentence, forms))
        share = _share(found, weights)
        if found and (best is None or share > best_share):
            best, best_share = _Match(source.source_id, _clip(sentence.text), found), share
    return best


def _sentences(content: str) -> list[str]:
    """The sentences of ``content``, paragraph by paragraph.

    Extracted pages are often hard-wrapped, so a single line break does not end a sentence; a
    blank line does. Whitespace is folded, which :func:`quote_occurs` ignores.
    """
    sentences: list[str] = []
    for paragraph in _PARAGRAPH_BREAK.split(content):
        sentences.extend(split_answer_sentences(" ".join(paragraph.split())))
    return sentences


def _word_in(
    word_terms: Sequence[str], jamo: str | None, sentence_terms: frozenset[str], sentence_jamo: Sequence[str]
) -> bool:
    """Whether a key word occurs in a sentence.

    It does when its stem is among the sentence's terms; for a Korean word also when a sentence
    word starts with it letter by letter (jamo), so the verb stem 생기 matches 생긴다 and 생겨서 does
    not; and for a long Korean compound when more than half of its bigrams occur.
    """
    if not word_terms:
        return False
    if word_terms[0] in sentence_terms:
        return True
    if jamo is not None and len(jamo) >= 4 and any(w.startswith(jamo) for w in sentence_jamo):
        return True
    bigrams = word_terms[1:]
    return len(bigrams) >= 2 and sum(b in sentence_terms for b in bigrams) * 2 > len(bigrams)


def _jamo(word: str) -> str:
    """Hangul syllables decomposed into letters (NFD), so 생기 is a prefix of 생긴다."""
    return unicodedata.normalize("NFD", word)


def _clip(sentence: str) -> str:
    # A prefix of a sentence is still verbatim; a whole paragraph without full stops is no quote.
    if len(sentence) <= MAX_QUOTE_CHARS:
        return sentence
    head = sentence[:MAX_QUOTE_CHARS]
    return head.rsplit(" ", 1)[0] if " " in head else head


def _content(sources: Sequence[Source], source_id: str) -> str:
    return next(s.content for s in sources if s.source_id == source_id)
