"""Which case gets which outcome: a claim that gives one case of the span the outcome of another.

"When ignore_errors is true, failed removals raise an exception, and when it is false they are
ignored" shares every word with "If ignore_errors is true, errors … will be ignored; if false or
omitted, … they raise an exception": only the binding of outcome to case is turned round, which
no check of words, figures or roles sees. Two readings of a case and its outcome:

- **English**: a condition "if / when / whenever <thing> is <value>, <outcome>" (or "<outcome> if
  <thing> is <value>"), the value true, false or None ("omitted" and "not given" read as false,
  "is not true" as false). The thing is the name the condition tests ("check", "ignore_errors",
  "a true keep_blank_values"), or, when the condition names none ("If false (the default), …"),
  the last name tested before it.
- **Korean**: a case keyed by a figure, "근로시간이 4시간인 경우에는 30분 이상, 8시간인 경우에는 1시간
  이상": each case figure (followed by 인 경우, 이면, 일 때) with the figures of its outcome, up to the
  next case or the end of the sentence.

- **What a thing is**: "conn is a new socket object … and address is the address bound to the
  socket"; a claim that says of one thing what the span says of another, and describes the first
  otherwise, has traded them.

A claim's case is swapped when the span has that case and another value of the same thing, and the
claim's outcome is the other value's: for English, its words include at least as many of those
only the other outcome has as of those only its own has (and at least one); for Korean, its figure
is the other case's and not its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from citewise.verify.figures import Figure, as_digits, figures

__all__ = ["swapped_case"]


@dataclass(frozen=True, slots=True)
class _Case:
    thing: str
    """What the condition tests: a parameter's name, or a figure's text for a Korean case."""
    value: str
    """The value it is tested for: "true", "false", "none"; the figure itself for a Korean case."""
    outcome: str
    """The text of what follows when the case holds."""


_MARKER = re.compile(
    r"\b(?:if|when|whenever|setting|passing)\b|\bwith\b(?=\s+[A-Za-z_]\w*\s+set\s+to\b)", re.IGNORECASE
)
"""Where a condition starts: "if", "when", "setting typed to true", "with typed set to true"."""
_NEAR: Final = 30
"""A condition's test starts at most this many characters after its marker."""
_VALUE_WORDS = r"true|false|none|omitted|not\s+given|not\s+specified"
_TESTED = (
    re.compile(
        rf"(?P<thing>[A-Za-z_][\w.]*)\s+(?:is|are)\s+(?:set\s+to\s+|left\s+(?:at|as)\s+)?(?P<not>not\s+)?(?P<value>{_VALUE_WORDS})\b",
        re.IGNORECASE,
    ),
    re.compile(rf"\b(?P<thing>[A-Za-z_]\w*)\s+set\s+to\s+(?P<value>{_VALUE_WORDS})\b", re.IGNORECASE),
    re.compile(rf"(?:set|pass|give)s?\s+(?P<thing>[A-Za-z_]\w*)\s*(?:to|=|as)\s*(?P<value>{_VALUE_WORDS})\b", re.I),
    re.compile(r"\b(?P<thing>[A-Za-z_]\w*)\s*=\s*(?P<value>true|false|none)\b", re.IGNORECASE),
    re.compile(rf"^\s*(?P<thing>[A-Za-z_]\w*)\s+to\s+(?P<value>{_VALUE_WORDS})\b", re.IGNORECASE),
    re.compile(r"\b(?:a|the)\s+(?P<value>true|false)\s+(?:value\s+(?:of|for)\s+)?(?P<thing>[A-Za-z_]\w*)", re.I),
)
"""What a condition tests and for which value: "ignore_errors is true", "you set typed to True",
"check=True", "a true keep_blank_values"."""
_BARE_VALUE = re.compile(rf"^\s*(?:it\s+is\s+|is\s+)?(?P<not>not\s+)?(?P<value>{_VALUE_WORDS})\b", re.IGNORECASE)
_FALSE: Final = frozenset({"false", "omitted", "not given", "not specified"})
_NOT_THINGS: Final = frozenset("it this that there which what value argument parameter flag".split())
_STOP: Final = frozenset(
    "the and are was were been being set has have had its this that there their with from into not only any "
    "will would should must can may also then such these those them they when whenever true false none "
    "omitted default value argument parameter".split()
)
_CLAUSE_END = re.compile(r"[.;](?:\s|$)|,?\s+(?:and|but|while|whereas)\s+(?=(?:if|when|whenever)\b)", re.IGNORECASE)


