"""Clauses of a report's sentence: where a compound sentence splits into atomic claims, whose
subject a clause without one of its own carries, and what kind of claim each clause makes.

Read by :mod:`citewise.verify.claims` (see its docstring for the rules); :func:`split_compound` and
:func:`claim_kind` are public there too.

* **Carried subject.** A clause after ``", and"``, ``", but"``, ``while`` or a Korean ``-고``/``-며``
  ending that has no subject of its own ("The module parses URLs, and *returns a named tuple*";
  "사용자는 퇴직금을 지급하고, *14일 이내에 지급하여야 한다*") is checked with the first clause's subject
  before it (:func:`carried_subject`); the ledger keeps the clause as written. An English clause has
  no subject when it opens with a verb ("returns", "is", "was listed") rather than a noun followed by
  one ("deposits fell"); a Korean one when no word before its predicate ends in a subject or topic
  particle (은/는/이/가). The first clause's subject is the words before its first verb (English;
  none when they hold a comma, or do not open with a capital or a pronoun) or its first topic, a
  word ending in 은/는, with the bare nouns before it (Korean: "임대차 기간은"; a subject in 이/가 is
  not carried, since before -고 it is often a condition's own).
* **A duty, not advice.** :func:`duty_only` tells a recommendation that is one only because its
  sentence states a duty as a statute writes it, 하여야 한다 / 해야 한다 (no "should", 권장, 하는 것이
  좋다, and not the polite 해야 합니다 of advice to the reader): when it cites a statute, it states the
  statute's duty ("사용자는 … 지급하여야 한다"), a fact about the law — every clause of its sentence.
"""

from __future__ import annotations

import re

from citewise.records.verify import ClaimKind

__all__ = ["carried_subject", "claim_kind", "clause_kinds", "duty_only", "split_compound"]

# -- compound sentences -----------------------------------------------------------------------------

_FIGURE = re.compile(
    r"\d|[일이삼사오육칠팔구십백천만억]+\s?(?:퍼센트|배)|\b(?:one|two|three|four|five|ten|half)\b", re.I
)
_EN_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|will|would|can|could|may|might|must|shall|should|does|do|did"
    r"|\w{3,}ed|\w{3,}s|rose|fell|grew|fell|paid|took|made|gave|won|lost|became|began|went|got|saw|left|held|stood)\b",
    re.I,
)
_KO_PREDICATE = re.compile(
    r"(?:[이하되있없였었았했됐겠]|으)(?:고|며)[,]?$|(?:다|요|음|함|됨|임)[.!]?$|(?:이다|였다|한다|했다|된다|됐다|있다|없다)"
)
_EN_SPLIT = re.compile(r",\s+and\s+|;\s+|,?\s+while\s+|,?\s+whereas\s+|,\s+but\s+", re.IGNORECASE)
_KO_SPLIT = re.compile(
    r"(?P<ending>(?<=[이하되있없였었았했됐겠으랐렸줄늘났왔])(?:고|며))[,]?\s+"  # predicate ending: 2년이고 / 증가했으며
    r"|,?\s*(?:반면에?|그리고|한편)[,]?\s+"
)


def _has_predicate(text: str) -> bool:
    if re.search(r"[가-힣]", text):
        return any(_KO_PREDICATE.search(word) for word in text.split()) or bool(_EN_VERB.search(text))
    return bool(_EN_VERB.search(text))


def _stands_alone(part: str) -> bool:
    """Whether one side of a clause boundary makes a claim of its own."""
    words = part.split()
    if not words:
        return False
    return bool(_FIGURE.search(part)) or (len(words) >= 2 and _has_predicate(part))


def split_compound(sentence: str) -> list[str]:
    """The atomic claims of one sentence (the sentence itself when it does not split).

    A boundary splits only when both sides have a figure or a predicate of their own; the sides
    are split again recursively. A Korean predicate ending (``-고``, ``-며``) stays with its clause.

    >>> split_compound("Rents rose 5% in 2023, and deposits fell 2%.")
    ['Rents rose 5% in 2023', 'deposits fell 2%.']
    >>> split_compound("Rent and deposit rose 5%.")
    ['Rent and deposit rose 5%.']
    >>> split_compound("서울의 전세가는 3% 올랐고 부산은 2% 내렸다.")
    ['서울의 전세가는 3% 올랐고', '부산은 2% 내렸다.']
    """
    for pattern in (_EN_SPLIT, _KO_SPLIT):
        for match in pattern.finditer(sentence):
            cut = match.end("ending") if pattern is _KO_SPLIT and match.group("ending") else match.start()
            left = sentence[:cut].strip().rstrip(",; ")
            right = sentence[match.end() :].strip()
            if _stands_alone(left) and _stands_alone(right):
                return split_compound(left) + split_compound(right)
    return [sentence.strip()]


