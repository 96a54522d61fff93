"""Changed conditions and swapped names that share every other word with the span.

Three checks, each on the claim against the span it was matched to:

- **Time on the other side of a figure**: "15일 이내에 신고" against "15일이 지난 후에 신고", "within 30
  days" against "after 30 days". A figure of the claim with a direction word next to it (이내, 안에,
  전까지, within, before / 후, 뒤, 이후, 지나면, 경과, after) is changed when the span writes the same
  figure only with the opposite direction.
- **An event on the other side**: "경매신청의 등기 후에" against "경매신청의 등기 전에", "체류기간이
  끝난 뒤에" against "체류기간이 끝나기 전에": the same word before 전 / 이전 in one text and 후 / 이후 /
  뒤 in the other, and never on the same side.
- **A period counted from another event**: "퇴직 의사를 밝힌 날부터 14일 이내" against "지급 사유가
  발생한 때부터 14일 이내": the span counts the same figure from an event the claim does not name.
- **A requirement dropped**: "노동위원회의 승인 없이도 … 지급할 수 있다" against a span that asks
  for 노동위원회의 승인: a permissive claim that does without a noun the span names, where the span
  never says it may be done without it; one consent for another counts ("동의 없이" where the span
  asks for a 합의, "합의하지 않아도" where it asks for a 서면 합의).
- **One alternative made the only one** (:func:`only_one_of`, read in the span and the sentences
  beside it): "accepts only IPv4 networks" against "Either IPv4 or IPv6 networks may be supplied".
- **A version given another event** (:func:`changed_version`, read in the span and the sentences
  beside it): "was added in Python 3.5" against "New in version 3.3. Changed in version 3.5": the
  span dates that event to another version.
- **Presence for absence**: "지장이 있더라도 … 할 수 있다" against "지장이 없으면 … 할 수 있다".
- **Included, said left out**: "경영상 이유에 의한 해고에는 … 적용되지 않는다" against "해고(경영상 이유에
  의한 해고를 포함한다)".
- **Afterwards for beforehand**: "변경한 후에 허가를 받으면 된다" against "미리 … 허가를 받아야 한다".
- **A public body swapped for another**: "법원에 구제를 신청" against "노동위원회에 구제를 신청". A body
  of the claim (…장관, …위원회, 법원, …공단, …청장, …서장) that the span does not name, where the span
  names another body, is not what the span says; the question (``context``) may name it.
- **A code name swapped for another**: "the source_address parameter sets the buffer size" against
  "the blocksize parameter sets the buffer size". A name written as code (snake_case, CamelCase
  inside a word, a call with ``()``) that neither the span nor the question has, where the span
  has another such name, is a name the span does not support.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from citewise.verify.figures import NUMBER_PATTERN, as_digits, parse_figure

__all__ = ["changed_condition", "changed_version", "only_one_of"]

_WITHIN: Final = "within"
_AFTER: Final = "after"
_DIRECTION_AFTER = re.compile(
    r"^\s*(?:이|가|을|를)?\s?(?:(?P<within>이내|안에|안으로|내에|이전|전까지|전에|전)"
    r"|(?P<after>이후|후에|후|뒤에|뒤|지난\s?후|지난\s?뒤|지나서|지나면|지난|경과|초과))"
)
"""A direction right after a figure and its particle: "15일 이내", "3개월이 지나면"."""
_DIRECTION_BEFORE = re.compile(r"\b(?:(?P<within>within|before|by)|(?P<after>after|later than))\s*$", re.IGNORECASE)
"""A direction written before a figure: "within 30 days", "after 2 years"."""

_BODY = re.compile(
    r"(?<![가-힣])(?:[가-힣]{1,12}?(?:장관|위원회|공단|청장|세무서장|공사)|[가-힣]{0,6}?법원|정부|지방자치단체"
    r"|[가-힣]{1,12}?(?:관서|기관|단체)의\s?장|대통령령|총리령|[가-힣]{1,8}?부령)(?=[가-힣]{0,3}(?:[\s,.)]|$))"
)
"""A public body: …장관, …위원회, 법원, 정부, 지방자치단체, and a head of an office named by it (…관서의 장);
and the kind of decree a statute leaves a matter to (대통령령, 총리령, 법무부령 …): "대통령령으로 정한다"
for "법무부령으로 정한다" names the wrong maker."""
_SIDE_WORD = re.compile(r"([가-힣]{1,8})\s+(전|이전|후|이후|뒤)(?:에|까지|부터|에는)?(?=[\s,.]|$)")
"""An event and the side of it a condition is on: "경매신청의 등기 전에", "체류기간이 끝난 뒤에"."""
_BEFORE_SIDE: Final = frozenset({"전", "이전"})
_CODE_NAME = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b"  # snake_case
    r"|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b"  # camelCase, CamelCase
    r"|\b[A-Za-z_][A-Za-z0-9_.]*\(\)"  # a call
)


def _directions(text: str) -> list[tuple[str, str]]:
    """Each figure of ``text`` (its digits) with the direction written next to it, when there is one."""
    text = as_digits(unicodedata.normalize("NFKC", text))
    found: list[tuple[str, str]] = []
    for match in NUMBER_PATTERN.finditer(text):
        figure = parse_figure(match.group())
        if figure is None:
            continue
        after = _DIRECTION_AFTER.match(text[match.end() : match.end() + 12])
        before = _DIRECTION_BEFORE.search(text[max(0, match.start() - 14) : match.start()])
        hit = after or before
        if hit:
            found.append((figure.text, _WITHIN if hit.group("within") else _AFTER))
    return found


def _figure_direction(claim: str, span: str) -> str | None:
    theirs: dict[str, set[str]] = {}
    for figure, direction in _directions(span):
        theirs.setdefault(figure, set()).add(direction)
    for figure, direction in _directions(claim):
        span_sides = theirs.get(figure, set())
        if span_sides and direction not in span_sides:
            other = next(iter(span_sides))
            return f"changed condition: the claim puts {figure} {direction}, the span {other}"
    return None


def _stem(word: str) -> str:
    """A verb form down to its stem's syllables: 끝나기 / 끝난 / 끝날 → 끝나; a noun is kept."""
    word = word.removesuffix("기")
    last = ord(word[-1]) - 0xAC00
    if len(word) > 1 and 0 <= last < 11172 and last % 28 in (4, 8):  # a final ㄴ or ㄹ: 끝난, 끝날
        return word[:-1] + chr(0xAC00 + last - last % 28)
    return word


