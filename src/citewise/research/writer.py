"""Writing the report: a draft citing ``[S#]`` ids, checked by citewise, with sources and gaps attached.

The writer (a model, or :func:`write_deterministic`) produces only the body. It cites a source
(``[S1]``) or, more exactly, one sentence of its excerpt (``[S1.3]``, see
:mod:`citewise.text.sentences`), and it quotes a sentence by id: ``{{S1.3}}`` becomes the stored
sentence in quotation marks with its citation (:func:`materialise_quotes`), so a quote in the report
is never the writer's copy. Sentence citations stay in the report as written: the claim ledger reads
them (:mod:`citewise.verify.claims`) and checks the claim against exactly that sentence.

Everything a reader relies on to trace a claim comes from citewise's own records, never from the
writer's text:

- :func:`validate_citations` rejects ``[S#]`` ids naming no stored source, ``[S#.n]`` ids naming no
  sentence of its excerpt, and a draft with no citation at all (spec 5.1); a rejected draft may get
  one repair attempt
  (:func:`repair_with_model`) — whether to spend it is the caller's decision, inside the budget —
  and is never fixed by inventing a replacement source;
- :func:`strip_urls` removes every URL the writer wrote that is not a stored source URL, and
  reports it (spec 4.7);
- :func:`sources_section` maps each cited id to the stored title, URL and retrieval date;
- :func:`gaps_section` lists every topic the final review did not find covered.

>>> strip_urls("See https://evil.example/x and [S1].", allowed_urls=())
('See and [S1].', ['https://evil.example/x'])
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC
from typing import Final
from urllib.parse import unquote

from citewise.llm import ChatClient
from citewise.records.research import CoverageReview, CoverageStatus, Draft, ResearchPlan, Source
from citewise.research.prompts import build_repair_messages, build_write_messages
from citewise.text.citations import QUOTE_REF, cited_ids, cited_sentence_ids
from citewise.text.iri import readable_url
from citewise.text.sentences import parse_sentence_id, sentence_of, sentence_text, split_sentences
from citewise.text.urls import url_key
from citewise.verify.claims import EVIDENCE_NOTE

__all__ = [
    "DraftCheck",
    "check_draft",
    "cited_ids",
    "cited_sentence_ids",
    "gaps_section",
    "materialise_quotes",
    "repair_prompt",
    "repair_with_model",
    "sources_section",
    "strip_urls",
    "validate_citations",
    "write_deterministic",
    "write_with_model",
]

DETERMINISTIC: Final = "deterministic"

_SCHEME = r"[a-zA-Z][a-zA-Z0-9+.-]*://"
_URL_CHARS = r"[^\s<>\"'`\[\]{}|\\^]+"
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\(\s*<?((?:" + _SCHEME + r"|www\.)[^)\s>]+)>?(?:\s+\"[^\"\n]*\")?\s*\)")
_AUTOLINK = re.compile(r"<((?:" + _SCHEME + r"|www\.)[^>\s]+)>")
_BARE_URL = re.compile(r"(?:\b" + _SCHEME + r"|\bwww\.)" + _URL_CHARS)
_TRAILING = ".,;:!?。、，”’」』"  # a closing quotation mark after a URL ends a quoted sentence

_STATUS_NOTES: Final = {
    CoverageStatus.WEAK: "only partial or indirect support was found",
    CoverageStatus.MISSING: "no verified evidence was found",
    CoverageStatus.CONFLICTING: "the sources disagree",
}


# -- citations --------------------------------------------------------------------------------


def validate_citations(markdown: str, sources: Sequence[Source]) -> list[str]:
    """The citation problems of a draft; an empty list means it may go on to verification.

    Rejected: an id that names no stored (successfully extracted) source, a sentence id its
    source's excerpt does not have, and a draft without any citation. Ids are case-sensitive:
    ``[s1]`` is not ``[S1]``.

    >>> validate_citations("Deposits are capped [S7].", [])
    ['the draft cites [S7], which is not a stored source (stored: none)']
    """
    known = {source.source_id: source for source in sources}
    ids = cited_ids(markdown)
    if not ids:
        return ["the draft cites no source: every factual sentence needs an [S#] citation"]
    stored = ", ".join(known) or "none"
    problems = [
        f"the draft cites [{i}], which is not a stored source (stored: {stored})" for i in ids if i not in known
    ]
    for cited in cited_sentence_ids(markdown):
        parsed = parse_sentence_id(cited)
        source = known.get(parsed[0]) if parsed else None
        if source is not None and parsed and sentence_of(source.source_id, source.content, parsed[1]) is None:
            count = len(split_sentences(source.source_id, source.content))
            problems.append(
                f"the draft cites [{cited}], but the excerpt of {source.source_id} has {count} sentences"
                f" ({source.source_id}.1 to {source.source_id}.{count})"
            )
    return problems


def materialise_quotes(markdown: str, sources: Sequence[Source]) -> str:
    """``markdown`` with every quote by reference, ``{{S1.3}}``, replaced by the stored sentence in
    quotation marks and its citation, ``“...” [S1.3]``; brackets and braces in the stored text are
    escaped so that it never reads as a citation or another quote. An id naming no sentence becomes
    a plain citation, ``[S1.9]``, which :func:`validate_citations` then rejects.

    >>> from datetime import UTC, datetime
    >>> page = Source("S1", "u", "u", "t", "q", datetime.now(UTC), "", "Rents rose. Fees [1] fell.", "p", 1)
    >>> print(materialise_quotes("As the page says, {{S1.2}}. See {{S1.7}}.", [page]))
    As the page says, “Fees \\[1\\] fell.” [S1.2]. See [S1.7].
    """
    known = {source.source_id: source for source in sources}

    def quote(match: re.Match[str]) -> str:
        cited = match.group(1)
        parsed = parse_sentence_id(cited)
        source = known.get(parsed[0]) if parsed else None
        sentence = sentence_of(source.source_id, source.content, parsed[1]) if source and parsed else None
        if sentence is None:
            return f"[{cited}]"
        text = re.sub(r"([\[\]{}])", r"\\\1", sentence_text(sentence))
        return f"“{text}” [{sentence.sentence_id}]"

    return QUOTE_REF.sub(quote, markdown)


def _known_cited(markdown: str, sources: Sequence[Source]) -> tuple[str, ...]:
    known = {source.source_id for source in sources}
    return tuple(i for i in cited_ids(markdown) if i in known)


# -- URLs -------------------------------------------------------------------------------------


def strip_urls(markdown: str, allowed_urls: Iterable[str]) -> tuple[str, list[str]]:
    """``markdown`` without the URLs that are not among ``allowed_urls``, and the URLs removed.

    Bare URLs, ``<autolinks>`` and ``[text](links)`` are found; a link to a disallowed URL keeps its
    text. URLs compare by :func:`~citewise.text.urls.url_key` (the standard's form, a trailing slash
    ignored), with http and https alike and percent-encoding decoded. Lines that lost a URL have their spacing tidied.
    """
    allowed = {_url_key(url) for url in allowed_urls}
    removed: list[str] = []

    def drop(url: str) -> bool:
        if _url_key(url) in allowed:
            return False
        if url not in removed:
            removed.append(url)
        return True

    def link(match: re.Match[str]) -> str:
        return match.group(1) if drop(match.group(2)) else match.group()

    def autolink(match: re.Match[str]) -> str:
        return "" if drop(match.group(1)) else match.group()

    def bare(match: re.Match[str]) -> str:
        url, rest = _trim_url(match.group())
        return rest if drop(url) else match.group()

    lines = []
    for line in markdown.split("\n"):
        new = _BARE_URL.sub(bare, _AUTOLINK.sub(autolink, _MD_LINK.sub(link, line)))
        if new != line:
            new = _tidy(new)
            new = new if line[:1].isspace() else new.lstrip()
        lines.append(new)
    return "\n".join(lines), removed


def _trim_url(url: str) -> tuple[str, str]:
    """``url`` without the sentence punctuation or unmatched ``)`` after it, and what was cut off."""
    end = len(url)
    while end and (
        url[end - 1] in _TRAILING or (url[end - 1] == ")" and url.count("(", 0, end) < url.count(")", 0, end))
    ):
        end -= 1
    return url[:end], url[end:]


def _url_key(url: str) -> str:
    # A model writes a URL loosely: without a scheme (www.), with http for https, escaped or not.
    text = url.strip()
    if text.lower().startswith("www."):
        text = "http://" + text
    key = unquote(url_key(text))
    return "https://" + key[len("http://") :] if key.startswith("http://") else key


def _tidy(line: str) -> str:
    line = re.sub(r"\(\s*\)|\[\s*\]|<\s*>", "", line)
    line = re.sub(r"(?<=\S)[ \t]{2,}", " ", line)
    line = re.sub(r"[ \t]+(?=[.,;:!?。)”’」』])", "", line)
    return line.rstrip()


# -- checking a draft -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DraftCheck:
    """A draft after citewise's checks: URLs removed, citations validated."""

    draft: Draft
    """The draft with disallowed URLs removed; ``source_ids`` are the stored sources it cites."""
    problems: tuple[str, ...]
    """Citation problems (:func:`validate_citations`); empty when the draft may be used."""
    removed_urls: tuple[str, ...]
    """URLs the writer wrote that are not stored source URLs, removed from the text."""

    @property
    def ok(self) -> bool:
        """True when no citation problem remains."""
        return not self.problems


