"""Swapped roles: a claim that gives the span's parties each other's parts.

"임차인은 임대인에게 보증금을 돌려줘야 한다" shares every term with "임대인은 임차인에게 보증금을
반환하여야 한다", and an embedder scores the two as nearly the same; the claim is false. Two checks:

- **Korean** marks roles with particles: the subject (은/는/이/가), the recipient (에게/한테/에),
  the source (에게서/로부터), the object (을/를), the possessor (의), the thing compared (보다), the
  one a reason is named by (라는: "외국인근로자라는 이유로").
  Two nouns that both texts mark, each with the role the other has in the span, are swapped; so
  are a topic (은/는) and a recipient (에게) that trade places, even where the span also names the
  claim's topic as a clause's subject (이/가). The parties of the clause that holds the claim's
  predicate are read in that clause alone, so a subject of an earlier clause does not hide a payer
  made the payee; and a party the span never names, made the subject while the span's subject is
  given another role ("근로자는 … 사용자의 채권과 상계하지 못한다"), has taken its place.
- **English** marks roles by order: two words that both texts share, at most five words apart,
  around a shared word between them ("the landlord *pays* the tenant" / "the tenant *pays* the
  landlord"), in the reverse order, are swapped ("from A to B" / "from B to A" too) — unless
  exactly one of the texts is passive ("is paid by"), which reverses the order on purpose.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from citewise.verify.relations import relation_swap

__all__ = ["role_swap"]

_KO_ROLE = re.compile(
    r"((?<![가-힣])[가-힣]{2,}(?:의|한|하는)\s(?:장|자)|[가-힣]{2,}?)"
    r"(에게서|으로부터|로부터|에게|한테|보다|이라는|라는|은|는|이|가|을|를|의|에)(?=[\s,.)]|$)"
)
"""A noun and its particle; a party of one syllable is named with the word before it (관서의 장은,
고용한 자에게)."""
_ROLES: Final = {
    "은": "subject", "는": "subject", "이": "subject", "가": "subject",
    "에게": "recipient", "한테": "recipient", "에": "recipient",
    "에게서": "source", "으로부터": "source", "로부터": "source",
    "을": "object", "를": "object",
    "의": "possessor",
    "보다": "compared",
    "이라는": "named", "라는": "named",
}  # fmt: skip
_EN_WORD = re.compile(r"[a-z][a-z0-9_.-]*[a-z0-9]|[a-z]")
_EN_STOP: Final = frozenset(
    "a an the and or of to in on at for from with by as is are was were be been being it its this that these those "
    "must may can shall will would should could not no any all some each every than then".split()
)
_NEAR: Final = 5
"""English parties at most this many words apart in both texts: "the tenant pays the landlord" (six flagged
two more seen role swaps than five but failed one more ARES supported answer; see benchmarks/data/README.md)."""
_DIRECTIONS: Final = frozenset({"to", "from", "into", "than", "over", "before", "after", "instead"})
_PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ly\s+)?\w+(?:ed|en|id|wn|ld)\s+by\b")


_PARENTHETICAL = re.compile(r"\([^()]*\)")
_OWNED = re.compile(r"(?<![가-힣])([가-힣]{2,})의\s+([가-힣]{2,})")
_JOINER: Final = r"(?:이나\s|나\s|\s및\s|\s또는\s|[ㆍ·])"
"""What joins a noun to the next one: 나, 및, 또는, ㆍ."""
_JOINED_OWNER = re.compile(rf"(?<![가-힣])([가-힣]{{2,}}?){_JOINER}[가-힣]{{2,}}의\s+([가-힣]{{2,}})")
"""An owner joined to the next one: "차임이나 보증금의 증액" is 차임's 증액 too."""


_COORDINATED = re.compile(rf"(?<![가-힣])([가-힣]{{2,}}?){_JOINER}")
"""A noun joined to the next one ("후순위권리자나 그 밖의 채권자보다", "조세ㆍ공과금"): it shares that noun's role."""


def _korean_roles(text: str, *, topic: bool = False) -> dict[str, set[str]]:
    """Each noun with the roles its particles give it; a parenthetical (양수인(讓受人)은) is skipped,
    and a noun joined to the next by 나 / 및 / 또는 / ㆍ takes that noun's role.
    With ``topic``, 은/는 (the sentence's topic) is told apart from 이/가 (often a clause's subject)."""
    roles: dict[str, set[str]] = {}
    text = _PARENTHETICAL.sub("", text)
    marked = list(_KO_ROLE.finditer(text))
    for match in marked:
        particle = match.group(2)
        role = "topic" if topic and particle in ("은", "는") else _ROLES[particle]
        roles.setdefault(match.group(1), set()).add(role)
    for joined in _COORDINATED.finditer(text):
        following = next((m for m in marked if m.start() >= joined.end()), None)
        if following is not None:
            particle = following.group(2)
            role = "topic" if topic and particle in ("은", "는") else _ROLES[particle]
            roles.setdefault(joined.group(1), set()).add(role)
    return roles


