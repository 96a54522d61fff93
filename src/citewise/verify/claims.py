"""From a report's Markdown to atomic claims, each labelled and carrying the ids its sentence cites.

:func:`extract_claims` reads a report the way a fact-checker would:

* **What is read.** Paragraph text and list items (the bullet or number is dropped, the text kept).
  Table rows are read too, cell by cell: a cell that cites a source or reads as a sentence is a
  sentence of its row (a header row, a rule and short label cells are structure).
  Headings, code blocks and the sections citewise writes itself — "Sources", "References",
  "Gaps and limitations", "Not answered by the sources", 출처, 참고 문헌, 한계 — are skipped: they
  are citewise's own records, not claims of the writer.
* **Sentences** come from :func:`citewise.text.sentences.split_answer_sentences` (full stops in
  numbers, dates and abbreviations do not end a sentence; citation markers stay with the sentence
  they close). ``[S#]`` and ``[E#]`` markers, also grouped as ``[S1, S2]``, become the cited ids of
  every claim of the sentence and are removed from the claim text. A sentence citation ``[S1.3]``
  (the third sentence of ``S1``'s excerpt) cites the source ``S1`` and is kept as the claim's
  ``cited_sentences``, so the ledger checks the claim against exactly that sentence.
* **Atomic claims.** A compound sentence is split at a clause boundary — ``", and"``, ``"; "``,
  ``" while "``, ``"whereas"``, ``", but"``, Korean ``반면``, ``그리고`` and a predicate ending in
  ``-고``/``-며`` (``2년이고``, ``증가했으며``) — only when *each side* has its own figure or its own
  predicate. "Rent and deposit rose 5%" stays one claim; "Rent rose 5%, and deposits fell 2%"
  becomes two. A clause without a subject of its own carries the first clause's
  (:attr:`~citewise.records.verify.Claim.subject`, :mod:`citewise.verify.clauses`): "The module
  parses URLs, and returns a tuple" is checked as "The module returns a tuple", written as is.
* **Kinds.** Advice ("should", "recommend", "must consider", 권장, 하는 것이 좋다, advisory 해야
  한다) is a :attr:`~ClaimKind.RECOMMENDATION`; a conclusion of the writer ("therefore", "likely",
  "suggests", 따라서, 것으로 보인다, 추정) an :attr:`~ClaimKind.INFERENCE`; the rest are facts.
  Recommendations win over inferences ("Therefore, tenants should ..." is advice). A sentence
  about the text or its writer rather than the subject ("These are covered in the following
  sections", "Let me search for more", :mod:`citewise.text.discourse`) is a
  :attr:`~ClaimKind.SIGNPOST`: not a finding, never checked, never answering a question. A 해야 한다
  that states a legal duty — the sentence names a law, an article or a duty (「…」, 제N조, 법,
  의무, 규정) — is a fact about the law, not advice. The ledger checks a recommendation or
  inference as a fact when its source states or contradicts it, when it adds a figure, date or
  article its sources lack, or when it states a statute's duty and cites a statute
  (:func:`citewise.verify.ledger.checked_as_fact`).

:func:`claim_scope` reads the conditions a claim's truth depends on off its text: dates, figures
with their units (Korean units included), named entities and qualifiers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from citewise.records.verify import Claim, ClaimKind, ClaimScope
from citewise.text.citations import EVIDENCE_MARKER, MARKER, ids_in_marker, source_of
from citewise.text.discourse import is_about_the_text
from citewise.text.sentences import split_answer_sentences
from citewise.text.tables import is_table_rule, table_cells
from citewise.verify.clauses import claim_kind, clause_kinds, split_compound

__all__ = [
    "CONDITION_WORDS",
    "EVIDENCE_NOTE",
    "NO_FINDING",
    "PARAGRAPH_MARKS",
    "ClaimLine",
    "ClaimSentence",
    "claim_kind",
    "claim_lines",
    "claim_scope",
    "extract_claims",
    "split_compound",
    "without_answer_frame",
    "without_attribution",
]

PARAGRAPH_MARKS = re.compile("[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf]")
"""Circled numbers (①, ②, ...): statute paragraph markers, never quantities or parts of a name."""

# -- Markdown to sentences --------------------------------------------------------------------------

NO_FINDING = "*No verified finding"
"""How citewise's own note under a heading whose findings were all removed begins
(:mod:`citewise.verify.shells`); such a line is citewise's record, never a claim of the writer."""
EVIDENCE_NOTE = "*Evidence:*"
"""How the deterministic writer's note on a topic's evidence begins ("*Evidence:* only partial or
indirect support was found."): citewise's record, never a claim."""
_NOTES = (NO_FINDING, EVIDENCE_NOTE)

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SKIPPED_SECTION = re.compile(
    r"^(?:sources?|references?|bibliography|gaps(?: and limitations)?|limitations|not answered by the sources"
    r"|출처|참고\s*(?:문헌|자료)?|한계(?:와 공백)?|공백)\b",
    re.IGNORECASE,
)
# A list marker: a bullet, a number (3., 3의2.), a letter ((a), 가.) or a circled number (①).
_BULLET = re.compile(
    r"^\s*(?:[-*+•]|\d{1,3}(?:의\d{1,2})?[.)]|\(?[a-z]\)|[가나다라마바사아자차카타파하][.)]|[①-⑳])\s+", re.IGNORECASE
)
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE = re.compile(r"^\s*\|")
TABLE_ROW = "|"
"""The :attr:`ClaimLine.prefix` of a table row: its cells are its sentences, and it is edited in place."""
_LINK = re.compile(r"\[([^\]]+)\]\((?:[^)\s]+)\)")
# Markdown emphasis and code marks around words (**bold**, *it*, `code`, ``literal``, **보증금**은): the
# claim is their words. A mark inside a word, or without its pair, is text: 2**32 is a power, not bold.
_EMPHASIS = re.compile(r"(?<![0-9A-Za-z*`_])(\*\*|__|\*|`+)(?=\S)(.+?)(?<=\S)\1(?![0-9A-Za-z*`_])")
_PLACEHOLDER_BASE = 900_000  # placeholder ids far above any real evidence id


