"""A quoted sentence with the sentences it leans on: list items, provisos, follow-ons and entries.

A Korean statute lists what a rule covers as numbered items after a sentence that introduces them::

    ① 임대인은 … 정당한 사유 없이 거절하지 못한다. 다만, 다음 각 호의 어느 하나에 해당하는 경우에는
    그러하지 아니하다.
    1. 임차인이 2기의 차임액에 해당하는 금액에 이르도록 차임을 연체한 사실이 있는 경우
    3. 서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우

An item is not a sentence: it ends in a noun (경우, 것, 사람, 소득), not in a predicate, and alone it
says nothing a reader can use — "서로 합의하여 … 제공한 경우" is a case of what? It means what its
introducing sentence makes of it. A proviso ("다만, …") and a follow-on ("이 경우 …", "In this
case …") are sentences, but they qualify the one before them and are misread without it.
:func:`lead_in` finds the sentences a quote needs before it, so that an answer quoting an item, a
proviso or a follow-on quotes them first; :func:`item_marker` finds an item's number (``3.``), which
the sentence splitter drops.

Documentation says what a function or attribute does in the lines indented under the entry that
names it (reStructuredText)::

    .. attribute:: is_loopback

       ``True`` if this is a loopback address.

"``True`` if this is a loopback address." alone does not say what is: its entry is quoted first.

Only Korean items are recognised (an item is a Hangul text that does not end in 다); an English
list item ("(1) the tenant …;") is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "LEADS_LIST",
    "follow_on",
    "is_entry",
    "is_item",
    "item_marker",
    "lead_in",
    "list_items",
    "proviso",
    "proviso_after",
    "without_leading_notes",
]

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_LETTER = re.compile(r"[^\W\d_]")
# Amendment notes and bracketed remarks closing a provision (<개정 2020.3.24>, [본조신설 2021.1.5]).
_NOTE = re.compile(r"^\s*(?:<[^<>]*>|\[[^\[\]]*\])\s*$")
_LEADING_NOTES = re.compile(r"^(?:\s*(?:<[^<>]{1,80}>|\[[^\[\]]{1,80}\]))+\s+(?=\S)")
_TRAILING_NOTES = re.compile(r"(?:\s*(?:<[^<>]*>|\[[^\[\]]*\]))+\s*$")
_TRAILING_MARKS = re.compile(r"[\s.,;:\]」』\"'’”]+$")
_NUMBER = r"(?:\d+(?:의\d+)?|[가나다라마바사아자차카타파하])\."  # 3. 3의2. 가.
# A bare item number the splitter kept as a piece of its own ("가.", "3.").
_BARE_MARKER = re.compile(rf"^\s*{_NUMBER}\s*$")
_MARKER = re.compile(_NUMBER)
_LETTERED = re.compile(r"\s*[가나다라마바사아자차카타파하]\.")
# A row of a table drawn in text (│ 구분 │ 세율 │) or in Markdown (| … |).
_TABLE_ROW = re.compile(r"[\u2500-\u257f]|^\s*\|")
_PROVISO = re.compile(r"^(?:다만|단)\s*[,，]|^다만\s")
_FOLLOW_ON = re.compile(r"^(?:이\s?경우|이\s?때|in (?:this|that|such) case)\b", re.IGNORECASE)
# A paragraph's first sentence (① …): a list above it belongs to another paragraph.
_PARAGRAPH = re.compile(r"^\s*[\u2460-\u2473]")
LEADS_LIST = re.compile(r"다음\s*각\s*(?:호|목)|다음과\s*같")
"""A sentence or an item that leads a list: "다음 각 호의 어느 하나에 해당하는 경우", "7. 임대인이 다음 각
목의 … 경우", "… 다음과 같다"."""
# How many sentences back a chain of provisos and follow-ons is followed.
_MAX_CHAIN = 3
# A reStructuredText entry naming what the lines indented under it describe.
_ENTRY = re.compile(
    r"\.\.\s+(?:py:)?(?:attribute|method|function|class|data|exception|decorator|classmethod|staticmethod"
    r"|property|module|envvar|option|describe|object)::\s*\S"
)


def without_leading_notes(sentence: str) -> str:
    """``sentence`` without the editorial notes it opens with (a code citation, an amendment note),
    which are the publisher's, not the provision's words.

    >>> without_leading_notes("[16 U.S.C. 757b] The Secretary is authorized to conduct surveys.")
    'The Secretary is authorized to conduct surveys.'
    >>> without_leading_notes("[본조신설 2021.1.5]")
    '[본조신설 2021.1.5]'
    """
    return _LEADING_NOTES.sub("", sentence, count=1)