def _korean_topic_swap(claim: str, span: str) -> tuple[str, str] | None:
    """The sentence's topic and another party traded: "외국인은 법무부장관에게 … 명령을 할 수 있다"
    against "법무부장관은 … 외국인이 … 그 외국인에게 … 명령을 할 수 있다", or "근로자가 … 하면 사용자는
    … 신청할 수 있다" against "사용자가 … 하면 근로자는 … 신청할 수 있다". The span may mark the
    claim's topic as a clause's subject (이/가) too, which the first-role check reads as the same role.
    A claim whose recipient is the span's topic, while its own topic is no topic of the span, has
    traded them too, even where the span leaves the recipient unsaid ("관할세무서장은 … 발급하여야
    한다" against "납세의무자는 관할세무서장에게 … 발급하여야 한다")."""
    mine, theirs = _korean_roles(claim, topic=True), _korean_roles(span, topic=True)
    for a, roles_a in mine.items():
        if "topic" not in roles_a or "topic" in theirs.get(a, set()):
            continue
        for b, roles_b in mine.items():
            if a == b or b not in theirs or "topic" not in theirs[b]:
                continue
            for other in ("recipient", "subject"):
                if (
                    other in roles_b
                    and other not in theirs[b]
                    and (other in theirs.get(a, set()) or other == "recipient")
                ):
                    if other == "subject" and a not in theirs:
                        continue
                    return a, b
    return None


def _possessor_swap(claim: str, span: str) -> tuple[str, str] | None:
    """One party's thing given to another: "근로자의 귀책사유" against "사용자의 귀책사유", where the span
    names 근로자 too but never as that thing's owner."""
    mine = _OWNED.findall(_PARENTHETICAL.sub("", claim))
    theirs = _OWNED.findall(_PARENTHETICAL.sub("", span)) + _JOINED_OWNER.findall(_PARENTHETICAL.sub("", span))
    span_nouns = _korean_roles(span)
    for owner, thing in mine:
        owners = {o for o, t in theirs if t == thing}
        if owners and owner not in owners and owner in span_nouns:
            return owner, next(iter(sorted(owners)))
    return None


def _korean_swap(claim: str, span: str) -> tuple[str, str] | None:
    # The claim's first role for a noun against every role the span gives it: a swap is two nouns
    # each taking a role the span gives only the other.
    mine = {noun: _first_role(claim, noun) for noun in _korean_roles(claim)}
    theirs = _korean_roles(span)
    shared = [n for n in mine if n in theirs]
    for i, a in enumerate(shared):
        for b in shared[i + 1 :]:
            ra, rb = mine[a], mine[b]
            if ra != rb and ra in theirs[b] and rb in theirs[a] and ra not in theirs[a] and rb not in theirs[b]:
                return a, b
    return None


_CLAUSE_END = re.compile(r",\s*|(?<=[가-힣])(?:며|고|으나|지만)\s+")
"""Where a Korean clause ends inside a sentence: a comma, or a connective ending (하며, 하고)."""
_PARTY = re.compile(r"[가-힣]*(?:자|인|원|주|관|청)$")
"""A noun that names a party: 근로자, 임차인, 공무원, 사업주, 장관, 관할청."""


def _clause_with(text: str, stem: str, nouns: frozenset[str] = frozenset()) -> str:
    """The clause of ``text`` that holds ``stem`` (the claim's last predicate) and most of ``nouns``,
    or the whole text."""
    clauses = [c for c in _CLAUSE_END.split(text) if c.strip()]
    found = [c for c in clauses if stem in c]
    if not found or len(clauses) == 1:
        return text
    return max(found, key=lambda c: (len(nouns & _korean_roles(c).keys()), -found.index(c)))


def _predicate_stem(claim: str) -> str:
    words = re.findall(r"[가-힣]+", claim)
    for word in reversed(words):
        if len(word) >= 2 and word not in ("합니다", "한다", "있다", "없다", "된다", "됩니다", "있습니다", "없습니다"):
            return word[:2]
    return ""


def _clause_swap(claim: str, span: str) -> tuple[str, str] | None:
    """The parties of the clause that holds the claim's predicate, read in that clause alone: "…
    해제되었을 경우에는 사용자는 … 근로자에게 여비를 지급하여야 한다" is not undone by a "근로자가
    청구할 경우" earlier in the sentence. A claim whose subject is that clause's recipient, naming
    as recipient a party the clause does not name, has turned payer into payee too."""
    stem = _predicate_stem(claim)
    if not stem or stem not in span:
        return None
    mine_text = _clause_with(claim, stem)
    theirs_text = _clause_with(span, stem, frozenset(_korean_roles(mine_text)))
    if pair := _korean_swap(mine_text, theirs_text):
        return pair
    mine, theirs = _korean_roles(mine_text), _korean_roles(theirs_text)
    for a in mine:
        if _first_role(mine_text, a) != "subject" or theirs.get(a) != {"recipient"}:
            continue
        for b, roles_b in mine.items():
            if b != a and "recipient" in roles_b and _PARTY.search(b) and b not in span:
                return a, b
    return None