def _sides(text: str) -> dict[str, set[str]]:
    sides: dict[str, set[str]] = {}
    for match in _SIDE_WORD.finditer(unicodedata.normalize("NFKC", text)):
        side = _WITHIN if match.group(2) in _BEFORE_SIDE else _AFTER
        sides.setdefault(match.group(1), set()).add(side)
    return sides


def _same_event(a: str, b: str) -> bool:
    """The same word, or the same verb in two forms (끝나기 / 끝난); 등기 is not 등."""
    return a == b or (a != b and _stem(a) == _stem(b) and len(_stem(a)) > 1)


def _event_side(claim: str, span: str) -> str | None:
    theirs = _sides(span)
    for event, sides in _sides(claim).items():
        span_sides = {s for word, found in theirs.items() if _same_event(event, word) for s in found}
        if span_sides and not sides & span_sides:
            said = "before" if _WITHIN in sides else "after"
            return f"changed condition: the claim puts it {said} {event}, the span on the other side"
    return None


_START = re.compile(
    r"((?:[가-힣]+\s){0,3}[가-힣]+?)\s?(?:날|때|일)(?:로)?부터\s*(?:각각\s*)?(\d[\d,]*\s?(?:일|개월|년|주|시간))"
)
"""A period counted from an event: "지급 사유가 발생한 때부터 14일", "신청일부터 14일", "출생한 날부터 90일"."""
_PARTICLE = re.compile(r"(?:에서|으로|로|을|를|이|가|은|는|의|에|와|과|도|만)$")
_MODIFIER = re.compile(r"(?<=[가-힣])[한된은는인린킨힌던난긴진]$")
_START_STOP: Final = frozenset({"그", "이", "해당", "각", "그로"})


