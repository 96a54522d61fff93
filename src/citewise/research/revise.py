"""One targeted revision of the final draft, from the claim ledger's findings.

When verification finds factual claims it cannot support, the writer gets back **only those
sentences** — each with the reason and the stored sentences it cites (for a whole-source citation,
the sentences of that source nearest to it) — and answers, per sentence, with one replacement that
states only what its evidence says, or a removal. citewise puts the replacements into the draft,
checks it like any draft and verifies it again; what still fails is removed before a reader sees it.
The writer never rewrites (or re-sends) the whole report: the revision's output is a few sentences,
not a second draft.

::

    findings -> one item per failed sentence {id, sentence, reason, evidence {S1.3: ...}}
      -> one line per sentence: "R1: ... [S1.3]." or "R1: {{S1.3}}" (a replacement), "R2: -" (a removal)
      -> lines validated (ids that were sent, each once, nothing else) -> replacements checked (one
         sentence, no URL, ids of its evidence only) -> put into the draft -> verified again
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from citewise.llm import ChatClient
from citewise.records.research import Source
from citewise.research.prompts import DATA_RULE
from citewise.research.writer import (
    cited_ids,
    cited_sentence_ids,
    materialise_quotes,
    strip_urls,
    validate_citations,
)
from citewise.text.analyze import query_terms
from citewise.text.sentences import (
    parse_sentence_id,
    sentence_of,
    sentence_text,
    split_answer_sentences,
    split_sentences,
)
from citewise.verify.delivery import Finding

__all__ = [
    "REVISE_PROMPT_VERSION",
    "REMOVE",
    "REVISE_SYSTEM_PROMPT",
    "build_revise_messages",
    "parse_revisions",
    "revise_with_model",
    "revision_items",
]

REVISE_PROMPT_VERSION: Final = "revise-v3"
"""v3: the writer answers in one line per failed sentence, ``R1: <replacement>`` or ``R1: -`` (a
removal), instead of a JSON object, so the reply is a few words per sentence and no envelope. v2:
only the failed sentences go back, each with its cited evidence and the reason, answered by a
replacement or a removal per sentence in JSON. v1 re-sent the whole draft and the whole writer's
data, and got the whole report back. Runs keep the version they were made with."""

REMOVE: Final = "-"
"""What a reply line carries instead of a replacement to remove its sentence."""

REVISE_SYSTEM_PROMPT: Final = f"""\
You fix the sentences of a research report that citewise could not verify against the sources \
they cite. This is a revision.

{DATA_RULE} The user message is {{"question": ..., "sentences": [{{"id": "R1", "sentence": ..., \
"reason": ..., "evidence": {{"S1.3": ..., ...}}}}]}}: each sentence as the report wrote it, why \
citewise could not verify it, and the stored source sentences it may rest on ("S1.3" is the third \
sentence of source S1).

For each sentence, either give one replacement sentence that states only what its evidence says, \
citing the ids it rests on in square brackets before the final punctuation, such as [S1.3] (or \
quoting one word for word as {{{{S1.3}}}}, which is shortest), or remove it when its evidence does \
not say it. Never add facts, never cite an id that is not in its evidence, never output URLs. Write \
in the language of the sentence.

Reply in plain text, one line per sentence and nothing else: the sentence's id, a colon and its \
replacement (R1: {{{{S1.3}}}}), or the id, a colon and a hyphen to remove it (R2: {REMOVE}). No JSON, \
no commentary, one sentence per line."""
"""The instructions of :data:`REVISE_PROMPT_VERSION`; they contain no report or source text."""

_LINE = re.compile(r"(R\d+)\s*:\s*(.*)")
_FENCE = re.compile(r"^```[\w-]*$")

NEAREST_SENTENCES: Final = 3
"""For a sentence citing a whole source: how many of the source's sentences go with it as evidence."""
MAX_GROWTH: Final = 3
"""A replacement may be at most this many times as long as the sentence it replaces (plus 200)."""


def _evidence(sentence: str, findings: Sequence[Finding], sources: Mapping[str, Source]) -> dict[str, str]:
    """The stored sentences ``sentence`` cites, or for a whole-source citation the nearest ones."""
    evidence: dict[str, str] = {}
    pinned = {parsed[0] for i in cited_sentence_ids(sentence) if (parsed := parse_sentence_id(i))}
    for cited in cited_sentence_ids(sentence):
        parsed = parse_sentence_id(cited)
        source = sources.get(parsed[0]) if parsed else None
        found = sentence_of(source.source_id, source.content, parsed[1]) if source and parsed else None
        if found is not None:
            evidence[found.sentence_id] = sentence_text(found)
    wanted = set(query_terms(" ".join([sentence, *(f.closest or "" for f in findings)])))
    for source_id in cited_ids(sentence):
        source = sources.get(source_id)
        if source is None or source_id in pinned:
            continue
        ranked = sorted(
            split_sentences(source.source_id, source.content),
            key=lambda s: -len(wanted & set(query_terms(sentence_text(s)))),
        )
        for found in ranked[:NEAREST_SENTENCES]:
            evidence[found.sentence_id] = sentence_text(found)
    return evidence


