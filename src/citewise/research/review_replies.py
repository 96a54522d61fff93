"""The reviewer's claims as it wrote them, before citewise checks them
(:func:`~citewise.research.review.verify_review`): from a review-v4 JSON object
(:func:`parse_review_reply`) or from review-v5/v6 lines (:func:`parse_review_text`).

Both parsers check only the shape of a reply; a reply of the wrong shape raises
:class:`ValueError`, which the client records as an invalid reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from citewise.llm import ModelReplyInvalid, expect_object, expect_str, parse_json_reply
from citewise.records.research import CoverageStatus
from citewise.text.sentences import parse_sentence_id
from citewise.text.tables import is_table_rule, table_cells

__all__ = ["ClaimedCoverage", "ClaimedQuote", "parse_review_reply", "parse_review_text"]


@dataclass(frozen=True, slots=True)
class ClaimedQuote:
    """A quote as the reviewer gave it, before verification."""

    source_id: str
    """The source it claims to come from."""
    quote: str
    """The quote as written."""


@dataclass(frozen=True, slots=True)
class ClaimedCoverage:
    """One topic as the reviewer assessed it, before verification."""

    topic: str
    """The topic as the reviewer wrote it."""
    status: CoverageStatus
    """The claimed status."""
    source_ids: tuple[str, ...]
    """Source ids the reviewer cited (no longer asked for: sentence ids name their sources)."""
    quotes: tuple[ClaimedQuote, ...]
    """Quotes the reviewer gave as text."""
    gap: str | None
    """What the reviewer says is missing."""
    follow_up_query: str | None
    """The reviewer's query for the gap."""
    sentence_ids: tuple[str, ...] = ()
    """Ids of the sentences the reviewer cited (``S1.3``), as written."""


# -- the model reviewer -----------------------------------------------------------------------


def parse_review_reply(value: object) -> tuple[ClaimedCoverage, ...]:
    """The reviewer's claims from its decoded JSON, or :class:`ValueError` naming the field.

    This checks only the shape (types, a known status); whether the claims hold is
    :func:`verify_review`'s work.
    """
    reply = expect_object(value, keys=("topics",))
    items = reply["topics"]
    if not isinstance(items, list):
        raise ValueError("topics must be a list")
    return tuple(_claim(item, f"topics[{i}]") for i, item in enumerate(items))


def _claim(value: object, field: str) -> ClaimedCoverage:
    item = expect_object(value, field=field, keys=("topic", "status"))
    if "sentence_ids" not in item and "quotes" not in item:
        raise ValueError(f"{field} lacks sentence_ids and quotes")
    status_text = expect_str(item["status"], field=f"{field}.status")
    try:
        status = CoverageStatus(status_text.lower())
    except ValueError:
        valid = ", ".join(s.value for s in CoverageStatus)
        raise ValueError(f"{field}.status must be one of {valid}, got {status_text!r}") from None
    quotes = item.get("quotes", [])
    if not isinstance(quotes, list):
        raise ValueError(f"{field}.quotes must be a list")
    return ClaimedCoverage(
        topic=expect_str(item["topic"], field=f"{field}.topic"),
        status=status,
        # source_ids was asked for until review-v2; a reply that still gives it is read as before.
        source_ids=_id_list(item.get("source_ids", []), f"{field}.source_ids"),
        quotes=tuple(_claimed_quote(q, f"{field}.quotes[{i}]") for i, q in enumerate(quotes)),
        gap=_optional_text(item.get("gap"), f"{field}.gap"),
        follow_up_query=_optional_text(item.get("follow_up_query"), f"{field}.follow_up_query"),
        sentence_ids=_id_list(item.get("sentence_ids", []), f"{field}.sentence_ids"),
    )