def _absent_subject(claim: str, span: str) -> tuple[str, str] | None:
    """A party the span never names made the subject, while the span's subject is demoted to
    another role in the claim: "근로자는 … 사용자의 채권과 상계하지 못한다" against "사용자는 …
    임금을 상계하지 못한다"."""
    mine, theirs = _korean_roles(claim), _korean_roles(span, topic=True)
    subjects = [n for n, r in theirs.items() if r & {"subject", "topic"} and _PARTY.search(n)]
    # The span's subject: its topic, or the one party it makes a subject at all.
    subjects = [n for n in subjects if "topic" in theirs[n]] or (subjects if len(subjects) == 1 else [])
    for a, roles_a in mine.items():
        if "subject" not in roles_a or not _PARTY.search(a) or a in span:
            continue
        for b in subjects:
            if b in mine and "subject" not in mine[b]:
                return a, b
    return None


def _replaced_subject(claim: str, span: str) -> tuple[str, str] | None:
    """A party the span names but never makes a subject, made the subject of the claim's predicate,
    where the span gives that predicate a subject the claim never names: "수탁자가 종합부동산세를
    납부할 의무가 있다" against "수탁자의 명의로 … 등기된 … 신탁주택의 경우에는 … 위탁자가 종합부동산세를
    납부할 의무가 있다"."""
    stem = _predicate_stem(claim)
    if not stem or stem not in span:
        return None
    mine, everywhere = _korean_roles(claim), _korean_roles(span)
    clause = _korean_roles(_clause_with(span, stem, frozenset(mine)))
    subjects = [n for n, r in clause.items() if "subject" in r and _PARTY.search(n) and n not in claim]
    for a in mine:
        # A party the span only names as an owner (수탁자의 명의로) or by name: the span's object made
        # the subject ("18세 미만자는 … 할 수 없다" for "사용자는 18세 미만자를 … 못한다") is a paraphrase.
        if _first_role(claim, a) != "subject" or not _PARTY.search(a):
            continue
        if re.search(r"(?:면|경우에?는?|때에?는?)\s", claim[claim.find(a) :]):  # the subject of a condition
            continue
        if subjects and everywhere.get(a) and everywhere[a] <= {"possessor", "named"}:
            return a, subjects[0]
    return None


def _first_role(text: str, noun: str) -> str:
    match = next((m for m in _KO_ROLE.finditer(_PARENTHETICAL.sub("", text)) if m.group(1) == noun), None)
    if match is None:  # a noun joined to the next one takes its role
        return min(_korean_roles(text)[noun])
    return _ROLES[match.group(2)]


def _positions(text: str) -> dict[str, list[int]]:
    words = [w.rstrip(".") for w in _EN_WORD.findall(text.lower())]
    seen: dict[str, list[int]] = {}
    for n, word in enumerate(words):
        key = word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
        seen.setdefault(key, []).append(n)
    return seen


def _between(places: list[int], low: int, high: int) -> bool:
    return any(low < p < high for p in places)


def _english_swap(claim: str, span: str) -> tuple[str, str] | None:
    if bool(_PASSIVE.search(claim.lower())) != bool(_PASSIVE.search(span.lower())):
        return None
    mine, theirs = _positions(claim), _positions(span)
    shared = [w for w in mine if w in theirs]
    # Parties: content words said once in each text; what lies between: content or direction words.
    parties = [
        w
        for w in shared
        if w not in _EN_STOP and w not in _DIRECTIONS and len(w) > 2 and len(mine[w]) == len(theirs[w]) == 1
    ]
    parties.sort(key=lambda w: mine[w][0])
    middles = [w for w in shared if w not in _EN_STOP or w in _DIRECTIONS]
    for i, a in enumerate(parties):
        for b in parties[i + 1 :]:
            (ca,), (cb,), (ta,), (tb,) = mine[a], mine[b], theirs[a], theirs[b]
            if not (tb < ta and cb - ca <= _NEAR and ta - tb <= _NEAR):
                continue
            if any(_between(mine[v], ca, cb) and _between(theirs[v], tb, ta) for v in middles):
                return a, b
    return None


_DIRECTED = re.compile(r"\b([a-z]{4,})\s+(to|from|into|onto)\b")
"""A word and the direction it points: "made from", "sent to", "copied into"."""
_OPPOSITE_WAY: Final = {"to": "from", "into": "from", "onto": "from", "from": "to"}


