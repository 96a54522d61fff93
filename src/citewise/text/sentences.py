"""Stable sentence ids for a source's excerpt: ``S1.3`` is the third sentence of ``S1``'s ``content``.

The coverage reviewer and the writer see each excerpt as numbered sentences and quote or cite them
by id; citewise then takes the verbatim text from the stored excerpt (:func:`sentence_of`). A model
that cites by id cannot invent a quote, and writes a few characters instead of a whole sentence.

The ids are a pure function of the stored ``content``, so they can be re-derived from the audit
record at any time. How the excerpt is cut:

* a blank line ends a block, and so does a line that opens one in Markdown or in a statute (a
  heading, a list item, a table row, a quote, ``①``, ``제3조``); a single line break inside a
  paragraph does not end a sentence, since extracted pages are often hard-wrapped;
* inside a block, sentences end where :func:`split_answer_sentences` ends
  them: at ``. ! ? 。`` followed by a space, and at a Korean ``다.`` run straight into the next
  sentence, but not inside numbers, dates (``2020. 3. 24.``), after titles and references (``Dr.``,
  ``St.``, ``e.g.``, ``Fig.``, ``No.``), or after initials before a name (``George R.R. Martin``,
  ``Bill J. Moody``, ``the U.S. Congress``); after initials, ``Jr.`` or ``etc.``, a word that opens a
  sentence (``The``, ``He``, ``It``) still starts a new one ("… in the U.S. The next …");
* every visible character belongs to exactly one sentence: a piece without a letter (a list number,
  a figure on its own) stays with the sentence before it, and a block of figures alone (a table row)
  is a sentence of its own; a block of punctuation alone (``---``) is none.

>>> excerpt = "임대차는 2년으로 본다.다만 임차인은 주장할 수 있다.\\n\\n## Fees\\nLandlords pay\\na fee. See Art. 4."
>>> [(s.sentence_id, s.text) for s in split_sentences("S1", excerpt)]  # doctest: +NORMALIZE_WHITESPACE
[('S1.1', '임대차는 2년으로 본다.'), ('S1.2', '다만 임차인은 주장할 수 있다.'), ('S1.3', '## Fees'),
 ('S1.4', 'Landlords pay\\na fee.'), ('S1.5', 'See Art. 4.')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from citewise.text.citations import EVIDENCE_MARKER, SENTENCE_ID

__all__ = [
    "SourceSentence",
    "parse_sentence_id",
    "sentence_id",
    "sentence_of",
    "sentence_spans",
    "sentence_text",
    "split_answer_sentences",
    "split_sentences",
    "stored_sentences",
    "without_code",
    "unwrapped",
]

_MARKER = EVIDENCE_MARKER.pattern  # the splitter knows [E#] markers only; callers hide others as [E#]
# A sentence ends at . ? ! or 。 (with closing quotes and any markers placed after it) followed by
# a space or the end of the line, or at a Korean "다." run straight into the next sentence.
# A quoted sentence's citation may come after the closing quote and take the full stop itself:
# “Fees fell.” [E2].
_SENTENCE_END = re.compile(
    rf"[.?!。][\"'”’)」』]*(?:\s*{_MARKER})*(?:(?<=\])[.?!。])?(?=\s|\Z)|다\.(?:{_MARKER})*(?=[가-힣])"
)
# Full stops that do not end a sentence: before a digit or lower-case word, after an abbreviation,
# after initials before a name, and inside or at the end of a date written "2023. 7. 19.".
_CONTINUES = re.compile(r"\s*[0-9a-z]")
# Titles and references that a name or number always follows ("Dr. Kim", "St. Louis", "Fig. 3").
_ABBREVIATION = re.compile(
    r"(?:^|[\s(\"'“])(?:e\.g|i\.e|cf|vs|viz|no|nos|art|arts|sec|secs|para|paras|fig|figs|vol|ch|(?-i:pp?)"
    r"|mr|mrs|ms|dr|prof|st|mt|ft|sen|rep|gov|gen|col|capt|lt|sgt|rev|hon)\.$",
    re.IGNORECASE,
)
# A chain of initials ("R.R.", "U.S.", "V.N."): part of a name unless a sentence opens after it.
_INITIALS = re.compile(r"(?:^|[^\w.])(?:[A-Z]\.){2,}$")
# A single initial ("Bill J. Moody", "T. A. P. S.") and words that end a name ("Jr.", "Inc."): they
# end no sentence when a capitalised word that does not open a sentence follows.
_NAME_PART = re.compile(r"(?:^|[^\w.])(?:[A-Z]|[JS]r|Inc|Ltd|Co|Corp|Bros|etc)\.$")
_CAPITALISED = re.compile(r"\s*[\"'“(]?[A-Z]")
# Words that open a sentence: after "the U.S." they start a new one ("... in the U.S. The next ...").
_OPENER = re.compile(
    r"\s*[\"'“(]?(?:The|A|An|It|Its|He|She|They|We|I|You|This|That|These|Those|There|Their|His|Her|Our|My|Your"
    r"|In|On|At|For|From|By|With|But|And|Or|So|Yet|However|Then|Thus|When|While|If|As|After|Before|Also"
    r"|Some|Many|Most|All|Each|Both|No|Yes|Since|Although|Though|Here|Today|Now)\b(?!\.)"
)
_DATE = re.compile(r"\d{2,4}\.\s?\d{1,2}\.\s?\d{1,2}\.$")
# A year and month written "2021.3." or "2021. 3." inside a Korean sentence ("청구인은 2021.3. 소속
# 회사의 …"): the sentence goes on when Hangul follows; a Korean sentence does not end on a date.
_YEAR_MONTH = re.compile(r"(?<![\d.])\d{4}\.\s?(?:1[0-2]|0?[1-9])\.$")
_HANGUL_NEXT = re.compile(r"\s*[\uac00-\ud7a3]")
_LETTER = re.compile(r"[^\W\d_]")
_VISIBLE = re.compile(r"[^\W_]")


def split_answer_sentences(text: str) -> list[str]:
    """The sentences of an answer, markers kept with the sentence they close; line breaks split.

    Full stops inside numbers and dates (``2.5``, ``2023. 7. 19.``, ``2021.3.`` before Korean text),
    before a lower-case word, after common abbreviations and after initials before a name do not end
    a sentence. Pieces without a letter (list numbers, a line of markers) are dropped.

    >>> split_answer_sentences("2년으로 본다[E1]. 다만, 유효함을 주장할 수 있다.[E1] See Art. 4 [E2].")
    ['2년으로 본다[E1].', '다만, 유효함을 주장할 수 있다.[E1]', 'See Art. 4 [E2].']
    >>> split_answer_sentences("It says “Fees fell.” [E2]. Rents rose [E1].")
    ['It says “Fees fell.” [E2].', 'Rents rose [E1].']
    >>> split_answer_sentences("임차인(전세권자를 포함한다. 이하 같다)은 보호된다. 다음 문장이다.")
    ['임차인(전세권자를 포함한다. 이하 같다)은 보호된다.', '다음 문장이다.']
    """
    return [text[start:end] for start, end in _sentence_pieces(text)]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the sentences of ``text``, cut where :func:`split_answer_sentences`
    cuts, so that every visible character belongs to one span.

    A piece without a letter (a list number, a figure on its own) stays with the sentence before it,
    and whatever precedes the first sentence belongs to the first; whitespace around a span is not
    part of it. Text with no sentence but something visible is one span; text with nothing visible
    is none.

    >>> text = "1. Rent is due. Art. 4 applies.\\n2. Fees"
    >>> [text[start:end] for start, end in sentence_spans(text)]
    ['1. Rent is due.', 'Art. 4 applies.\\n2.', 'Fees']
    """
    cuts = [start for start, _ in _sentence_pieces(text)]
    if not cuts:
        left = len(text) - len(text.lstrip())
        return [(left, len(text.rstrip()))] if _VISIBLE.search(text) else []
    cuts[0] = 0
    spans = []
    for left, right in zip(cuts, [*cuts[1:], len(text)], strict=True):
        piece = text[left:right]
        spans.append((left + len(piece) - len(piece.lstrip()), left + len(piece.rstrip())))
    return spans