@dataclass(frozen=True, slots=True)
class ClaimSentence:
    """One sentence of a report line and the atomic claims it makes."""

    raw: str
    """The sentence as written in the (decoration-free) line, citation markers included."""
    claims: tuple[Claim, ...]
    """Its claims, in order (none for a sentence without words)."""


@dataclass(frozen=True, slots=True)
class ClaimLine:
    """A line of the report that carries the writer's claims."""

    index: int
    """Its 0-based line number in the Markdown."""
    prefix: str
    """The list marker it started with (``- ``, ``1. ``), :data:`TABLE_ROW` for a table row, or ``""``."""
    sentences: tuple[ClaimSentence, ...]
    """Its sentences."""


def _report_lines(markdown: str) -> Iterator[tuple[int, str, str]]:
    """``(index, list marker, text)`` of each line that carries the writer's claims, Markdown
    decoration removed."""
    skipping = False
    fenced = False
    lines = markdown.splitlines()
    for index, raw in enumerate(lines):
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            continue
        heading = _HEADING.match(raw)
        if heading:
            skipping = bool(_SKIPPED_SECTION.match(heading.group(2).strip("*_ ")))
            continue
        if _TABLE.match(raw) and not skipping:
            row = _table_row(raw, lines[index + 1] if index + 1 < len(lines) else "")
            if row:
                yield index, TABLE_ROW, row
            continue
        if skipping or not raw.strip() or raw.lstrip().startswith(_NOTES):
            continue
        bullet = _BULLET.match(raw)
        line = _BULLET.sub("", raw, count=1)
        line = _LINK.sub(r"\1", line)
        yield index, (bullet.group(0).lstrip() if bullet else ""), without_emphasis(line).strip()


def without_emphasis(text: str) -> str:
    """``text`` without the Markdown emphasis and code marks around its words.

    >>> without_emphasis("**Deposit** is `returned` within *30 days*; integers below 2**32 are IPv4.")
    'Deposit is returned within 30 days; integers below 2**32 are IPv4.'
    >>> without_emphasis("``True`` if this is a loopback address.")
    'True if this is a loopback address.'
    """
    for _ in range(3):  # nested marks (**bold *and italic***) come off one pair at a time
        stripped = _EMPHASIS.sub(r"\2", text)
        if stripped == text:
            break
        text = stripped
    return text


