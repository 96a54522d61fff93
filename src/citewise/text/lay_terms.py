"""Everyday Korean words read as the statute's words: 집주인 as 임대인, 월급 as 임금, 잘리다 as 해고.

A layperson asks in the words people speak; the statute says the same thing in its own. Without a
bridge the lexical search, the relevance gate's coverage and the composer's choice of sentence see
nothing in common between "집주인이 보증금을 안 돌려줘요" and the article on the 임대인's duty to
return it. The bridge is a reviewed data table shipped with the package
(``citewise/data/kr_lay_terms.tsv``, its origin in its header), read once.

A question is matched by its Kiwi morphemes, the same analysis as its content terms
(:mod:`citewise.answer.question`): each row's everyday word is analysed once into its content
morphemes (집주인 → 집, 주인; 잘리다 → 잘리), and a row applies where those morphemes follow one another
in the question or spell the word together (Kiwi finds 집주인 whole in one sentence, 집 + 주인 in
another). The longest word is tried first and each morpheme of the question is read once, so 집주인
is read as 임대인 and its 집 is not read again as 주택. A row may be a phrase whose words mean together what
neither says alone (집주인 바뀌다: a new landlord is the statute's 양수인); it is matched where its
words' morphemes follow one another, and being longer it is read before its words.

A reading *adds* the statute terms: the question's own terms stay, and each stage weighs a statute
term no higher than the word it stands for (:func:`reading_search_terms`).

>>> [(r.lay, r.statute) for r in lay_readings("집주인이 월급을 안 줘요")]
[('집주인', ('임대인',)), ('월급', ('임금',))]
>>> lay_readings("How long does a lease last?")
()
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from citewise.text.analyze import RUN_BIGRAM_MARK, index_terms, kiwi_morphemes

__all__ = ["LayReading", "LayTerm", "lay_readings", "lay_terms", "reading_search_terms", "statute_terms_for"]

_TABLE = "data/kr_lay_terms.tsv"
# The morphemes a word is matched by: nouns, numerals, roots, verb and adjective stems, as a question's
# content terms are (a suffix is not one: 사장님 is matched as 사장, 알바생 as 알바), and words in Latin
# letters in a Korean text (CCTV, matched lower-cased).
_CONTENT_TAGS = frozenset({"NNG", "NNP", "NR", "XR", "VV", "VA", "SL"})
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True, slots=True)
class LayTerm:
    """One row of the table: an everyday word and the statute terms it is read as."""

    lay: str
    """The everyday word as the table writes it (a verb in its dictionary form: 잘리다)."""
    statute: tuple[str, ...]
    """The statute terms it is read as, in the table's order."""
    field: str
    """The field the row belongs to (housing, labour, tax ...)."""
    morphemes: tuple[str, ...]
    """The word's content morphemes, which a question is matched by (집주인 → 집, 주인)."""


@dataclass(frozen=True, slots=True)
class LayReading:
    """An everyday word of a question read as the statute's terms."""

    lay: str
    """The everyday word (the table's form: 잘리다 for 잘렸어요)."""
    morphemes: tuple[str, ...]
    """The question's morphemes it was found as (집, 주인): its content terms that the reading stands for."""
    statute: tuple[str, ...]
    """The statute terms the word was read as."""


def _content(text: str) -> tuple[str, ...]:
    # A word in Latin letters (CCTV) is matched lower-cased, as a question's English terms are.
    return tuple(
        form.lower() if tag == "SL" else form
        for form, tag in kiwi_morphemes(text)
        if tag.split("-", 1)[0] in _CONTENT_TAGS
    )