def _start_stems(words: str) -> list[str]:
    """The event a period starts from, down to what a page would also write: its verb and, when
    that verb's object or a bare noun comes right before it, that word ("퇴직 의사를 밝힌" → 의사, 밝;
    "외국인근로자가 출국한" → 출국: the one who leaves is named otherwise in a statute)."""
    kept = words.split()[-2:]
    if len(kept) == 2 and (kept[0] in _START_STOP or re.search(r"(?:이|가|은|는|의|에|에서|도)$", kept[0])):
        kept = kept[1:]
    stems = []
    for word in kept:
        word = _PARTICLE.sub("", word) if len(word) > 2 else word
        stems.append(_MODIFIER.sub("", word) if len(word) > 1 else word)
    return stems


def _changed_start(claim: str, span: str) -> str | None:
    """ "퇴직 의사를 밝힌 날부터 14일 이내" against "지급 사유가 발생한 때부터 14일 이내": the same period
    counted from another event. The span must count that figure from an event of its own; the
    claim's event is another when its noun (or, with none, its verb) is not in the span's sentence."""
    claim, span = as_digits(unicodedata.normalize("NFKC", claim)), as_digits(unicodedata.normalize("NFKC", span))
    theirs = [(m, parse_figure(m.group(2))) for m in _START.finditer(span)]
    for match in _START.finditer(claim):
        figure = parse_figure(match.group(2))
        own = [m for m, f in theirs if f is not None and figure is not None and f.matches(figure)]
        if not own:
            continue
        # The noun decides where there is one (근무처를 바꾼 / 근무처를 변경한 name one event); else the verb.
        stems = [w for w in _start_stems(match.group(1)) if len(w) > 1][:1]
        sentence = span[span.rfind(".", 0, own[0].start()) + 1 : own[0].end()]
        if stems and stems[0] not in sentence:
            mine, event = " ".join(match.group(1).split()[-2:]), " ".join(own[0].group(1).split()[-2:])
            return f"changed start: the claim counts {match.group(2)} from {mine}, the span from {event}"
    return None


_WITHOUT = re.compile(
    r"([가-힣]{1,10})\s+(?:없이(?:도|는)?|없어도|없더라도)(?=\s)"
    r"|([가-힣]{1,10}?)(?:하지|을\s받지|를\s받지|을\s거치지|를\s거치지)\s+(?:않아도|않더라도|않고도?)(?=\s)"
)
"""Something done without: "승인 없이도", "동의가 없어도", "합의하지 않아도", "의결을 거치지 않고"."""
_PERMITS = re.compile(r"(?:수\s+있|된다|됩니다|되며|생긴다|생깁니다|가능)[가-힣]*[.\s]*$")
_FORBIDS = re.compile(r"없다|없습니다|아니|못(?!\s?미치)|안\s*된|금지")
"""A prohibition; "못 미치는" (falls short of) is none."""
_CONSENT: Final = frozenset({"동의", "합의", "승인", "허가", "인가", "의결", "협의"})
"""Words of one requirement: someone's say before it is done. A claim that does without one where
the span asks for another ("동의 없이" against "합의에 의하여") drops the span's requirement."""


def _dropped_requirement(claim: str, span: str) -> str | None:
    """ "노동위원회의 승인 없이도 … 지급할 수 있다" where the span asks for that 승인: a claim that
    permits something without what the span names (and never says it may be done without)."""
    claim, span = unicodedata.normalize("NFKC", claim), unicodedata.normalize("NFKC", span)
    if not _PERMITS.search(claim) or _FORBIDS.search(claim):
        return None
    for match in _WITHOUT.finditer(claim):
        noun = match.group(1) or match.group(2)
        if noun not in _CONSENT and len(noun) > 2:  # 합의가 없어도 → 합의; 인가 stays 인가
            noun = re.sub(r"(?:을|를|이|가|와|과)$", "", noun)
        wanted = [noun] if noun in span else []
        if not wanted and any(noun.endswith(word) for word in _CONSENT):
            wanted = sorted(word for word in _CONSENT if word in span)
        for word in wanted:
            if not re.search(rf"{re.escape(word)}(?:을|를|이|가)?\s+없이", span):
                return f"dropped requirement: the claim permits it without {noun}, the span does not"
    return None