def _table_row(raw: str, following: str) -> str:
    """The claim text of a table row: each cell that cites a source or reads as a sentence (four
    words or more), closed as a sentence; ``""`` for a header (the row above a rule), a rule, or a
    row of labels only."""
    if is_table_rule(raw) or is_table_rule(following):
        return ""
    cells = []
    for cell in table_cells(raw):
        text = without_emphasis(_LINK.sub(r"\1", cell)).strip()
        if re.search(r"[^\W\d_]", text) and (MARKER.search(text) or len(text.split()) >= 4):
            cells.append(text if re.search(r"[.!?。](?:\s*\[[^\]]*\])*$", text) else f"{text}.")
    return " ".join(cells)


def _sentences(line: str) -> list[tuple[str, tuple[str, ...], str]]:
    """``(sentence without markers, cited ids, sentence with markers)`` for each sentence of a line."""
    # The splitter knows [E#] markers only: every marker becomes an [E#] placeholder while splitting.
    markers: list[tuple[str, ...]] = []
    written: list[str] = []

    def hide(match: re.Match[str]) -> str:
        markers.append(tuple(ids_in_marker(match)))
        written.append(match.group(0))
        return f"[E{_PLACEHOLDER_BASE + len(markers) - 1}]"

    def show(match: re.Match[str]) -> str:
        index = int(match.group(1)[1:]) - _PLACEHOLDER_BASE
        return written[index] if 0 <= index < len(written) else match.group(0)

    hidden = MARKER.sub(hide, line)
    result: list[tuple[str, tuple[str, ...], str]] = []
    for sentence in split_answer_sentences(hidden):
        ids: dict[str, None] = {}
        for placeholder in EVIDENCE_MARKER.findall(sentence):
            index = int(placeholder[1:]) - _PLACEHOLDER_BASE
            if 0 <= index < len(markers):
                ids.update(dict.fromkeys(markers[index]))
        # The space a removed marker leaves before a closing mark ("rose [S1]." -> "rose."); a mark that
        # opens a word (":class:`X`", "the .env file") keeps its space.
        text = re.sub(r"\s+([.,;:!?])(?=\s|$)", r"\1", EVIDENCE_MARKER.sub("", sentence))
        text = re.sub(r"\s{2,}", " ", text).strip()
        result.append((text, tuple(ids), EVIDENCE_MARKER.sub(show, sentence).strip()))
    return result


def extract_claims(markdown: str) -> list[Claim]:
    """The atomic claims of a report, numbered ``C1``, ``C2``, ... in report order.

    >>> [(c.claim_id, c.text, c.kind.value, c.cited_ids) for c in extract_claims(
    ...     "## Rents\\n\\nRents rose 5% in 2023, and deposits fell 2% [S1]. Tenants should check [S2].\\n"
    ...     "## Sources\\n\\n- [S1] Example <https://example.org>")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('C1', 'Rents rose 5% in 2023', 'fact', ('S1',)), ('C2', 'deposits fell 2%.', 'fact', ('S1',)),
     ('C3', 'Tenants should check.', 'recommendation', ('S2',))]
    """
    return [claim for line in claim_lines(markdown) for sentence in line.sentences for claim in sentence.claims]


def claim_lines(markdown: str) -> list[ClaimLine]:
    """The report's claim-carrying lines, each sentence with its claims (numbered as by
    :func:`extract_claims`): what a reader of the ledger needs to remove or mark a sentence."""
    lines: list[ClaimLine] = []
    count = 0
    for index, prefix, line in _report_lines(markdown):
        sentences = []
        for sentence, ids, raw in _sentences(line):
            claims = []
            if re.search(r"[^\W\d_]", sentence):
                for part, kind, subject in _parts(sentence):
                    count += 1
                    claims.append(Claim(f"C{count}", part, sentence, kind, *_cited(ids), subject=subject))
            sentences.append(ClaimSentence(raw, tuple(claims)))
        lines.append(ClaimLine(index, prefix, tuple(sentences)))
    return lines


