"""Support-check evaluation: how well citewise tells supported claims from unsupported ones.

Pair file: JSONL, one object per line::

    {"id": "kr-s01", "question": "...", "claim": "...", "evidence": "...", "label": "supported",
     "kind": "paraphrase", "split": "dev", "set": "human"}

``question`` is optional; ``label`` is ``supported`` or ``unsupported``; ``origin`` (or ``url``) is
optional: where the evidence comes from, whose version (Python 3.11.2, docs.python.org/3.11/) a
claim may repeat though the evidence does not say it. ``kind`` (paraphrase,
negation, number, date, name, role_swap, proviso, condition, article, scope, unrelated, ...),
``split`` (dev / heldout) and ``set`` (e.g. human / model) are optional labels: the report gives
both shares per kind, per split and per set as well as overall. A claim is judged the way delivery
judges an answer: it is read into sentences and atomic claims by
:func:`citewise.verify.claims.claim_lines`, the reader of :func:`~citewise.verify.claims.extract_claims`
(after :func:`~citewise.verify.claims.without_answer_frame` has taken off a frame such as "Based on
the provided documents,"), and, when it holds more than one sentence, each atomic claim is checked
with :func:`citewise.verify.support.check_support` as if it cited one source whose stored page text is
the evidence. As in the ledger (:mod:`citewise.verify.ledger`), a signposting sentence ("The passage
also covers …") is never checked, and an inference or recommendation that the evidence neither
states nor contradicts and that adds no figure, date or article of its own
(:func:`~citewise.verify.ledger.checked_as_fact`) stays labelled and unchecked; every other claim
needs support. The pair passes when every claim that needs support is
supported (and there is at least one); otherwise its decision and reason are those of its first
failing claim. ``PairResult.claims`` records each claim's decision. A claim of one sentence is
checked whole, exactly as written, compound or not. The question is passed as context: it helps find the
span, and the overlap rule counts the claim's own words rather than the ones it repeats from the
question — a short answer ("Assistant coach") to a long question is judged on what it adds.

With a model (``client`` and ``model``), :func:`~citewise.verify.support.judge_with_model` judges
every pair on the evidence (or, for long evidence, on the deterministic span); a judgement whose
span is not in the evidence is discarded and the deterministic verdict kept.

Two figures come out: the share of *unsupported* rows flagged (decision other than supported) and
the share of *supported* rows passed. Support is decided by meaning when an embedder is configured
(:mod:`citewise.verify.meaning`) and by the lexical rule alone otherwise; ``SupportReport.support``
says which.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from citewise.errors import InputError
from citewise.records.verify import Claim, ClaimKind, Decision, SupportCheck
from citewise.verify.claims import claim_lines, without_answer_frame
from citewise.verify.ledger import checked_as_fact
from citewise.verify.meaning import MeaningScorer, default_scorer, meaning_version
from citewise.verify.support import best_span, check_support, judge_with_model

if TYPE_CHECKING:
    from citewise.llm import ChatClient

__all__ = [
    "GROUPINGS",
    "ClaimResult",
    "LABELS",
    "GroupFigures",
    "PairResult",
    "SupportPair",
    "SupportReport",
    "evaluate_support",
    "load_pairs",
]

LABELS: Final = ("supported", "unsupported")
"""Valid values of a pair's ``label``."""
GROUPINGS: Final = ("kind", "split", "set")
"""Optional pair labels the report breaks its figures down by."""
JUDGE_PASSAGE_CHARS: Final = 6000
"""Evidence longer than this is shown to the model as its deterministic span only."""


@dataclass(frozen=True, slots=True)
class SupportPair:
    """One labelled claim with its evidence."""

    id: str
    """Unique within the file."""
    claim: str
    """The claim to check."""
    evidence: str
    """The cited source's page text."""
    label: str
    """``supported`` or ``unsupported``."""
    question: str = ""
    """The question the claim answers (context), possibly empty."""
    kind: str = ""
    """What the claim does to its evidence (paraphrase, negation, number, ...), possibly empty."""
    split: str = ""
    """dev / heldout, possibly empty."""
    set: str = ""
    """Which set the pair belongs to (human / model ...), possibly empty."""
    origin: str = ""
    """Where the evidence comes from (a URL or a document's origin line), possibly empty: a version
    it names is the page's own context (see :func:`citewise.verify.support.check_support`)."""


