"""Which required sub-questions the delivered text answers: acceptance is decided on what a reader gets.

After removal and marking, every claim of the delivered text is mapped to the required sub-questions
(the plan's topics) it answers, and the mapping is recorded in the ledger (:attr:`LedgerEntry.answers
<citewise.records.verify.LedgerEntry.answers>`). Only a **supported factual** claim answers a
sub-question; a recommendation, an inference or a signpost never does. A claim *addresses* a topic
when one of these links holds:

* **evidence** — it rests on evidence the coverage review checked for that topic: a sentence it
  cites, or the span that supports it, is one of the topic's verified quotes (same source; a span
  holding the quote, held by it, or sharing 80% of the shorter one's terms);
* **section** — it sits under a heading that names the topic (the writer gives each topic a heading;
  a heading names a topic when most of its own terms are the topic's: at least two of them, or all
  of a one-term topic's, or a single one that no other topic shares) and it shares a term with the
  topic itself;
* **terms** — it states most of the topic's own terms (at least two, and 60% of them);
* **the question** — a plan of one topic and no review (a native engine's: the question itself) is
  addressed by every claim, since every claim was written in answer to it.

A topic no supported claim answers is a :class:`~citewise.records.verify.Gap`, with the reason: the
review found no verified evidence for it, what the draft said about it failed verification (the
claims are named), or nothing in the text answers it. A topic the last review found only partly
supported (*weak*) is a gap too, however many supported claims address it: what they say is part of
an answer, and the report says so under the topic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from citewise.records.research import CoverageReview, CoverageStatus, Quote
from citewise.records.verify import ClaimKind, Decision, Gap, GapReason, LedgerEntry
from citewise.text.analyze import query_terms
from citewise.text.quotes import normalise_for_match
from citewise.verify.claims import claim_lines

__all__ = ["RequiredTopic", "TopicMap", "map_answers", "required_topics", "section_topics"]


@dataclass(frozen=True, slots=True)
class RequiredTopic:
    """A required sub-question and the evidence the last coverage review verified for it."""

    topic: str
    """The sub-question, as planned."""
    quotes: tuple[Quote, ...] = ()
    """Its verified quotes."""
    status: CoverageStatus | None = None
    """The review's status (None without a review)."""
    missing: str | None = None
    """What the review said is missing."""


def required_topics(topics: Sequence[str], review: CoverageReview | None) -> tuple[RequiredTopic, ...]:
    """The plan's ``topics`` with the verified evidence of ``review`` (the last one, if any)."""
    by_topic = {item.topic: item for item in review.items} if review is not None else {}
    out = []
    for topic in topics:
        item = by_topic.get(topic)
        if item is None:
            out.append(RequiredTopic(topic, status=CoverageStatus.MISSING if review is not None else None))
            continue
        quotes = tuple(q for q in item.quotes if q.verified)
        out.append(RequiredTopic(topic, quotes, item.status, item.gap))
    return tuple(out)


# Interrogatives carry no content a claim would repeat (the answer to 며칠 is 30일, not 며칠).
_QUESTION_TERMS = frozenset("어떻 어떤 언제 무엇 무슨 얼마 며칠 누구 어디 어느 왜 몇 하나 나요 하나요 해야".split())
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HANGUL = re.compile(r"[\uac00-\ud7a3]+")


def _terms(text: str) -> frozenset[str]:
    """The content terms of ``text``, each Korean word once: the analyser adds the bigrams inside a
    word (임대차 -> 임대, 대차) for recall, and counted here they would make one shared word look
    like most of a question."""
    terms = {t for t in query_terms(text) if t not in _QUESTION_TERMS}
    return frozenset(
        t for t in terms if not (_HANGUL.fullmatch(t) and any(t != other and t in other for other in terms))
    )


@dataclass(frozen=True)
class TopicMap:
    """The headings of a text and the topics they name."""

    headings: Mapping[int, str]
    """Line index of each heading -> the topic it names (headings naming none are left out)."""
    section_of: Mapping[str, str]
    """Claim id -> the topic whose heading the claim sits under."""


def section_topics(text: str, topics: Sequence[RequiredTopic]) -> TopicMap:
    """Which heading of ``text`` names which topic, and which topic's section each claim is in (the
    nearest heading above it that names a topic, through its parent headings)."""
    terms = {t.topic: _terms(t.topic) for t in topics}
    headings: dict[int, str] = {}
    within: dict[int, str | None] = {}  # line index -> the topic of the section it is in
    stack: list[tuple[int, str | None]] = []  # (level, topic) of the open headings
    for index, line in enumerate(text.splitlines()):
        match = _HEADING.match(line)
        if match:
            level = len(match.group(1))
            named = _named_topic(match.group(2).strip("*_ "), terms)
            if named is not None:
                headings[index] = named
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, named))
        within[index] = next((topic for _, topic in reversed(stack) if topic is not None), None)
    section_of = {
        claim.claim_id: topic
        for line in claim_lines(text)
        if (topic := within.get(line.index)) is not None
        for sentence in line.sentences
        for claim in sentence.claims
    }
    return TopicMap(headings, section_of)