# -- kinds ------------------------------------------------------------------------------------------

_RECOMMENDATION = re.compile(
    r"\b(?:should|ought to|recommend(?:s|ed|ation)?|must consider|advis(?:e|able|ed)|it is (?:best|wise) to"
    r"|consider (?:\w+ing)|make sure|be sure to)\b"
    r"|권장|권고|추천|하는 것이 좋|는 것이 바람직|하시기 바랍|하십시오|하세요"
    r"|유의해야|주의해야|검토해야|고려해야|확인해야",
    re.IGNORECASE,
)
_ADVISORY_DUTY = re.compile(r"해야\s?(?:한다|합니다|함)|하여야\s?(?:한다|합니다)")
_LEGAL_DUTY = re.compile(r"「|제\d+조|법(?:은|이|에|률|령)|의무|규정|시행령")
_INFERENCE = re.compile(
    r"\b(?:therefore|thus|hence|consequently|likely|unlikely|probably|presumably|suggests?|suggesting|implies"
    r"|appears? to|seems? to|may indicate|it follows)\b"
    r"|따라서|그러므로|그러니|것으로 보인다|것으로 보입니다|것으로 판단|추정|추측|짐작"
    r"|듯하다|듯합니다|가능성이 (?:높|크)",
    re.IGNORECASE,
)


def claim_kind(text: str) -> ClaimKind:
    """Recommendation, inference or fact, by the words of ``text`` (see the module docstring).

    >>> claim_kind("Tenants should register the lease.").value
    'recommendation'
    >>> claim_kind("따라서 보증금은 돌려받기 어려울 것으로 보인다.").value
    'inference'
    >>> claim_kind("임대인은 「주택임대차보호법」 제3조에 따라 통지해야 한다.").value
    'fact'
    """
    if _RECOMMENDATION.search(text):
        return ClaimKind.RECOMMENDATION
    if _ADVISORY_DUTY.search(text) and not _LEGAL_DUTY.search(text):
        return ClaimKind.RECOMMENDATION
    if _INFERENCE.search(text):
        return ClaimKind.INFERENCE
    return ClaimKind.FACT


# A duty in the plain form a statute writes (하여야 한다), not the polite one advice uses (해야 합니다).
_STATED_DUTY = re.compile(r"(?:하여야|해야)\s?한다")


def duty_only(text: str, sentence: str) -> bool:
    """Whether a clause is a recommendation only because its sentence states a duty in a statute's
    plain form (하여야 한다, 해야 한다 — not 해야 합니다) with no word of advice in it.

    >>> duty_only("사용자는 퇴직금을 지급하고", "사용자는 퇴직금을 지급하고, 14일 이내에 지급하여야 한다.")
    True
    >>> duty_only("임차인은 확인하고", "임차인은 확인하고 전입신고를 하는 것이 좋다.")
    False
    >>> duty_only("임차인은 전입신고를 해야 합니다.", "임차인은 전입신고를 해야 합니다.")
    False
    """
    advice = _RECOMMENDATION.search(text) or _RECOMMENDATION.search(sentence)
    return bool(_STATED_DUTY.search(sentence)) and not advice


def clause_kinds(sentence: str) -> list[tuple[str, ClaimKind, str]]:
    """``(clause, kind, carried subject)`` for each atomic claim of ``sentence``.

    A leading "Therefore," / "따라서" governs every clause; a clause of no kind of its own in a
    sentence of advice is advice too.

    >>> [(part, kind.value, subject) for part, kind, subject in clause_kinds("It parses URLs, and returns a tuple.")]
    [('It parses URLs', 'fact', ''), ('returns a tuple.', 'fact', 'It')]
    """
    parts = split_compound(sentence)
    leading = ClaimKind.INFERENCE if _INFERENCE.match(sentence.lstrip()) else None
    advice = claim_kind(sentence) is ClaimKind.RECOMMENDATION
    subject = _subject(parts[0]) if len(parts) > 1 else ""
    out = []
    for number, part in enumerate(parts):
        kind = claim_kind(part)
        if kind is ClaimKind.FACT and leading is not None:
            kind = leading
        elif kind is ClaimKind.FACT and len(parts) > 1 and advice:
            kind = ClaimKind.RECOMMENDATION
        carried = subject if number > 0 and subject and not _has_subject(part) else ""
        out.append((part, kind, carried))
    return out