@dataclass(frozen=True, slots=True)
class GroupFigures:
    """Both shares for the pairs with one value of one label (e.g. kind = negation)."""

    grouping: str
    """``kind``, ``split`` or ``set``."""
    value: str
    """The label's value."""
    pairs: int
    """Rows with this value."""
    unsupported_rows: int
    """Of them, labelled unsupported."""
    supported_rows: int
    """Of them, labelled supported."""
    unsupported_flagged: float
    """Share of the unsupported rows flagged (0 when none)."""
    supported_passed: float
    """Share of the supported rows passed (0 when none)."""


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The verdict on one atomic claim of a pair."""

    text: str
    """The claim as read off the pair's claim."""
    kind: ClaimKind
    """Fact, inference, recommendation or signpost (as delivery reads it; an inference or
    recommendation the evidence states or contradicts is checked as a fact)."""
    decision: Decision
    """Its decision: ``unreviewed`` for a signpost or a labelled inference or recommendation."""
    reason: str
    """Why."""
    span: str | None
    """The span the decision rests on."""
    needs_support: bool
    """Whether the pair's verdict depends on it (False for signposts and labelled claims)."""
    judge: str = "deterministic"
    """``deterministic`` or the model id."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """The verdict on one pair."""

    id: str
    """The pair's id."""
    label: str
    """The gold label."""
    decision: Decision
    """citewise's decision."""
    correct: bool
    """True when a supported row passed or an unsupported row was flagged."""
    reason: str
    """Why citewise decided so."""
    span: str | None
    """The span the decision rests on."""
    judge: str
    """``deterministic`` or the model id."""
    kind: str = ""
    """The pair's kind label."""
    split: str = ""
    """The pair's split label."""
    set: str = ""
    """The pair's set label."""
    claims: tuple[ClaimResult, ...] = ()
    """The verdict on each atomic claim, in order (one for a one-sentence claim, checked whole)."""


@dataclass(frozen=True, slots=True)
class SupportReport:
    """Aggregate shares and per-row decisions."""

    pairs: int
    """Rows evaluated."""
    unsupported_rows: int
    """Rows labelled unsupported."""
    supported_rows: int
    """Rows labelled supported."""
    unsupported_flagged: float
    """Share of unsupported rows citewise did not pass (0 when there are none)."""
    supported_passed: float
    """Share of supported rows citewise passed (0 when there are none)."""
    judge: str
    """``deterministic`` or ``deterministic+<model>``."""
    results: tuple[PairResult, ...]
    """One per row, in file order."""
    support: str = "lexical"
    """How support was decided: ``meaning:<model>@<threshold>`` or ``lexical`` (no embedder)."""
    groups: tuple[GroupFigures, ...] = ()
    """Both shares per kind, per split and per set, for the labels the pairs carry."""


def _field(obj: dict[str, Any], name: str, where: str, *, required: bool = True) -> str:
    value = obj.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise InputError(f"{where}: {name!r} must be a non-empty string")
    return value


