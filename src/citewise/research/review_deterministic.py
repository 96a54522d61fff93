"""The deterministic coverage reviewer: no model, only the topics' key words.

:func:`review_deterministic` returns the same :class:`~citewise.records.research.CoverageReview` as
:func:`~citewise.research.review.review_with_model`; its quotes are copied from the sources, so they
verify.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from citewise.records.research import CoverageReview, CoverageStatus, Quote, ResearchPlan, Source, TopicCoverage
from citewise.research.matching import new_query, topic_queries, tried_key
from citewise.research.planner import FACET_SEPARATOR, key_words
from citewise.text.analyze import analyze
from citewise.text.quotes import MIN_QUOTE_CHARS, normalise_for_match, quote_occurs
from citewise.text.sentences import split_answer_sentences

__all__ = ["COVERED_SHARE", "DETERMINISTIC", "WEAK_SHARE", "review_deterministic"]

DETERMINISTIC: Final = "deterministic"

COVERED_SHARE: Final = 0.6
"""Deterministic review: a sentence sharing this share of the topic's key words covers it."""
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
    (:func:`~citewise.research.planner.key_words`, Korean particles aside), weak from
    :data:`WEAK_SHARE`, else missing; it is never ``conflicting`` (that needs reading). Quotes are
    those sentences, copied from the source's ``content`` (so they verify), the best per source,
    at most three. The gap names the key words no sentence had; the follow-up query is the topic
    plus those words. ``question`` is unused: the topics carry it.
    """
    del question  # the plan's topics are what gets reviewed
    tried = {tried_key(q) for q in tried_queries}
    items = tuple(_review_topic(topic, sources, tried) for topic in plan.topics)
    return CoverageReview(round=round, items=items, reviewer=DETERMINISTIC)


def _review_topic(topic: str, sources: Sequence[Source], tried: set[str]) -> TopicCoverage:
    base = topic.split(FACET_SEPARATOR)[0]
    words = key_words(base)
    matches = [m for m in (_best_sentence(s, words) for s in sources) if m is not None]
    matches.sort(key=lambda m: -len(m.found))  # stable: source order among equals
    best = matches[0].found if matches else ()
    share = len(best) / len(words) if words else 0.0
    if share >= COVERED_SHARE:
        status = CoverageStatus.COVERED
    elif share >= WEAK_SHARE:
        status = CoverageStatus.WEAK
    else:
        status = CoverageStatus.MISSING
    kept = [m for m in matches if words and len(m.found) / len(words) >= WEAK_SHARE][:MAX_DETERMINISTIC_QUOTES]
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


def _deterministic_gap(words: Sequence[str], missing: Sequence[str]) -> str:
    if not words:
        return "the topic has no key words to look for"
    if len(missing) == len(words):
        return f"no source sentence mentions {', '.join(missing)}"
    return f"no source sentence also mentions {', '.join(missing)}"


def _best_sentence(source: Source, words: Sequence[str]) -> _Match | None:
    if not words:
        return None
    wanted = [(analyze(word), _jamo(word) if _HANGUL_WORD.fullmatch(word) else None) for word in words]
    best: _Match | None = None
    for sentence in _sentences(source.content):
        if len(normalise_for_match(sentence)) < MIN_QUOTE_CHARS:
            continue
        terms = set(analyze(sentence))
        korean = [_jamo(w) for w in _HANGUL_WORD.findall(sentence)]
        found = tuple(
            word
            for word, (word_terms, jamo) in zip(words, wanted, strict=True)
            if _word_in(word_terms, jamo, terms, korean)
        )
        if found and (best is None or len(found) > len(best.found)):
            best = _Match(source.source_id, _clip(sentence), found)
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


def _word_in(word_terms: Sequence[str], jamo: str | None, sentence_terms: set[str], sentence_jamo: list[str]) -> bool:
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
