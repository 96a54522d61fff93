"""Names traded for another name the page also uses.

The figure, date and name rules ask whether each name of a claim occurs near its span; a claim
that takes a statement of the span and gives it to another name *of the same page* passes them:
"the optional source_address parameter sets the buffer size …" where the span reads "the optional
blocksize parameter sets the buffer size …" and source_address is the subject of the sentence
before; "임대인이 임차인의 권리와 의무를 승계한다" where the span gives them to "사실상의 혼인 관계에
있는 자" and 임대인 is named in the next paragraph. Two checks, each on the claim against its span:

- :func:`traded_name`: a clause of the claim that is a clause of the span word for word except for
  one word, where the span has other words instead, and that word is one the page uses elsewhere
  (a name of the page: a parameter, a component, a party, a body), not one of the span's clause.
  A paraphrase rewords a clause: it rarely keeps every other word in place and brings, in the
  one slot it changes, a word of another sentence of the same page.
- :func:`section_name`: a PEP a clause of the claim credits where the sentence it rests on names
  another ("PEP 646 introduced TypeVar" against "PEP 484 previously introduced TypeVar") or, naming
  none, stands in a section headed by another ("PEP 484 introduces the new Self annotation"
  against "The new Self annotation provides …" under "PEP 673: Self type", where PEP 484 is named,
  in the next sentence, as the older way).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from citewise.text.analyze import analyze
from citewise.text.lay_terms import statute_terms_for
from citewise.text.quotes import normalise_for_match
from citewise.text.sentences import split_answer_sentences
from citewise.verify.claims import PARAGRAPH_MARKS
from citewise.verify.figures import as_digits

__all__ = ["entity_present", "section_name", "traded_name"]

_WORD = re.compile(r"[\w'·ㆍ]+(?:\(\))?")
_CLAUSE_BREAK = re.compile(r",\s+(?:and\s+|but\s+|or\s+|so\s+)?|;\s+|:\s+|(?<=[가-힣])(?:며|고),\s+")
_ARTICLES: Final = frozenset({"the", "a", "an"})
_KO_PARTICLE = re.compile(r"(?:에게서|으로부터|로부터|에게|한테|에서|으로|로|은|는|이|가|을|를|의|에|와|과|도)$")
_GENERIC: Final = frozenset(
    "this that these those it its they them their there here which who what when where how also only "
    "value values one other others same such thing things way part case cases 그 이 저 것 수 등 경우 때 바".split()
)
"""Words too general to be a name, whatever the page does with them."""
_CODE_LIKE = re.compile(r"_|\d|\(\)|^[a-z]+[A-Z]|^[A-Z][a-z0-9]*[A-Z]")
_NAME_SLOT = re.compile(
    r"(?P<name>[\w']+)\s+(?:parameters?|arguments?|attributes?|methods?|components?|objects?|class|functions?"
    r"|modules?|fields?|flags?|options?|headers?|identifiers?)\b",
    re.IGNORECASE,
)
"""Where an English page uses a word as a name: before "parameter", "component", "attribute" …
(any noun follows an article: "the road" is no name)."""
MIN_SHARED_WORDS: Final = 3
"""A clause must keep at least this many words of the span's clause in place around the changed one."""
MIN_SHARED_SHARE: Final = 0.6
"""… and at least this share of its own words."""
MAX_REPLACED_WORDS: Final = 12
"""The span may say in up to this many words what the claim says in one (사실상의 혼인 관계에 있는 자)."""
_PEP = re.compile(r"\bPEP\s?(\d{1,4})\b")
_PEP_HEADING = re.compile(r"(?:^|\n|[.!?]\s+)PEP\s?(\d{1,4}):")
"""A section headed by its PEP: "PEP 673: Self type"."""


def _key(word: str) -> str:
    word = word.lower().removesuffix("()")
    if re.search("[가-힣]", word):
        return _KO_PARTICLE.sub("", word) or word
    stems = analyze(word)
    return stems[0] if len(stems) == 1 else word


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(unicodedata.normalize("NFKC", text)) if w.lower() not in _ARTICLES]