def check_draft(draft: Draft, sources: Sequence[Source]) -> DraftCheck:
    """Put in the sentences ``draft`` quotes by reference, strip disallowed URLs (a quoted sentence's
    too) and validate its citations against ``sources``."""
    allowed = [url for source in sources for url in (source.url, source.normalized_url)]
    markdown, removed = strip_urls(materialise_quotes(draft.markdown, sources), allowed)
    clean = replace(draft, markdown=markdown, source_ids=_known_cited(markdown, sources))
    return DraftCheck(draft=clean, problems=tuple(validate_citations(markdown, sources)), removed_urls=tuple(removed))


# -- the model writer -------------------------------------------------------------------------


class _Lines:
    """The complete lines of a streamed reply, each handed to ``each`` (its quotes by reference put
    in) as soon as its line break arrives; :meth:`close` hands over the last one."""

    def __init__(self, sources: Sequence[Source], each: Callable[[str], object]) -> None:
        self.sources, self.each, self.pending = sources, each, ""

    def feed(self, piece: str) -> None:
        self.pending += piece
        *done, self.pending = self.pending.split("\n")
        for line in done:
            self._hand(line)

    def close(self) -> None:
        self._hand(self.pending)
        self.pending = ""

    def _hand(self, line: str) -> None:
        if line.strip():
            self.each(materialise_quotes(line, self.sources))