def revision_items(found: Sequence[Finding], sources: Sequence[Source]) -> list[dict[str, Any]]:
    """One item per failed sentence (its claims' findings grouped), as the writer will see it."""
    by_id = {s.source_id: s for s in sources}
    grouped: dict[str, list[Finding]] = {}
    for finding in found:
        grouped.setdefault(finding.sentence, []).append(finding)
    items = []
    for number, (sentence, findings) in enumerate(grouped.items(), 1):
        reasons = "; ".join(dict.fromkeys(f"{f.decision.value}: {f.reason}" for f in findings))
        items.append(
            {
                "id": f"R{number}",
                "sentence": sentence,
                "reason": reasons,
                "evidence": _evidence(sentence, findings, by_id),
            }
        )
    return items


def build_revise_messages(question: str, items: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The revision's messages: :data:`REVISE_SYSTEM_PROMPT` and the failed sentences as data."""
    data = {"question": question, "sentences": list(items)}
    return [
        {"role": "system", "content": REVISE_SYSTEM_PROMPT},
        {"role": "user", "content": json.dumps(data, ensure_ascii=False, indent=1)},
    ]


def parse_revisions(text: str, ids: Sequence[str]) -> dict[str, str | None]:
    """The replacement (None: remove) for each id of a revise-v3 reply, one ``R1: ...`` line each.

    Strict: every line names one id that was sent, each id exactly once, and nothing else is said (a
    code fence around the lines is tolerated). Anything else raises :class:`ValueError`; what a
    replacement may say is checked afterwards (:func:`_acceptable`).

    >>> parse_revisions("R1: Rents rose [S1.2].\\nR2: -", ["R1", "R2"])
    {'R1': 'Rents rose [S1.2].', 'R2': None}
    >>> parse_revisions("R3: -", ["R1"])
    Traceback (most recent call last):
    ...
    ValueError: a line names a sentence that was not sent: 'R3: -'
    """
    wanted = set(ids)
    out: dict[str, str | None] = {}
    for line in (raw.strip() for raw in text.strip().splitlines()):
        if not line or _FENCE.match(line):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise ValueError(f"a line is not 'R#: replacement' or 'R#: {REMOVE}': {line!r:.80}")
        ident, answer = match[1], " ".join(match[2].split())
        if ident not in wanted:
            raise ValueError(f"a line names a sentence that was not sent: {line!r:.80}")
        if ident in out:
            raise ValueError(f"{ident} is answered twice")
        if not answer:
            raise ValueError(f"{ident} has neither a replacement nor '{REMOVE}'")
        out[ident] = None if answer == REMOVE else answer
    missing = [i for i in ids if i not in out]
    if missing:
        raise ValueError(f"no line for {', '.join(missing)}")
    return out


def _acceptable(replacement: str, sentence: str, evidence: Mapping[str, str], sources: Sequence[Source]) -> bool:
    """Whether a replacement may go into the draft: one sentence, not far longer than the one it
    replaces, no URL, and citing only ids of its own evidence (or the source the sentence cited),
    all of which exist. Anything else is taken as a removal."""
    if len(replacement) > MAX_GROWTH * len(sentence) + 200 or len(split_answer_sentences(replacement)) > 1:
        return False
    if strip_urls(replacement, allowed_urls=())[1]:
        return False
    written = materialise_quotes(replacement, sources)
    allowed = {i.split(".", 1)[0] for i in evidence} | set(cited_ids(sentence))
    return not (set(cited_ids(written)) - allowed) and not validate_citations(written, sources)


def revise_with_model(
    client: ChatClient, model: str, question: str, sources: Sequence[Source], found: Sequence[Finding]
) -> tuple[dict[str, str | None], str | None]:
    """The writer's replacement (or None: remove it) for each failed sentence of ``found``, keyed by
    the sentence as written, and the model that answered. A replacement that is more than one
    sentence, carries a URL, cites an id outside its evidence or no stored source has, or grows far
    beyond the sentence is taken as a removal. A reply that is not one valid line per sentence sent
    (:func:`parse_revisions`) raises :class:`~citewise.llm.ModelReplyInvalid`."""
    items = revision_items(found, sources)
    by_id = {item["id"]: item for item in items}
    answers, result = client.complete_text(
        model, build_revise_messages(question, items), validate=lambda text: parse_revisions(text, list(by_id))
    )
    revisions: dict[str, str | None] = {}
    for ident, item in by_id.items():
        sentence: str = item["sentence"]
        replacement = answers[ident]
        if replacement is not None and not _acceptable(replacement, sentence, item["evidence"], sources):
            replacement = None
        revisions[sentence] = replacement
    return revisions, result.model
