"""Claims that cite sentences: ``[S1.3]`` is checked against exactly the third sentence of ``S1``'s excerpt.

A writer that cites a sentence id (:mod:`citewise.text.sentences`) says which stored sentence a
claim rests on, so the ledger does not have to guess the span: :func:`check_cited_sentences` checks
the claim against the cited sentences (consecutive ones together, with a proviso that follows them,
as :func:`~citewise.verify.support.check_support` reads a rule with its exceptions) and keeps their
ids on the check. A claim the cited sentence does not support is unsupported even when another
sentence of the source would support it — a citation that points at the wrong sentence misleads the
reader — and the reason names the sentence that does, so a revision can cite it. A sentence id the
excerpt does not have is a citation that cannot be traced, like an id naming no stored source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from citewise.records.verify import Claim, Decision, SupportCheck
from citewise.text.sentences import SourceSentence, split_sentences
from citewise.verify.support import check_support

__all__ = ["check_cited_sentences"]


def check_cited_sentences(
    claim: Claim, source_id: str, excerpt: str, sentence_ids: Sequence[str]
) -> tuple[SupportCheck, ...]:
    """The check of ``claim`` against the sentences ``sentence_ids`` of ``source_id``'s ``excerpt``
    (the best of its runs of consecutive sentences), plus one untraceable check for the ids the
    excerpt does not have."""
    sentences = split_sentences(source_id, excerpt)
    by_id = {s.sentence_id: s for s in sentences}
    unknown = tuple(dict.fromkeys(i for i in sentence_ids if i not in by_id))
    checks: list[SupportCheck] = []
    cited = sorted({by_id[i] for i in sentence_ids if i in by_id}, key=lambda s: s.start)
    if cited:
        checks.append(_best(claim, source_id, excerpt, _runs(cited, sentences)))
    if unknown:
        reason = f"cites {', '.join(unknown)}, which the excerpt of {source_id} does not have"
        reason += f" (it has {len(sentences)} sentences)"
        checks.append(
            SupportCheck(
                source_id, None, False, (), Decision.UNSUPPORTED, reason, traceable=False, sentence_ids=unknown
            )
        )
    return tuple(checks)


def _runs(cited: list[SourceSentence], sentences: Sequence[SourceSentence]) -> list[list[SourceSentence]]:
    """The cited sentences in runs of neighbours (S1.3, S1.4 | S1.7)."""
    position = {s.sentence_id: n for n, s in enumerate(sentences)}
    runs: list[list[SourceSentence]] = []
    for sentence in cited:
        if runs and position[sentence.sentence_id] == position[runs[-1][-1].sentence_id] + 1:
            runs[-1].append(sentence)
        else:
            runs.append([sentence])
    return runs


def _best(claim: Claim, source_id: str, excerpt: str, runs: list[list[SourceSentence]]) -> SupportCheck:
    checks = [
        replace(
            check_support(claim, source_id, excerpt, cited=(run[0].start, run[-1].end)),
            sentence_ids=tuple(s.sentence_id for s in run),
        )
        for run in runs
    ]
    best = next((c for c in checks if c.decision is Decision.SUPPORTED), None)
    if best is not None:
        return best
    best = next((c for c in checks if c.span_found), checks[0])
    better = _supporting_sentence(claim, source_id, excerpt)
    if better is not None and better not in best.sentence_ids:
        return replace(
            best, reason=f"{best.reason}; the cited {', '.join(best.sentence_ids)} does not state it, {better} does"
        )
    return best


def _supporting_sentence(claim: Claim, source_id: str, excerpt: str) -> str | None:
    """The id of the sentence of the excerpt that supports the claim, when one does."""
    check = check_support(claim, source_id, excerpt)
    if check.decision is not Decision.SUPPORTED or check.span is None:
        return None
    start = excerpt.find(check.span)
    return next((s.sentence_id for s in split_sentences(source_id, excerpt) if s.start <= start < s.end), None)