def _keys(text: str) -> list[str]:
    return [_key(w) for w in _words(text)]


def _name_like(word: str, claim: str, page: str) -> bool:
    """Whether the claim's ``word`` is a name rather than a verb or a description: Korean, a noun
    with its particle (임대인이); English, code (source_address, HTTPSConnection, f()), a capitalised
    word inside the sentence (True), or a word the page itself uses as a name (the query component)."""
    if re.search("[가-힣]", word):
        return bool(_KO_PARTICLE.search(word)) and len(_KO_PARTICLE.sub("", word)) >= 2
    if _CODE_LIKE.search(word) or (word[:1].isupper() and not claim.lstrip().startswith(word)):
        return True
    word = word.lower()
    return any(m.group("name").lower() == word for m in _NAME_SLOT.finditer(page))


def _clauses(text: str) -> list[str]:
    found: list[str] = []
    for sentence in split_answer_sentences(text) or [text]:
        found.append(sentence)
        parts = [p for p in _CLAUSE_BREAK.split(sentence) if p.strip()]
        if len(parts) > 1:
            found.extend(parts)
    return found


def _replaced(claim: list[str], span: list[str]) -> tuple[int, int, int] | None:
    """(the claim's one word, where the span's words in its place start and end) as indexes, when
    the two differ in one slot only."""
    limit = min(len(claim), len(span))
    prefix = 0
    while prefix < limit and claim[prefix] == span[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and claim[-1 - suffix] == span[-1 - suffix]:
        suffix += 1
    kept = prefix + suffix
    middle, instead = claim[prefix : len(claim) - suffix], span[prefix : len(span) - suffix]
    if len(middle) != 1 or not 1 <= len(instead) <= MAX_REPLACED_WORDS:
        return None
    if kept < MIN_SHARED_WORDS or kept < MIN_SHARED_SHARE * len(claim):
        return None
    return prefix, prefix, len(span) - suffix


def traded_name(claim: str, span: str, page: str = "") -> str | None:
    """The reason a clause of ``claim`` gives a clause of ``span`` to another name of the page, or None.

    >>> page = "The source_address parameter is a tuple. The optional blocksize parameter sets the buffer size."
    >>> traded_name("The optional source_address parameter sets the buffer size.", page.split(". ")[1], page)
    'traded name: the claim gives it to source_address, the span to blocksize'
    >>> traded_name("The optional blocksize argument sets the buffer size.", page.split(". ")[1], page) is None
    True
    >>> claim = "소득금액은 경비를 뺀 금액으로 하되, 2천만원 이하인 경우에는 추가로 200만원을 뺀 금액으로 한다."
    >>> proviso = "다만, 임대주택은 경비를 뺀 금액으로 하되, 2천만원 이하인 경우에는 추가로 400만원을 뺀 금액으로 한다."
    >>> traded_name(claim, f"{claim} {proviso}") is None  # the span's own words, beside its proviso's
    True
    """
    page_keys = frozenset(_keys(page or span))
    span_clauses = [(clause, _keys(clause)) for clause in _clauses(span)]
    for part in _clauses(claim):
        words = _keys(part)
        if any(words == theirs for _, theirs in span_clauses):
            continue  # the span says this clause word for word: nothing of it was given to another name
        for clause, theirs in span_clauses:
            found = _replaced(words, theirs)
            if found is None:
                continue
            mine, start, end = found
            word = words[mine]
            if word in _GENERIC or len(word) < 2 or word.isdigit() or word in theirs or word not in page_keys:
                continue
            original = _words(part)[mine]
            if not _name_like(original, part, page or span):
                continue
            instead = " ".join(_words(clause)[start:end])
            return f"traded name: the claim gives it to {original}, the span to {instead}"
    return None


def _peps(text: str) -> set[str]:
    return {m.group(1) for m in _PEP.finditer(text)}


def _pep_of(part: str, span: str, page: str) -> str | None:
    """The PEP the sentence of ``span`` closest to ``part`` speaks of: the one it names, else the
    one its section is headed by; None when there is none."""
    own = frozenset(_keys(_PEP.sub(" ", part))) - _GENERIC
    sentences = split_answer_sentences(span) or [span]
    sentence = max(sentences, key=lambda s: len(own & frozenset(_keys(_PEP.sub(" ", s)))))
    if len(own & frozenset(_keys(_PEP.sub(" ", sentence)))) < MIN_SHARED_WORDS - 1:
        return None
    if named := _peps(sentence):
        return None if _peps(part) & named else sorted(named)[0]
    start = page.find(sentence)
    heading = [m.group(1) for m in _PEP_HEADING.finditer(page[: max(0, start)])]
    return heading[-1] if start >= 0 and heading else None


def section_name(claim: str, span: str, page: str) -> str | None:
    """The reason a PEP a clause of ``claim`` credits is not the one the sentence of ``span`` it
    rests on speaks of — by name, or by the heading of its section — or None.

    >>> page = "PEP 673: Self type. The new Self annotation is simpler. PEP 484 used a TypeVar for it."
    >>> section_name("PEP 484 introduces the new Self annotation.", page, page)
    'wrong PEP: the claim credits PEP 484 with what the span says of PEP 673'
    >>> section_name("PEP 673 used a TypeVar for it.", page, page)
    'wrong PEP: the claim credits PEP 673 with what the span says of PEP 484'
    >>> section_name("PEP 673 introduces the new Self annotation.", page, page) is None
    True
    """
    for part in _clauses(claim):
        named = _peps(part)
        if not named:
            continue
        spoken = _pep_of(part, span, page)
        if spoken is not None and spoken not in named:
            return f"wrong PEP: the claim credits PEP {sorted(named)[0]} with what the span says of PEP {spoken}"
    return None


def _name_pattern(entity: str) -> re.Pattern[str] | None:
    """``entity`` as it may be spaced in a page ("근로 기준법" for 근로기준법), bounded where it starts
    or ends with a Latin letter or digit: a name is a word of the page, not a piece of one (the
    acronym "OR" is not in "network", "IP" not in "zip")."""
    chars = re.sub(r"\s+", "", unicodedata.normalize("NFKC", entity)).lower()
    if not chars:
        return None
    body = r"\s*".join(re.escape(c) for c in chars)
    head = r"(?<![a-z0-9])" if _LATIN_WORD.match(chars[0]) else ""
    tail = r"(?![a-z0-9])" if _LATIN_WORD.match(chars[-1]) else ""
    return re.compile(head + body + tail)


_LATIN_WORD: Final = re.compile(r"[a-z0-9]")


def entity_present(entity: str, span: str) -> bool:
    """Whether the name ``entity`` is in ``span``: as a word (:func:`_name_pattern`), or all its terms."""
    # Paragraph markers (①) are numbering, not part of a name: NFKC would turn them into digits.
    entity, span = PARAGRAPH_MARKS.sub(" ", entity), PARAGRAPH_MARKS.sub(" ", span)
    pattern = _name_pattern(entity)
    if pattern is not None and pattern.search(normalise_for_match(span).lower()):
        return True
    terms = set(_name_terms(entity))
    return (bool(terms) and terms <= set(_name_terms(span))) or _said_in_statute_terms(entity, span)


def _said_in_statute_terms(entity: str, span: str) -> bool:
    """Whether ``entity`` is an everyday name (CCTV) whose statute term (영상정보처리기기) is in ``span``
    (:mod:`citewise.text.lay_terms`): "CCTV 같은 고정형 영상정보처리기기" names what the span names."""
    terms = statute_terms_for(entity)
    return bool(terms) and any(term in re.sub(r"\s+", "", span) for term in terms)


def _name_terms(text: str) -> list[str]:
    # Initials ("E. H. Shepard") are single letters: not terms on their own.
    return [t for t in analyze(as_digits(text)) if len(t) > 1 or not t.isascii() or t.isdigit()]
