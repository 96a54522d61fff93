"""The deterministic evidence composer: an extractive answer, no model.

It picks, from the eligible passages, the sentences that answer the question — those holding most
of its content terms and what its intent asks for (a period for "how long", a remedy for "what do I
do") — and cites them; a passage that merely shares a word with the question is not cited.
Every sentence it writes is copied from a passage, so every quote verifies.
It is the answer path when no model is configured, and the fallback when a model's reply fails
validation; the run record says which, and why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from citewise.answer.meaning import MEANING_HEAD, MEANING_SENTENCES, SentenceMeaning
from citewise.answer.provisions import squash
from citewise.answer.question import Intent, Question, analyse_question, text_terms
from citewise.answer.relevance import term_found
from citewise.answer.roles import SIDE_RULE_SHARE, asked_for, paragraph_number, role_of, side_paragraph
from citewise.records.answer import Citation, ComposedAnswer, Evidence
from citewise.records.gate import Candidate
from citewise.store.evidence import EvidenceStore
from citewise.text.articles import strip_deleted_parts
from citewise.text.lead_ins import (
    follow_on,
    item_marker,
    lead_in,
    list_items,
    proviso,
    proviso_after,
    without_leading_notes,
)
from citewise.text.sentences import stored_sentences
from citewise.text.weights import rarity_weights

__all__ = [
    "RANK_CONSTANT",
    "RETRIEVAL_WEIGHT",
    "AnswerRanker",
    "answer_line",
    "answer_order",
    "best_sentence",
    "compose_extractive",
    "quotable_sentences",
    "sentence_score",
    "store_weights",
]

# Sentence features that answer each intent (a number with a unit of time for "how long", a sanction
# for "what penalty", a power or duty to act for "what do I do", ...).
_ANSWER_CUES: dict[Intent, re.Pattern[str]] = {
    Intent.DEFINITION: re.compile(r"(?:이)?란\s|말한다|뜻은|정의|\bmeans\b|\bis defined\b|\brefers to\b|\bdefin"),
    Intent.PROCEDURE: re.compile(
        r"신청|청구|요구할 수|할 수 있다|하여야 한다|\bmay\b|\bshall\b|\bmust\b|\buse\b|\bcall\b"
    ),
    Intent.DURATION: re.compile(r"\d+\s*(?:년|개월|월|일|주|시간)|\d+\s*(?:years?|months?|days?|hours?)"),
    Intent.TIME: re.compile(
        r"\d+\s*(?:년|개월|월|일|주|시간)|이내|까지|부터|\bwithin\b|\bbefore\b|\bafter\b|\bdays?\b"
    ),
    Intent.AMOUNT: re.compile(r"\d|원|분의|퍼센트|배|\bpercent\b|\$"),
    Intent.PENALTY: re.compile(r"징역|벌금|과태료|처한다|\bfine\b|\bimprisonment\b|\bpenalt"),
}

# A line of an interactive example (">>> IPv4Network('192.0.2.0/28')[0]") or its continuation, a
# reStructuredText directive (".. attribute:: is_loopback", ".. audit-event:: http.client.send …") or
# an index entry under one ("single: URL pair: URL; parsing"): an entry is quoted before the
# sentences under it (:func:`~citewise.text.lead_ins.lead_in`), never alone.
_CODE = re.compile(r"^\s*(?:>>>|\.\.\.|\.\.\s+[\w:-]+::|(?:single|pair|triple|see|seealso):)(?:\s|$)")

#: The statute's name for a proviso: a question about a provision's 단서 asks about its "다만, …".
_PROVISO_NAME = "단서"

#: Weight of the intent cue against the share of content terms (0..1) in a sentence's score.
INTENT_WEIGHT = 0.25


def _topic_terms(question: Question, title: str) -> tuple[str, ...]:
    # When the question names the document (근로기준법 in "근로기준법 제2조의 정의"), the title's terms
    # hold in every one of its sentences and tell none apart; what is left is what it asks about.
    if not title or squash(title) not in squash(question.text):
        return question.terms
    terms, squashed = text_terms(title), re.sub(r"\s+", "", title)
    rest = tuple(t for t in question.terms if not term_found(t, terms, squashed))
    return rest or question.terms


#: How much each of a question's terms weighs in a sentence's score (:func:`store_weights`); a term
#: it does not name weighs 1.
Weights = Mapping[str, float]


def _holds(question: Question, term: str, sentence: str, terms: frozenset[str], squashed: str) -> bool:
    # A term or a statute term it was read as (월급 as 임금: the statute's sentence says 임금).
    words = (term, *question.alternatives(term))
    return any(term_found(w, terms, squashed) for w in words) or (term == _PROVISO_NAME and proviso(sentence))


def store_weights(store: EvidenceStore, question: str) -> dict[str, float]:
    """How much each of ``question``'s content terms tells about which sentence of a passage answers
    it: its :func:`~citewise.text.weights.rarity_weights` over the sections of ``store`` (a term
    read as statute terms, 회사 as 사용자, counts as its most common reading). "address" is in many
    sections of a store holding the ipaddress docs, "loopback" in two: in a passage about addresses,
    the sentence that holds "loopback" answers "is an IPv6 address a loopback address?", not the
    first that holds "IPv6" and "address". The weights choose the sentence quoted from a passage;
    which passages are quoted, and in what order, goes by every term counting the same
    (:func:`answer_order`, :data:`KEEP_RATIO`)."""
    analysed = analyse_question(question)
    words = {term: (term, *analysed.alternatives(term)) for term in analysed.terms}
    total, held = store.term_sections([w for forms in words.values() for w in forms])
    return rarity_weights({term: max(held[w] for w in forms) for term, forms in words.items()}, total)


def _term_share(question: Question, sentence: str, heading: str, title: str, weights: Weights | None = None) -> float:
    """The weighted share of the question's content terms (those not in the document's title) in
    ``sentence``, each term weighing what ``weights`` says (1 without); a term only in the section
    heading counts half."""
    wanted = _topic_terms(question, title)
    if not wanted:
        return 0.0
    terms, squashed = text_terms(sentence), re.sub(r"\s+", "", sentence)
    head_terms, head_squashed = text_terms(heading), re.sub(r"\s+", "", heading)
    score = whole = 0.0
    for term in wanted:
        weight = weights.get(term, 1.0) if weights else 1.0
        whole += weight
        if _holds(question, term, sentence, terms, squashed):
            score += weight
        elif heading and any(term_found(w, head_terms, head_squashed) for w in (term, *question.alternatives(term))):
            score += 0.5 * weight
    return score / whole if whole > 0 else 0.0


def sentence_score(
    question: Question, sentence: str, heading: str = "", title: str = "", weights: Weights | None = None
) -> float:
    """How well ``sentence`` answers ``question``: the share of its content terms (those not in the
    document's title) in the sentence, weighed by ``weights`` (:func:`store_weights`; a term only in
    the section heading counts half), plus
    :data:`INTENT_WEIGHT` when the sentence has what the question's intent asks for (a period for
    "how long", a sanction for "penalty" ...). :func:`best_sentence` may add its meaning."""
    if not _topic_terms(question, title):
        return 0.0
    score = _term_share(question, sentence, heading, title, weights)
    cue = _ANSWER_CUES.get(question.intent)
    if cue is not None and cue.search(sentence):
        score += INTENT_WEIGHT
    return score


def _paragraph_asked(question: Question, number: int | None) -> bool:
    return number is not None and re.search(rf"(?<!\d)제?\s?{number}\s?항", question.text) is not None


def best_sentence(
    question: Question,
    heading: str,
    text: str,
    title: str = "",
    meaning: SentenceMeaning | None = None,
    weights: Weights | None = None,
) -> tuple[float, str]:
    """The sentence of ``text`` that best answers ``question``, with its score (0 and "" when none):
    :func:`sentence_score`, plus, with ``meaning``, for the :data:`~citewise.answer.meaning.MEANING_SENTENCES`
    sentences scoring best by words, how near each comes to the question in meaning
    (:meth:`SentenceMeaning.score <citewise.answer.meaning.SentenceMeaning.score>`).

    Sentences of a side paragraph (:func:`citewise.answer.roles.side_paragraph`), and sentences that
    open on the one before (:func:`~citewise.text.lead_ins.follow_on`), count only when they
    hold :data:`~citewise.answer.roles.SIDE_RULE_SHARE` of the question's terms, or the question
    names the paragraph (제6항)."""
    return _best(_word_scores(question, heading, text, title, weights), heading, meaning)


def _word_scores(
    question: Question, heading: str, text: str, title: str, weights: Weights | None = None
) -> list[tuple[float, str]]:
    """Each sentence of ``text`` that may answer, with its :func:`sentence_score`, in text order."""
    scored: list[tuple[float, str]] = []
    side = False
    for sentence in quotable_sentences(text):
        if paragraph_number(sentence) is not None:
            side = side_paragraph(sentence) and not _paragraph_asked(question, paragraph_number(sentence))
        if len(sentence) < 8 or _CODE.match(sentence):
            continue  # a bare marker ("1.", "①"), a markup directive or a line of example code says nothing
        if (side or follow_on(sentence)) and _term_share(question, sentence, heading, title) < SIDE_RULE_SHARE:
            continue
        scored.append((sentence_score(question, sentence, heading, title, weights), sentence))
    return scored


def _best(scored: list[tuple[float, str]], heading: str, meaning: SentenceMeaning | None) -> tuple[float, str]:
    """The best of ``scored`` (on a tie the shortest, which holds the same words with fewer others: "Length
    of the network prefix, in bits." for "the prefix length of a network"; then the first), with
    meaning weighed in when given."""
    if meaning is not None:  # the few sentences the words found most in, embedded in one call
        ranked = sorted((i for i, (score, _) in enumerate(scored) if score > 0), key=lambda i: -scored[i][0])
        weighed = set(ranked[:MEANING_SENTENCES])
        meaning.prepare(SentenceMeaning.text(heading, scored[i][1]) for i in sorted(weighed))
        scored = [
            (score + meaning.score(heading, s), s) if i in weighed else (score, s)
            for i, (score, s) in enumerate(scored)
        ]
    best, best_score = "", 0.0
    for score, sentence in scored:
        if score > best_score:
            best, best_score = sentence, score
    return best_score, best


#: A passage is cited only when its best sentence scores at least this share of the best passage's.
KEEP_RATIO = 0.75


def compose_extractive(
    question: str,
    evidence: Sequence[Evidence],
    max_passages: int = 3,
    meaning: SentenceMeaning | None = None,
    named: frozenset[tuple[str, str]] = frozenset(),
    weights: Weights | None = None,
) -> ComposedAnswer:
    """Cite, from the top passages, the sentence of each that best answers the question (its content
    terms, its intent and, with ``meaning``, its nearness in meaning: :func:`best_sentence`), keeping
    only passages whose best sentence comes
    near the best one (:data:`KEEP_RATIO`): a passage that merely shares a word is not cited. The
    first passage in the ranked order whose best sentence shares anything leads, whatever its score
    beside the others (the ranker weighed the answer score with retrieval's sense of the question). If no
    sentence shares anything, the first sentence of the top passage. A provision the question names
    (``named``: (document, section) pairs), ranked first, leads even when it shares no word: its
    opening sentence then. Each sentence is quoted with what it leans on and, in the leading passage,
    when it leads a short list, the list's items (:func:`_in_context`). Supplementary provisions (부칙)
    and side rules (purpose, definitions, sanctions) are left out unless the question asks for them
    or nothing else is eligible (:mod:`citewise.answer.roles`). ``weights``: how much each of the
    question's terms counts when a passage's sentence is chosen (:func:`store_weights`; each the
    same without); which passages are cited goes by the share of terms, each counting the same."""
    analysed = analyse_question(question)
    evidence = _answering(analysed, evidence)
    # Which passages are cited goes by the share of the question's terms, each counting the same: a
    # rare word a passage of another law happens to hold (정의 in 조정의) must not bring it in. Which
    # sentence of a passage is quoted goes by the weighed share.
    scored = [(*best_sentence(analysed, item.heading, item.text, item.title, meaning), item) for item in evidence]
    if weights:
        scored = [(score, _weighed(analysed, item, meaning, weights) or quote, item) for score, quote, item in scored]
    top = max((score for score, _, _ in scored), default=0.0)
    citations: list[Citation] = []
    pinned = bool(scored) and (scored[0][2].doc_id, scored[0][2].section_id) in named
    if top > 0 or pinned:
        # In the ranked order (the ranker weighed answer scores with retrieval already, so its first
        # answering passage leads even when a lower one holds more of the question's words: sharing
        # words is not being about the question); the others only when they come near the best.
        lead = 0 if pinned else next(i for i, (score, _, _) in enumerate(scored) if score > 0)
        kept = [r for i, r in enumerate(scored) if i == lead or (i > lead and r[0] > 0 and r[0] >= KEEP_RATIO * top)]
        for rank, (_, sentence, item) in enumerate(kept[:max_passages]):
            sentence = sentence or next((s for s in quotable_sentences(item.text) if len(s) >= 8), item.text.strip())
            quotes = _in_context(sentence, item.text, with_items=rank == 0)
            group = rank + 1 if len(quotes) > 1 else 0
            for quoted in quotes:
                citations.append(
                    Citation(item.evidence_id, quoted, item.doc_id, item.version, item.section_id, group=group)
                )
    if not citations and evidence:
        first = evidence[0]
        sentence = next((s for s in quotable_sentences(first.text) if len(s) >= 8), first.text.strip())
        citations.append(Citation(first.evidence_id, sentence, first.doc_id, first.version, first.section_id))
    return ComposedAnswer("\n".join(answer_line(c) for c in citations), tuple(citations))


def answer_line(citation: Citation) -> str:
    """The line the extractive composer writes for ``citation``: its quote and its ``[E#]`` marker."""
    return f"{citation.quote} [{citation.evidence_id}]"


def _weighed(question: Question, item: Evidence, meaning: SentenceMeaning | None, weights: Weights) -> str:
    return best_sentence(question, item.heading, item.text, item.title, meaning, weights)[1]


@lru_cache(maxsize=256)
def quotable_sentences(text: str) -> tuple[str, ...]:
    """The sentences of a passage as the composer may quote them: cut as a stored text is
    (:func:`~citewise.text.sentences.stored_sentences`: a hard-wrapped line is not a sentence), without
    the editorial notes a sentence opens with ("[16 U.S.C. 757b] The Secretary …"). Kept for the last
    passages read: the ranker and the composer read the same ones."""
    return tuple(without_leading_notes(s) for s in stored_sentences(text))


#: A sentence that leads a list is quoted with the list's items when there are at most this many,
#: of at most :data:`LIST_CHARS` characters together; a longer list is the reader's to open.
LIST_ITEMS = 5
LIST_CHARS = 600


def _in_context(sentence: str, text: str, with_items: bool = True) -> tuple[str, ...]:
    """``sentence`` as quoted in an answer, after the sentences it leans on
    (:func:`citewise.text.lead_ins.lead_in`): a list item ("서로 합의하여 … 제공한 경우", with its
    number) after the sentence that introduces its list, a proviso or a follow-on after the sentence
    it qualifies; alone they say nothing a reader can use, or say it wrongly. A rule is followed by
    its proviso (:func:`~citewise.text.lead_ins.proviso_after`): "임대인은 … 거절하지 못한다." says more
    than the statute without "다만, 다음 각 호의 … 경우에는 그러하지 아니하다.". A sentence that leads a
    short list ("다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.") is followed by its items
    (:func:`~citewise.text.lead_ins.list_items`), which are what it says, when ``with_items`` (the
    answer's leading passage: the others are quoted for their one sentence)."""
    sentences = quotable_sentences(text)
    if sentence not in sentences:
        return (sentence,)
    index = sentences.index(sentence)
    after = proviso_after(sentences, index)
    tail = (sentences[after],) if after is not None else ()
    items = list_items(sentences, index if after is None else after, text) if with_items else ()
    if len(items) > LIST_ITEMS or sum(len(i) for i in items) > LIST_CHARS:
        items = ()
    return tuple(
        f"{marker} {quoted}" if (marker := item_marker(text, quoted)) else quoted
        for quoted in (*lead_in(sentences, index, text), sentence, *tail, *items)
    )


def _answering(question: Question, evidence: Sequence[Evidence]) -> Sequence[Evidence]:
    """The passages whose provisions answer ``question`` (all of them when none does)."""
    kept = [e for e in evidence if asked_for(role_of(e.section_id, e.heading, e.kind), question)]
    return kept or evidence


#: How much a candidate's retrieval position counts against its answer score in the ask's ranking:
#: ``RETRIEVAL_WEIGHT * RANK_CONSTANT / (RANK_CONSTANT + position)`` (position from 0, retrieval
#: order) is added to :func:`best_sentence`'s score. Retrieval has the question's meaning (the
#: dense ranking), the answer score only its words; ordering by the answer score alone put an
#: article that shares a word (회사 in 보험회사) above the one about the question. Chosen with
#: ``benchmarks/answer_ranking.py`` on the 49 development questions (figures there).
RETRIEVAL_WEIGHT = 1.0
RANK_CONSTANT = 10


def answer_order(
    question: str,
    passages: Sequence[tuple[str, str, str]],
    named: Sequence[bool] = (),
    *,
    weight: float = RETRIEVAL_WEIGHT,
    constant: int = RANK_CONSTANT,
    meaning: SentenceMeaning | None = None,
    head: int = MEANING_HEAD,
) -> list[int]:
    """Indexes of ``passages`` ((heading, text, title) in retrieval order) best answer first: named
    provisions ahead of all, then the answer score of the best sentence plus the retrieval position's
    share (``weight * constant / (constant + position)``; ``weight=0``: the answer score alone); ties
    keep the retrieval order. With ``meaning``, the first ``head`` passages of that order are scored
    again with their sentences' meaning (:func:`best_sentence`) and reordered among themselves: the
    meaning only adds, so no passage below them can rise into them. Every term of the question
    counts the same here: weighed by rarity (:func:`store_weights`), the order moved answers off
    their gold article (``benchmarks/ask_outcomes.py``, with vectors, dev half: 81 → 79 cited it)
    and gained no English one (``benchmarks/ask_english.py``)."""
    analysed = analyse_question(question)
    words = [_word_scores(analysed, heading, strip_deleted_parts(text), title) for heading, text, title in passages]

    def key(i: int, with_meaning: SentenceMeaning | None = None) -> tuple[bool, float, int]:
        score = _best(words[i], passages[i][0], with_meaning)[0]
        score += weight * constant / (constant + i)
        return (not (named[i] if i < len(named) else False), -round(score, 3), i)

    order = sorted(range(len(passages)), key=key)
    if meaning is None:
        return order
    first = sorted(order[:head], key=lambda i: key(i, meaning))
    return [*first, *order[head:]]


class AnswerRanker:
    """The ask's default ranker: candidates whose best sentence answers the question best come first,
    weighed with their retrieval order (:func:`answer_order`), named provisions ahead of all, and with
    ``meaning`` (:class:`~citewise.answer.meaning.SentenceMeaning`) the sentences' nearness to the
    question in meaning counted too. It only reorders, and the ranking contract checks that it did."""

    def __init__(
        self, pinned: frozenset[tuple[str, str]] = frozenset(), meaning: SentenceMeaning | None = None
    ) -> None:
        self.pinned = pinned
        """(document, section) pairs the question names: kept first."""
        self.meaning = meaning
        """How near each sentence comes to the question in meaning (None: words alone)."""

    @property
    def setting(self) -> str:
        """What the run record names beside the ranker: the embedder that weighed meaning, if any."""
        return f"meaning: {self.meaning.model}" if self.meaning is not None else ""

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """Candidates ordered by named first, then answer score with retrieval order."""
        order = sorted(candidates, key=lambda c: -c.score)
        passages = [(c.section.heading, c.section.text, c.document.title) for c in order]
        named = [(c.section.doc_id, c.section.section_id) in self.pinned for c in order]
        return [order[i] for i in answer_order(query, passages, named, meaning=self.meaning)]
