"""The ranking contract: a ranker may only reorder the candidates it is given (SPEC 3.4).

:func:`apply_ranker` fingerprints every input candidate *before* the ranker runs (so even an
in-place change to a mutable field such as ``DocumentVersion.metadata`` is caught), then checks
the output is a permutation of the input: same identities, same text, same metadata, each exactly
once. Anything else — an injected, duplicated, altered or dropped candidate, a ranker that raises —
is a :class:`RankingViolation`, recorded, and the input order is used instead.

Example::

    outcome = apply_ranker(TermOverlapRanker(), "보증금 회수", gate_outcome.eligible)
    outcome.candidates    # the ranker's order, or the input order after a violation
    outcome.violations    # what the ranker did wrong, if anything
"""

from __future__ import annotations

import copy
import enum
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol, runtime_checkable

from citewise.hashing import hash_json
from citewise.records.gate import Candidate, SourceRef
from citewise.text.analyze import analyze, query_terms

__all__ = [
    "LexicalRanker",
    "Ranker",
    "RankingOutcome",
    "RankingViolation",
    "TermOverlapRanker",
    "ViolationKind",
    "apply_ranker",
]


@runtime_checkable
class Ranker(Protocol):
    """Anything that reorders candidates for a query (lexical, embedding, cross-encoder, LLM)."""

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The same candidates, in the order the ranker prefers."""
        ...


# A ranker may also have a ``setting`` (str): what the run record adds, in brackets, after its class
# name (:class:`~citewise.answer.deterministic.AnswerRanker` says which embedder weighed meaning).


class ViolationKind(str, enum.Enum):
    """How a ranker broke the contract."""

    INJECTED = "injected"  #: a candidate that was not in the input
    DUPLICATED = "duplicated"  #: an input candidate returned more than once
    ALTERED = "altered"  #: an input candidate with changed text, ids or metadata
    DROPPED = "dropped"  #: an input candidate missing from the output
    RAISED = "raised"  #: the ranker raised an exception
    NOT_A_LIST = "not_a_list"  #: the output was not a sequence of candidates


@dataclass(frozen=True, slots=True)
class RankingViolation:
    """One breach of the ranking contract."""

    kind: ViolationKind
    """What the ranker did."""
    detail: str
    """Which candidate, and what changed."""


@dataclass(frozen=True, slots=True)
class RankingOutcome:
    """The order used, and whether the ranker's order was accepted."""

    ranker: str
    """The ranker's class name."""
    candidates: tuple[Candidate, ...]
    """The ranker's order when accepted, otherwise the input order."""
    violations: tuple[RankingViolation, ...] = ()
    """Every contract breach found (empty when accepted)."""

    @property
    def accepted(self) -> bool:
        """True when the ranker's output was used."""
        return not self.violations


def fingerprint(candidate: Candidate) -> str:
    """``sha256:`` over every field of the candidate, nested records and metadata included."""
    return hash_json(json.loads(json.dumps(asdict(candidate), default=str)))


def apply_ranker(ranker: Ranker, query: str, candidates: Sequence[Candidate]) -> RankingOutcome:
    """Run ``ranker`` and keep its order only if it is a permutation of ``candidates``."""
    given = tuple(candidates)
    prints = [fingerprint(c) for c in given]
    # The class names the ranker; what it says of its own settings only follows, in brackets.
    setting = getattr(ranker, "setting", "")
    name = type(ranker).__name__ + (f" [{setting}]" if isinstance(setting, str) and setting else "")
    try:
        # The ranker works on copies: whatever it does to them, the input stays as it was.
        output = ranker.rank(query, [copy.deepcopy(c) for c in given])
    except Exception as exc:  # noqa: BLE001 - any failure of a plug-in ranker is a recorded violation
        violation = RankingViolation(ViolationKind.RAISED, f"{type(exc).__name__}: {exc}")
        return RankingOutcome(name, given, (violation,))
    violations = _check(given, prints, output)
    if violations:
        return RankingOutcome(name, given, tuple(violations))
    by_print = dict(zip(prints, given, strict=True))
    return RankingOutcome(name, tuple(by_print[fingerprint(c)] for c in output))


def _check(given: tuple[Candidate, ...], prints: list[str], output: object) -> list[RankingViolation]:
    if not isinstance(output, list | tuple) or not all(isinstance(c, Candidate) for c in output):
        detail = f"expected a list of Candidate, got {type(output).__name__}"
        return [RankingViolation(ViolationKind.NOT_A_LIST, detail)]
    by_print = dict(zip(prints, given, strict=True))
    by_ref = {_identity(c.ref): fp for c, fp in zip(given, prints, strict=True)}
    by_hash = {c.ref.content_hash: c.ref for c in given}
    violations: list[RankingViolation] = []
    seen: Counter[str] = Counter()
    for position, item in enumerate(output, start=1):
        fp = fingerprint(item)
        if fp in by_print:
            seen[fp] += 1
            if seen[fp] == 2:
                violations.append(RankingViolation(ViolationKind.DUPLICATED, f"{item.ref} returned more than once"))
            continue
        violations.append(_unknown(position, item, by_ref, by_hash))
    for fp, candidate in by_print.items():
        if not seen[fp]:
            violations.append(RankingViolation(ViolationKind.DROPPED, f"{candidate.ref} is missing from the output"))
    return violations


def _identity(ref: SourceRef) -> tuple[str, int, str]:
    return ref.doc_id, ref.version, ref.section_id


def _unknown(
    position: int, item: Candidate, by_ref: dict[tuple[str, int, str], str], by_hash: dict[str | None, SourceRef]
) -> RankingViolation:
    # Not an input value. Same identity or same text as an input means it was altered; else injected.
    ref = item.ref
    if _identity(ref) in by_ref:
        return RankingViolation(ViolationKind.ALTERED, f"position {position}: {ref} differs from the input candidate")
    if ref.content_hash in by_hash:
        original = by_hash[ref.content_hash]
        return RankingViolation(ViolationKind.ALTERED, f"position {position}: {original} relabelled as {ref}")
    return RankingViolation(ViolationKind.INJECTED, f"position {position}: {ref} was not among the candidates")


class LexicalRanker:
    """The search order: retrieval score, highest first (ties keep the given order)."""

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """Candidates sorted by score, then search rank."""
        return sorted(candidates, key=lambda c: -c.score)


class TermOverlapRanker:
    """A deterministic reranker: how many distinct query terms the heading and text contain.

    Uses the same analyzer as the index, so it works for Korean and English alike. Ties keep the
    given order.
    """

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """Candidates sorted by distinct query terms matched, most first."""
        wanted = set(query_terms(query))

        def overlap(c: Candidate) -> int:
            return len(wanted.intersection(analyze(f"{c.section.heading}\n{c.text}")))

        return sorted(candidates, key=lambda c: -overlap(c))