def load_pairs(path: Path) -> list[SupportPair]:
    """Read and validate a pair file; every error names the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text") from exc
    pairs: list[SupportPair] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON ({exc.msg})") from exc
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object")
        pair_id = _field(obj, "id", where)
        if pair_id in seen:
            raise InputError(f"{where}: duplicate id {pair_id!r}")
        seen.add(pair_id)
        label = _field(obj, "label", where)
        if label not in LABELS:
            raise InputError(f"{where}: label must be 'supported' or 'unsupported', got {label!r}")
        pairs.append(
            SupportPair(
                pair_id,
                _field(obj, "claim", where),
                _field(obj, "evidence", where),
                label,
                _field(obj, "question", where, required=False),
                _field(obj, "kind", where, required=False),
                _field(obj, "split", where, required=False),
                _field(obj, "set", where, required=False),
                _field(obj, "origin", where, required=False) or _field(obj, "url", where, required=False),
            )
        )
    if not pairs:
        raise InputError(f"{path} holds no pairs")
    return pairs


def _judged(pair: SupportPair, text: str, check: SupportCheck, client: ChatClient, model: str) -> SupportCheck:
    passage = pair.evidence
    if len(passage) > JUDGE_PASSAGE_CHARS:
        passage = check.span or best_span(text, pair.evidence, context=pair.question) or passage[:JUDGE_PASSAGE_CHARS]
    verdict = judge_with_model(
        client, model, text, passage, page_text=pair.evidence, source_id="S1", context=pair.question
    )
    return check if verdict.decision is Decision.UNREVIEWED else verdict


class _Checker:
    """Checks one claim text of a pair: deterministically, then by the model when one is given."""

    def __init__(self, scorer: MeaningScorer | None, client: ChatClient | None, model: str | None) -> None:
        self.scorer = scorer
        self.client = client
        self.model = model

    def __call__(self, pair: SupportPair, claim: Claim | str) -> SupportCheck:
        check = check_support(
            claim, "S1", pair.evidence, context=pair.question, meaning=self.scorer or False, source=pair.origin
        )
        if self.client is not None and self.model:
            text = claim.checked_text if isinstance(claim, Claim) else claim
            check = _judged(pair, text, check, self.client, self.model)
        return check


_SIGNPOST_REASON = "signposting: makes no claim about the subject, not checked"
_LABELLED_REASON = "labelled {kind}: the evidence neither states nor contradicts it, not checked"
_NO_CLAIM_REASON = "no claim that needs support"


def _claim_result(pair: SupportPair, claim: Claim, checker: _Checker) -> ClaimResult:
    """One atomic claim judged as the ledger judges it (:func:`citewise.verify.ledger.ledger_for_text`)."""
    if claim.kind is ClaimKind.SIGNPOST:
        return ClaimResult(claim.text, claim.kind, Decision.UNREVIEWED, _SIGNPOST_REASON, None, False)
    check = checker(pair, claim)
    kind = claim.kind
    if kind is not ClaimKind.FACT:
        if not checked_as_fact(claim, (check,), (pair.evidence,)):
            reason = _LABELLED_REASON.format(kind=kind.value)
            return ClaimResult(claim.text, kind, Decision.UNREVIEWED, reason, check.span, False)
        kind = ClaimKind.FACT
    return ClaimResult(claim.text, kind, check.decision, check.reason, check.span, True, check.judge)


def _check_pair(pair: SupportPair, checker: _Checker) -> tuple[Decision, str, str | None, str, tuple[ClaimResult, ...]]:
    """``(decision, reason, span, judge, per-claim results)`` for one pair (see the module docstring)."""
    sentences = [s for line in claim_lines(without_answer_frame(pair.claim)) for s in line.sentences if s.claims]
    if len(sentences) <= 1:  # one sentence: checked whole, as written
        check = checker(pair, pair.claim)
        kind = sentences[0].claims[0].kind if sentences and len(sentences[0].claims) == 1 else ClaimKind.FACT
        whole = ClaimResult(pair.claim, kind, check.decision, check.reason, check.span, True, check.judge)
        return check.decision, check.reason, check.span, check.judge, (whole,)
    results = tuple(_claim_result(pair, claim, checker) for sentence in sentences for claim in sentence.claims)
    needed = [r for r in results if r.needs_support]
    failing = next((r for r in needed if r.decision is not Decision.SUPPORTED), None)
    if failing is not None:
        return failing.decision, failing.reason, failing.span, failing.judge, results
    if not needed:
        return Decision.UNREVIEWED, _NO_CLAIM_REASON, None, "deterministic", results
    reason = f"all {len(needed)} claims supported" + (
        f" ({len(results) - len(needed)} not checked)" if len(needed) < len(results) else ""
    )
    judges = {r.judge for r in needed} - {"deterministic"}
    return Decision.SUPPORTED, reason, needed[0].span, next(iter(judges), "deterministic"), results


def evaluate_support(
    pairs: Sequence[SupportPair],
    *,
    client: ChatClient | None = None,
    model: str | None = None,
    meaning: MeaningScorer | bool = True,
) -> SupportReport:
    """Check every pair and compute the two shares, overall and per group (see the module docstring).

    ``meaning``: the scorer for support by meaning; True uses the configured embedder's, False the
    lexical rule alone.
    """
    scorer = default_scorer() if meaning is True else (meaning or None)
    checker = _Checker(scorer, client, model)
    results: list[PairResult] = []
    for pair in pairs:
        decision, reason, span, judge, claims = _check_pair(pair, checker)
        passed = decision is Decision.SUPPORTED
        results.append(
            PairResult(
                pair.id,
                pair.label,
                decision,
                passed == (pair.label == "supported"),
                reason,
                span,
                judge,
                pair.kind,
                pair.split,
                pair.set,
                claims,
            )
        )
    unsupported = [r for r in results if r.label == "unsupported"]
    supported = [r for r in results if r.label == "supported"]
    return SupportReport(
        pairs=len(results),
        unsupported_rows=len(unsupported),
        supported_rows=len(supported),
        unsupported_flagged=_share(unsupported),
        supported_passed=_share(supported),
        judge=f"deterministic+{model}" if client is not None and model else "deterministic",
        results=tuple(results),
        support=meaning_version(scorer),
        groups=_groups(results),
    )


def _groups(results: Sequence[PairResult]) -> tuple[GroupFigures, ...]:
    groups: list[GroupFigures] = []
    for grouping in GROUPINGS:
        values = sorted({getattr(r, grouping) for r in results} - {""})
        for value in values:
            rows = [r for r in results if getattr(r, grouping) == value]
            unsupported = [r for r in rows if r.label == "unsupported"]
            supported = [r for r in rows if r.label == "supported"]
            groups.append(
                GroupFigures(
                    grouping,
                    value,
                    len(rows),
                    len(unsupported),
                    len(supported),
                    _share(unsupported),
                    _share(supported),
                )
            )
    return tuple(groups)


def _share(rows: Sequence[PairResult]) -> float:
    return sum(r.correct for r in rows) / len(rows) if rows else 0.0
