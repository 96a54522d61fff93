"""Coverage review: does the stored evidence answer each planned sub-question? (spec 4.4)

Two reviewers return the same :class:`~citewise.records.research.CoverageReview`:

* :func:`review_with_model` asks a model (prompt :data:`~citewise.research.prompts.REVIEW_PROMPT_VERSION`)
  for a status and the ids of the supporting sentences (``S1.3``) per topic, or verbatim quotes as
  text; citewise then checks the claims itself (:func:`verify_review`). Under review-v5 and v6 the
  reply is one line per topic (:func:`parse_review_text`; a JSON reply is read too; v6 asks for the
  topics not covered first, and a reply in any order is read the same), under review-v4 a
  JSON object by schema (:func:`parse_review_reply`): the same claims, verified the same way.
* :func:`review_deterministic` (in :mod:`citewise.research.review_deterministic`) needs no model:
  it looks for source sentences sharing the topic's key words.

What citewise checks, and what it does with a claim that fails (each failure is a line in
:attr:`CoverageReview.problems <citewise.records.research.CoverageReview.problems>`):

- a cited source id that names no stored source is dropped, from ``source_ids`` and with its quotes;
- a cited sentence id (:mod:`citewise.text.sentences`) becomes a quote whose text is that
  sentence **as stored**, never the reviewer's words; an id the excerpt does not have is kept as an
  unverified quote with no text (rejected like an invented quote), an id naming no stored source is
  dropped, and a string that is no sentence id at all is dropped;
- a quote is *verified* only when it occurs in that source's ``content`` after
  :func:`normalise_for_match` and is at least :data:`MIN_QUOTE_CHARS` long; an unverified quote is
  kept (``Quote.verified`` False, the reviewer's text as written) but supports nothing;
- **unverified coverage does not count**: ``covered`` and ``weak`` need at least one verified quote,
  ``conflicting`` needs verified quotes from two different sources (both sides shown). A claim
  without them is downgraded — to ``missing`` when no quote is verified (a cited source proves
  nothing by itself), to ``weak`` when a conflict has only one verified side; ``claimed_status``
  keeps what the reviewer said;
- topics are matched to the plan's topics by the id the reviewer was given (``T1`` is the first),
  or, in a reply that copies a topic's text instead, by that text (case, Unicode and whitespace
  aside); a planned topic the reviewer left out is ``missing``; a topic the reviewer added (an id
  or a text the plan does not have), or assessed twice, is ignored.

Follow-up queries never repeat a query already tried (compared case-insensitively, whitespace
folded): the reviewer's query is used when it is new, else one made from the topic's own words,
else there is none (``TopicCoverage.follow_up`` is None). Covered topics get none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from citewise.errors import RunError
from citewise.llm import ChatClient, ModelReplyError
from citewise.records.research import (
    CoverageReview,
    CoverageStatus,
    Quote,
    ResearchPlan,
    Source,
    TopicCoverage,
)
from citewise.research.matching import new_query, topic_queries, tried_key
from citewise.research.prompts import (
    REVIEW_PROMPT_VERSION,
    REVIEW_SCHEMA,
    REVIEW_SCHEMA_NAME,
    REVIEW_V4,
    build_review_messages,
    topic_id,
)
from citewise.research.review_deterministic import COVERED_SHARE, WEAK_SHARE, review_deterministic
from citewise.research.review_replies import ClaimedCoverage, ClaimedQuote, parse_review_reply, parse_review_text
from citewise.text.quotes import MIN_QUOTE_CHARS, normalise_for_match, quote_occurs
from citewise.text.sentences import parse_sentence_id, sentence_of, split_sentences

__all__ = [
    "COVERED_SHARE",
    "WEAK_SHARE",
    "ClaimedCoverage",
    "ClaimedQuote",
    "ReviewRejected",
    "parse_review_reply",
    "parse_review_text",
    "review_deterministic",
    "review_with_model",
    "verify_review",
]

_SUPPORTING = (CoverageStatus.COVERED, CoverageStatus.WEAK, CoverageStatus.CONFLICTING)


class ReviewRejected(RunError):
    """The reviewer's reply is unusable (not JSON, or not shaped like a review); nothing of it is used."""

    def __init__(self, reason: str, *, model: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        """What was wrong with the reply, for the run record."""
        self.model = model
        """The requested reviewer model."""


def review_with_model(
    client: ChatClient,
    model: str,
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    round: int,
    *,
    tried_queries: Iterable[str] = (),
    prompt_version: str = REVIEW_PROMPT_VERSION,
    on_line: Callable[[str], None] | None = None,
) -> CoverageReview:
    """Ask ``model`` to review ``plan``'s topics against ``sources``; the verified review.

    The reviewer sees the question, the topics, each source's id, title and ``content`` as numbered
    sentences and the queries already tried, all as JSON data. Under review-v7 (the default), v6 and v5
    it answers in lines (:func:`parse_review_text`); under review-v4 in JSON by the review schema, with
    structured output where the endpoint allows it. With ``on_line`` a line reply is streamed and
    ``on_line(line)`` gets each line of it as it arrives whole (the last one when the reply is in),
    and a line giving its query before its gap (review-v7) also up to the query as soon as that is
    whole, before the reply is validated. Its claims go through :func:`verify_review`. Raises
    :class:`ReviewRejected` for an unusable reply (chained to the model error); a failed call raises
    its :class:`~citewise.llm.ModelError` unchanged (retrying is the caller's decision, inside its
    budget).
    """
    tried = tuple(tried_queries)
    messages = build_review_messages(question, plan, sources, tried, version=prompt_version)
    try:
        if prompt_version == REVIEW_V4:
            claims, result = client.complete_json(
                model, messages, schema=REVIEW_SCHEMA, name=REVIEW_SCHEMA_NAME, validate=parse_review_reply
            )
        else:
            reader = _LineReader(on_line) if on_line is not None else None
            claims, result = client.complete_text(
                model, messages, validate=parse_review_text, on_text=reader.add if reader is not None else None
            )
            if reader is not None:
                reader.close()
    except ModelReplyError as exc:
        raise ReviewRejected(f"the reviewer's reply is not a usable review: {exc}", model=model) from exc
    return verify_review(claims, plan, sources, round=round, reviewer=result.model, tried_queries=tried)


_QUERY_WHOLE = re.compile(r"\|\s*query\s*:[^|]*\|", re.IGNORECASE)
"""A line's ``| query: ... |``: the query is whole once the bar after it has arrived (review-v7)."""


class _LineReader:
    """Hands each whole line of a streamed reply to ``on_line``, and a line whose query comes before
    its gap (review-v7) once more up to its query, as soon as the query is whole."""

    def __init__(self, on_line: Callable[[str], None]) -> None:
        self.on_line, self.rest, self.early = on_line, "", False

    def add(self, piece: str) -> None:
        *lines, self.rest = (self.rest + piece).split("\n")
        for line in lines:
            self.on_line(line)
        self.early = self.early and not lines  # a new line has begun: it may hand over its query too
        found = None if self.early else _QUERY_WHOLE.search(self.rest)
        if found is not None:
            self.early = True
            self.on_line(self.rest[: found.end() - 1])

    def close(self) -> None:
        if self.rest.strip():
            self.on_line(self.rest)
        self.rest = ""


def verify_review(
    claims: Sequence[ClaimedCoverage],
    plan: ResearchPlan,
    sources: Sequence[Source],
    *,
    round: int,
    reviewer: str,
    tried_queries: Iterable[str] = (),
) -> CoverageReview:
    """The review that ``claims`` amount to once checked against ``sources`` (module docstring)."""
    known = {source.source_id: source for source in sources}
    tried = {tried_key(q) for q in tried_queries}
    problems: list[str] = []
    by_topic: dict[str, ClaimedCoverage] = {}
    planned = {_topic_key(topic) for topic in plan.topics}
    ids = {topic_id(n).casefold(): _topic_key(topic) for n, topic in enumerate(plan.topics, 1)}
    for claim in claims:
        key = ids.get(claim.topic.strip().casefold()) or _topic_key(claim.topic)
        if key not in planned:
            problems.append(f"the reviewer added a topic that is not in the plan (ignored): {_short(claim.topic)!r}")
        elif key in by_topic:
            problems.append(f"the reviewer assessed {_short(claim.topic)!r} twice; the first assessment is used")
        else:
            by_topic[key] = claim
    items = []
    for topic in plan.topics:
        assessed = by_topic.get(_topic_key(topic))
        if assessed is None:
            problems.append(f"the reviewer did not assess {_short(topic)!r}; it counts as missing")
            items.append(_unassessed(topic, tried))
        else:
            items.append(_verified(topic, assessed, known, tried, problems))
    return CoverageReview(round=round, items=tuple(items), reviewer=reviewer, problems=tuple(problems))


def _verified(
    topic: str, claim: ClaimedCoverage, known: dict[str, Source], tried: set[str], problems: list[str]
) -> TopicCoverage:
    where = _short(topic)
    for source_id in dict.fromkeys(claim.source_ids):
        if source_id not in known:
            problems.append(f"{where!r}: unknown source id {source_id!r} dropped")
    quotes = _sentence_quotes(where, claim.sentence_ids, known, problems)
    for claimed in claim.quotes:
        source = known.get(claimed.source_id)
        if source is None:
            problems.append(f"{where!r}: quote from unknown source id {claimed.source_id!r} dropped")
            continue
        verified = quote_occurs(claimed.quote, source.content)
        if not verified:
            problems.append(f"{where!r}: quote not found in {claimed.source_id}: {_short(claimed.quote)!r}")
        quotes.append(Quote(source_id=claimed.source_id, text=claimed.quote, verified=verified))
    status, why = _status_after_verification(claim.status, quotes)
    gap = claim.gap
    if why is not None:
        problems.append(f"{where!r}: claimed {claim.status.value}, counted as {status.value}: {why}")
        gap = f"{gap} ({why})" if gap else why
    cited = [s for s in (*claim.source_ids, *(q.source_id for q in quotes)) if s in known]
    follow_up = None
    if status is not CoverageStatus.COVERED:
        follow_up = new_query((claim.follow_up_query, *topic_queries(topic)), tried)
    return TopicCoverage(
        topic=topic,
        status=status,
        claimed_status=claim.status,
        source_ids=tuple(dict.fromkeys(cited)),
        quotes=tuple(quotes),
        gap=gap,
        follow_up=follow_up,
    )


def _sentence_quotes(
    where: str, sentence_ids: Sequence[str], known: dict[str, Source], problems: list[str]
) -> list[Quote]:
    """The cited sentences as quotes, their text taken from the stored excerpt (module docstring)."""
    quotes: list[Quote] = []
    for cited in dict.fromkeys(sentence_ids):
        parsed = parse_sentence_id(cited)
        if parsed is None:
            problems.append(f"{where!r}: {_short(cited)!r} is not a sentence id such as S1.3; dropped")
            continue
        source_id, number = parsed
        source = known.get(source_id)
        if source is None:
            problems.append(f"{where!r}: sentence id {cited!r} names unknown source id {source_id!r}; dropped")
            continue
        sentence = sentence_of(source_id, source.content, number)
        if sentence is None:
            count = len(split_sentences(source_id, source.content))
            problems.append(f"{where!r}: sentence id {cited!r} not in {source_id}, whose excerpt has {count} sentences")
            quotes.append(Quote(source_id=source_id, text="", verified=False, sentence_id=cited))
            continue
        # A sentence too short to say anything ("Yes.") supports nothing, as a short quote does not.
        verified = len(normalise_for_match(sentence.text)) >= MIN_QUOTE_CHARS
        if not verified:
            problems.append(f"{where!r}: sentence {cited} is too short to support anything")
        quotes.append(
            Quote(source_id=source_id, text=sentence.text, verified=verified, sentence_id=sentence.sentence_id)
        )
    return quotes


def _status_after_verification(claimed: CoverageStatus, quotes: Sequence[Quote]) -> tuple[CoverageStatus, str | None]:
    """The status that the verified quotes support, and why it differs from the claim (or None)."""
    if claimed not in _SUPPORTING:
        return claimed, None
    verified_sources = {q.source_id for q in quotes if q.verified}
    if not verified_sources:
        return CoverageStatus.MISSING, "no verified quote supports it"
    if claimed is CoverageStatus.CONFLICTING and len(verified_sources) < 2:
        return CoverageStatus.WEAK, "only one side of the conflict has a verified quote"
    return claimed, None


def _unassessed(topic: str, tried: set[str]) -> TopicCoverage:
    return TopicCoverage(
        topic=topic,
        status=CoverageStatus.MISSING,
        claimed_status=CoverageStatus.MISSING,
        source_ids=(),
        quotes=(),
        gap="the reviewer did not assess this topic",
        follow_up=new_query(topic_queries(topic), tried),
    )


# -- helpers ----------------------------------------------------------------------------------


def _topic_key(topic: str) -> str:
    return normalise_for_match(topic).casefold().rstrip("?？ ")


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
