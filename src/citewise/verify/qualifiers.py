"""Negation and scope: what a claim asserts beyond the figures and names its source shares.

Rules 6 and 7 of :func:`citewise.verify.support.check_support`, applied once the span is found
and its figures, dates and names agree with the claim:

- :func:`negation_mismatch`: a predicate the claim negates ("not", "no", "never", 않, 없, 못,
  아니) must not be affirmed by the span's sentence, and a predicate that sentence negates must
  not be affirmed by the claim. :func:`negated_keys` finds the negated predicates; "without"/없이
  and "not only"/뿐만 아니라 are not negations of a predicate.
- :func:`scope_problem`: a claim that says all / always / every / anyone / 모든 / 항상 / 언제든지 /
  누구나 while the span qualifies (some, only, unless, 일부, 경우, 다만, 이상 ...) or says no such
  thing overstates; so
  does a claim that drops or changes the bound on a figure (the span's "5명 이상" as the claim's
  "5명", or "이상" as "미만").
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from citewise.text.analyze import analyze
from citewise.text.articles import KOREAN_ARTICLE
from citewise.verify.claims import NUMBER_PATTERN
from citewise.verify.figures import Figure, as_digits, parse_figure
from citewise.verify.statute_phrasing import each_negated, unglossed

__all__ = [
    "contrast_problem",
    "negated_keys",
    "negation_mismatch",
    "scope_problem",
    "unmatched_negation",
    "unsaid_without",
]

# -- negation -----------------------------------------------------------------------------------------

_NEG_EN = re.compile(r"\b(?:not|no|never|cannot|none|nor)\b|n't\b", re.IGNORECASE)
_NOT_NEG_EN = re.compile(r"\bnot only\b|\bno\.\s*\d|\bno (?:longer|more than|less than|later than)\b", re.IGNORECASE)
_PY_NONE = re.compile(r"=\s*None\b")
"""Python's None as a default value (``errors=None``), not the word "none"."""
_NEG_KO = re.compile(r"않|없(?!이)|(?<!잘)못(?!지않)|아니(?!라)")
_KO_WORD = re.compile(r"[가-힣]+")
_LIGHT_VERBS: Final = frozenset({"하지", "하지는", "되지", "되지는"})
_BOUND_NOUNS: Final = frozenset(
    {"수", "수가", "것", "것이", "것은", "것을", "것만", "것도", "것까지", "바", "적", "필요가", "필요는"}
)
_PROHIBITION = re.compile(r"금지(?:되|된|됩|될|돼|하|한|함|합|할)")
"""금지된다 / 금지한다: a prohibition negates the act it names, as 하여서는 아니 된다 does."""
_BECOMES: Final = ("되", "된", "됩", "될", "돼")
"""안 된다 / 안 됩니다 after 해서는: a prohibition, not the short negation of 된다."""


_PERSON: Final = frozenset("자인")
"""The third syllable that makes a person of an act: 사용자, 근로자, 임차인, 양수인."""


def _key(word: str) -> str | None:
    hangul = "".join(_KO_WORD.findall(word))
    if _CAUSATIVE.search(hangul):  # 근로시키지 못한다 = 근로를 시킬 수 없다: the verb is 시키다
        return "시키"
    if hangul:
        if len(hangul) >= 3 and hangul[2] in _PERSON:
            return hangul[:3]  # 사용자 (the employer) is not 사용 (use), nor 근로자 근로
        return hangul[:2] if len(hangul) >= 3 else hangul[:1]
    stems = analyze(word)
    return stems[0] if stems else None


_CAUSATIVE = re.compile(r"(?:시키|시킬|시킨|시켜|시킵|시켰)[가-힣]*$")


