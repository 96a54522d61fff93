"""Where a claim rests on a page: the page's sentences, the span a claim is checked against, and
the sentence of a span a claim is read against.

A page is cut into sentences (:func:`page_sentences`: a list marker is layout, a numbered item is
marked as one). The span of a claim is, in order of preference: the sentences it cites by id, the
sentence it stands in word for word (:func:`verbatim_place`), or the best-scoring sentence or pair
(:func:`locate`); a proviso after it is always part of it, and a list item comes with the sentence
that leads its list (:func:`with_items`). :mod:`citewise.verify.support` judges the claim against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from citewise.text.analyze import analyze
from citewise.text.lead_ins import LEADS_LIST
from citewise.text.sentences import split_answer_sentences
from citewise.text.weights import rarity_weights
from citewise.verify.claims import without_answer_frame
from citewise.verify.figures import as_digits

__all__ = [
    "PROVISO",
    "VERBATIM_WORDS",
    "Sentence",
    "alone_in",
    "best_span",
    "claim_terms",
    "closest_sentence",
    "cover",
    "locate",
    "page_sentences",
    "span_terms",
    "verbatim_place",
    "with_items",
]

VERBATIM_WORDS: Final = 4
"""A claim of at least this many words that the page says word for word is judged on the sentences
it stands in (:func:`verbatim_place`)."""

# -- sentences and spans --------------------------------------------------------------------------------------------

PROVISO = re.compile(r"^\s*(?:\*\*[^*]*\*\*\s*)?(?:다만|단[,\s]|however|provided|except|but\b)", re.IGNORECASE)


_LEADING_MARKER = re.compile(r"(?:\*\*[^*\n]{1,6}\*\*|[-*+•]|\d{1,3}\\?[.)]|[①-⑳])\s+")
_ITEM_MARKER = re.compile(r"[ \t]*(?:\d{1,3}|[가-하])\\?[.)][ \t]*")
"""A numbered item at the start of its line ("  1. 외국인을 해고한 경우")."""
_NOTE = re.compile(r"\s*<[^<>]{1,80}>\s*")
"""An amendment note between a sentence and its items: "<개정 2010.6.4>"."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a page: where it starts and ends (its list marker left out) and its terms."""

    start: int
    end: int
    terms: frozenset[str]
    item: bool = False
    """A numbered item of a list (a statute's 1. 2. 3. under "다음 각 호")."""


def span_terms(text: str) -> list[str]:
    # Initials ("E. H. Shepard") are single letters: not terms on their own.
    terms = analyze(as_digits(text))
    return [t for t in terms if len(t) > 1 or not t.isascii() or t.isdigit()]


def page_sentences(page_text: str) -> list[Sentence]:
    sentences: list[Sentence] = []
    cursor = 0
    for sentence in split_answer_sentences(page_text):
        start = page_text.find(sentence, cursor)
        if start < 0:  # the splitter only strips; a miss would be a bug there, not here
            continue
        cursor = start + len(sentence)
        # A paragraph or list marker (**②**, 1\., -) is layout, not part of what the sentence says.
        if marker := _LEADING_MARKER.match(sentence):
            start += marker.end()
        item = bool(_ITEM_MARKER.fullmatch(page_text[page_text.rfind("\n", 0, start) + 1 : start]))
        sentences.append(Sentence(start, cursor, frozenset(span_terms(page_text[start:cursor])), item))
    return sentences


def with_items(page_text: str, sentences: list[Sentence], first: int, last: int) -> tuple[int, int]:
    """A numbered item is read with the sentence that leads its list ("다음 각 호의 어느 하나에 해당하는
    경우에는 그러하지 아니하다"), and that sentence with its items: neither says the rule alone."""
    lead = first

    def note(i: int) -> bool:
        return bool(_NOTE.fullmatch(page_text[sentences[i].start : sentences[i].end]))

    while lead > 0 and (sentences[lead].item or note(lead)):
        lead -= 1
    if lead < first and LEADS_LIST.search(page_text[sentences[lead].start : sentences[lead].end]):
        first = lead
    if LEADS_LIST.search(page_text[sentences[last].start : sentences[last].end]):
        following = last
        while following + 1 < len(sentences) and (sentences[following + 1].item or note(following + 1)):
            following += 1
            last = following if sentences[following].item else last
    return first, last


def claim_terms(text: str) -> frozenset[str]:
    return frozenset(span_terms(without_answer_frame(text)))