def follow_on(sentence: str) -> bool:
    """Whether ``sentence`` opens on the sentence before it ("이 경우 증액청구는 …", "In this case …")."""
    return _FOLLOW_ON.match(sentence.lstrip()) is not None


def is_entry(sentence: str) -> bool:
    """Whether ``sentence`` is a documentation entry's line (``.. attribute:: is_loopback``): it names
    what the lines under it describe and says nothing itself."""
    return _ENTRY.match(sentence.lstrip()) is not None


def proviso(sentence: str) -> bool:
    """Whether ``sentence`` is a proviso to the one before it ("다만, …")."""
    return _PROVISO.match(sentence.lstrip()) is not None


def _skipped(sentence: str) -> bool:
    """Neither an item nor a sentence: a note, a bare number, a table row, a figure or formula."""
    return bool(
        _NOTE.match(sentence)
        or _BARE_MARKER.match(sentence)
        or _TABLE_ROW.search(sentence)
        or not _LETTER.search(sentence)
    )


def is_item(sentence: str) -> bool:
    """Whether ``sentence`` is a Korean list item rather than a sentence: Hangul text that, past its
    closing notes, glosses and marks, does not end in a predicate's 다.

    >>> is_item("서로 합의하여 임대인이 임차인에게 상당한 보상을 제공한 경우")
    True
    >>> is_item("임대차는 2년으로 본다. <개정 2020.3.24>")
    False
    >>> is_item('슬롯머신 등을 이용하는 행위에 참가하여 받는 금품(이하 "당첨금품등"이라 한다)')
    True
    >>> is_item("The tenant may renew the lease")
    False
    """
    if _skipped(sentence) or not _HANGUL.search(sentence):
        return False
    core = _TRAILING_MARKS.sub("", _TRAILING_NOTES.sub("", sentence).rstrip(" .,;:"))
    while core.endswith(")"):  # a closing gloss: (이하 "당첨금품등"이라 한다)
        core = _TRAILING_MARKS.sub("", _without_last_group(core).rstrip(" .,;:"))
    return bool(core) and not core.endswith("다")


def _without_last_group(text: str) -> str:
    """``text`` without the parenthesised group it ends with (nested groups included)."""
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[at], 0)
        if depth == 0:
            return text[:at]
    return ""


def lead_in(sentences: Sequence[str], index: int, text: str = "") -> tuple[str, ...]:
    """The sentences a reader needs before ``sentences[index]``, in text order:

    * for a list item, the sentence that introduces its list, what that sentence leans on in turn (the
      rule a proviso excepts from), and for an item of a nested list (가., 나.: its number read from
      ``text``), the item that opens that list;
    * for a proviso or a follow-on, the sentence before it, and what that one leans on;
    * for a sentence indented under a documentation entry (``.. attribute:: is_loopback``, found in
      ``text``), that entry;
    * for any other sentence, none.

    >>> text = ["① 임대인은 거절하지 못한다.", "다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.",
    ...         "차임을 연체한 경우", "서로 합의하여 보상을 제공한 경우"]
    >>> lead_in(text, 3)
    ('① 임대인은 거절하지 못한다.', '다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.')
    >>> lead_in(text, 1)
    ('① 임대인은 거절하지 못한다.',)
    >>> lead_in(text, 0)
    ()
    """
    return _lead_in(sentences, index, text, _MAX_CHAIN)


def _lead_in(sentences: Sequence[str], index: int, text: str, depth: int) -> tuple[str, ...]:
    sentence = sentences[index]
    if depth <= 0 or _skipped(sentence):
        return ()
    if is_item(sentence):
        return _item_lead_in(sentences, index, text, depth)
    if not (proviso(sentence) or follow_on(sentence)) or _PARAGRAPH.match(sentence):
        entry = _entry(sentence, text)
        return (entry,) if entry is not None and entry in sentences else ()
    before = _sentence_before(sentences, index)
    if before is None:
        return ()
    return (*_lead_in(sentences, before, text, depth - 1), sentences[before])


def _item_lead_in(sentences: Sequence[str], index: int, text: str, depth: int) -> tuple[str, ...]:
    # Back to the sentence that introduces the list ("다음 각 호의 …"), past the other items and the
    # sentences inside them ("10. … 소득. 이 경우 … 포함한다."), but not past the paragraph's start;
    # without one, the nearest sentence before the item.
    nested_item = _LETTERED.match(item_marker(text, sentences[index]) or sentences[index]) is not None
    parent: str | None = None
    nearest: int | None = None
    chosen: int | None = None
    for j in range(index - 1, -1, -1):
        sentence = sentences[j]
        if _skipped(sentence):
            continue
        if is_item(sentence):
            if nested_item and parent is None and LEADS_LIST.search(sentence):
                parent = sentence  # the item whose nested list (각 목) this one belongs to
            continue
        nearest = j if nearest is None else nearest
        if LEADS_LIST.search(sentence):
            chosen = j
            break
        if _PARAGRAPH.match(sentence):
            break
    chosen = nearest if chosen is None else chosen
    if chosen is None:
        return (parent,) if parent else ()
    found = (*_lead_in(sentences, chosen, text, depth - 1), sentences[chosen])
    return (*found, parent) if parent else found


