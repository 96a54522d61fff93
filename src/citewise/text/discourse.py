"""Sentences about the text or its writer rather than the subject: signposting and narration.

A report's "These are covered in detail in the following sections." and an engine's "Let me search
for more specific information." make no claim about the subject. They are not findings: they need
no citation, a citation on them proves nothing, and they never answer a question. Two kinds are
recognised, in English and Korean:

* **signposting** — the text talks about itself: its sections, what it covers, what follows
  ("This report examines ...", "In this section we look at ...", "The following summarises ...",
  "이 보고서는 ...을 살펴본다", "자세한 내용은 아래와 같다");
* **narration** — the writer talks about its own work: searching, looking up, what it is about to
  do ("I'll search the documentation for this.", "Let me look for more specific information.",
  "추가 정보를 검색해 보겠습니다").

A sentence that reports a finding through the text ("This report's sources show that rents rose
5%") is not caught: a signpost names the text as its subject *and* a verb of presenting, with no
"that"-clause of a finding after it.

>>> discourse_kind("These are covered in detail in the following sections.")
<Discourse.SIGNPOST: 'signpost'>
>>> discourse_kind("I'll search the documentation for this.")
<Discourse.NARRATION: 'narration'>
>>> discourse_kind("urllib.parse splits URLs into components.") is None
True
"""

from __future__ import annotations

import enum
import re

__all__ = ["Discourse", "discourse_kind", "is_about_the_text"]


class Discourse(str, enum.Enum):
    """What a sentence that makes no claim about the subject does instead."""

    SIGNPOST = "signpost"  #: it points at the text itself (its sections, what it covers)
    NARRATION = "narration"  #: the writer narrates its own work (searching, looking things up)


