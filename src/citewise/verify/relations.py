"""Who does what to whom: the relation between two parties, read in the span and in the claim.

:mod:`citewise.verify.roles` catches parties that trade places a few words apart; these readers
catch them far apart, or with no shared verb between them:

- **the doer of a shared verb**: the party just before an active verb ("the calling code
  *assumes*"), or the one after "by" of a passive ("*is handled by* the calling code"). A claim that
  gives the verb a doer the span gives another role, while the span's doer takes another role in the
  claim, has traded them. A passive for an active is faithful: the doer is read, not the order.
  Korean: the noun marked 이/가 nearest before a shared verb ("근로자가 *청구하면*").
- **a comparison**: "A is (not) greater than B" against "B is (not) greater than A".
- **a containment said with a copula**: "A is a subnet of B", "A is (not) contained in B" against
  the same with A and B traded; "this network" on one side makes the other side "the other one"
  whether it is called *other*, *network* or *the given network*.
- **default and alternative**: "uses quote() by default, and quote_plus() is the alternative"
  against "by default quote_plus() is used … an alternate function … is quote()".
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["relation_swap"]

_WORD = re.compile(r"[a-z_][a-z0-9_.]*(?:\(\))?|[,;:.()]")
_STOP: Final = frozenset(
    "a an the and or of to in on at for from with by as is are was were be been being it its this that these those "
    "must may can shall will would should could not no any all some each every than then if when which who whose "
    "where while also only just so such there their they them his her he she we you your our new other".split()
)
_BREAK: Final = frozenset({",", ";", ":", ".", "(", ")", "that", "which", "who", "if", "when", "where", "while"})
_BE: Final = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"})
_PARTICIPLE = re.compile(r"[a-z]{3,}(?:ed|en|wn|id|ld)$")
_ACTIVE = re.compile(r"[a-z]{2,}[^su]s$")


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "ed", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _tokens(text: str) -> list[str]:
    return [w.rstrip(".") or w for w in _WORD.findall(text.lower())]


_PUNCT: Final = frozenset({",", ";", ":", ".", "(", ")"})
_DETERMINERS: Final = frozenset({"the", "a", "an", "this", "its", "their"})


def _phrase(words: list[str]) -> list[str]:
    """The content words of a noun phrase: the run of words that are neither stop words nor breaks."""
    out: list[str] = []
    for word in words:
        if word in _STOP or word in _BREAK:
            break
        out.append(word)
    return out


def _verbs(words: list[str]) -> list[tuple[int, bool]]:
    """(position, passive) of each verb: a participle after a form of "be" followed by "by", or a
    word in -s between a content word and a word that is no punctuation ("the code *assumes* that")."""
    found: list[tuple[int, bool]] = []
    for n, word in enumerate(words):
        if word in _STOP or n == 0 or n + 1 >= len(words):
            continue
        prev = words[n - 1]
        after_be = prev in _BE or (n > 1 and words[n - 2] in _BE and prev.endswith("ly"))
        if after_be and _PARTICIPLE.match(word) and words[n + 1] == "by":
            found.append((n, True))
        elif (
            not after_be
            and _ACTIVE.match(word)
            and prev not in _STOP
            and prev not in _BREAK
            and words[n + 1] not in _PUNCT
        ):
            found.append((n, False))
    return found


def _doers(words: list[str], verbs: list[tuple[int, bool]]) -> dict[str, frozenset[str]]:
    """Each verb (by stem) said once with its doer's words: the phrase right before an active verb,
    the phrase after a passive's "by" (past a determiner)."""
    found: dict[str, frozenset[str]] = {}
    seen: dict[str, int] = {}
    for n, passive in verbs:
        stem = _stem(words[n])
        seen[stem] = seen.get(stem, 0) + 1
        if passive:
            rest = words[n + 2 :]
            phrase = _phrase(rest[1:] if rest and rest[0] in _DETERMINERS else rest)[:3]
        else:
            phrase = list(reversed(_phrase(list(reversed(words[max(0, n - 3) : n])))))
        if phrase:
            found[stem] = frozenset(phrase)
    return {stem: doer for stem, doer in found.items() if seen[stem] == 1}


def _doer_swap(claim: str, span: str) -> tuple[str, str] | None:
    mine, theirs = _tokens(claim), _tokens(span)
    claim_doers, span_doers = _doers(mine, _verbs(mine)), _doers(theirs, _verbs(theirs))
    for verb, doer in claim_doers.items():
        other = span_doers.get(verb)
        if other is None or doer & other:
            continue
        # Each the other's doer: the span's doer named in the claim, the claim's in the span.
        if other <= set(mine) and doer <= set(theirs):
            return " ".join(sorted(doer)), " ".join(sorted(other))
    return None


_COMPARED = re.compile(
    r"([a-z_][\w.]*(?:\(\))?)\s+(?:is|are)\s+(?:not\s+)?((?:more|less)\s+\w+|greater|smaller|larger|longer|shorter|"
    r"higher|lower|older|newer|later|earlier)\s+than\s+(?:the\s+)?([a-z_][\w.]*(?:\(\))?)",
    re.IGNORECASE,
)


def _compared(text: str) -> list[tuple[str, str, str]]:
    return [(a.lower().rstrip("."), how.lower(), b.lower().rstrip(".")) for a, how, b in _COMPARED.findall(text)]