def _entry(sentence: str, text: str) -> str | None:
    """The documentation entry (``.. function:: ip_address(address)``) whose indented body holds
    ``sentence`` in ``text``, as its line reads; None when the sentence is not under one.

    >>> _entry("``True`` if this is a loopback address.",
    ...        ".. class:: IPv4Address(address)\\n\\n   .. attribute:: is_loopback\\n\\n"
    ...        "      ``True`` if this is a loopback address.  See RFC 3330.\\n")
    '.. attribute:: is_loopback'
    >>> _entry("Some text.", ".. note::\\n\\nSome text.") is None
    True
    """
    words = sentence.split()[:6]
    if not words or not text or is_entry(sentence):
        return None
    found = re.search(r"\s+".join(map(re.escape, words)), text)
    if found is None:
        return None
    lines = text[: found.start()].split("\n")
    depth = len(lines[-1]) - len(lines[-1].lstrip())
    for line in reversed(lines[:-1]):
        if not line.strip() or len(line) - len(line.lstrip()) >= depth:
            continue  # a blank line or an earlier line of the same body
        return line.strip() if is_entry(line) else None
    return None


def _sentence_before(sentences: Sequence[str], index: int) -> int | None:
    """The index of the sentence (not an item, a note or a number) right before ``index``, or of the
    sentence that introduces the list right before it; None at a paragraph's start."""
    for j in range(index - 1, -1, -1):
        if _skipped(sentences[j]):
            continue
        if is_item(sentences[j]):
            # After a list, a proviso or follow-on qualifies the sentence that introduced the list.
            found = _item_lead_in(sentences, j, "", 1)
            return sentences.index(found[0]) if found and not is_item(found[0]) else None
        return j
    return None


def proviso_after(sentences: Sequence[str], index: int) -> int | None:
    """The index of the proviso ("다만, …") right after ``sentences[index]``, notes aside, or None: a
    rule quoted without its proviso says more than the statute does.

    >>> proviso_after(["임대인은 거절하지 못한다.", "<개정 2020.6.9>", "다만, 그러하지 아니하다."], 0)
    2
    >>> proviso_after(["임대인은 거절하지 못한다.", "② 임차인은 1회에 한하여 행사할 수 있다."], 0) is None
    True
    """
    if is_item(sentences[index]):
        return None
    for j in range(index + 1, len(sentences)):
        if _skipped(sentences[j]):
            continue
        return j if proviso(sentences[j]) else None
    return None


def list_items(sentences: Sequence[str], index: int, text: str = "") -> tuple[str, ...]:
    """The items of the list ``sentences[index]`` leads ("다음 각 호의 어느 하나에 해당하는 경우에는 그러하지
    아니하다." and the cases after it), in text order; none when it leads no list. An item of a nested
    list (가., 나.: its number read from ``text``) is left out: its own item leads it.

    >>> text = ["다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다.", "차임을 연체한 경우",
    ...         "합의한 경우", "② 임차인은 1회에 한하여 행사할 수 있다."]
    >>> list_items(text, 0)
    ('차임을 연체한 경우', '합의한 경우')
    """
    if not LEADS_LIST.search(sentences[index]) or is_item(sentences[index]):
        return ()
    found: list[str] = []
    for sentence in sentences[index + 1 :]:
        if _skipped(sentence):
            continue
        if not is_item(sentence):
            break
        if not _LETTERED.match(item_marker(text, sentence) or sentence):
            found.append(sentence)
    return tuple(found)


def item_marker(text: str, sentence: str) -> str:
    """The number ``sentence`` is listed under in ``text`` (``3.``, ``가.``), or "" when it has none
    there (or already starts with it).

    >>> item_marker("거절하지 못한다.\\n1. 연체한 경우\\n3. 합의한 경우", "합의한 경우")
    '3.'
    >>> item_marker("다음 각 목의 세액: 가목의 산출세액을 더한 금액\\n가. 산출세액", "산출세액")
    '가.'
    """
    if not sentence or _MARKER.match(sentence.lstrip()):
        return ""
    at = text.find(sentence)
    while at >= 0:  # the same words may come earlier inside another sentence: the item opens its line
        prefix = text[text.rfind("\n", 0, at) + 1 : at].strip()
        if _MARKER.fullmatch(prefix):
            return prefix
        at = text.find(sentence, at + 1)
    return ""