def _value(match: re.Match[str]) -> str:
    value = " ".join(match.group("value").lower().split())
    value = "false" if value in _FALSE else value
    if "not" in match.groupdict() and match.group("not"):
        value = {"true": "false", "false": "true"}.get(value, value)
    return value


_NAMED = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A parameter named before any condition tests it ("The optional argument strict_parsing …")."""


def _tested(condition: str, last: str) -> tuple[str, str, int] | None:
    """(thing, value, end of the test in ``condition``) a condition tests, the thing inherited from
    ``last`` when it names none."""
    for pattern in _TESTED:
        found = pattern.search(condition)
        if found and found.start() <= _NEAR and found.group("thing").lower() not in _NOT_THINGS:
            return found.group("thing").lower(), _value(found), found.end()
    if last and (bare := _BARE_VALUE.match(condition)):
        return last, _value(bare), bare.end()
    return None


def _english_cases(text: str) -> list[_Case]:
    tests: list[tuple[int, int, str, str]] = []
    last = ""
    for marker in _MARKER.finditer(text):
        last = last or next((m.group() for m in reversed(list(_NAMED.finditer(text, 0, marker.start())))), "")
        clause_end = _CLAUSE_END.search(text, marker.end())
        tested = _tested(text[marker.end() : clause_end.start() if clause_end else len(text)], last)
        if tested is not None:
            last = tested[0]
            tests.append((marker.start(), marker.end() + tested[2], tested[0], tested[1]))
    cases: list[_Case] = []
    for n, (start, tested_end, thing, value) in enumerate(tests):
        stop = tests[n + 1][0] if n + 1 < len(tests) else len(text)
        clause_end = _CLAUSE_END.search(text, tested_end)
        outcome = text[tested_end : min(stop, clause_end.start() if clause_end else len(text))]
        if not _stems(outcome, thing):  # "<outcome> if X is true": back to the clause's start
            begin = max(text.rfind(mark, 0, start) for mark in ".;,")
            outcome = text[begin + 1 : start]
        cases.append(_Case(thing, value, outcome))
    return cases


def _stems(text: str, thing: str) -> frozenset[str]:
    words = re.findall(r"[a-z][a-z_]{2,}", text.lower())
    return frozenset(w[:5] for w in words if w not in _STOP and w != thing)


def _english_swap(claim: str, span: str) -> str | None:
    theirs = _english_cases(span)
    for case in _english_cases(claim):
        same = [c for c in theirs if c.thing == case.thing]
        own = frozenset().union(*(_stems(c.outcome, c.thing) for c in same if c.value == case.value))
        other = frozenset().union(*(_stems(c.outcome, c.thing) for c in same if c.value != case.value))
        if not own or not other:
            continue
        said = _stems(case.outcome, case.thing)
        own_hits, other_hits = len(said & (own - other)), len(said & (other - own))
        if other_hits and other_hits >= own_hits:
            return f"swapped case: the claim gives {case.thing} = {case.value} the outcome the span gives another value"
    return None


_KO_CASE = re.compile(r"(?:인|이)?\s?(?:경우(?:에는|에|라면)?|이면|일\s?때(?:에는)?)(?=[\s,])")
"""What makes the figure before it a case: "4시간인 경우에는", "4시간이면", "4시간일 때"."""
_KO_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?\s?(?:시간|분|일|개월|주|년|세|명|회|퍼센트|%|원|만원|억원)")


def _korean_cases(text: str) -> list[tuple[Figure, list[Figure]]]:
    """Each case figure of ``text`` with the figures of its outcome."""
    text = as_digits(unicodedata.normalize("NFKC", text))
    found: list[tuple[int, int, Figure]] = []
    for match in _KO_NUMBER.finditer(text):
        case = _KO_CASE.match(text, match.end())
        parsed = figures(match.group())
        if case and parsed:
            found.append((match.start(), case.end(), parsed[0]))
    cases: list[tuple[Figure, list[Figure]]] = []
    for n, (_start, end, figure) in enumerate(found):
        stop = found[n + 1][0] if n + 1 < len(found) else len(text)
        sentence_end = re.search(r"[.。](?:\s|$)", text[end:stop])
        outcome = text[end : end + sentence_end.start()] if sentence_end else text[end:stop]
        cases.append((figure, figures(outcome)))
    return cases


def _korean_swap(claim: str, span: str) -> str | None:
    theirs = _korean_cases(span)
    if len(theirs) < 2:
        return None
    for figure, outcome in _korean_cases(claim):
        own = [f for case, result in theirs if case.matches(figure) for f in result]
        other = [f for case, result in theirs if not case.matches(figure) for f in result]
        if not own:
            continue
        for said in outcome:
            if not any(said.matches(f) for f in own) and any(said.matches(f) for f in other):
                pairs = f"the claim pairs {figure.text} with {said.text}, the span pairs it with {own[0].text}"
                return f"swapped case: {pairs}"
    return None


_COPULA = re.compile(
    r"\b(?P<thing>[A-Za-z_][\w.]*(?:\(\))?)\s+(?:is|are)\s+(?:(?:a|an|the)\s+)?(?P<what>[^,.;:]+)", re.IGNORECASE
)
"""A thing and what it is said to be: "conn is a new socket object", "the values are lists of values"."""
_COPULA_NOT: Final = (
    _NOT_THINGS | _STOP | frozenset("which who what where also only they these those there here and but nor".split())
)
_NAMES_VALUE = re.compile(rf"(?:not\s+)?(?:{_VALUE_WORDS})\b", re.IGNORECASE)


def _singular(word: str) -> str:
    """addresses → address, values → value, class → class."""
    if word.endswith("sses"):
        return word[:-2]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _definitions(text: str) -> list[tuple[str, frozenset[str]]]:
    found = []
    for match in _COPULA.finditer(text):
        thing = match.group("thing").lower().removesuffix("()")
        thing = _singular(thing)
        what = match.group("what").split()[:6]
        words = _stems(" ".join(what), thing)
        if thing in _COPULA_NOT or not words or _NAMES_VALUE.match(match.group("what")):
            continue
        found.append((thing, words))
    return found


def _swapped_definition(claim: str, span: str) -> str | None:
    """ "address is a new socket object" where the span has "conn is a new socket object … and address
    is the address bound to the socket": what the span says one thing is, said of another it
    describes otherwise."""
    theirs = _definitions(span)
    for thing, said in _definitions(claim):
        own = [words for other, words in theirs if other == thing]
        if not own:
            continue
        own_hits = max(len(said & words) for words in own)
        for other, words in theirs:
            hits = len(said & words)
            if other != thing and hits > own_hits and (hits >= 2 or (hits == len(said) and not own_hits)):
                return f"swapped case: the claim says of {thing} what the span says of {other}"
    return None


_IF = re.compile(r"\b(?:if|when|whenever)\b", re.IGNORECASE)
_CONDITION_STOP: Final = _STOP | frozenset("set given provided passed used present you your".split())


def _short_stems(text: str) -> frozenset[str]:
    """Content words cut to four letters, a plural's s first: sorts / sorted → sort, keys → key."""
    words = [w.removesuffix("s") if len(w) > 3 else w for w in re.findall(r"[a-z][a-z_]{2,}", text.lower())]
    return frozenset(w if "_" in w else w[:4] for w in words if w not in _CONDITION_STOP)