def carried_subject(first: str, clause: str) -> str:
    """The subject of ``first`` when ``clause`` (a later clause of its sentence) has none, else "".

    >>> carried_subject("The module parses URLs", "returns a named tuple.")
    'The module'
    >>> carried_subject("Rents rose 5%", "deposits fell 2%.")
    ''
    >>> carried_subject("사용자는 퇴직금을 지급하고", "14일 이내에 지급하여야 한다.")
    '사용자는'
    """
    subject = _subject(first)
    return subject if subject and not _has_subject(clause) else ""


# -- subjects ---------------------------------------------------------------------------------------

_WORD = re.compile(r"[\w'’-]+")
_AUXILIARY = re.compile(
    r"(?:is|are|was|were|be|been|has|have|had|will|would|can|could|may|might|must|shall|should|does|do|did)",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\w{3,}ed|rose|fell|grew|paid|took|made|gave|won|lost|became|began|went|got|saw|left|held|stood", re.IGNORECASE
)
_VERB_FORM = re.compile(r"\w{3,}s|runs|uses|sets|gets|adds|lets|puts", re.IGNORECASE)
_DETERMINER = re.compile(
    r"(?:the|a|an|its|their|his|her|our|my|your|each|every|some|any|no|of|and|or)",
    re.IGNORECASE,
)
_ADVERB = re.compile(r"(?:also|then|still|often|always|never|now|usually|only|later|thus|so)", re.IGNORECASE)
_PRONOUNS = frozenset("it they he she we you i this that these those".split())
_OBJECT_START = re.compile(
    r"(?:a|an|the|to|of|in|on|at|for|with|by|from|into|its|their|only|all|no|each|every|some|any|more|less"
    r"|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE,
)
# A topic or subject particle, not an adnominal ending ("있는", "같은") or "에는", "때는".
_KO_SUBJECT = re.compile(
    r"[가-힣]*(?<!있는|하는|되는|없는|않는|같은|많은|에는|때는|라는|다는|려는)(?<!에서는)(?<=은|는)$"
)
_KO_BARE = re.compile(r"[\w·]*(?:의|[^\W\d_은는이가을를에도로면고며서다요,])$")
_KO_NOMINATIVE = re.compile(r"[가-힣]{1,}(?:이|가)$")


def _is_verb(word: str) -> bool:
    return bool(_AUXILIARY.fullmatch(word) or _PAST.fullmatch(word) or _VERB_FORM.fullmatch(word))


def _subject(clause: str) -> str:
    """The subject of a sentence's first clause, or "" when none is read with confidence."""
    if re.search(r"[가-힣]", clause):
        words = clause.split()[:-1]  # the last word is the predicate
        # Only a topic (은/는) is carried: a 이/가 before -고 is often a condition's own subject
        # ("임신 중인 여성이 동의하고, …": the employer, not the woman, may then have her work at night).
        found = next((i for i, w in enumerate(words) if _KO_SUBJECT.search(w)), None)
        if found is None:
            return ""
        start = found  # with the bare nouns before it ("임대차 기간은", "서울의 전세가는"), no more
        while start > 0 and _KO_BARE.fullmatch(words[start - 1]) and not re.search(r"\d\s?조", words[start - 1]):
            start -= 1
        return " ".join(words[start : found + 1])
    tokens = list(_WORD.finditer(clause))
    for i in range(1, min(len(tokens), 8)):
        # "The requests module sends": a word after "the" is a noun, whatever its ending.
        if _is_verb(tokens[i].group()) and not _DETERMINER.fullmatch(tokens[i - 1].group()):
            subject = clause[: tokens[i].start()].strip()
            named = subject[:1].isupper() or subject.lower() in _PRONOUNS  # not "not" (of "is not stated")
            return subject if named and "," not in subject else ""
    return ""


def _has_subject(clause: str) -> bool:
    """Whether a later clause names its own subject (see the module docstring)."""
    if re.search(r"[가-힣]", clause):
        words = clause.split()[:-1]
        return any(_KO_SUBJECT.search(w) or (len(w) >= 3 and _KO_NOMINATIVE.search(w)) for w in words)
    tokens = list(_WORD.finditer(clause))
    while tokens and _ADVERB.fullmatch(tokens[0].group()):
        tokens = tokens[1:]
    if not tokens:
        return True
    first = tokens[0].group()
    if _AUXILIARY.fullmatch(first) or _PAST.fullmatch(first):
        return False  # "is slow", "was listed", "rose 5%"
    if _VERB_FORM.fullmatch(first):
        # A word in -s is a verb before its object, a name, a number or a comma ("returns a tuple",
        # "parses URLs", "falls, only to"); before another word it is a noun with its verb
        # ("deposits fell", "treaties enter").
        after = clause[tokens[0].end() :].lstrip()
        verb = not after or after[0] in ",;." or after[0].isupper() or after[0].isdigit() or _OBJECT_START.match(after)
        return not verb
    return True