def write_with_model(
    client: ChatClient,
    model: str,
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    round: int,
    on_line: Callable[[str], object] | None = None,
) -> Draft:
    """Ask ``model`` for the report body in Markdown citing ``[S#]`` or ``[S#.n]``; the draft as written,
    with its quotes by reference put in (:func:`materialise_quotes`).

    The writer sees the question, each topic's reviewed status, its verified sentence ids, quotes and
    gap, and each source's id, title and ``content`` as numbered sentences — never a URL. The draft
    is returned unchecked (its ``source_ids`` are the stored ids it cites): pass it to
    :func:`check_draft`. A failed call
    raises its :class:`~citewise.llm.ModelError`; falling back to :func:`write_deterministic` is the
    caller's decision, and should be recorded.

    With ``on_line``, the reply is streamed and each line is handed to ``on_line`` (with its quotes
    put in) as soon as it is complete, while the rest is still being written.
    """
    messages = build_write_messages(question, plan, sources, review)
    if on_line is None:
        result = client.complete(model, messages)
    else:
        lines = _Lines(sources, on_line)
        result = client.stream(model, messages, on_text=lines.feed)
        lines.close()
    markdown = materialise_quotes(result.text.strip(), sources)
    return Draft(round=round, markdown=markdown, source_ids=_known_cited(markdown, sources), writer=result.model)


def repair_prompt(
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    draft: Draft,
    problems: Sequence[str],
) -> list[dict[str, str]]:
    """The messages of one repair attempt: the writer's data, the rejected draft and its problems."""
    return build_repair_messages(question, plan, sources, review, draft.markdown, problems)


def repair_with_model(
    client: ChatClient,
    model: str,
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    draft: Draft,
    problems: Sequence[str],
) -> Draft:
    """One repair attempt of a rejected ``draft`` (same round); check the result with :func:`check_draft`."""
    result = client.complete(model, repair_prompt(question, plan, sources, review, draft, problems))
    markdown = materialise_quotes(result.text.strip(), sources)
    return Draft(round=draft.round, markdown=markdown, source_ids=_known_cited(markdown, sources), writer=result.model)


