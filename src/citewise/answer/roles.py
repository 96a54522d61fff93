"""What a provision does in its law, so the extractive answer keeps to the ones that answer.

A law's supplementary provisions (부칙: when it takes effect, transitional rules, the other laws it
amends) and its side rules — its purpose clause (목적), its definitions (정의), its sanctions (벌칙,
과태료, 양벌규정) — share the words of almost any question about the law, and a transitional rule
("최장 2년간 ... 취업활동을 허용") even gives a figure that contradicts the main rule ("3년의 범위내에서
취업활동을 할 수 있다"). The deterministic composer answers from the provisions that answer the
question and leaves these out **unless the question asks for them**: a question about a penalty may
cite 벌칙, one asking what a word means may cite 정의, one naming 부칙, 시행일 or 경과조치 may cite
those. When nothing else is eligible they are used as they are: an answer from them beats none.

>>> from citewise.answer.question import analyse_question
>>> role_of("부칙-1", "부칙 <제6967호,2003.8.16>", SectionKind.SUPPLEMENTARY).value
'transitional'
>>> role_of("제30조", "제30조 (벌칙)", SectionKind.ARTICLE).value
'penalty'
>>> asked_for(ProvisionRole.PENALTY, analyse_question("위반하면 과태료는 얼마인가요?"))
True
>>> asked_for(ProvisionRole.TRANSITIONAL, analyse_question("외국인근로자의 취업활동 기간은 얼마인가요"))
False

Within an article the same holds for its paragraphs (①②…): after the first, a paragraph that opens
on another paragraph of the article ("⑥ 제4항에 따라 이의신청을 받은 체납처분청은 …", "② 전항의 …")
or hands the details to a decree ("… 필요한 사항은 대통령령으로 정한다") is a **side paragraph**: it
settles what follows from the article's rule, for whoever that concerns, and shares the rule's words.
A sentence that opens on the one before it ("이 경우 …", "In this case …";
:func:`citewise.text.lead_ins.follow_on`) is read the same way.
The composer cites one only when it is about the question itself — it holds at least
:data:`SIDE_RULE_SHARE` of the question's content terms — or the question names its paragraph.

>>> side_paragraph("⑥ 제4항에 따라 이의신청을 받은 체납처분청은 보증금의 변제를 유보하여야 한다.")
True
>>> side_paragraph("② 임대차기간이 끝난 경우에도 임차인이 보증금을 반환받을 때까지는 임대차관계가 존속된다.")
False
>>> side_paragraph("② 제3조제1항의 대항요건을 갖춘 임차인은 보증금을 우선하여 변제받을 권리가 있다.")
False
"""

from __future__ import annotations

import enum
import re

from citewise.answer.question import Intent, Question
from citewise.records import SectionKind
from citewise.text.articles import asks_about_addenda

__all__ = [
    "SIDE_RULE_SHARE",
    "ProvisionRole",
    "asked_for",
    "paragraph_number",
    "role_of",
    "side_paragraph",
]


class ProvisionRole(str, enum.Enum):
    """What a provision does in its law."""

    MAIN = "main"  #: a rule of the law itself
    TRANSITIONAL = "transitional"  #: 부칙: entry into force, transitional rules, amendments of other laws
    PURPOSE = "purpose"  #: the purpose clause (목적)
    DEFINITION = "definition"  #: definitions (정의)
    PENALTY = "penalty"  #: sanctions (벌칙, 과태료, 양벌규정)


# The article title in parentheses: "제30조 (벌칙)", "제2조(정의)".
_TITLE = re.compile(r"\(\s*([^)]*?)\s*\)")
_BY_TITLE: tuple[tuple[ProvisionRole, re.Pattern[str]], ...] = (
    (ProvisionRole.TRANSITIONAL, re.compile(r"^(?:시행일|경과\s?조치|적용\s?례|다른\s?법률의\s?개정|유효기간)")),
    (ProvisionRole.PURPOSE, re.compile(r"^목적$")),
    (ProvisionRole.DEFINITION, re.compile(r"(?:^|의\s?)정의$")),  # 정의, 용어의 정의, 외국인근로자의 정의
    (ProvisionRole.PENALTY, re.compile(r"^(?:벌칙|과태료|양벌\s?규정|벌칙\s?적용에서\s?공무원\s?의제)")),
)
# TRANSITIONAL is asked as search asks it: citewise.text.articles.asks_about_addenda.
_ASKED_WORDS: dict[ProvisionRole, re.Pattern[str]] = {
    ProvisionRole.PURPOSE: re.compile(r"목적|취지|purpose"),
    ProvisionRole.DEFINITION: re.compile(r"정의|뜻|의미|무엇인|란\s|이란|definition|meaning|what is"),
    ProvisionRole.PENALTY: re.compile(r"벌칙|처벌|과태료|벌금|징역|제재|penalt|punish|fine"),
}
_ASKED_INTENT = {ProvisionRole.DEFINITION: Intent.DEFINITION, ProvisionRole.PENALTY: Intent.PENALTY}


#: A side paragraph is cited only when it holds at least this share of the question's content terms.
SIDE_RULE_SHARE = 0.5

_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
# Another paragraph of the same article: 제4항 (not 제3조제1항, another article's), 전항, 같은 항.
_OWN_PARAGRAPH = re.compile(r"(?<!조)(?<!조\s)(?<!의\d)(?<!의\d\d)제\s?\d+\s?항|전항|같은\s?항")
_DELEGATES = re.compile(r"(?:령|규칙|조례|고시)(?:으로|로)\s*정(?:한다|할 수 있다)")


def paragraph_number(text: str) -> int | None:
    """The number of the paragraph ``text`` opens (① is 1), or None when it opens none."""
    stripped = text.lstrip()
    return _CIRCLED.index(stripped[0]) + 1 if stripped and stripped[0] in _CIRCLED else None


def side_paragraph(text: str) -> bool:
    """Whether ``text``, a paragraph of an article (its marker first), is a side paragraph: after the
    first, it opens on another paragraph of the article or delegates to a decree (see above)."""
    number = paragraph_number(text)
    if number is None or number == 1:
        return False
    first = re.split(r"(?<=다\.)\s", text.strip(), maxsplit=1)[0]  # its own rule, before "이 경우", "다만"
    return bool(_OWN_PARAGRAPH.search(first[1:]) or _DELEGATES.search(first))


def role_of(section_id: str, heading: str, kind: SectionKind) -> ProvisionRole:
    """The role of a provision, from its kind and the title of its heading."""
    if kind is SectionKind.SUPPLEMENTARY or section_id.startswith("부칙"):
        return ProvisionRole.TRANSITIONAL
    title = _TITLE.search(heading)
    for role, pattern in _BY_TITLE:
        if title and pattern.search(title.group(1)):
            return role
    return ProvisionRole.MAIN


def asked_for(role: ProvisionRole, question: Question) -> bool:
    """Whether ``question`` asks for provisions of ``role`` (a rule of the law itself always answers)."""
    if role is ProvisionRole.MAIN:
        return True
    if role is ProvisionRole.TRANSITIONAL:
        return asks_about_addenda(question.text)
    intent = _ASKED_INTENT.get(role)
    return (intent is not None and question.intent is intent) or bool(_ASKED_WORDS[role].search(question.text.lower()))