def _named_topic(heading: str, terms: Mapping[str, frozenset[str]]) -> str | None:
    """The topic a heading names: the topic itself, or one most of the heading's terms come from —
    at least two of them (all of a one-term topic's), the closest such topic; or a single term, when
    no other topic shares any ("Deposits" over "Which law protects deposits?" and "How is a deposit
    returned?" names neither)."""
    own = _terms(heading)
    if not own:
        return None
    flat = normalise_for_match(heading).casefold().rstrip("?？ ")
    strong: list[tuple[float, str]] = []
    touched: list[str] = []
    for topic, wanted in terms.items():
        if flat == normalise_for_match(topic).casefold().rstrip("?？ "):
            return topic
        shared = len(own & wanted)
        if not shared or shared / len(own) < 0.5:
            continue
        touched.append(topic)
        if shared >= min(2, len(wanted)):
            strong.append((shared / len(own | wanted), topic))
    if strong:
        return max(strong)[1]
    return touched[0] if len(touched) == 1 and not any(own & w for t, w in terms.items() if t != touched[0]) else None


def _evidence_link(entry: LedgerEntry, topic: RequiredTopic) -> bool:
    cited = set(entry.claim.cited_sentences)
    for quote in topic.quotes:
        if quote.sentence_id and quote.sentence_id in cited:
            return True
        for check in entry.checks:
            if check.source_id != quote.source_id:
                continue
            if quote.sentence_id and quote.sentence_id in check.sentence_ids:
                return True
            if check.span and quote.text and _overlaps(check.span, quote.text):
                return True
    return False


def _overlaps(span: str, quote: str) -> bool:
    """The supporting span and the reviewed quote are the same passage: one holds the other, or
    (a span cut across a sentence boundary) they share most of the shorter one's terms."""
    a, b = normalise_for_match(span).casefold(), normalise_for_match(quote).casefold()
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    terms_a, terms_b = set(query_terms(a)), set(query_terms(b))
    shorter = min(len(terms_a), len(terms_b))
    return shorter >= 3 and len(terms_a & terms_b) >= 0.8 * shorter


def _addresses(entry: LedgerEntry, topic: RequiredTopic, section: str | None, only_question: bool) -> bool:
    if entry.claim.kind is ClaimKind.SIGNPOST:
        return False
    if only_question or _evidence_link(entry, topic):
        return True
    wanted = _terms(topic.topic)
    said = _terms(entry.claim.text)
    shared = len(said & wanted)
    if section == topic.topic and shared >= 1:
        return True
    return bool(wanted) and shared >= 2 and shared >= 0.6 * len(wanted)


def _answers(entry: LedgerEntry) -> bool:
    return entry.claim.kind is ClaimKind.FACT and entry.decision is Decision.SUPPORTED


def addressed(
    entries: Sequence[LedgerEntry], topics: Sequence[RequiredTopic], sections: TopicMap
) -> dict[str, tuple[str, ...]]:
    """Claim id -> the topics it addresses (whatever its verdict)."""
    only_question = len(topics) == 1 and topics[0].status is None
    return {
        e.claim.claim_id: tuple(
            t.topic for t in topics if _addresses(e, t, sections.section_of.get(e.claim.claim_id), only_question)
        )
        for e in entries
    }


def map_answers(
    text: str,
    entries: Sequence[LedgerEntry],
    topics: Sequence[RequiredTopic],
    failed: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[list[LedgerEntry], tuple[Gap, ...]]:
    """``entries`` (the ledger of the delivered ``text``) with the topics each answers, and the gaps.

    ``failed`` maps the claims that failed verification (removed or marked) to the topics they
    addressed in the draft, so a gap can say that what the draft said about it did not survive."""
    sections = section_topics(text, topics)
    reach = addressed(entries, topics, sections)
    mapped = [replace(e, answers=reach[e.claim.claim_id] if _answers(e) else ()) for e in entries]
    answered = {topic for e in mapped for topic in e.answers}
    gaps = []
    for topic in topics:
        if topic.topic in answered:
            if topic.status is CoverageStatus.WEAK:
                # The report says so under the topic ("only partial or indirect support"): the
                # reader gets part of an answer, which is a gap to name, not a topic answered.
                gaps.append(Gap(topic.topic, GapReason.PARTIAL, (), topic.missing))
            continue
        lost = tuple(cid for cid, reached in (failed or {}).items() if topic.topic in reached)
        if lost:
            reason = GapReason.NOT_VERIFIED
        elif topic.status is CoverageStatus.MISSING or (topic.status is not None and not topic.quotes):
            reason = GapReason.NOT_FOUND
        else:
            reason = GapReason.NOT_ANSWERED
        gaps.append(
            Gap(topic.topic, reason, lost, topic.missing if topic.status is not CoverageStatus.COVERED else None)
        )
    return mapped, tuple(gaps)