@lru_cache(maxsize=1)
def lay_terms() -> tuple[LayTerm, ...]:
    """The table's rows, longest word first; read and analysed once.

    A row whose word Kiwi does not analyse into content morphemes that spell it (재계약 loses its 재,
    일꾼 its 꾼: they would be read wherever 계약 or 일 is) is an error of the table."""
    rows: list[LayTerm] = []
    text = resources.files("citewise").joinpath(_TABLE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("lay\t"):
            continue
        lay, statute, field = (cell.strip() for cell in line.split("\t"))
        lay = unicodedata.normalize("NFC", lay)
        morphemes = _content(lay)
        spelled = lay.replace(" ", "")  # a phrase (집주인 바뀌다) is matched by its words' morphemes in a row
        if "".join(morphemes) not in (spelled.lower(), spelled.removesuffix("다")) or not morphemes:
            raise ValueError(f"{_TABLE}: {lay!r} is analysed as {morphemes!r}, which do not spell it")
        terms = tuple(t.strip() for t in statute.split(",") if t.strip())
        rows.append(LayTerm(lay, terms, field, morphemes))
    return tuple(sorted(rows, key=lambda r: -len("".join(r.morphemes))))


def statute_terms_for(word: str) -> tuple[str, ...]:
    """The statute terms one everyday word of the table is read as (CCTV → 영상정보처리기기), or ()
    when the word is not in the table.

    >>> statute_terms_for("cctv"), statute_terms_for("집주인"), statute_terms_for("urllib")
    (('영상정보처리기기',), ('임대인',), ())
    """
    spelled = "".join(_content(unicodedata.normalize("NFC", word)))
    return next((row.statute for row in lay_terms() if "".join(row.morphemes) == spelled), ()) if spelled else ()


def lay_readings(text: str) -> tuple[LayReading, ...]:
    """The everyday words of ``text`` read as statute terms, in the order they occur (none for a text
    without Hangul)."""
    return _readings(unicodedata.normalize("NFC", text))


@lru_cache(maxsize=1024)
def _readings(text: str) -> tuple[LayReading, ...]:
    if not _HANGUL.search(text):
        return ()
    # Hangul and Latin letters (CCTV) are read; digits and signs would only split words.
    words = "".join(ch if _HANGUL.match(ch) or _LATIN.match(ch) or ch.isspace() else " " for ch in text)
    morphemes = _content(words)
    taken = [False] * len(morphemes)
    found: list[tuple[int, LayReading]] = []
    for row in lay_terms():
        word = "".join(row.morphemes)
        for start in range(len(morphemes)):
            end = _spelled(morphemes, start, word)
            if end is not None and not any(taken[start:end]):
                taken[start:end] = [True] * (end - start)
                found.append((start, LayReading(row.lay, morphemes[start:end], row.statute)))
    found.sort(key=lambda pair: pair[0])
    return tuple(dict.fromkeys(reading for _, reading in found))


def _spelled(morphemes: tuple[str, ...], start: int, word: str) -> int | None:
    """The end of the run of ``morphemes`` from ``start`` that spells ``word`` (Kiwi analyses 집주인 as
    one noun in one sentence and as 집 + 주인 in another), or None."""
    spelled = ""
    for end in range(start, len(morphemes)):
        spelled += morphemes[end]
        if spelled == word:
            return end + 1
        if not word.startswith(spelled):
            return None
    return None


def reading_search_terms(readings: tuple[LayReading, ...]) -> list[str]:
    """The index terms a search adds for ``readings``: each statute term's words as the index holds them
    (임대인; 단시간근로자 → 단시간, 근로자, 단시간근로자), without the character bigrams the question's
    own words are also looked up by — so a statute term weighs less than the word it stands for, which
    matches in both fields."""
    terms: dict[str, None] = {}
    for reading in readings:
        for statute in reading.statute:
            words = [term for term in index_terms(statute) if not term.startswith(RUN_BIGRAM_MARK)]
            # Analysed alone, a short noun can read as a verb and its ending (차임 as 차 + 임, 서면 as
            # 서 + 면) and leave no word; in the statute's sentences it is the noun the index holds.
            for term in words or ([statute] if _HANGUL_WORD.fullmatch(statute) else []):
                terms.setdefault(term, None)
    return list(terms)