def _cited(ids: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(source ids, sentence ids)`` of a sentence's cited ids: ``[S1.3]`` cites source S1."""
    return tuple(dict.fromkeys(source_of(i) for i in ids)), tuple(i for i in ids if "." in i)


def _parts(sentence: str) -> list[tuple[str, ClaimKind, str]]:
    if is_about_the_text(sentence):
        return [(sentence, ClaimKind.SIGNPOST, "")]  # about the text or its writer: one non-claim, unsplit
    return clause_kinds(sentence)


# -- scope ------------------------------------------------------------------------------------------

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
DATE_PATTERN = re.compile(
    r"\d{4}\.\s?\d{1,2}\.\s?\d{1,2}\.?"
    r"|\d{4}-\d{1,2}-\d{1,2}"
    r"|(?:19|20)\d{2}\s?년(?:\s?\d{1,2}\s?월)?(?:\s?\d{1,2}\s?일)?"
    r"|\d{1,2}\s?월\s?\d{1,2}\s?일"
    rf"|\b(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
    rf"|\b\d{{1,2}}\s+(?:{_MONTHS})\.?,?\s+\d{{4}}\b"
    rf"|\b(?:{_MONTHS})\.?\s+\d{{4}}\b"
    r"|\b(?:19|20)\d{2}(?:s|-\d{2,4})?\b(?!\s?(?:%|원|명|개|배|건|회|만|억|,\d|\.\d))",
    re.IGNORECASE,
)
"""Dates and years: ``2020. 3. 24.``, ``2020-03-24``, ``2024년 3월``, ``March 24, 2020``, ``2023``."""

UNITS_KO = (
    "퍼센트|%|배|명|원|만원|억원|조원|만|억|조|일분|일|개월|달|년|주(?!택|식|민)|시간|분(?!의)|초(?!과)|세(?!대|금|법|액|율)|살|회|번(?!지|째|호)|건|개"
    "|가구|호|위|차례|평|㎡|m²"
)
UNITS_EN = (
    r"percent|per cent|percentage points?|times|people|persons?|workers?|days?|weeks?|months?|years?|hours?"
    r"|minutes?|seconds?|million|billion|trillion|thousand|hundred|won|dollars?|euros?|pounds?|km|kg|miles?"
)
NUMBER_PATTERN = re.compile(
    r"[$€£₩]?\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:만|억|조)(?=\s?(?:원|명|달러|건|개)))?"
    rf"(?:\s?(?:{UNITS_KO})(?![가-힣]*법)|\s(?:{UNITS_EN})\b)?",
    re.IGNORECASE,
)
"""Figures with an optional unit: ``30일``, ``5%``, ``3억원``, ``$2.1 million``, ``1,200 people``."""

_ENTITY_EN = re.compile(r"\b[A-Z][\w&'.-]*(?:\s+(?:of|the|and|de|for|on|in|von)?\s*[A-Z][\w&'.-]*)*")
_ENTITY_QUOTED = re.compile(r"「([^」]+)」|『([^』]+)』|“([^”]+)”|\"([^\"]+)\"")
CONDITION_WORDS = (
    "at least",
    "at most",
    "no more than",
    "no less than",
    "more than",
    "less than",
    "fewer than",
    "up to",
    "only",
    "unless",
    "except",
    "excluding",
    "provided that",
    "if",
    "이상",
    "이하",
    "초과",
    "미만",
    "다만",
    "경우",
    "한하여",
    "한정",
    "제외",
    "단서",
    "이내",
    "까지",
)
"""Qualifiers :func:`claim_scope` recognises, English and Korean."""
_CONDITION = re.compile(
    "|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in CONDITION_WORDS), re.IGNORECASE
)
_SENTENCE_START_WORDS = frozenset(
    "The A An In On At For If When While Since After Before This That These Those It He She They We Its Their"
    " But And Or However Therefore Thus Also Under From With By Per Via Unless Until Without Within".split()
)
"""Words capitalised because they open a sentence, not as part of a name ("Under PEP 594, …")."""


def _distinct(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if v))


def _sentence_start(text: str, position: int) -> int:
    before = text[:position]
    boundary = max(before.rfind(". "), before.rfind("? "), before.rfind("! "), before.rfind("\n"), before.rfind(": "))
    start = boundary + 2 if boundary >= 0 else 0
    while start < len(text) and text[start] in " \t\"'“(":
        start += 1
    return start