def _conditionals(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Each "if / when / whenever" of ``text``: (its condition's words, its outcome's words)."""
    found = []
    for marker in _IF.finditer(text):
        clause_end = _CLAUSE_END.search(text, marker.end())
        clause = text[marker.end() : clause_end.start() if clause_end else len(text)]
        if "," in clause:
            condition, outcome = clause.split(",", 1)
        else:
            condition = clause
            begin = max(text.rfind(mark, 0, marker.start()) for mark in ".;,")
            outcome = text[begin + 1 : marker.start()]
        found.append((_short_stems(condition), _short_stems(outcome)))
    return found


def _moved_outcome(claim: str, span: str) -> str | None:
    """ "json.dumps sorts dictionary keys whenever indent is set" against "If sort_keys is true, … the
    output of dictionaries will be sorted by key": an outcome the span gives under a condition that
    shares no word with the claim's. Every conditional of the span with that outcome (half its
    words, two or more) must share none."""
    # A condition with no words of its own ("If true, …", "if that is omitted") cannot be compared.
    theirs = [(c, o) for c, o in _conditionals(span) if c]
    for condition, outcome in _conditionals(claim):
        same = [c for c, o in theirs if len(o & outcome) >= max(2, len(outcome) / 2)]
        if condition and same and not any(c & (condition | outcome) for c in same):
            return "changed condition: the span gives this outcome under another condition"
    return None


_SECTION = re.compile(r"(?:^|(?<=[.\s]))([A-Za-z_][\w.]*)\([^()]*\):\s")
"""Where an API page's entry starts: "subnets(prefixlen_diff=1, new_prefix=None): …"."""
_CONTRAST_CLAUSE = re.compile(r",?\s+(?:whereas|while)\s+|;\s+|,\s+but\s+", re.IGNORECASE)