def _comparison_swap(claim: str, span: str) -> tuple[str, str] | None:
    theirs = set(_compared(span))
    for a, how, b in _compared(claim):
        if a != b and (b, how, a) in theirs and (a, how, b) not in theirs:
            return a, b
    return None


_CODE = re.compile(r"\b[A-Za-z_][\w.]*\(\)")
_CLAUSE = re.compile(r"[.;]\s+|,\s+(?:and|but|while|whereas)\s+|\.$")


def _defaults(text: str) -> tuple[set[str], set[str]]:
    """The code names of the clauses that say "default" and of those that say "alternat(iv)e"."""
    default: set[str] = set()
    other: set[str] = set()
    for clause in _CLAUSE.split(text):
        names = set(_CODE.findall(clause))
        low = clause.lower()
        if "default" in low and "alternat" not in low:
            default |= names
        elif "alternat" in low and "default" not in low:
            other |= names
    return default, other


def _default_swap(claim: str, span: str) -> tuple[str, str] | None:
    mine_default, mine_other = _defaults(claim)
    span_default, span_other = _defaults(span)
    for a in sorted(mine_default & span_other - span_default):
        for b in sorted(mine_other & span_default - span_other):
            return a, b
    return None


_KO_DOER = re.compile(r"([가-힣]{2,}?)(?<![하되에도서로])(?:이|가)\s")
"""A subject marked 이/가: a topic (은/는) is often another verb's, and is left to :mod:`citewise.verify.roles`."""
_KO_VERB = re.compile(r"([가-힣]{2,})(?:하면|하여야|하여|해야|할|한다|하고|하는|한)(?=[\s,.]|$)")
_KO_BREAK = re.compile(r"[,.]|(?:면|고|며|서)\s")
_KO_NAMED = r"(?:은|는|이|가|을|를|에게|한테|의|에|와|과|도|보다)(?=[\s,.]|$)"


def _korean_doers(text: str) -> dict[str, set[str]]:
    """Each 하다-verb's stem with the noun marked 이/가 nearest before it in its clause; a clause
    ends at a comma, a connective (하면, 하고, 하며) or another 하다-verb ("임차인이 사망한 후 …")."""
    found: dict[str, set[str]] = {}
    verbs = list(_KO_VERB.finditer(text))
    for n, verb in enumerate(verbs):
        before = text[: verb.start()]
        cut = max((m.end() for m in _KO_BREAK.finditer(before)), default=0)
        cut = max(cut, verbs[n - 1].end() if n else 0)
        doers = _KO_DOER.findall(before[cut:])
        if doers:
            found.setdefault(verb.group(1), set()).add(doers[-1])
    return found


def _korean_doer_swap(claim: str, span: str) -> tuple[str, str] | None:
    """ "사용자가 청구하면" against "근로자가 청구하면" where the claim names 근로자 too, in another part."""
    claim_doers, span_doers = _korean_doers(claim), _korean_doers(span)
    for verb, doers in claim_doers.items():
        others = span_doers.get(verb, set())
        if len(doers) != 1 or len(others) != 1 or doers == others:
            continue
        (a,), (b,) = doers, others
        named = re.search(rf"(?<![가-힣]){re.escape(b)}{_KO_NAMED}", claim)
        if named and not a.endswith(b) and not b.endswith(a):
            return a, b
    return None


_CONTAINMENT = re.compile(
    r"(\w+(?:\s+\w+)?)\s+(?:is|are)\s+(?:not\s+)?(?:\w+ly\s+)?(?:an?\s+)?"
    r"(subnet|supernet|subclass|superclass|subset|superset|subtype|child|parent|part|member|instance|contained|included)"
    r"\s+(?:of|in)\s+"
    r"(?:the\s+)?(\w+(?:\s+\w+)?)",
    re.IGNORECASE,
)
_OTHER_SIDE: Final = frozenset({"other", "given", "another", "argument", "passed"})


def _side(words: str) -> str:
    found = words.lower().split()
    if "this" in found or "self" in found:
        return "this"
    if _OTHER_SIDE & set(found):
        return "other"
    return found[-1]


def _containments(text: str) -> dict[str, tuple[str, str]]:
    """Each containment relation of ``text`` with its two sides; "this" on one side makes the other
    side "other"."""
    found: dict[str, tuple[str, str]] = {}
    for left, relation, right in _CONTAINMENT.findall(text):
        a, b = _side(left), _side(right)
        if "this" in (a, b):
            a, b = (a if a == "this" else "other"), (b if b == "this" else "other")
        if a != b:
            found[relation.lower()] = (a, b)
    return found


def _containment_swap(claim: str, span: str) -> tuple[str, str] | None:
    theirs = _containments(span)
    for relation, (a, b) in _containments(claim).items():
        if theirs.get(relation) == (b, a):
            return a, b
    return None


def relation_swap(claim: str, span: str) -> tuple[str, str] | None:
    """The two parties ``claim`` gives each other's relation in ``span``, else None.

    >>> relation_swap("A ValueError is raised if first is not greater than last.",
    ...               "A ValueError is raised if last is not greater than first.")
    ('first', 'last')
    >>> relation_swap("The loop is run by the caller.", "The caller runs the loop.") is None
    True
    """
    return (
        _comparison_swap(claim, span)
        or _containment_swap(claim, span)
        or _default_swap(claim, span)
        or _doer_swap(claim, span)
        or _korean_doer_swap(claim, span)
    )