def _entities(text: str, spans_taken: list[tuple[int, int]]) -> list[str]:
    found: list[str] = []
    for match in _ENTITY_QUOTED.finditer(text):
        found.append(next(g for g in match.groups() if g).strip())
        spans_taken.append(match.span())
    for match in _ENTITY_EN.finditer(text):
        if any(a <= match.start() < b for a, b in spans_taken):
            continue
        words = match.group().rstrip(".'").split()
        while words and words[0] in _SENTENCE_START_WORDS:
            words = words[1:]
        if not words or (len(words) == 1 and len(words[0]) < 2):
            continue
        # One capitalised word opening a sentence is capitalised for the sentence, not as a name.
        if len(words) == 1 and match.start() == _sentence_start(text, match.start()):
            continue
        # An acronym used as a verb or plural ("ANDed", "URLs") names the acronym.
        entity = re.sub(r"\b([A-Z]{2,})(?:ed|ing|s)\b", r"\1", " ".join(words))
        if re.fullmatch(r"(?:" + _MONTHS + r")\.?", entity, re.IGNORECASE):
            continue
        found.append(entity)
    return found


def claim_scope(text: str) -> ClaimScope:
    """Dates, figures with units, named entities and conditions read off ``text``.

    >>> claim_scope("2024년 임대차 기간은 2년 이상이며, 보증금의 5%를 넘지 못한다. 다만 「주택임대차보호법」 경우 예외")
    ... # doctest: +NORMALIZE_WHITESPACE
    ClaimScope(dates=('2024년',), numbers=('2년', '5%'), entities=('주택임대차보호법',),
               conditions=('이상', '다만', '경우'), as_of=None)
    >>> claim_scope("In March 2023 the Bank of Korea raised rates to 3.5 percent, at least for now.")
    ... # doctest: +NORMALIZE_WHITESPACE
    ClaimScope(dates=('March 2023',), numbers=('3.5 percent',), entities=('Bank of Korea',),
               conditions=('at least',), as_of=None)
    """
    text = unicodedata.normalize("NFKC", PARAGRAPH_MARKS.sub(" ", text))
    taken: list[tuple[int, int]] = []
    dates: list[str] = []
    for match in DATE_PATTERN.finditer(text):
        dates.append(match.group().strip())
        taken.append(match.span())
    numbers: list[str] = []
    for match in NUMBER_PATTERN.finditer(text):
        start, end = match.span()
        if any(a <= start < b or a < end <= b for a, b in taken):
            continue
        if re.search(r"제\s?$", text[max(0, start - 2) : start]):
            continue  # article numbers (제3조) are references, not figures
        if re.match(r"\s?(?:조|항|호|장|절)(?![가-힣]{0,1}원)", text[end:]):
            continue
        numbers.append(match.group().strip())
    entities = _entities(text, list(taken))
    conditions = [m.group().lower() for m in _CONDITION.finditer(text)]
    return ClaimScope(_distinct(dates), _distinct(numbers), _distinct(entities), _distinct(conditions))


_ANSWER_FRAME = re.compile(
    r"^\s*(?:(?:the\s+)?answer(?:\s+is)?\s*:?|based on the (?:provided\s+)?(?:document|text|passage)s?,?"
    r"|according to the (?:provided\s+)?(?:document|text|passage)s?,?)\s*",
    re.IGNORECASE,
)


def without_answer_frame(text: str) -> str:
    """``text`` without the words that frame an answer rather than state it ("The answer is:",
    "Based on the provided documents,"); a writer's lead naming its source is
    :func:`without_attribution`'s.

    >>> without_answer_frame("Based on the provided documents, the port is 443.")
    'the port is 443.'
    """
    return _ANSWER_FRAME.sub("", text, count=1)


_ATTRIBUTION = re.compile(
    r"^\s*(?:(?:according to|as (?:stated|described|explained) in|per)\s+(?:[^,.;]|\.(?=\w)){1,60}?,"
    r"|in (?:short|summary|brief|other words),"
    r"|[^,.;\n]{1,40}?에\s?(?:따르면|의하면)\s?,?)\s*",
    re.IGNORECASE,
)


def without_attribution(text: str) -> str:
    """``text`` without the lead a writer model puts before an answer ("According to What's New in
    Python 3.11, …", "In short, …", "근로기준법 제75조에 따르면 …"): it names where the answer comes
    from, not what the answer says, so its names are not names the span must hold and its terms are
    no part of the first clause. Articles and code names in it are still checked against the page.

    >>> without_attribution("According to What's New, the flag is off by default.")
    'the flag is off by default.'
    >>> without_attribution("근로기준법 제75조에 따르면 수유 시간은 유급이며, 1일 2회 주어야 합니다.")
    '수유 시간은 유급이며, 1일 2회 주어야 합니다.'
    """
    return _ATTRIBUTION.sub("", text, count=1)