_PRESENCE = re.compile(
    r"([가-힣]{1,8})(?:이|가)\s?(있|없)(?:으면|는\s경우|을\s경우|을\s때|더라도|어도|는데도|는\s때)(?=[\s,])"
)
"""A condition met by a thing's presence or absence: "지장이 없으면", "사유가 있는 경우", "지장이 있더라도"."""


def _korean_presence(claim: str, span: str) -> str | None:
    """ "지장이 있더라도 변경할 수 있다" against "지장이 없으면 변경할 수 있다": the same thing, the
    condition met by its presence in one text and by its absence in the other."""
    theirs: dict[str, set[str]] = {}
    for noun, side in _PRESENCE.findall(unicodedata.normalize("NFKC", span)):
        theirs.setdefault(noun, set()).add(side)
    for noun, side in _PRESENCE.findall(unicodedata.normalize("NFKC", claim)):
        if noun in theirs and side not in theirs[noun]:
            said = "present" if side == "있" else "absent"
            return f"changed condition: the claim's condition is {noun} {said}, the span's the opposite"
    return None


_INCLUDED = re.compile(r"\(([^()]{2,60}?)(?:을|를)\s?포함한다\)")
_LEFT_OUT = re.compile(r"적용되지\s?않|적용하지\s?않|포함되지\s?않|해당하지\s?않|제외")


def _included_left_out(claim: str, span: str) -> str | None:
    """ "경영상 이유에 의한 해고에는 … 적용되지 않는다" against "해고(경영상 이유에 의한 해고를 포함한다)":
    what the span expressly includes, the claim leaves out."""
    if not _LEFT_OUT.search(claim):
        return None
    for match in _INCLUDED.finditer(unicodedata.normalize("NFKC", span)):
        words = re.findall(r"[가-힣]{2,}", match.group(1))
        if words and all(word[:2] in claim for word in words):
            return f"changed condition: the span includes {match.group(1).strip()}, the claim leaves it out"
    return None


_BEFOREHAND = re.compile(r"미리|사전에")
_AFTERWARDS = re.compile(r"[가-힣]+(?:한|된|친)\s(?:후|뒤|다음)(?:에|에야|에도)?(?=\s)")


def _afterwards(claim: str, span: str) -> str | None:
    """ "근무처를 변경한 후에 허가를 받으면 된다" against "변경하려면 … 미리 … 허가를 받아야 한다": what the
    span asks for beforehand, the claim lets follow the act."""
    if _BEFOREHAND.search(span) and not _BEFOREHAND.search(claim) and (after := _AFTERWARDS.search(claim)):
        return f"changed condition: the claim has it '{after.group()}', the span beforehand (미리)"
    return None


def _bodies(text: str) -> set[str]:
    return set(_BODY.findall(unicodedata.normalize("NFKC", text)))


def _swapped_body(claim: str, span: str, context: str) -> str | None:
    mine = _bodies(claim)
    theirs = _bodies(span)
    given = unicodedata.normalize("NFKC", span + " " + context)
    for body in sorted(mine):
        if body in given:
            continue
        others = sorted(b for b in theirs if b not in mine and b not in body and body not in b)
        if others:
            return f"swapped name: the claim names {body}, the span {others[0]}"
    return None


def _code_names(text: str) -> set[str]:
    return {name.removesuffix("()").lower() for name in _CODE_NAME.findall(text)}


def _swapped_code_name(claim: str, span: str, context: str) -> str | None:
    mine = _code_names(claim)
    theirs = _code_names(span)
    said = (span + " " + context).lower()
    for name in sorted(mine):
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", said):
            continue
        others = sorted(theirs - mine)
        if others:
            return f"swapped name: the claim names {name}, the span {others[0]}"
    return None


_EN_CONDITION = re.compile(
    r"\b(?P<word>if|when|whenever|unless)\s+(?P<no>no\s+|not\s+)?(?:an?\s+|the\s+)?(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)",
    re.IGNORECASE,
)
"""An English condition on a thing, met by its presence or absence: "if no port number", "when a port number"."""


def _en_conditions(text: str) -> dict[str, set[bool]]:
    """Each noun phrase an English condition is on, with whether the condition is its absence."""
    found: dict[str, set[bool]] = {}
    for match in _EN_CONDITION.finditer(text):
        absent = bool(match.group("no")) != (match.group("word").lower() == "unless")
        found.setdefault(match.group("noun").lower(), set()).add(absent)
    return found