_TEXT_SUBJECT = (
    r"(?:(?:this|the present|our|the following|the next|the previous|the remaining|the rest of this|each)\s+"
    r"(?:report|section|sections|document|article|answer|summary|overview|analysis|paper|brief|chapter|part|parts"
    r"|paragraphs?|subsections?|discussion|table|list)"
    # "The sections below explain ...", "The parts that follow cover ..."
    r"|(?:the|these)\s+(?:sections?|parts?|paragraphs?|subsections?|chapters?|tables?|lists?)"
    r"\s+(?:below|above|that follow))"
)
_PRESENT_VERB = (
    r"(?:cover|covers|covered|discuss|discusses|discussed|describe|describes|described|examine|examines|examined"
    r"|explore|explores|explored|outline|outlines|outlined|summari[sz]e|summari[sz]es|summari[sz]ed|explain|explains"
    r"|explained|detail|details|detailed|address|addresses|addressed|review|reviews|reviewed|present|presents"
    r"|presented|look at|looks at|looked at|set out|sets out|walk through|walks through|focus on|focuses on"
    r"|turn to|turns to|consider|considers|considered|treat|treats|treated|provide an? (?:overview|summary)"
    r"|provides an? (?:overview|summary)|give an? (?:overview|summary)|gives an? (?:overview|summary)|go into"
    r"|goes into|break down|breaks down|elaborate on|elaborated on|expand on|expanded on)"
)
_FINDING = re.compile(r"\b(?:that|whether)\b\s+\S+", re.IGNORECASE)
_SIGNPOSTS_EN = (
    # "This report examines ...", "The following sections cover ...", "Each section explains ..."
    rf"^{_TEXT_SUBJECT}\s+(?:below\s+|above\s+|here\s+)?(?:will\s+|then\s+|now\s+|briefly\s+|first\s+)*{_PRESENT_VERB}\b",
    # "These are covered in detail in the following sections.", "This is discussed below."
    r"^(?:these|this|they|it|both|each|each of these|each of them|all of these|the details|details|more"
    r"|further details)\s+"
    r"(?:points?\s+|topics?\s+|issues?\s+|aspects?\s+)?(?:are|is|will be|were|was)\s+(?:each\s+)?(?:then\s+)?"
    r"(?:covered|discussed|described|examined|explored|outlined|summari[sz]ed|explained|detailed|addressed|reviewed"
    r"|presented|treated|set out|given|listed)\b.*\b(?:below|above|later|following|next|section|sections|report"
    r"|turn|here)\b",
    # "In this section, we look at ...", "In the following, I summarise ..."
    rf"^(?:in|throughout|across|over)\s+(?:{_TEXT_SUBJECT}|the following|what follows)\s*,?\s+(?:we|i|you)\s+"
    rf"(?:will\s+|shall\s+|now\s+|then\s+|briefly\s+)*{_PRESENT_VERB}\b",
    # "Below is a summary of ...", "Here are the key points.", "The following summarises ..."
    r"^(?:below|here|above)\s+(?:is|are|you will find|we)\b",
    rf"^the following\s+(?:{_PRESENT_VERB}|is|are|lists?|gives|shows)\b",
    rf"^(?:we|i)\s+(?:will\s+|shall\s+|now\s+|then\s+|first\s+|next\s+|briefly\s+)*{_PRESENT_VERB}\b",
    rf"^(?:let us|let's)\s+(?:now\s+|first\s+|briefly\s+)*{_PRESENT_VERB}\b",
    r"^(?:see|refer to)\s+(?:the\s+)?(?:section|sections|table|below|above|following)\b",
    r"^(?:read on|more on (?:this|that) below|details follow|more below)\b",
    r"^(?:the\s+|more\s+|further\s+|full\s+)?details\s+(?:are|can be found|appear)\s+(?:in|below)\s*"
    r"(?:the\s+)?(?:table|section|sections|list|below|following)?\s*(?:below|above|that follows)?[.]?$",
)
_SIGNPOSTS_KO = (
    r"^(?:이|본|아래|다음|이하|위)\s?(?:보고서|글|절|장|항목|문서|답변|요약|섹션|부분)(?:에서)?(?:는|은|에서는)\b.*"
    r"(?:다룬다|다룹니다|다루었다|다뤘다|살펴본다|살펴봅니다|살펴보겠|설명한다|설명합니다|설명하겠|정리한다|정리합니다"
    r"|정리하겠|검토한다|검토합니다|검토하겠|소개한다|소개합니다|소개하겠|요약한다|요약합니다|요약하겠|서술한다|기술한다"
    r"|논의한다|논의합니다)",
    r"^(?:자세한|구체적인|세부|상세한)\s?(?:내용|사항)(?:은|는)\s?(?:아래|다음|이하|뒤|후술|아래 절|다음 절)",
    r"(?:아래|다음|이하)와 같(?:다|습니다)[.]?$",
    r"^(?:아래|다음|이하|뒤)\s?(?:절|장|항목|섹션|부분)?에서(?:는)?\s.*(?:살펴본다|살펴봅니다|살펴보겠|다룬다|다룹니다|설명한다|설명합니다|정리한다|정리합니다)",
)
_NARRATION_LEAD = (
    r"(?:(?:now|next|first|okay|ok|great|good|perfect|alright|all right|right|so|well|sure|excellent)"
    r"\s*[,!]?\s+)*"
)
_NARRATION_EN = (
    # the writer announcing its own next step
    rf"^{_NARRATION_LEAD}"
    r"(?:i'll|i will|i'm going to|i am going to|i need to|i should|i want to|i'd like to|let me|let's|let us)\s+"
    r"(?:now\s+|first\s+|also\s+|next\s+|quickly\s+|try to\s+|go ahead and\s+)*"
    r"(?:search|look|find|check|research|gather|browse|query|fetch|read|dig|investigate|verify|get|pull|explore"
    r"|see|start|begin|try|do|run|perform|conduct|continue|summari[sz]e|compile|put together|provide|give|answer"
    r"|write|help|focus|examine|review)\b",
    # the writer reporting on its own search, with no finding in the sentence
    rf"^{_NARRATION_LEAD}(?:i|we)\s+(?:have\s+|now\s+|also\s+)*(?:searched|looked|browsed|checked|gathered|queried|fetched|read"
    r"|found some|found several|found a few|found more|found the|found relevant|couldn't find|could not find"
    r"|didn't find|did not find|have enough|now have|got)\b(?!.*\bthat\b)",
    # the writer reporting a search in progress: "I'm searching for ...", "Searching for more details."
    rf"^{_NARRATION_LEAD}(?:(?:i'm|i am|we're|we are)\s+(?:now\s+|also\s+)*(?:searching|looking|browsing|checking)"
    r"|searching\s+(?:for\s+(?:more|additional|the latest|the official|official|further|relevant|information"
    r"|sources|details)|the web|online|the documentation))\b(?!.*\bthat\b)",
    r"^(?:based on|from)\s+(?:my|the|these|this)\s+(?:search|searches|search results|research|results)\s*,?\s+"
    r"(?:i|let me|i'll|i will|i can|i now)\b(?!.*\bthat\b)",
)
_NARRATION_KO = (
    r"(?:검색|조사|확인|찾아|살펴|알아|정리|요약)\s?(?:해\s?)?(?:보겠습니다|보겠다|하겠습니다|하겠다|볼게요|할게요|드리겠습니다)[.]?$",
    r"^(?:검색|조사)\s?결과를\s?(?:바탕으로|토대로)\s?(?:정리|요약|답변)(?:하겠|해\s?드리겠|하면)",
)

_SIGNPOST = re.compile("|".join(f"(?:{p})" for p in (*_SIGNPOSTS_EN, *_SIGNPOSTS_KO)), re.IGNORECASE)
_NARRATION = re.compile("|".join(f"(?:{p})" for p in (*_NARRATION_EN, *_NARRATION_KO)), re.IGNORECASE)
_LEAD = re.compile(r"^[\s\"'“‘(*_>#-]+")
_CITATION = re.compile(r"\s*\[[A-Za-z]{1,3}\d+(?:\.\d+)?(?:\s*[,;]\s*[A-Za-z]{1,3}\d+(?:\.\d+)?)*\]")


def discourse_kind(sentence: str) -> Discourse | None:
    """Whether ``sentence`` is signposting or narration (see the module docstring); None when it
    may make a claim about the subject. Citation markers on it are ignored: they make no claim."""
    text = _LEAD.sub("", _CITATION.sub("", sentence)).strip()
    text = text.replace("’", "'")
    if not text:
        return None
    if _NARRATION.search(text):
        return Discourse.NARRATION
    match = _SIGNPOST.search(text)
    if match and not _FINDING.search(text[match.end() :]):
        return Discourse.SIGNPOST
    return None


def is_about_the_text(sentence: str) -> bool:
    """True when ``sentence`` is signposting or narration: it makes no claim about the subject."""
    return discourse_kind(sentence) is not None