def _turned_around(claim: str, span: str) -> tuple[str, str] | None:
    """ "the address the connection is made to" against "… is made from": the same participle
    pointing the other way, where the span never points it the claim's way."""
    theirs = set(_DIRECTED.findall(span.lower()))
    for verb, way in _DIRECTED.findall(claim.lower()):
        other = _OPPOSITE_WAY[way]
        if (verb, other) in theirs and (verb, way) not in theirs and (other != "to" or (verb, "into") not in theirs):
            return f"{verb} {way}", f"{verb} {other}"
    return None


_AGENT = re.compile(r"\b((?i:[a-z]+(?:ed|en|wn)))\s+by\s+([A-Z][\w-]*(?:\s+(?:[Dd]e|van|von|and)?\s*[A-Z][\w-]*)*)")
"""A participle and the person it names as its agent: "written by Erik De Bonte and Eric Traut"."""


def _agents(text: str) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for verb, names in _AGENT.findall(text):
        people = {n.strip(" .").lower() for n in re.split(r"\s+and\s+", names) if n.strip(" .")}
        found.setdefault(verb.lower(), set()).update(people)
    return {verb: frozenset(people) for verb, people in found.items()}


def _agent_swap(claim: str, span: str) -> tuple[str, str] | None:
    """ "written by A and contributed by B" where the span has "contributed by A … written by B": the
    same people, each given the other's act."""
    theirs = _agents(span)
    for verb, people in _agents(claim).items():
        if verb not in theirs:
            continue
        for person in sorted(people - theirs[verb]):
            if any(person in others for other, others in theirs.items() if other != verb):
                return person, next(iter(sorted(theirs[verb])))
    return None


_COMPARED_WORD = re.compile(r"\d+(?:\.\d+)+|[a-z][\w-]*")
_COMPARED_SKIP: Final = _EN_STOP | frozenset({"python", "version", "much", "far", "about"})


def _compared(text: str) -> list[tuple[frozenset[str], str]]:
    """Each "… than B" of ``text``: the words before it in its clause, and B's first word."""
    found = []
    for match in re.finditer(r"\bthan\b", text.lower()):
        before = re.split(r"[,;:]|\.\s", text.lower()[: match.start()])[-1]
        after = [
            w for w in _COMPARED_WORD.findall(text.lower()[match.end() : match.end() + 40]) if w not in _COMPARED_SKIP
        ]
        if after:
            left = frozenset(w for w in _COMPARED_WORD.findall(before)[-8:] if w not in _COMPARED_SKIP)
            found.append((left, after[0]))
    return found


def _compared_swap(claim: str, span: str) -> tuple[str, str] | None:
    """ "Python 3.10 is 10-60% faster than Python 3.11" against "Python 3.11 is … faster than Python
    3.10": the thing compared made the one it is compared with."""
    theirs = _compared(span)
    for left, right in _compared(claim):
        for their_left, their_right in theirs:
            if right != their_right and right in their_left and their_right in left:
                return their_right, right
    return None


def role_swap(claim: str, span_sentence: str) -> str | None:
    """The reason when ``claim`` swaps the roles of two parties of ``span_sentence``, else None.

    >>> role_swap("임차인은 임대인에게 보증금을 반환하여야 한다.", "임대인은 임차인에게 보증금을 반환하여야 한다.")
    'swapped roles: 임차인 and 임대인 change places'
    >>> role_swap("The tenant pays the landlord.", "The landlord pays the tenant.")
    'swapped roles: tenant and landlord change places'
    >>> role_swap("The tenant is paid by the landlord.", "The landlord pays the tenant.") is None
    True
    >>> role_swap("It was written by Ann Lee and reviewed by Bo Kim.", "Reviewed by Ann Lee. Written by Bo Kim.")
    'swapped roles: ann lee and bo kim change places'
    """
    claim, span_sentence = unicodedata.normalize("NFKC", claim), unicodedata.normalize("NFKC", span_sentence)
    pair = (
        _korean_swap(claim, span_sentence)
        or _korean_topic_swap(claim, span_sentence)
        or _possessor_swap(claim, span_sentence)
        or _clause_swap(claim, span_sentence)
        or _absent_subject(claim, span_sentence)
        or _replaced_subject(claim, span_sentence)
        or _english_swap(claim, span_sentence)
        or _agent_swap(claim, span_sentence)
        or _compared_swap(claim, span_sentence)
        or relation_swap(claim, span_sentence)
    )
    if pair:
        return f"swapped roles: {pair[0]} and {pair[1]} change places"
    turned = _turned_around(claim, span_sentence)
    return f"swapped roles: the claim says '{turned[0]}', the span '{turned[1]}'" if turned else None