def _inverted_condition(claim: str, span: str) -> str | None:
    """ "only when a port number is passed" against "If no port number is passed": the same thing,
    the condition met by its presence in one text and by its absence in the other."""
    theirs = _en_conditions(span)
    for noun, absent in _en_conditions(claim).items():
        if (other := theirs.get(noun)) and not absent & other:
            side = "absent" if True in absent else "present"
            return f"changed condition: the claim's condition is '{noun}' {side}, the span's the opposite"
    return None


_V = r"(?:version\s+|python\s+|v)?(\d+\.\d+(?:\.\d+)?)"
_VERSION_EVENTS: Final = {
    "added": re.compile(rf"\b(?:new|added|introduced)\s+in\s+{_V}", re.IGNORECASE),
    "deprecated": re.compile(rf"\bdeprecated\s+(?:since|in|as\s+of)\s+{_V}", re.IGNORECASE),
    "removed": re.compile(rf"\b(?:be\s+|been\s+|is\s+|was\s+|slated\s+for\s+)?(?:removed|removal)\s+in\s+{_V}", re.I),
}
"""When a page dates a change: "New in version 3.3", "Deprecated since version 3.6", "will be removed
in version 3.12", "was added in Python 3.5"."""


def _version_events(text: str) -> dict[str, set[str]]:
    return {kind: set(pattern.findall(text)) for kind, pattern in _VERSION_EVENTS.items()}


def changed_version(claim: str, span: str) -> str | None:
    """ "time.monotonic() was added in Python 3.5" against "New in version 3.3. Changed in version 3.5":
    a version the span gives another event, or no event, said to date the one it dates otherwise."""
    theirs = _version_events(span)
    for kind, versions in _version_events(claim).items():
        if theirs[kind] and (wrong := sorted(versions - theirs[kind])):
            return f"changed date: the claim has it {kind} in {wrong[0]}, the span in {sorted(theirs[kind])[0]}"
    return None


_ONLY_WHEN = re.compile(r"\bonly\s+(?:when|if|whenever)\s+([^,.;:]+)", re.IGNORECASE)
_EN_TERM = re.compile(r"[a-z][a-z0-9_]{2,}")
_CONDITION_STOP: Final = frozenset(
    "the and are was were been being set has have had its this that there their with from into not only any".split()
)


def _en_terms(text: str) -> set[str]:
    return {w.removesuffix("s") for w in _EN_TERM.findall(text.lower()) if w not in _CONDITION_STOP}


def _unstated_only(claim: str, span: str) -> str | None:
    """ "only when the PYTHONNODEBUGRANGES variable is set" where the span says nothing of the kind:
    a restriction the claim adds, at least two of its words and most of them not in the span."""
    theirs = _en_terms(span)
    for match in _ONLY_WHEN.finditer(claim):
        wanted = _en_terms(match.group(1))
        if len(wanted) >= 2 and len(wanted & theirs) * 2 < len(wanted):
            said = match.group(0).split(None, 1)[1]
            return f"changed condition: the claim adds 'only {said}', the span says no such thing"
    return None


_ONLY = re.compile(r"\bonly\s+((?:[^\s,.;:]+\s+){0,5}[^\s,.;:]+)", re.IGNORECASE)
_ALTERNATIVES = re.compile(
    r"((?:[^\s,.;:()]+(?:\s+[^\s,.;:()]+){0,2},\s+){0,4}[^\s,.;:()]+(?:\s+[^\s,.;:()]+){0,2}),?\s+or\s+"
    r"((?:an?\s+|the\s+)?[^\s,.;:()]+)",
    re.IGNORECASE,
)
"""A list of alternatives: "a class, metaclass, or a function", "Either IPv4 or IPv6"."""


_LIST_STOP: Final = _CONDITION_STOP | frozenset("a an either all each both may can will".split())


def _words(item: str) -> list[str]:
    words = [w.strip("<>:/") for w in re.findall(r"[\w<>:/-]+", item.lower())]
    words = [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]
    return [w for w in words if w and w not in _LIST_STOP]


