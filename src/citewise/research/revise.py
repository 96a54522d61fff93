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
      -> {"revisions": [{"id": "R1", "replacement": "... [S1.3]." | null}]}
      -> replacements validated (known ids only, one line) -> put into the draft -> verified again
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from citewise.llm import ChatClient
from citewise.records.research import Source
from citewise.research.prompts import DATA_RULE
from citewise.research.writer import cited_ids, cited_sentence_ids, materialise_quotes, validate_citations
from citewise.text.analyze import query_terms
from citewise.text.sentences import parse_sentence_id, sentence_of, sentence_text, split_sentences
from citewise.verify.delivery import Finding

__all__ = [
    "REVISE_PROMPT_VERSION",
    "REVISE_SCHEMA",
    "REVISE_SYSTEM_PROMPT",
    "build_revise_messages",
    "revise_with_model",
    "revision_items",
]

REVISE_PROMPT_VERSION: Final = "revise-v2"
"""v2: only the failed sentences go back, each with its cited evidence and the reason, and the
writer answers with a replacement or a removal per sentence (v1 re-sent the whole draft and the
whole writer's data, and got the whole report back)."""

REVISE_SYSTEM_PROMPT: Final = f"""\
You fix the sentences of a research report that citewise could not verify against the sources \
they cite. This is a revision.

{DATA_RULE} The user message is {{"question": ..., "sentences": [{{"id": "R1", "sentence": ..., \
"reason": ..., "evidence": {{"S1.3": ..., ...}}}}]}}: each sentence as the report wrote it, why \
citewise could not verify it, and the stored source sentences it may rest on ("S1.3" is the third \
sentence of source S1).

For each sentence, either give one replacement sentence that states only what its evidence says, \
citing the ids it rests on in square brackets before the final punctuation, such as [S1.3] (or \
quoting one word for word as {{{{S1.3}}}}), or remove it (replacement null) when its evidence does \
not say it. Never add facts, never cite an id that is not in its evidence, never output URLs. Write \
in the language of the sentence.

Reply with one JSON object: {{"revisions": [{{"id": "R1", "replacement": "..." or null}}, ...]}}, \
one entry per sentence."""
"""The instructions of :data:`REVISE_PROMPT_VERSION`; they contain no report or source text."""

REVISE_SCHEMA: Final[Mapping[str, Any]] = {
    "type": "object",
    "properties": {
        "revisions": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "replacement": {"type": ["string", "null"]}},
                "required": ["id", "replacement"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["revisions"],
    "additionalProperties": False,
}
REVISE_SCHEMA_NAME: Final = "sentence_revisions"

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


def _validator(ids: set[str]) -> Any:
    def validate(value: object) -> dict[str, str | None]:
        if not isinstance(value, dict) or not isinstance(value.get("revisions"), list):
            raise ValueError('expected {"revisions": [...]}')
        out: dict[str, str | None] = {}
        for entry in value["revisions"]:
            if not isinstance(entry, dict) or entry.get("id") not in ids:
                raise ValueError(f"a revision names no sentence that was sent: {entry!r:.80}")
            replacement = entry.get("replacement")
            if replacement is not None and not isinstance(replacement, str):
                raise ValueError("a replacement must be a string or null")
            out[str(entry["id"])] = " ".join(replacement.split()) if replacement else None
        return out

    return validate


def revise_with_model(
    client: ChatClient, model: str, question: str, sources: Sequence[Source], found: Sequence[Finding]
) -> tuple[dict[str, str | None], str | None]:
    """The writer's replacement (or None: remove it) for each failed sentence of ``found``, keyed by
    the sentence as written, and the model that answered. A replacement that cites an id no stored
    source has, or grows far beyond the sentence, is taken as a removal. A reply that is not valid
    raises :class:`~citewise.llm.ModelReplyInvalid`."""
    items = revision_items(found, sources)
    by_id = {item["id"]: item for item in items}
    answers, result = client.complete_json(
        model,
        build_revise_messages(question, items),
        schema=REVISE_SCHEMA,
        name=REVISE_SCHEMA_NAME,
        validate=_validator(set(by_id)),
    )
    revisions: dict[str, str | None] = {}
    for ident, item in by_id.items():
        sentence: str = item["sentence"]
        replacement = answers.get(ident)
        if replacement is not None:
            too_long = len(replacement) > MAX_GROWTH * len(sentence) + 200
            written = materialise_quotes(replacement, sources)
            allowed = {i.split(".", 1)[0] for i in item["evidence"]} | set(cited_ids(sentence))
            unknown = set(cited_ids(written)) - allowed
            if too_long or unknown or validate_citations(written, sources):
                replacement = None
        revisions[sentence] = replacement
    return revisions, result.model
