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
"""

from __future__ import annotations

import enum
import re

from citewise.answer.question import Intent, Question
from citewise.records import SectionKind
from citewise.text.articles import asks_about_addenda

__all__ = ["ProvisionRole", "asked_for", "role_of"]


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
