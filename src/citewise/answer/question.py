"""A question analysed once: its content terms, what kind of answer it asks for, its language.

The relevance gate (:mod:`citewise.answer.relevance`) and the deterministic composer
(:mod:`citewise.answer.deterministic`) read this one record instead of each re-tokenising the text.

**Content terms** are what the question is about: for Korean, the nouns, numerals, roots and verb
and adjective stems Kiwi finds (``kiwipiepy``, whose model ships in ``kiwipiepy-model``; particles,
endings and light verbs dropped); for English, lower-cased Snowball stems minus stop words. The
words that only shape a question (어떻게, 얼마, 무엇, how, what) are not content terms: they say what
kind of answer is wanted, which is the **intent**.

**Readings** are the question's everyday words read as the statute's (집주인 as 임대인, 월급 as 임금:
:mod:`citewise.text.lay_terms`). They add to the terms, never replace them: the search also looks up
the statute terms, and the relevance gate and the composer count a term as found when the term or its
statute reading is (:meth:`Question.alternatives`). They are kept on the record so that what the
question was read as can be shown.

Example::

    q = analyse_question("임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요")
    q.terms     # ('임대차', '기간', '끝나', '보증금', '돌려받')
    q.intent    # Intent.PROCEDURE
    analyse_question("집주인이 보증금을 안 돌려줘요").readings
    # (LayReading(lay='집주인', morphemes=('집주인',), statute=('임대인',)), LayReading(lay='돌려주다', ...))
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from citewise.text.analyze import english_stems, kiwi_morphemes
from citewise.text.articles import ARTICLE_REFERENCE
from citewise.text.lay_terms import LayReading, lay_readings

__all__ = ["Intent", "Question", "analyse_question", "text_terms"]


class Intent(str, enum.Enum):
    """What kind of answer a question asks for."""

    DEFINITION = "definition"  #: what something is or means (정의, 뜻, what is)
    PROCEDURE = "procedure"  #: what to do, how (어떻게, 방법, 절차, how do)
    DURATION = "duration"  #: how long (기간, 얼마 동안, how long)
    AMOUNT = "amount"  #: how much or how many (얼마, 금액, 몇, how much)
    TIME = "time"  #: when, by when (언제, 기한, 며칠, when)
    PENALTY = "penalty"  #: the sanction (벌칙, 처벌, 과태료, penalty)
    GENERAL = "general"  #: none of these


# Cue words per intent, checked in this order (the first intent whose cue occurs wins): the
# sanction first, then the question words (어떻게, 얼마, 언제 say more than the nouns beside them),
# then the nouns that ask for a kind of answer (정의, 기간, 절차).
_INTENT_CUES: tuple[tuple[Intent, tuple[str, ...]], ...] = (
    (Intent.PENALTY, ("벌칙", "처벌", "과태료", "벌금", "penalt", "punish", "fine ")),
    # "어떻게 되나요" asks what follows, not what to do: no kind of answer is asked for.
    (Intent.GENERAL, ("어떻게되", "어떻게돼", "어떻게된", "what happens")),
    (Intent.PROCEDURE, ("어떻게", "어찌", "how do", "how can", "how to", "what should")),
    (Intent.DURATION, ("얼마동안", "기간은얼마", "기간이얼마", "몇년", "몇개월", "how long")),
    (Intent.TIME, ("언제", "며칠", "when ")),
    (Intent.AMOUNT, ("얼마", "몇", "how much", "how many")),
    (Intent.DEFINITION, ("정의", "뜻", "의미", "무엇인", "뭔가요", "what is", "what are", "define", "meaning")),
    (Intent.DURATION, ("기간",)),
    (Intent.TIME, ("기한",)),
    (Intent.AMOUNT, ("금액",)),
    (Intent.PROCEDURE, ("방법", "절차", "해야", "하나요")),
)

# Words that shape a question without saying what it is about (after Kiwi: stems and nouns).
_KO_FUNCTION = frozenset(
    "어떻 어떤 무엇 뭐 언제 얼마 어디 누구 왜 경우 때 수 것 등 알 궁금 관하 대하 관련 되 하 있 없 같 않 이 아니 "
    "말 주 보 받 싶 나 제 조 항 호".split()
)
_EN_STOP = frozenset(
    """
    a an and are as at be been but by can could did do does for from had has have how i if in into is it
    its may might must my no not of on or shall should so such than that the their them then there these
    they this those to was were what when where which who whom why will with would you your me we our us
    get gets got need needs want tell explain about any some
    """.split()
)
_KEEP_TAGS = frozenset({"NNG", "NNP", "NR", "SN", "XR", "SH", "VV", "VA", "VV-R", "VA-R", "VV-I", "VA-I"})
_WORD = re.compile(r"[a-z][a-z0-9]*|[0-9]+")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")


@lru_cache(maxsize=4096)
def _korean_terms(text: str) -> tuple[str, ...]:
    terms = []
    for form, tag in kiwi_morphemes(text):
        if tag in _KEEP_TAGS and form not in _KO_FUNCTION:
            terms.append(form)
    return tuple(terms)


def _english_terms(text: str) -> list[str]:
    words = [w for w in _WORD.findall(text.lower()) if w not in _EN_STOP and (len(w) > 1 or w.isdigit())]
    return english_stems(words)


@lru_cache(maxsize=8192)
def text_terms(text: str) -> frozenset[str]:
    """The content terms of a passage or sentence (the same analysis as a question's)."""
    text = unicodedata.normalize("NFC", text)
    hangul = "".join(ch if _HANGUL.match(ch) or ch.isspace() else " " for ch in text)
    return frozenset(_korean_terms(hangul) if hangul.strip() else ()) | frozenset(_english_terms(text))


@dataclass(frozen=True, slots=True)
class Question:
    """A question as every later stage reads it."""

    text: str
    """The question as asked."""
    terms: tuple[str, ...]
    """Its content terms, in order, without repeats."""
    intent: Intent
    """What kind of answer it asks for."""
    language: str
    """``ko`` when it has Hangul, else ``en``."""
    readings: tuple[LayReading, ...] = ()
    """Its everyday words read as the statute's terms (집주인 → 임대인), in the order they occur."""

    def alternatives(self, term: str) -> tuple[str, ...]:
        """The statute terms content term ``term`` was read as (임대인 for 집주인's 집 and 주인); none
        for a term no reading stands for."""
        return tuple(dict.fromkeys(s for r in self.readings if term in r.morphemes for s in r.statute))


def _intent(text: str) -> Intent:
    squashed = re.sub(r"\s+", "", text)
    spaced = re.sub(r"\s+", " ", text.lower()) + " "
    for intent, cues in _INTENT_CUES:
        if any((cue in spaced) if cue.isascii() else (cue in squashed) for cue in cues):
            return intent
    return Intent.GENERAL


def analyse_question(text: str) -> Question:
    """``text`` analysed once — content terms, intent and language — and the same typed value for
    every stage that reads the question (triage, relevance, the composer)."""
    return _analysed(unicodedata.normalize("NFC", text))


@lru_cache(maxsize=256)
def _analysed(text: str) -> Question:
    return _analyse(text)


def _analyse(text: str) -> Question:
    # An article reference (제2조, § 5) is a named provision, resolved apart; its number is no topic.
    topic = ARTICLE_REFERENCE.sub(" ", text)
    hangul = "".join(ch if _HANGUL.match(ch) or ch.isspace() else " " for ch in topic)
    terms = [*(_korean_terms(hangul) if hangul.strip() else ()), *_english_terms(topic)]
    language = "ko" if _HANGUL.search(text) else "en"
    return Question(text, tuple(dict.fromkeys(terms)), _intent(text), language, lay_readings(topic))