def _id_list(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise ValueError(f"{field} must be a list of strings")
    return tuple(s.strip() for s in value if s.strip())


def _claimed_quote(value: object, field: str) -> ClaimedQuote:
    item = expect_object(value, field=field, keys=("source_id", "quote"))
    source_id, quote = item["source_id"], item["quote"]
    if not isinstance(source_id, str) or not isinstance(quote, str):
        raise ValueError(f"{field} must have string source_id and quote")
    return ClaimedQuote(source_id=source_id.strip(), quote=quote)


def _optional_text(value: object, field: str) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return expect_str(value, field=field)


_FENCE = re.compile(r"```[\w-]*")
_BLOCK = re.compile(r"^```[\w-]*[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_TOPIC_LINE = re.compile(r"(?P<topic>[Tt]\d+)\s*[:\-–—]?\s+(?P<rest>\S.*)")
_QUOTE_LINE = re.compile(r"quote\s+(?P<source>[^\s:]+)\s*:\s*(?P<quote>\S.*)", re.IGNORECASE)
_ASSESSMENT = re.compile(r"(?P<status>[A-Za-z]+)(?P<ids>[^:]*)(?::(?P<gap>.*))?")
_PART = re.compile(r"(?P<key>query|gap)\s*:(?P<value>.*)", re.IGNORECASE)
_NONE = frozenset({"", "-", "none", "null"})
_BULLET = re.compile(r"(?:[-*+•]|\d{1,2}[.)])\s+")
_DECOR = re.compile(r"#{1,6}(?:\s.*)?|[-*_=]{3,}")
_STATUS_WORDS = "|".join(s.value for s in CoverageStatus)
_TOPIC_ID = re.compile(r"\b[Tt]\d+\b")
_STATUS_WORD = re.compile(rf"\b(?:{_STATUS_WORDS}|quote)\b", re.IGNORECASE)


def parse_review_text(text: str) -> tuple[ClaimedCoverage, ...]:
    """The reviewer's claims from a review-v5 or v6 reply: one line per topic, or (as real models may
    answer anyway) one JSON object in the v4 shape, read by :func:`parse_review_reply`. The lines may
    come in any order (review-v6 asks for the topics not covered first); the claims keep the reply's.

    Like the JSON parser this checks only the shape; topic ids, sentence ids and quotes are taken as
    written and judged by :func:`verify_review`. Markdown habits are read as the line they decorate:
    a bullet (``-``, ``*``, ``1.``), bold or code marks, a colon or dash after the topic id, a
    status in capitals, ids in brackets or followed by a period; headings and rules are skipped.
    A Markdown table reads row by row as the same lines (:func:`_untabled`).

    A blanket line that names no topic id ("All other topics are covered.") assesses nothing: a
    topic it would cover stays missing, and :func:`verify_review` records that it was not assessed.

    Framing prose ("Here is my review:", "Let me know if ...") is ignored **only before the first
    and after the last topic line**, and only when it does not name both a topic id and a status
    word: such a line (``On reflection T3 is missing.``) may be an assessment in another form,
    which citewise will neither guess at nor silently drop, so the reply is refused. A prose line
    *between* topic lines is refused too: it may continue a gap, correct a line or assess in
    prose, and reading the reply without it could misstate what the reviewer said. A topic
    assessed twice alike counts once; twice differently, the reply contradicts itself and is
    refused. So is a reply with no topic line, or a line with an unknown status. Any of these
    raises :class:`ValueError`; the run then fails with that reason on its record
    (``RunFailed``), every fetched source kept, and ``citewise research --resume RUN`` takes it up again.

    >>> [(c.topic, c.status.value, c.sentence_ids, c.gap, c.follow_up_query) for c in parse_review_text(
    ...     "T1 covered S1.2 S3.1\\nT2 missing: no date | query: rules effective date")]
    [('T1', 'covered', ('S1.2', 'S3.1'), None, None), ('T2', 'missing', (), 'no date', 'rules effective date')]
    """
    stripped = text.strip()
    # As with JSON (parse_json_reply), the one fenced block of a reply is the reply: words around it
    # are ignored; a stray fence line (an unclosed block) is dropped.
    blocks = _BLOCK.findall(stripped)
    if len(blocks) > 1:
        raise ValueError("the reply has more than one fenced block")
    body = blocks[0] if blocks else stripped
    unfenced = "\n".join(line for line in body.splitlines() if not _FENCE.fullmatch(line.strip())).strip()
    lines = [(number, _clean_line(raw)) for number, raw in enumerate(_untabled(unfenced.splitlines()), 1)]
    topical = [number for number, line in lines if _TOPIC_LINE.fullmatch(line)]
    if not topical and "{" in unfenced:
        try:
            decoded = parse_json_reply(stripped)
        except ModelReplyInvalid as exc:  # a ValueError here, so the client records the call's details
            raise ValueError(str(exc)) from exc
        return parse_review_reply(decoded)
    if not topical:
        raise ValueError("the reply has no topic line")
    claims: list[ClaimedCoverage] = []
    quotes: dict[str, list[ClaimedQuote]] = {}
    for number, line in lines:
        match = _TOPIC_LINE.fullmatch(line)
        if match is None:
            _skip_framing(number, line, inside=topical[0] < number < topical[-1])
            continue
        topic, rest = match["topic"].upper(), match["rest"]
        quoted = _QUOTE_LINE.fullmatch(rest)
        if quoted is not None:
            quotes.setdefault(topic, []).append(ClaimedQuote(source_id=quoted["source"], quote=quoted["quote"]))
        else:
            claims.append(_line_claim(topic, rest, f"line {number}"))
    return _with_quotes(_once_each(claims), quotes)


_COLUMNS = {
    "gap": "gap",
    "missing": "gap",
    "부족": "gap",
    "누락": "gap",
    "공백": "gap",
    "query": "query",
    "follow-up": "query",
    "follow up": "query",
    "검색어": "query",
    "후속": "query",
    "질의": "query",
}


def _untabled(lines: list[str]) -> list[str]:
    """``lines`` with the rows of a Markdown table written as topic lines.

    A row ``| T2 | missing | S1.2 | no date | rules date |`` reads as ``T2 missing S1.2: no date |
    query: rules date``. The header row names the gap and query columns ("Gap", "Query",
    "Follow-up", 부족한 점, 검색어); without one, a cell of sentence ids cites and the first other cell is the gap.
    The header and rule rows become blank lines, so line numbers in refusals still match the reply.
    """
    kinds: dict[int, str] = {}
    out = []
    for raw in lines:
        line = raw.strip()
        if not (line.startswith("|") and line.count("|") >= 2):
            out.append(raw)
            continue
        if is_table_rule(line):
            out.append("")
            continue
        cells = table_cells(line)
        if not _TOPIC_ID.fullmatch(_clean_line(cells[0])):
            if not _TOPIC_ID.search(line):  # a header row: which column holds what
                kinds = {i: kind for i, c in enumerate(cells) for name, kind in _COLUMNS.items() if name in c.lower()}
            out.append("" if not _TOPIC_ID.search(line) else raw)
            continue
        out.append(_row_line(cells, kinds))
    return out


def _row_line(cells: list[str], kinds: dict[int, str]) -> str:
    """One table row (topic id, status, then ids, gap and query cells) as a topic line."""
    ids, parts = [], {}
    for i, cell in enumerate(cells[2:], 2):
        text = _clean_line(cell)
        if _line_text(text) is None:
            continue
        kind = kinds.get(i)
        if kind is None and all(parse_sentence_id(t) for t in _line_ids(text)):
            ids.append(text)
        elif kind is not None or "gap" not in parts:
            key = kind or "gap"
            if key in parts:
                raise ValueError(f"the table row for {cells[0]} gives two {key} cells")
            parts[key] = text
        else:
            raise ValueError(f"the table row for {cells[0]} has a cell citewise cannot place: {text!r:.60}")
    head = " ".join([_clean_line(cells[0]), *(_clean_line(c) for c in cells[1:2]), *ids])
    gap = f": {parts['gap']}" if "gap" in parts else ""
    query = f" | query: {parts['query']}" if "query" in parts else ""
    return head + gap + query


def _clean_line(raw: str) -> str:
    """One reply line without its Markdown dress: bullet, bold/code marks, a closing period."""
    line = raw.strip()
    line = _BULLET.sub("", line, count=1) if _BULLET.match(line) else line
    line = line.replace("**", "").replace("__", "").replace("`", "").strip().strip("*").strip()
    return line[:-1].rstrip() if line.endswith(".") else line


def _skip_framing(number: int, line: str, *, inside: bool) -> None:
    """Pass over a line that is not a topic line, or refuse the reply (:func:`parse_review_text`)."""
    if not line:
        return
    if _TOPIC_ID.search(line) and _STATUS_WORD.search(line):
        raise ValueError(f"line {number} assesses a topic outside the 'T# status ...' lines: {line!r:.80}")
    if inside and not _DECOR.fullmatch(line):
        raise ValueError(f"line {number} is not 'T# status ...' or 'T# quote S#: ...': {line!r:.80}")


def _once_each(claims: list[ClaimedCoverage]) -> list[ClaimedCoverage]:
    """``claims`` with repeats of the same assessment dropped; two different ones for a topic refuse."""
    seen: dict[str, ClaimedCoverage] = {}
    kept = []
    for claim in claims:
        before = seen.setdefault(claim.topic, claim)
        if before is claim:
            kept.append(claim)
        elif before != claim:
            raise ValueError(f"{claim.topic} is assessed twice, differently: the reply contradicts itself")
    return kept


def _with_quotes(claims: list[ClaimedCoverage], quotes: dict[str, list[ClaimedQuote]]) -> tuple[ClaimedCoverage, ...]:
    """``claims`` with each topic's quote lines added to its claim."""
    if not claims:
        raise ValueError("the reply has no topic line")
    assessed = {c.topic for c in claims}
    orphans = sorted(set(quotes) - assessed)
    if orphans:
        raise ValueError(f"a quote line names {', '.join(orphans)}, which no topic line assesses")
    return tuple(replace(c, quotes=(*c.quotes, *quotes.get(c.topic, ()))) for c in claims)


def _line_claim(topic: str, rest: str, where: str) -> ClaimedCoverage:
    """One ``T1 status ids[: gap] [| query: ...]`` line's claim (``topic`` already read)."""
    head, *parts = rest.split("|")
    assessment = _ASSESSMENT.fullmatch(head.strip())
    if assessment is None:
        raise ValueError(f"{where} has no status")
    status_text = assessment["status"]
    try:
        status = CoverageStatus(status_text.lower())
    except ValueError:
        valid = ", ".join(s.value for s in CoverageStatus)
        raise ValueError(f"{where}: status must be one of {valid}, got {status_text!r}") from None
    ids = _line_ids(assessment["ids"])
    gap = _line_text(assessment["gap"])
    if gap is not None and all(parse_sentence_id(t) for t in _line_ids(gap)):
        ids, gap = (*ids, *_line_ids(gap)), None  # "T1 covered: S1.2 S1.3" cites, it names no gap
    given: dict[str, str | None] = {}
    for part in parts:
        found = _PART.fullmatch(part.strip())
        if found is None:
            raise ValueError(f"{where}: {part.strip()!r:.60} is not 'query: ...'")
        key = found["key"].lower()
        if key in given or (key == "gap" and gap is not None):
            raise ValueError(f"{where} gives its {key} twice")
        given[key] = _line_text(found["value"])
    return ClaimedCoverage(
        topic=topic,
        status=status,
        source_ids=(),
        quotes=(),
        gap=gap if gap is not None else given.get("gap"),
        follow_up_query=given.get("query"),
        sentence_ids=ids,
    )


def _line_ids(text: str) -> tuple[str, ...]:
    return tuple(t.rstrip(".") for t in re.split(r"[\s,;\[\]()–—]+", text) if t.rstrip("."))


def _line_text(text: str | None) -> str | None:
    flat = " ".join((text or "").split())
    return None if flat.casefold() in _NONE else flat