def _sentence_pieces(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each stripped piece of ``text`` that holds a letter outside markers."""
    offset = 0
    for line in text.splitlines(keepends=True):
        start = 0
        ends = [
            end.end()
            for end in _SENTENCE_END.finditer(line)
            if not (end.group().startswith(".") and _not_an_end(line, end.start(), end.end()))
        ]
        for end in [*ends, len(line)]:
            piece = line[start:end]
            if _LETTER.search(EVIDENCE_MARKER.sub("", piece)):
                left = start + len(piece) - len(piece.lstrip())
                yield offset + left, offset + start + len(piece.rstrip())
            start = end
        offset += len(line)


_OPENING, _CLOSING = "([{（［「『【〔〈《", ")]}）］」』】〕〉》"


def _not_an_end(line: str, dot: int, after: int) -> bool:
    return any(
        (
            _CONTINUES.match(line, after),
            _ABBREVIATION.search(line, 0, dot + 1),
            _INITIALS.search(line, 0, dot + 1) and not _OPENER.match(line, after),
            _NAME_PART.search(line, 0, dot + 1) and _CAPITALISED.match(line, after) and not _OPENER.match(line, after),
            _DATE.search(line, 0, dot + 1),
            _YEAR_MONTH.search(line, 0, dot + 1) and _HANGUL_NEXT.match(line, after),
            _inside_brackets(line, dot),
        )
    )


def _inside_brackets(line: str, dot: int) -> bool:
    """Whether the full stop at ``dot`` stands inside a bracket the line opened before it
    ("(…포함한다. 이하 같다)": the statute's aside is part of its sentence)."""
    head = line[:dot]
    return sum(head.count(c) for c in _OPENING) > sum(head.count(c) for c in _CLOSING)


# A line that opens a block of its own: a Markdown heading, rule, list item, table row or quote, a
# numbered paragraph of a statute (①, 1., 가.) or an article heading (제3조).
_RULE = r"(?:[-*_][ \t]*){3,}$"
_BLOCK_START = re.compile(
    r"^[ \t]{0,3}(?:#{1,6}[ \t]|" + _RULE + r"|[-*+•][ \t]|\d{1,3}[.)][ \t]|[가-하][.)][ \t]|\||>|[①-⑳]|제\s?\d+\s?조)"
)
# A line that no following line continues: a heading, a rule, a table row.
_CLOSED_LINE = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]|" + _RULE + r"|\|)")
# Every character str.splitlines() breaks at, so a block can be flattened to one line without
# changing any offset (each becomes one space).
_LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class SourceSentence:
    """One sentence of a source's excerpt."""

    sentence_id: str
    """``S1.3``: the source id and the sentence's 1-based number in the excerpt."""
    start: int
    """Offset of its first character in the source's ``content``."""
    end: int
    """Offset just after its last character."""
    text: str
    """``content[start:end]``, exactly as stored."""