# -- the deterministic writer -----------------------------------------------------------------


def write_deterministic(
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    round: int,
) -> Draft:
    """A draft without a model: each supported topic as a heading over its verified quotes.

    Covered, weak and conflicting topics get a ``## `` heading (weak and conflicting say so in it) and
    their verified quotes as cited lines, ``- "quote" [S1]`` (``[S1.3]`` for a quote that is a cited
    sentence, so the ledger checks exactly that sentence); topics without support are listed
    under "Not answered by the sources". Unverified quotes and unknown sources are never used.
    ``question`` is unused: the plan's topics carry it.
    """
    del question
    known = {source.source_id for source in sources}
    by_topic = {item.topic: item for item in review.items}
    blocks: list[str] = []
    unanswered: list[str] = []
    for topic in plan.topics:
        item = by_topic.get(topic)
        quotes = [] if item is None else [q for q in item.quotes if q.verified and q.source_id in known]
        if item is None or item.status is CoverageStatus.MISSING or not quotes:
            unanswered.append(f"- {_inline(topic)}")
            continue
        lines = [f"## {_inline(topic)}", ""]
        if item.status is not CoverageStatus.COVERED:
            lines += [f"{EVIDENCE_NOTE} {_STATUS_NOTES[item.status]}.", ""]
        seen: set[tuple[str, str]] = set()
        for quote in quotes:
            key = (quote.sentence_id or quote.source_id, _inline(quote.text))
            if key not in seen:
                seen.add(key)
                lines.append(f'- "{key[1]}" [{key[0]}]')
        blocks.append("\n".join(lines))
    if unanswered:
        blocks.append("\n".join(["## Not answered by the sources", "", *unanswered]))
    markdown = "\n\n".join(blocks)
    return Draft(round=round, markdown=markdown, source_ids=_known_cited(markdown, sources), writer=DETERMINISTIC)


# -- sections citewise attaches ---------------------------------------------------------------


def gaps_section(review: CoverageReview) -> str:
    """The "Gaps and limitations" section, from citewise's final review: every topic not covered, with its status
    and what is missing. The gap text is the reviewer's, flattened to one line without URLs or
    citation markers; the structure is citewise's.

    >>> from citewise.records.research import TopicCoverage
    >>> weak = TopicCoverage("B?", CoverageStatus.WEAK, CoverageStatus.COVERED, (), (), gap="no date")
    >>> print(gaps_section(CoverageReview(2, (weak,), "deterministic")))
    ## Gaps and limitations
    <BLANKLINE>
    - **B?** — weak: no date
    """
    lines = []
    for item in review.items:
        if item.status is CoverageStatus.COVERED:
            continue
        gap = _inline(strip_urls(item.gap, ())[0]) if item.gap else _STATUS_NOTES[item.status]
        lines.append(f"- **{_inline(item.topic)}** — {item.status.value}: {gap}")
    if not lines:
        return "## Gaps and limitations\n\nNone: every required sub-question is covered by verified quotes."
    return "\n".join(["## Gaps and limitations", "", *lines])


def sources_section(sources: Sequence[Source], cited_ids: Iterable[str]) -> str:
    """The "Sources" section: ``[S1] title — url (retrieved YYYY-MM-DD)`` for each cited stored
    source, in source order, from citewise's records. Ids naming no stored source are left out
    (:func:`validate_citations` reports them).
    """
    wanted = set(cited_ids)
    lines = []
    for source in sources:
        if source.source_id not in wanted:
            continue
        retrieved = source.retrieved_at.astimezone(UTC).date().isoformat()
        dates = (
            f"published {source.published_at}, retrieved {retrieved}"
            if source.published_at
            else f"retrieved {retrieved}"
        )
        title = _inline(source.title) or "(untitled)"
        also = f"; the same text at {', '.join(readable_url(m) for m in source.mirrors)}" if source.mirrors else ""
        lines.append(f"[{source.source_id}] {title} — {readable_url(source.url)} ({dates}{also})")
    if not lines:
        return "## Sources\n\nNo source is cited."
    return "## Sources\n\n" + "\n\n".join(lines)


def _inline(text: str) -> str:
    """``text`` on one line, with square brackets escaped so it can never read as a citation."""
    flat = " ".join(unicodedata.normalize("NFC", text).split())
    return flat.replace("[", "\\[").replace("]", "\\]")