def best_span(claim_text: str, page_text: str, *, context: str = "") -> str | None:
    """The sentence or window of ``page_text`` the claim most likely rests on (an exact substring).

    Sentences are scored by the claim's terms — double for terms the claim adds to ``context``,
    single for terms it repeats from it — plus half a point for each other term of the context.
    None when no sentence shares a term with the claim. Two adjacent sentences are preferred to one
    only when they share clearly more of the claim's terms (two, or a quarter of them, more); a
    proviso after the span is always included.

    >>> page = "보증금은 2년 동안 보호된다. 다만, 임차인은 2년 미만의 기간을 주장할 수 있다. 관계없는 문장."
    >>> best_span("보증금은 2년 동안 보호된다", page)
    '보증금은 2년 동안 보호된다. 다만, 임차인은 2년 미만의 기간을 주장할 수 있다.'
    """
    located = locate(claim_text, page_text, context)
    if located is None:
        return None
    sentences, first, last = located
    return page_text[sentences[first].start : sentences[last].end]


def locate(claim_text: str, page_text: str, context: str) -> tuple[list[Sentence], int, int] | None:
    sentences = page_sentences(page_text)
    wanted = claim_terms(claim_text)
    if not sentences or not wanted:
        return None
    given = frozenset(span_terms(context))
    own = wanted - given or wanted
    context_only = given - wanted

    def score(terms: frozenset[str]) -> float:
        # A figure is the most specific thing a claim says: its digits count twice.
        figures_shared = sum(1 for t in terms & wanted if t.isdigit())
        return 2 * len(terms & own) + len(terms & (wanted - own)) + 0.5 * len(terms & context_only) + figures_shared

    scores = [score(s.terms) for s in sentences]
    best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
    if not sentences[best].terms & wanted:
        return None
    first, last = best, best
    margin = max(2, len(wanted) / 4)
    for i in range(len(sentences) - 1):
        pair = len((sentences[i].terms | sentences[i + 1].terms) & wanted)
        if pair >= len(sentences[best].terms & wanted) + margin and pair > len(
            (sentences[first].terms | sentences[last].terms) & wanted
        ):
            first, last = i, i + 1
    if last + 1 < len(sentences) and PROVISO.match(page_text[sentences[last + 1].start : sentences[last + 1].end]):
        last += 1
    return sentences, *with_items(page_text, sentences, first, last)


def verbatim_place(sentence: str, page_text: str) -> tuple[int, int] | None:
    """Where the page says ``sentence`` (the claim's whole sentence) word for word, or None: any
    whitespace between the words, and the page's markup around a word (````2**32````, ``*strict*``),
    which a claim's text goes without, do not count.

    A hard-wrapped page cuts a sentence into lines, and the best-scoring lines of a quote are a
    piece of it, which another piece can contradict ("whether or not two hosts …" against "whether
    or not a string …" of the same sentence)."""
    words = [w.strip("`*_") or w for w in sentence.split()]
    if len(words) < VERBATIM_WORDS:
        return None
    marks = "[`*_]*"  # ":class:`IPv4Interface`" is ":class:IPv4Interface" in a claim
    found = re.search(r"\s+".join(marks + marks.join(map(re.escape, w)) + marks for w in words), page_text)
    return (found.start(), found.end()) if found else None


def alone_in(span: str, sentence: str) -> bool:
    """Whether ``span`` is ``sentence`` and nothing more (markup, spacing and a list marker such as
    "②" aside): no proviso after it qualifies what it says."""
    plain_span, plain_sentence = _PLAIN.sub("", span), _PLAIN.sub("", sentence)
    return plain_span.endswith(plain_sentence) and len(plain_span) - len(plain_sentence) <= _MARKER_CHARS


_PLAIN = re.compile(r"[`*_\s]+")
_MARKER_CHARS = 4  # "②", "3.", "3의2.", "(a)"


def cover(page_text: str, start: int, end: int) -> tuple[list[Sentence], int, int] | None:
    """The page's sentences that make up ``page_text[start:end]``, and a proviso right after them."""
    sentences = page_sentences(page_text)
    inside = [i for i, s in enumerate(sentences) if s.start < end and s.end > start]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    if last + 1 < len(sentences) and PROVISO.match(page_text[sentences[last + 1].start : sentences[last + 1].end]):
        last += 1
    return sentences, first, last


def closest_sentence(claim: str, span: str, page_text: str = "") -> str:
    """The sentence of ``span`` sharing the most with ``claim`` (the first of equals), each shared term
    weighing its rarity among the sentences of ``page_text`` (:func:`~citewise.text.weights.rarity_weights`):
    "이 법은 … 적용한다. 다만, 동거하는 친족만을 사용하는 사업장 … 에 대하여는 적용하지 아니한다." shares as
    many terms with "… 동거하는 친족만을 사용하는 사업장에도 적용된다" in its rule (법, 근로) as in its proviso
    (동거, 친족), but the rule's are in every sentence of the article and the proviso's in one."""
    wanted = claim_terms(claim)
    pieces = split_answer_sentences(span) or [span]
    page = [s.terms for s in page_sentences(page_text)] if page_text else []
    weights = rarity_weights({t: sum(t in terms for terms in page) for t in wanted}, len(page)) if page else {}
    return max(pieces, key=lambda s: sum(weights.get(t, 1.0) for t in wanted & frozenset(span_terms(s))))
