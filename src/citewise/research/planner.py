"""Planning: a question becomes a stable checklist of 2–5 sub-questions and 1–3 first queries.

Two planners return the same :class:`~citewise.records.research.ResearchPlan`:

* :func:`plan_with_model` asks a planner model (structured output, prompt
  :data:`~citewise.research.prompts.PLAN_PROMPT_VERSION`) and validates the reply. An invalid plan
  raises :class:`PlanRejected` and the run stops: a plan is never repaired, trimmed or replaced by
  another one, because that would silently change the goal of the run (spec 4.2).
* :func:`plan_deterministic` needs no model: the question's clauses become sub-questions and its
  key terms become queries.

>>> plan = plan_deterministic("When does a tenant gain priority, and how is the deposit returned?")
>>> plan.topics
('When does a tenant gain priority?', 'How is the deposit returned?')
>>> plan.queries
('tenant gain priority deposit returned', 'deposit returned tenant')
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Final

from citewise.errors import InputError, RunError
from citewise.llm import ChatClient, ModelReplyError, expect_object, expect_str_list
from citewise.records.research import ResearchPlan
from citewise.research.prompts import (
    MAX_QUERIES,
    MAX_TEXT_CHARS,
    MAX_TOPICS,
    MIN_QUERIES,
    MIN_TOPICS,
    PLAN_PROMPT_VERSION,
    PLAN_SCHEMA,
    PLAN_SCHEMA_NAME,
    build_plan_messages,
)
from citewise.text.analyze import analyze, strip_particle

__all__ = [
    "FACET_SEPARATOR",
    "QUESTION_WORDS",
    "PlanRejected",
    "key_words",
    "plan_deterministic",
    "plan_with_model",
    "streamed_strings",
    "validate_plan",
]

DETERMINISTIC: Final = "deterministic"

FACET_SEPARATOR: Final = " — "
"""Joins a question to an aspect (``... — key facts and figures``) in deterministic topics. The
deterministic reviewer matches only the part before it: the aspect guides the reader, not search."""

_FACETS: Final = ("key facts and figures", "sources and dates")
_FACETS_KO: Final = ("핵심 사실과 수치", "출처와 날짜")

QUESTION_WORDS: Final = frozenset(
    """
    how what when where which who whom whose why does do did is are can could should would
    언제 어떻게 몇 무엇 무엇을 무엇이 무엇인가 무엇인가요 뭐 뭔가요 왜 누가 누구 어디 어디서 어디에 얼마 얼마나
    어느 무슨 어떤 인가요 나요 있나요 되나요 하나요 합니까 입니까
    """.split()
)
"""Interrogatives that carry no search meaning; dropped from key words (compared case-folded)."""


class PlanRejected(RunError):
    """The planner's reply is not a valid plan; the run stops rather than change its goal."""

    def __init__(self, reason: str, *, model: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        """What was wrong with the reply, for the run record."""
        self.model = model
        """The requested planner model, or None."""


# -- the model planner ------------------------------------------------------------------------


def validate_plan(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(topics, queries)`` from a decoded planner reply, or :class:`ValueError` naming the field.

    Both lists hold non-empty strings (stripped) of at most
    :data:`~citewise.research.prompts.MAX_TEXT_CHARS` characters, unique case-insensitively; 2–5
    topics and 1–3 queries. Nothing is dropped or shortened to make a reply fit.

    >>> validate_plan({"topics": ["a?", "b?"], "queries": ["a b"]})
    (('a?', 'b?'), ('a b',))
    >>> validate_plan({"topics": ["a?", "A? "], "queries": ["a"]})
    Traceback (most recent call last):
    ...
    ValueError: topics repeats 'A?'
    """
    reply = expect_object(value, keys=("topics", "queries"))
    extra = sorted(set(reply) - {"topics", "queries"})
    if extra:
        raise ValueError(f"reply has unexpected fields: {', '.join(extra)}")
    topics = expect_str_list(
        reply["topics"], field="topics", min_items=MIN_TOPICS, max_items=MAX_TOPICS, max_chars=MAX_TEXT_CHARS
    )
    queries = expect_str_list(
        reply["queries"], field="queries", min_items=MIN_QUERIES, max_items=MAX_QUERIES, max_chars=MAX_TEXT_CHARS
    )
    return topics, queries


def plan_with_model(
    client: ChatClient, model: str, question: str, on_query: Callable[[str], None] | None = None
) -> ResearchPlan:
    """Ask ``model`` for a plan of ``question``; the validated :class:`ResearchPlan`.

    The question travels as JSON data, never inside the instructions. Raises :class:`PlanRejected`
    when the reply is unusable (not JSON, invalid by :func:`validate_plan`, truncated, refused,
    empty), chained to the model error. Failed calls (timeout, rate limit, auth ...) raise their
    :class:`~citewise.llm.ModelError` unchanged: whether to retry, inside the budget, is the
    caller's decision. Every call, failed or not, is in ``client.calls`` with its token usage.

    With ``on_query`` the reply is streamed, and ``on_query(query)`` is called for each query as
    soon as the reply holds it whole (:func:`streamed_strings`), before the plan is validated: a
    query named that way is not a plan yet, and the reply may still be rejected.
    """
    question = _checked_question(question)
    messages = build_plan_messages(question)
    try:
        if on_query is None:
            (topics, queries), result = client.complete_json(
                model, messages, schema=PLAN_SCHEMA, name=PLAN_SCHEMA_NAME, validate=validate_plan
            )
        else:
            (topics, queries), result = client.stream_json(
                model,
                messages,
                schema=PLAN_SCHEMA,
                name=PLAN_SCHEMA_NAME,
                validate=validate_plan,
                on_text=_query_reader(on_query),
            )
    except ModelReplyError as exc:
        raise PlanRejected(f"the planner's reply is not a valid plan: {exc}", model=model) from exc
    return ResearchPlan(topics=topics, queries=queries, planner=result.model, prompt_version=PLAN_PROMPT_VERSION)


def _query_reader(on_query: Callable[[str], None]) -> Callable[[str], None]:
    """``on_text`` for a streamed plan: ``on_query`` once for each query as it arrives whole."""
    text: list[str] = []
    given = 0

    def on_text(piece: str) -> None:
        nonlocal given
        text.append(piece)
        found = streamed_strings("".join(text), "queries")
        for query in found[given:]:
            on_query(query)
        given = max(given, len(found))

    return on_text


_DECODER = json.JSONDecoder()
_SEPARATOR = re.compile(r"[\s,]*")
_BLANK = re.compile(r"\s*")


def streamed_strings(text: str, key: str) -> list[str]:
    """The strings of the top-level array ``key`` that ``text``, the start of a JSON object, holds
    whole; the array may come before or after the other fields, and the text may stop anywhere.

    >>> streamed_strings('{"queries": ["a b", "c', "queries")
    ['a b']
    >>> streamed_strings('{"topics": ["a?", "b?"], "queries": ["q"', "queries")
    ['q']
    """
    start = text.find("{")
    if start < 0:
        return []
    i = start + 1
    try:
        while True:
            i = _skip(_SEPARATOR, text, i)
            if text[i : i + 1] != '"':
                return []
            name, i = _DECODER.raw_decode(text, i)
            i = _skip(_BLANK, text, i)
            if text[i : i + 1] != ":":
                return []
            i = _skip(_BLANK, text, i + 1)
            if name == key:
                return _array_strings(text, i)
            _, i = _DECODER.raw_decode(text, i)  # another field's whole value, or it stops here
    except ValueError:
        return []


def _array_strings(text: str, i: int) -> list[str]:
    found: list[str] = []
    if text[i : i + 1] != "[":
        return found
    i += 1
    while True:
        i = _skip(_SEPARATOR, text, i)
        if text[i : i + 1] != '"':
            return found
        try:
            value, i = _DECODER.raw_decode(text, i)
        except ValueError:  # the string has not arrived whole
            return found
        found.append(value)


def _skip(pattern: re.Pattern[str], text: str, i: int) -> int:
    match = pattern.match(text, i)
    return match.end() if match is not None else i


# -- the deterministic planner ----------------------------------------------------------------

# Clause boundaries: end of a question or sentence, semicolons, "and"/그리고/및 joining clauses,
# commas. A split is kept only when both sides carry enough key words (see _split_clause), so
# "terms and conditions" stays one clause.
_HARD_BREAK = re.compile(r"(?<=[?？;；!！])\s*|(?<=[.。])\s+")
_SOFT_BREAK = re.compile(r"(\s*,\s*(?:and\s+|그리고\s+)?|\s+(?:and|그리고|및)\s+)", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
# A Korean connective ending (생기고, 있으며) between two interrogatives joins two questions:
# "대항력은 언제 생기고 보증금은 어떻게 돌려받나요?"; the first becomes "... 생기나요?".
_KO_CONNECTIVE = re.compile(r"(?:고|으며|며|면서)$")
# Question endings of a Korean word (돌려받나요 → 돌려받, 얼마인가요 → 얼마) dropped from key words.
_QUESTION_ENDING = re.compile(r"(?:인가요|인가|은가요|는가요|나요|까요|습니까|입니까|가요)$")
_MIN_CLAUSE_WORDS = 2


def key_words(text: str) -> list[str]:
    """The words of ``text`` that carry search meaning, in order, repeats dropped.

    Stop words and interrogatives (:data:`QUESTION_WORDS`) are dropped; a Korean word loses its
    particle (대항력은 → 대항력). Words keep their written form otherwise, so they read well in
    a query or a gap description.

    >>> key_words("주택임대차보호법에서 대항력은 언제 생기나요?")
    ['주택임대차보호법', '대항력', '생기']
    >>> key_words("What are the terms and conditions?")
    ['terms', 'conditions']
    """
    words: dict[str, str] = {}
    for match in _WORD.finditer(unicodedata.normalize("NFKC", text)):
        word = match.group()
        if word.casefold() in QUESTION_WORDS:
            continue
        if _HANGUL_WORD.fullmatch(word):
            word = _QUESTION_ENDING.sub("", word) or word
        terms = analyze(word)
        if not terms:
            continue  # a stop word
        shown = strip_particle(word) if _HANGUL_WORD.fullmatch(word) else word
        if shown.casefold() in QUESTION_WORDS or (_HANGUL_WORD.fullmatch(shown) and len(shown) < 2):
            continue  # one Korean syllable left (수, 번, 것) says too little to search for
        words.setdefault(" ".join(terms).casefold(), shown)
    return list(words.values())


def plan_deterministic(question: str) -> ResearchPlan:
    """A plan without a model: the question's clauses as sub-questions, its key words as queries.

    A one-clause question gets two more topics, aspects of itself joined with
    :data:`FACET_SEPARATOR` (key facts and figures; sources and dates), so there are always at
    least two. Beyond five clauses the rest are merged into the fifth. Queries: the whole
    question's key words, then one per further clause (its key words plus the question's first key
    word, for context), at most three, never repeated.
    """
    question = _checked_question(question)
    clauses = _clauses(question)
    if len(clauses) > MAX_TOPICS:
        clauses = [*clauses[: MAX_TOPICS - 1], " ".join(clauses[MAX_TOPICS - 1 :])]
    topics = _unique([_shorten(c) for c in clauses])
    if len(topics) < MIN_TOPICS:
        base = topics[0].rstrip("?？ ")
        facets = _FACETS_KO if _mostly_hangul(question) else _FACETS
        topics = _unique([*topics, *(_with_facet(base, facet) for facet in facets)])
    queries = _queries(question, clauses)
    return ResearchPlan(topics=tuple(topics), queries=tuple(queries), planner=DETERMINISTIC)


def _checked_question(question: str) -> str:
    if not isinstance(question, str) or not question.strip():
        raise InputError("the research question is empty")
    return " ".join(question.split())


def _clauses(question: str) -> list[str]:
    pieces = [p.strip() for p in _HARD_BREAK.split(question) if p and p.strip()]
    clauses: list[str] = []
    for piece in pieces:
        for part in _split_soft(piece):
            clauses.extend(_split_korean(part))
    return [_as_question(c, question) for c in clauses if key_words(c)] or [question]


def _split_soft(piece: str) -> list[str]:
    """``piece`` split at commas and and/그리고/및, keeping only splits whose both sides are clauses."""
    tokens = _SOFT_BREAK.split(piece)
    parts, separators = tokens[0::2], tokens[1::2]
    merged = [parts[0]]
    for separator, part in zip(separators, parts[1:], strict=True):
        if _is_clause(merged[-1]) and _is_clause(part):
            merged.append(part)
        else:  # a list of nouns, "terms and conditions": keep the text as written
            merged[-1] += separator + part
    return [m for m in merged if m.strip()]


def _is_clause(text: str) -> bool:
    return len(key_words(text)) >= _MIN_CLAUSE_WORDS


def _split_korean(clause: str) -> list[str]:
    words = clause.split()
    asks = [i for i, w in enumerate(words) if _strip_punct(w) in QUESTION_WORDS and _HANGUL_WORD.search(w)]
    if len(asks) < 2:
        return [clause]
    for i in range(asks[0] + 1, asks[1]):
        if _KO_CONNECTIVE.search(_strip_punct(words[i])):
            first, second = " ".join(words[: i + 1]), " ".join(words[i + 1 :])
            if _is_clause(first) and _is_clause(second):
                return [_KO_CONNECTIVE.sub("나요", first), *_split_korean(second)]
    return [clause]


def _strip_punct(word: str) -> str:
    return word.strip("?？!！.,;:'\"“”‘’()[]").casefold()


def _as_question(clause: str, question: str) -> str:
    """A clause as a self-contained sub-question: capitalised, ending like the question does."""
    text = clause.strip().rstrip(",;；")
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if question.rstrip().endswith(("?", "？")) and not text.endswith(("?", "？", ".", "。")):
        text += "?"
    return text


def _queries(question: str, clauses: Sequence[str]) -> list[str]:
    whole = key_words(question)
    candidates = [" ".join(whole)]
    for clause in clauses[1:]:
        words = key_words(clause)
        if whole and whole[0] not in words:
            words.append(whole[0])
        candidates.append(" ".join(words))
    return _unique([_shorten(c) for c in candidates if c.strip()])[:MAX_QUERIES] or [_shorten(question)]


def _unique(items: Sequence[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(item.casefold(), item)
    return list(seen.values())


def _shorten(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    head = head.rsplit(" ", 1)[0] if " " in head else head
    return f"{head}…"


def _with_facet(base: str, facet: str) -> str:
    suffix = f"{FACET_SEPARATOR}{facet}"
    return _shorten(base, MAX_TEXT_CHARS - len(suffix)) + suffix


def _mostly_hangul(text: str) -> bool:
    hangul = len(_HANGUL_WORD.findall(text))
    return hangul > 0 and hangul >= len(_WORD.findall(text)) / 2