def sentence_id(source_id: str, number: int) -> str:
    """The id of sentence ``number`` (1-based) of ``source_id``: ``sentence_id("S1", 3) == "S1.3"``."""
    return f"{source_id}.{number}"


def parse_sentence_id(text: str) -> tuple[str, int] | None:
    """``(source id, number)`` of a sentence id, or None when ``text`` is not one.

    >>> parse_sentence_id(" S12.3 "), parse_sentence_id("S1"), parse_sentence_id("S1.0")
    (('S12', 3), None, None)
    """
    match = SENTENCE_ID.fullmatch(text.strip())
    if match is None or int(match.group(2)) < 1:
        return None
    return match.group(1), int(match.group(2))


def split_sentences(source_id: str, content: str) -> tuple[SourceSentence, ...]:
    """The sentences of ``content`` with their ids, in excerpt order (see the module docstring)."""
    return tuple(
        SourceSentence(sentence_id(source_id, number), start, end, content[start:end])
        for number, (start, end) in enumerate(_spans(content), 1)
    )


def sentence_of(source_id: str, content: str, number: int) -> SourceSentence | None:
    """Sentence ``number`` of the excerpt, or None when the excerpt has no such sentence."""
    sentences = split_sentences(source_id, content)
    return sentences[number - 1] if 1 <= number <= len(sentences) else None


def stored_sentences(text: str) -> list[str]:
    """The sentences of a stored text (a section, a page) as :func:`split_answer_sentences` cuts them,
    after its hard-wrapped lines are joined: a line that runs on from one not ending a sentence and
    opens with a Latin letter or inline markup ("then :exc:`ValueError` is raised.") continues it; a
    line that opens a block (a list item, ①, a heading, a table row) never does, and a Korean line
    (a statute's item, a table's row) stands as it is. A block of code holds no sentence: the lines
    indented under a paragraph that ends in "::" (reStructuredText's literal block) or under a code
    directive (``.. testsetup::``, ``.. code-block::``) are left out.

    >>> stored_sentences("If *strict* is True and host bits are set in the\\nsupplied address, ValueError is raised.")
    ['If *strict* is True and host bits are set in the supplied address, ValueError is raised.']
    >>> stored_sentences("① 다음 각 호의 경우에는 그러하지 아니하다.\\n1. 차임을 연체한 경우\\n2의2. 합의한 경우")
    ['① 다음 각 호의 경우에는 그러하지 아니하다.', '차임을 연체한 경우', '2의2.', '합의한 경우']
    """
    return [" ".join(sentence.split()) for sentence in split_answer_sentences(unwrapped(without_code(text)))]