def negated_keys(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(negated, affirmed)``: keys of predicates ``text`` negates, and of the words it does not negate.

    A key is a word's first syllable or two (Korean) or its stem (English). The negated predicate
    is the word before 않/못하/아니하/없 (거절하지 못한다 → 거절; 권리가 없다 → 권리), the word after
    a short negation (못 간다, does not apply, no fee).

    >>> sorted(negated_keys("임대인은 거절하지 못한다")[0])
    ['거절']
    >>> sorted(negated_keys("The fee does not apply to tenants")[0])
    ['appli']
    """
    korean = each_negated(unglossed(unicodedata.normalize("NFKC", text)))
    cleaned = _NOT_NEG_EN.sub(" ", _PY_NONE.sub("=", _under_figure(korean)))
    words = re.findall(r"[\w']+", cleaned)
    negated: set[str] = set()
    untouched = set(range(len(words)))  # words neither negations nor negated
    for i, _word in enumerate(words):
        target = _negation_target(words, i)
        if target is None:
            continue
        index, text_of_target = target
        untouched.difference_update(range(min(index, i), max(index, i) + 1))
        if (key := _key(text_of_target)) is not None:
            negated.add(key)
    affirmed = {key for i in untouched if (key := _key(words[i])) is not None}
    return frozenset(negated), frozenset(affirmed)


def _negation_target(words: list[str], i: int) -> tuple[int, str] | None:
    """``(index, text)`` of the predicate negated by ``words[i]``, or None if it negates nothing."""
    word = words[i]
    if _NEG_EN.fullmatch(word) or word.lower().endswith("n't"):
        for j in range(i + 1, min(i + 3, len(words))):
            if words[j].lower() not in {"be", "been", "to", "a", "an", "the", "have", "has", "any"}:
                return j, words[j]
        return None
    if _NEG_VERB.fullmatch(word.lower()) and not (i and words[i - 1].lower() == "to"):
        return _averted(words, i)  # "to avoid confusion" is a purpose, not a statement that none arises
    if (instead := _instead(words, i)) is not None:
        return instead
    if _PROHIBITION.match(word) and _negated_itself(words, i):
        return None  # 금지되지 않고: a prohibition denied permits the act; the 않 that follows negates 금지
    if _PROHIBITION.match(word) or (word == "안" and i + 1 < len(words) and words[i + 1].startswith(_BECOMES)):
        return _prohibited(words, i)
    found = _NEG_KO.search(word) if _KO_WORD.match(word) else None
    if found is None:
        return None
    if found.start() > 0 and not word.startswith("안"):
        return i, word[: found.start()]  # 할수없다, 적용되지않는: the stem is in the same word
    if word in ("안", "못") and i + 1 < len(words):
        return i + 1, words[i + 1]  # short negation: 못 간다
    if i == 0:
        return None
    j = i - 1
    if words[j] in _BOUND_NOUNS and j > 0:
        j -= 1  # 넘을 수 없다: the predicate is 넘을, not 수
    elif words[j] in _LIGHT_VERBS and j > 0 and words[j - 1].endswith(("을", "를")):
        j -= 1  # 예고를 하지 아니하다: the predicate is 예고 (its object), not 하
    return j, words[j]


_NEG_VERB = re.compile(
    r"(?:avoid|prevent|prohibit|disallow|suppress)(?:s|ed|ing)?|disabl(?:e|es|ed|ing)|forbid(?:s|den|ding)?"
    r"|stop(?:s|ped|ping)?"
)
"""Verbs that negate the act they take: "avoids shadowing" says "does not shadow", "disable the
automatic prepending" "do not prepend", "stop X from being prepended" "X is not prepended".
"Refuse" is not one: its object is what is turned away ("refuses integers too large" does not
deny integers)."""
_INSTEAD: Final = (("rather", "than"), ("instead", "of"), ("in", "place", "of"))
""""a list rather than a mapping": the claim rules the mapping out, as "not a mapping" would."""


def _instead(words: list[str], i: int) -> tuple[int, str] | None:
    """The alternative ruled out by "rather than" / "instead of" / "in place of" at ``words[i]``."""
    for phrase in _INSTEAD:
        if tuple(w.lower() for w in words[i : i + len(phrase)]) == phrase:
            after = range(i + len(phrase), min(i + len(phrase) + 2, len(words)))
            return next(((j, words[j]) for j in after if words[j].lower() not in _ACT_SKIP), None)
    return None


_ACT_SKIP: Final = frozenset({"the", "a", "an", "any", "its", "their", "or", "and", "being", "be", "to", "from"})


def _averted(words: list[str], i: int) -> tuple[int, str] | None:
    """The act a negating verb (:data:`_NEG_VERB`) takes: the word after "from" ("stop X from being
    prepended"), else the first gerund ("avoids unintentionally shadowing"), else its object."""
    window = range(i + 1, min(i + 7, len(words)))
    if (after := next((j for j in window if words[j].lower() == "from"), None)) is not None:
        return next(
            ((j, words[j]) for j in range(after + 1, min(after + 3, len(words))) if words[j].lower() not in _ACT_SKIP),
            None,
        )
    for j in range(i + 1, min(i + 5, len(words))):
        if words[j].lower().endswith("ing") and words[j].lower() not in _ACT_SKIP:
            return j, words[j]
    for j in range(i + 1, min(i + 4, len(words))):
        if words[j].lower() not in _ACT_SKIP and not words[j].lower().endswith("ly"):
            return j, words[j]
    return None


def _negated_itself(words: list[str], i: int) -> bool:
    """Whether the prohibition ``words[i]`` (금지되지, 금지하지) is itself negated: 금지되지 않는다."""
    rest = words[i][len(_PROHIBITION.match(words[i]).group()) :]  # type: ignore[union-attr]
    following = words[i + 1] if i + 1 < len(words) else ""
    return bool(re.match(r"지?\s*(?:않|아니)", rest)) or (rest.endswith("지") and following.startswith(("않", "아니")))


def _prohibited(words: list[str], i: int) -> tuple[int, str] | None:
    """The act a prohibition forbids: 알선해서는 안 된다 (as 알선하여서는 아니 된다), 처우하는 것은 금지된다,
    차별을 금지한다 — the word before it, past a bound noun (것은)."""
    j = i - 1
    if j > 0 and _WHOEVER.match(words[j]):
        j -= 1  # 권유하는 것은 누구에게나 금지된다: whom it binds, not what it forbids
    if j > 0 and words[j] in _BOUND_NOUNS:
        j -= 1
    return (j, words[j]) if j >= 0 else None


_WHOEVER = re.compile(r"^(?:누구|아무|어느\s?누구)(?:에게|든지|라도|나|도)|^(?:일절|절대로?|전면적으로|원칙적으로)$")
_UNDER_FIGURE = re.compile(r"(\d+\s?[가-힣]{1,2}?)(?:이|가)\s?(?:안|못)\s?(되는|된|됐|되면|됩|될)")
"""생후 1년이 안 된 is 생후 1년 미만인: a bound on a figure, not a negated predicate."""


_SHORT_OF_FIGURE = re.compile(r"(\d+\s?[가-힣]{1,2}?)에\s?(?:못\s?미치는|미치지\s?(?:못하는|않는))")
"""15시간에 못 미치는 is 15시간 미만인: a bound on a figure, not a negated predicate."""


def _under_figure(text: str) -> str:
    """``text`` with "N이 안 된" and "N에 못 미치는" written as the bound they are, "N 미만인"
    (1년이 안 된 → 1년 미만인, 15시간에 못 미치는 → 15시간 미만인).

    >>> _under_figure("생후 1년이 안 된 유아")
    '생후 1년 미만인 유아'
    >>> _under_figure("1주 소정근로시간이 15시간에 못 미치는 근로자")
    '1주 소정근로시간이 15시간 미만인 근로자'
    """
    text = _SHORT_OF_FIGURE.sub(lambda m: f"{m.group(1)} 미만인", text)
    return _UNDER_FIGURE.sub(lambda m: f"{m.group(1)} 미만{_UNDER_ENDING.get(m.group(2), '이')}", text)


_UNDER_ENDING: Final = {"된": "인", "되는": "인", "되면": "이면"}


_CAPTION = re.compile(rf"^\s*{KOREAN_ARTICLE.pattern}\s*\([^()]*\)\s*")
"""An article's number and caption ("제8조 (폭행의 금지)"): it names the article's topic and affirms
nothing, so 폭행 in it is no affirmation beside the article's "폭행을 하지 못한다"."""


def negation_mismatch(claim: str, sentence: str) -> str | None:
    """The reason ``claim`` and ``sentence`` disagree on negating a predicate, or None.

    ``sentence`` is the sentence of the span closest to the claim: a rule and its proviso
    ("applies ... 다만, ... does not apply") affirm and negate the same predicate.

    >>> negation_mismatch("The fee does not apply to tenants", "The fee applies to tenants.")
    "negation mismatch: the claim negates 'appli…', the span does not"
    """
    claim_neg, claim_pos = negated_keys(claim)
    claim_neg -= _contrapositive(claim, sentence)
    span_neg, span_pos = negated_keys(_CAPTION.sub("", sentence))
    if not span_neg:
        for key in sorted(claim_neg):
            if key in span_pos:
                return f"negation mismatch: the claim negates '{key}…', the span does not"
    lacking = _lacked(claim) | _consequence_keys(sentence, claim) | (_kept_from(claim) & _kept_from(sentence))
    named = negated_keys(" ".join(_CALL.findall(claim)))[1]
    for key in sorted(span_neg):
        # A predicate the span both negates and affirms ("notify ...; if not notified ...") is no evidence.
        if key in claim_pos - named - lacking and key not in claim_neg and key not in span_pos:
            return f"negation mismatch: the span negates '{key}…', the claim does not"
    return _phrase_negated(claim, sentence)


_CALL = re.compile(r"\b\w+(?:\.\w+)*\(\)")
"""A function the claim names ("quote()"): its name is its subject, not a predicate it affirms."""
_LACKED = re.compile(r"\bwithout\s+(?:a|an|the|any)?\s*([\w-]+)|([가-힣]+)\s?없이", re.IGNORECASE)
_CONSEQUENCE = re.compile(r"\b(?:must|should|may) not\b([^.;]*?),?\s+or(?: else)?\s+([^.;]+)", re.IGNORECASE)


_FROM_ACT = re.compile(r"\bfrom\s+(?:being\s+)?([a-z]+(?:ing|ed))\b", re.IGNORECASE)


def _kept_from(text: str) -> frozenset[str]:
    """Keys of the acts "from V-ing" names: an answer "Clergy from participating in politics" to
    "What did it prohibit?" says what the span's "prohibited clergy from participating" says."""
    return frozenset(key for m in _FROM_ACT.finditer(text) if (key := _key(m.group(1))) is not None)


def _lacked(claim: str) -> frozenset[str]:
    """Keys of what the claim says is absent ("without a fragment", 동의 없이): the span's "no
    fragment", "동의를 받지 아니하고" in other words."""
    found = set()
    for match in _LACKED.finditer(claim):
        if (key := _key(match.group(1) or match.group(2))) is not None:
            found.add(key)
    return frozenset(found)


def _consequence_keys(sentence: str, claim: str) -> frozenset[str]:
    """Keys a prohibition with its consequence negates ("must not be supplied ..., or a TypeError is
    raised") when the claim states both the act, with all its terms, and the consequence: "supplying
    ... with a bytes string raises a TypeError" says the same."""
    keys: set[str] = set()
    claim_terms = frozenset(analyze(claim))
    for match in _CONSEQUENCE.finditer(sentence):
        act = frozenset(t for t in analyze(match.group(1)) if len(t) > 2)
        result = frozenset(t for t in analyze(match.group(2)) if len(t) > 2)
        if result and act <= claim_terms and len(claim_terms & result) * 2 >= len(result):
            keys |= negated_keys(match.group())[0]
    return frozenset(keys)


_NEGATED_PHRASE = re.compile(r"\b(?:not|never)\s+(\w+)\s+(\w+)", re.IGNORECASE)


def _phrase_negated(claim: str, sentence: str) -> str | None:
    """The span negates a two-word phrase ("not used directly") the claim states plainly ("used directly")."""
    claim_words = [w.lower() for w in re.findall(r"[\w']+", claim)]
    stems = [analyze(w)[:1] for w in claim_words]
    for match in _NEGATED_PHRASE.finditer(sentence):
        first, second = analyze(match.group(1))[:1], analyze(match.group(2))[:1]
        if not first or not second:
            continue
        for i in range(len(stems) - 1):
            if stems[i] == first and stems[i + 1] == second:
                before = claim_words[max(0, i - 2) : i]
                if not any(_NEG_EN.fullmatch(w) or w.endswith("n't") for w in before):
                    phrase = f"{match.group(1)} {match.group(2)}"
                    return f"negation mismatch: the span says 'not {phrase}', the claim does not"
    return None


def unmatched_negation(claim: str, span: str) -> str | None:
    """A claim that negates something where the span negates nothing at all ("need not", 않아도 된다
    against "must", 하여야 한다) says the opposite of the span, whatever word it negates. A negation
    both share ("소재를 알 수 없게 된 경우") is part of what they say alike, not a negation of the span."""
    negated = negated_keys(_CORRECTION.sub(" ", _META_NEGATION.sub(" ", claim)))[0] - _contrapositive(claim, span)
    theirs = negated_keys(span)[0]
    if negated and theirs <= negated and (extra := sorted(negated - theirs)):
        what = "negates nothing" if not theirs else f"negates only '{sorted(theirs)[0]}…'"
        return f"negation mismatch: the claim negates '{extra[0]}…', the span {what}"
    return None


_CORRECTION = re.compile(
    r",\s*(?:and\s+)?not\s+(?:a|an|the)?\s*[\w-]+(?:\s+[\w-]+)?\s*(?=,)|\bnot\s+(?:a|an|the)?\s*[\w-]+\s*,?\s+but\b"
    r"|\b(?:rather\s+than|instead\s+of|in\s+place\s+of)\s+(?:a|an|the)?\s*[\w-]+",
    re.IGNORECASE,
)
"""A correction set off beside what the claim affirms ("returns an iterator, not a list, of …", "not a
list but an iterator"): the alternative the span's word rules out, not a negation of the span. A span
that affirms the alternative still contradicts it (:func:`negation_mismatch`)."""
_NECESSARY = re.compile(r"(?:하여|해|어|아)야(?:만|지만)?\b|\bonly (?:if|when)\b|\bmust\b", re.IGNORECASE)


def _contrapositive(claim: str, span: str) -> frozenset[str]:
    """Keys a claim negates as the contrapositive of a condition both it and the span state as
    necessary: "통지해야만 효력이 생기므로, 말로만 한 해고는 효력이 없습니다" for "통지하여야 효력이 있다"
    (the span's condition, not met, leaves what it conditions unmet). The claim affirms the key too."""
    if not (_NECESSARY.search(claim) and _NECESSARY.search(span)):
        return frozenset()
    negated, affirmed = negated_keys(claim)
    consequence = negated & affirmed & negated_keys(span)[1]
    # The clause that denies the consequence may deny the condition too ("그렇지 않은 위임은 효력이 없다").
    clauses = [negated_keys(part)[0] for part in re.split(r"[,;]", claim)]
    return consequence.union(*(keys for keys in clauses if keys & consequence))


_WITHOUT_ACT = re.compile(r"\bwithout\s+([a-z]+ing)\b", re.IGNORECASE)


def unsaid_without(claim: str, span: str) -> str | None:
    """A claim that something happens "without raising an error" where the span says the error is
    raised (and never that it is not): the claim denies an act the span affirms."""
    if re.search(r"\bwithout\b", span, re.IGNORECASE):
        return None
    span_neg, span_pos = negated_keys(span)
    for match in _WITHOUT_ACT.finditer(claim):
        key = _key(match.group(1))
        if key is not None and key in span_pos and key not in span_neg:
            return f"negation mismatch: the claim says 'without {match.group(1)}', the span affirms it"
    return None


_META_NEGATION = re.compile(
    r"\b(?:is|are|was|were|does|do|did)\s+not\s+(?:\w+ly\s+)?"
    r"(?:mention|mentioned|state|stated|specify|specified|describe|described|given|provided|say|said)\b",
    re.IGNORECASE,
)
"""What a writer says of the document ("is not explicitly stated"), not of the subject."""


# -- contrasts ----------------------------------------------------------------------------------------

_CONTRASTS: Final = (
    ("서면", "구두"), ("유급", "무급"), ("최소", "최대"), ("written", "oral"), ("stdout", "stderr"),
    ("true", "false"), ("client", "server"), ("minimum", "maximum"), ("input", "output"),
    ("encode", "decode"), ("import", "export"), ("upper", "lower"), ("ipv4", "ipv6"),
    ("before", "after"), ("이전", "이후"), ("required", "optional"),
    ("같은", "다른"), ("중요한", "사소한"), ("same", "different"), ("public", "private"),
    ("absolute", "relative"), ("synchronous", "asynchronous"), ("increase", "decrease"), ("증액", "감액"),
    ("증가", "감소"), ("상한", "하한"), ("인상", "인하"), ("verbose", "concise"), ("differently", "same"),
    ("usually", "rarely"), ("often", "rarely"),
)  # fmt: skip
"""Words of opposite meaning: a condition or a property changed in words ("다른 업무" for "같은 업무",
"usually" for "rarely")."""


_COMPARATIVE = re.compile(r"\b(more|less|fewer)\s+([a-z][\w-]+)", re.IGNORECASE)
_OPPOSITE_DEGREE: Final = {"more": "less", "less": "more", "fewer": "more"}


def _comparatives(text: str) -> set[tuple[str, str]]:
    """Each degree word of ``text`` (more / less / fewer) with the stem of the word it grades."""
    found: set[tuple[str, str]] = set()
    for match in _COMPARATIVE.finditer(text):
        stems = analyze(match.group(2))
        found.add((match.group(1).lower(), stems[0] if stems else match.group(2).lower()))
    return found


def contrast_problem(claim: str, span: str) -> str | None:
    """A claim that names one of a contrasting pair (written / oral, 서면 / 구두, stdout / stderr)
    where the span names only the other one has changed a condition or a name; so has one that turns
    the span's degree around ("less detailed" where the span says "more detailed")."""
    claim_terms = _contrast_terms(claim)
    span_terms = _contrast_terms(span)
    for a, b in _CONTRASTS:
        for said, other in ((a, b), (b, a)):
            if said in claim_terms and said not in span_terms and other in span_terms:
                return f"changed condition: the claim says '{said}', the span '{other}'"
    theirs = _comparatives(span)
    for degree, word in sorted(_comparatives(claim)):
        if (degree, word) not in theirs and (_OPPOSITE_DEGREE[degree], word) in theirs:
            other = _OPPOSITE_DEGREE[degree]
            return f"changed condition: the claim says '{degree} {word}…', the span '{other} {word}…'"
    return None


def _contrast_terms(text: str) -> frozenset[str]:
    folded = unicodedata.normalize("NFKC", text).lower()
    words = {w.removesuffix("s") if len(w) > 4 else w for w in re.findall(r"[a-z0-9]+", folded)}  # tuples: tuple
    hangul = "".join(re.findall(r"[가-힣]+", folded))
    return frozenset(w for pair in _CONTRASTS for w in pair if (w in words if w.isascii() else w in hangul))


# -- scope --------------------------------------------------------------------------------------------

_UNIVERSAL = re.compile(
    r"\b(?:all|always|every|everyone|everybody|in all cases|without exception|regardless|whatever|at any time)\b"
    r"|\bunder any circumstances\b|\bno matter\b|\bin any case\b"
    r"|모든|항상|언제나|언제든지|누구나|무조건|어떠한(?:\s\S+){1,4}?에도|어떤 경우에도|어떤 이유로도|어떠한 이유로도"
    r"|아무런|관계없이|상관없이|예외 없이|예외없이|전부|모두|반드시",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(
    r"\b(?:some|certain|only|unless|except|provided|if|when|at least|at most|up to|more than|less than|may)\b"
    r"|일부|경우|다만|단서|이상|이하|초과|미만|이내|한하여|한정|때에는|제외|때",
    re.IGNORECASE,
)
_BOUND_AFTER = re.compile(
    r"^(?:\([^()]{0,80}\))?\s*(?:을|를|의)?\s?"
    r"(이상|이하|초과|미만|이내|안에|안으로|내에|까지|넘|or more|or less|or fewer|and over|and above)"
)
"""A bound right after a figure, past a parenthetical: "45일(쌍둥이는 60일) 이상", "15일 안에" (이내)."""
_BOUND_BEFORE = re.compile(
    r"(at least|at most|no more than|no less than|more than|less than|fewer than|up to|within|over|under|below|above"
    r"|(?:smaller|lower|greater|larger|bigger|higher) than|최소|최대|최소한|적어도)\s*$",
    re.IGNORECASE,
)
_BOUND_CLASS: Final = {
    "이상": "≥", "at least": "≥", "or more": "≥", "no less than": "≥", "최소": "≥", "최소한": "≥", "적어도": "≥",
    "and over": "≥", "and above": "≥",
    "이하": "≤", "at most": "≤", "or less": "≤", "or fewer": "≤", "no more than": "≤", "up to": "≤",
    "최대": "≤", "이내": "≤", "안에": "≤", "안으로": "≤", "내에": "≤", "within": "≤", "까지": "≤",
    "초과": ">", "넘": ">", "more than": ">", "over": ">",
    "미만": "<", "less than": "<", "fewer than": "<", "under": "<", "below": "<", "above": ">",
    "smaller than": "<", "lower than": "<", "greater than": ">", "larger than": ">", "bigger than": ">",
    "higher than": ">",
}  # fmt: skip
"""Bounds in the words a writer may choose: "smaller than 2**32" is the span's "less than 2**32"."""


def _bounds(text: str) -> list[tuple[Figure, str | None]]:
    """Each figure of ``text`` with the class of the bound written next to it (≥, ≤, >, <), if any."""
    text = as_digits(unicodedata.normalize("NFKC", text))
    result: list[tuple[Figure, str | None]] = []
    for match in NUMBER_PATTERN.finditer(text):
        figure = parse_figure(match.group())
        if figure is None:
            continue
        after = _BOUND_AFTER.match(text[match.end() :])
        before = _BOUND_BEFORE.search(text[max(0, match.start() - 16) : match.start()])
        word = (after.group(1) if after else None) or (before.group(1).lower() if before else None)
        result.append((figure, _BOUND_CLASS.get(word) if word else None))
    return result


_DEGREE_WORDS: Final = {
    ">": re.compile(r"\b(?:higher|greater|larger|bigger|above)\b", re.IGNORECASE),
    "<": re.compile(r"\b(?:lower|smaller|less|fewer|below)\b", re.IGNORECASE),
}
_NO_WORD: Final = re.compile(r"(?!)")


def _direction(bound: str | None) -> int:
    """+1 for a lower bound (≥, >), -1 for an upper one (≤, <), 0 for none."""
    return {">": 1, "≥": 1, "<": -1, "≤": -1}.get(bound or "", 0)


_EVERY = re.compile(r"every|all", re.IGNORECASE)
_EACH = re.compile(r"\beach\b", re.IGNORECASE)
""""Each tuple item is a string" says of every item what "every item" says."""


def scope_problem(claim: str, span: str) -> str | None:
    """The reason ``claim`` states a broader scope than ``span``, or None."""
    claim = _under_figure(unicodedata.normalize("NFKC", claim))
    universal = _UNIVERSAL.search(claim)
    if universal and not re.search(re.escape(universal.group()), span, re.IGNORECASE):
        qualifier = _QUALIFIER.search(span)
        if qualifier:
            return (
                f"overstated scope: the claim says '{universal.group()}', the span qualifies it ('{qualifier.group()}')"
            )
        if not _UNIVERSAL.search(span) and not (_EVERY.fullmatch(universal.group()) and _EACH.search(span)):
            return f"overstated scope: the claim says '{universal.group()}', the span says nothing of the kind"
    span_bounds = _bounds(span)
    for figure, bound in _bounds(claim):
        agreeing = [other_bound for other, other_bound in span_bounds if figure.matches(other)]
        turned = [b for b in agreeing if _direction(b) == -_direction(bound) != 0]
        if turned and bound not in agreeing:  # "greater than N" where the span has only "less than N"
            return f"overstated scope: the claim bounds {figure.text} as '{bound}', the span as '{turned[0]}'"
        if not agreeing or bound in agreeing or (bound is not None and None in agreeing):
            continue  # a claim may be narrower than its span, never broader
        written = next(other.text for other, _b in span_bounds if figure.matches(other))
        if bound is None and any(_DEGREE_WORDS.get(b or "", _NO_WORD).search(claim) for b in agreeing):
            continue  # "the default is 0; any higher value …": the bound said apart from its figure
        if bound is None:
            return f"overstated scope: the span bounds {written} ('{agreeing[0]}'), the claim drops it"
        return f"overstated scope: the claim bounds {figure.text} as '{bound}', the span as '{agreeing[0]}'"
    return None