def only_one_of(claim: str, span: str) -> str | None:
    """ "accepts only IPv4 networks" against "Either IPv4 or IPv6 networks may be supplied": a claim
    that keeps one of the span's alternatives and rules out the others. Each alternative is named by
    its last word before the "or" and by its first word after it."""
    said = {w for match in _ONLY.finditer(claim) for w in _words(match.group(1))}
    if not said:
        return None
    everything = set(_words(claim))
    for match in _ALTERNATIVES.finditer(span):
        before = [_words(i) for i in re.split(r",\s*", match.group(1))]
        heads = [w[-1] for w in before if w] + _words(match.group(2))[:1]
        kept = [h for h in heads if h in said]
        dropped = [h for h in heads if h not in everything]
        if kept and dropped and len(heads) >= 2:
            return f"overstated scope: the claim says only {kept[0]}, the span also names {dropped[0]}"
    return None


_KIND_OF = re.compile(
    r"\b(?:is|are|returns?|gives?|yields?)\s+(?:a|an)\s+(?:[\w-]+\s+)?"
    r"(list|tuple|dictionary|dict|set|string|integer|iterator|generator|callable)\b",
    re.IGNORECASE,
)
"""What a thing is said to be, as a type: "is a dictionary whose items …", "returns an iterator"."""


def _other_kind(claim: str, span: str) -> str | None:
    """ "is a list of the channels" where the span says "is a dictionary whose items are the
    channels": a type the span never names, where it names another."""
    theirs = {t.lower() for t in _KIND_OF.findall(span)}
    words = {w.lower().removesuffix("s") for w in re.findall(r"[A-Za-z]+", span)}
    for kind in (k.lower() for k in _KIND_OF.findall(claim)):
        if theirs and kind not in theirs and kind not in words:
            return f"changed condition: the claim says '{kind}', the span '{sorted(theirs)[0]}'"
    return None


_RULED_OUT = re.compile(r"\bnot\s+(?:a|an|the)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){1,4})", re.IGNORECASE)
_PHRASE_STOP: Final = frozenset("of the a an in on to for by and or".split())


def _ruled_out(claim: str, span: str) -> str | None:
    """ "the address of the proxy server" affirmed where the span says "not the address of the proxy
    server": a phrase of two content words or more that the span rules out, said by the claim without
    a "not" of its own."""
    folded = " ".join(claim.lower().split())
    for match in _RULED_OUT.finditer(span):
        words = match.group(1).lower().split()
        while words and words[-1] in _PHRASE_STOP:
            words.pop()
        phrase = " ".join(words)
        if sum(w not in _PHRASE_STOP for w in words) < 2 or phrase not in folded:
            continue
        before = folded[: folded.index(phrase)].split()[-3:]
        if "not" not in before and "never" not in before and "no" not in before:
            return f"negation mismatch: the span rules out '{phrase}', the claim affirms it"
    return None


def changed_condition(claim: str, span: str, context: str = "") -> str | None:
    """The reason ``claim`` changes a time condition or swaps a name of ``span``, else None.

    >>> changed_condition("외국인은 15일이 지난 후에 신고하여야 한다.", "외국인은 15일 이내에 신고하여야 한다.")
    'changed condition: the claim puts 15일 after, the span within'
    >>> changed_condition("근로자는 법원에 구제를 신청할 수 있다.", "근로자는 노동위원회에 구제를 신청할 수 있다.")
    'swapped name: the claim names 법원, the span 노동위원회'
    >>> changed_condition("source_address sets the buffer size.", "The blocksize parameter sets the buffer size.")
    >>> changed_condition("source_address sets the buffer size.", "The block_size parameter sets the buffer size.")
    'swapped name: the claim names source_address, the span block_size'
    """
    return (
        _figure_direction(claim, span)
        or _event_side(claim, span)
        or _changed_start(claim, span)
        or _dropped_requirement(claim, span)
        or _korean_presence(claim, span)
        or _afterwards(claim, span)
        or _included_left_out(claim, span)
        or _swapped_body(claim, span, context)
        or _swapped_code_name(claim, span, context)
        or _inverted_condition(claim, span)
        or _unstated_only(claim, span)
        or _other_kind(claim, span)
        or _ruled_out(claim, span)
    )