# A directive whose body is code, not prose (.. note:: and .. seealso:: hold prose).
_CODE_DIRECTIVE = re.compile(
    r"^\s*\.\.\s+(?:testsetup|testcleanup|testcode|testoutput|doctest|code-block|code|sourcecode|productionlist)::"
)


def without_code(text: str) -> str:
    """``text`` with its blocks of code blanked, each character a space (so offsets stay): the lines
    indented under a line that ends in "::" (not a directive: a paragraph introducing a literal
    block) or under a code directive, up to the first line indented no deeper than it.

    >>> text = "Some examples::\\n\\n   >>> ip_address('1.2.3.4')\\n\\nThe end."
    >>> [line.strip() for line in without_code(text).split("\\n")], len(without_code(text)) == len(text)
    (['Some examples::', '', '', '', 'The end.'], True)
    >>> text = ".. testsetup::\\n\\n   import ipaddress\\n.. note::\\n\\n   Prose."
    >>> [line.strip() for line in without_code(text).split("\\n")]
    ['.. testsetup::', '', '', '.. note::', '', 'Prose.']
    """
    lines = text.split("\n")
    opened: int | None = None  # the indentation of the line a code block hangs under
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if opened is not None and (not line.strip() or indent > opened):
            lines[i] = " " * len(line)
            continue
        stripped = line.strip()
        literal = stripped.endswith("::") and not stripped.startswith("..")
        opened = indent if literal or _CODE_DIRECTIVE.match(line) else None
    return "\n".join(lines)


# A line that may continue the one before it opens with a Latin letter or inline markup.
_RUNS_ON = re.compile(r"^\s*(?:[A-Za-z*`'\"\u201c(]|:[a-z]+:`)")  # :exc:`ValueError`: an inline role
# A line opening with a figure continues an English one cut mid-phrase ("pursuant to section\n1(a)
# of this Act"); after a Korean line it is an item's number (2의2.) and stands.
_DIGIT_LED = re.compile(r"^\s*\d")
_LATIN_END = re.compile(r"[A-Za-z,]\s*$")
# A line that ends a sentence (or a clause a list follows) is not continued.
_ENDS = re.compile(r"[.!?\u3002:;]\s*$")
_BOX_LINE = re.compile(r"^\s*[\u2500-\u257f]")


def unwrapped(text: str) -> str:
    """``text`` with the line break before each line that continues the one before it (see
    :func:`stored_sentences`) made a space: the same length, so an offset in it is one in ``text``.

    >>> unwrapped("host bits are set in the\\nsupplied address.\\n1. An item")
    'host bits are set in the supplied address.\\n1. An item'
    """
    out = list(text)
    before = ""
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        continues = (
            before.strip()
            and (_RUNS_ON.match(body) or (_DIGIT_LED.match(body) and _LATIN_END.search(before)))
            and not _ENDS.search(before)
            and not _BLOCK_START.match(body)
            and not _CLOSED_LINE.match(before)
            and not _BOX_LINE.match(before)
        )
        if continues:
            for at in range(offset - 1, -1, -1):  # the break that ended the line before
                if text[at] not in "\r\n":
                    break
                out[at] = " "
            before = f"{before} {body}"
        else:
            before = body
        offset += len(line)
    return "".join(out)


def sentence_text(sentence: SourceSentence) -> str:
    """The sentence on one line (whitespace runs folded), as models are shown and quotes are written."""
    return " ".join(sentence.text.split())


@lru_cache(maxsize=512)
def _spans(content: str) -> tuple[tuple[int, int], ...]:
    # Cached: one excerpt is split for the reviewer, the writer, the checks and the ledger alike.
    return tuple(span for start, end in _blocks(content) for span in _block_sentences(content, start, end))


def _blocks(content: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each block of ``content``: blank lines and block-opening lines separate them."""
    start: int | None = None
    end = 0
    closes = False  # the line before was a heading or a table row, which a block never runs on from
    offset = 0
    for line in content.splitlines(keepends=True):
        body = line.rstrip("\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029")
        line_start, offset = offset, offset + len(line)
        if not body.strip():
            if start is not None:
                yield start, end
            start, closes = None, False
            continue
        if start is not None and (closes or _BLOCK_START.match(body)):
            yield start, end
            start = None
        if start is None:
            start = line_start + len(body) - len(body.lstrip())
        end = line_start + len(body.rstrip())
        closes = bool(_CLOSED_LINE.match(body))
    if start is not None:
        yield start, end


def _block_sentences(content: str, start: int, end: int) -> Sequence[tuple[int, int]]:
    """The sentence spans of one block, flattened to one line so a line break does not cut."""
    flat = _LINE_BREAKS.sub(" ", content[start:end])
    return [(start + left, start + right) for left, right in sentence_spans(flat)]