def _sections(span: str) -> dict[str, frozenset[str]]:
    """Each entry of an API page (two or more) with the words of its text."""
    starts = list(_SECTION.finditer(span))
    if len(starts) < 2:
        return {}
    found: dict[str, frozenset[str]] = {}
    for n, match in enumerate(starts):
        end = starts[n + 1].start() if n + 1 < len(starts) else len(span)
        name = match.group(1).split(".")[-1].lower()
        found[name] = found.get(name, frozenset()) | _stems(span[match.end() : end], name)
    return found


def _swapped_entry(claim: str, span: str) -> str | None:
    """ "subnets() returns a single network object, whereas supernet() returns an iterator" against
    the entries "subnets(…): … Returns an iterator …" and "supernet(…): … Returns a single network
    object": what one entry says, said of another. A clause naming one entry must share a word only
    the other entry has, and none only its own has."""
    sections = _sections(span)
    if not sections:
        return None
    for clause in _CONTRAST_CLAUSE.split(claim):
        # Named as code: "supernet()", "HTTPConnection.close", "quote_plus"; not the verb "read".
        named = [n for n in sections if re.search(rf"(?:\.|\b){re.escape(n)}\(\)|\.{re.escape(n)}\b", clause.lower())]
        named += [
            n for n in sections if "_" in n and n not in named and re.search(rf"\b{re.escape(n)}\b", clause.lower())
        ]
        if len(named) != 1:
            continue
        name = named[0]
        said = _stems(clause, name) - frozenset(n[:5] for n in sections)
        others = frozenset().union(*(words for other, words in sections.items() if other != name))
        own_hits, other_hits = len(said & (sections[name] - others)), len(said & (others - sections[name]))
        if other_hits and not own_hits:
            return f"swapped case: the claim says of {name}() what the span says of another entry"
    return None


def swapped_case(claim: str, span: str) -> str | None:
    """The reason ``claim`` gives a case of ``span`` the outcome of another case, else None.

    >>> span = "If ignore_errors is true, errors will be ignored; if false or omitted, they raise an exception."
    >>> swapped_case("If ignore_errors is true, failed removals raise an exception.", span)
    'swapped case: the claim gives ignore_errors = true the outcome the span gives another value'
    >>> swapped_case("With ignore_errors set to true, failures are ignored.", span) is None
    True
    >>> rest = "4시간인 경우에는 30분 이상, 8시간인 경우에는 1시간 이상을 준다."
    >>> swapped_case("근로시간이 4시간이면 1시간 이상을 준다.", rest)
    'swapped case: the claim pairs 4시간 with 1시간, the span pairs it with 30분'
    """
    return (
        _english_swap(claim, span)
        or _swapped_definition(claim, span)
        or _moved_outcome(claim, span)
        or _swapped_entry(claim, span)
        or _korean_swap(claim, span)
    )
