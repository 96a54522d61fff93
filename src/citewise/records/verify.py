"""Records of the verification layer.

A valid citation id proves traceability, not support. These records carry each claim from the
report's text to the span of stored page text that supports it (or does not), the decision taken
about it, and the report's acceptance — a recorded decision, separate from "the loop finished".
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = [
    "verifier_label",
    "Acceptance",
    "Claim",
    "ClaimKind",
    "ClaimScope",
    "Conflict",
    "Decision",
    "Criterion",
    "Finding",
    "Gap",
    "GapReason",
    "LedgerAction",
    "LedgerEntry",
    "SupportCheck",
    "UnsupportedAction",
]


class ClaimKind(str, enum.Enum):
    """What a sentence (or part of one) asserts."""

    FACT = "fact"  #: a factual claim that needs a citation
    RECOMMENDATION = "recommendation"  #: advice ("should", "권장") — labelled, not fact-checked
    INFERENCE = "inference"  #: a conclusion drawn by the writer ("therefore", "likely", "따라서")
    SIGNPOST = "signpost"  #: about the text or its writer, not the subject ("covered below", "let me search")


class Decision(str, enum.Enum):
    """The ledger's verdict on one claim."""

    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    CONFLICTING = "conflicting"
    UNREVIEWED = "unreviewed"


class LedgerAction(str, enum.Enum):
    """What to do with a claim."""

    ACCEPT = "accept"
    NARROW = "narrow"
    INVESTIGATE = "investigate"
    LABEL_AS_INFERENCE = "label_as_inference"
    REMOVE = "remove"
    KEEP_AS_STRUCTURE = "keep_as_structure"  #: a signpost: structure, not a finding, never checked


@dataclass(frozen=True, slots=True)
class Claim:
    """One atomic claim of a report."""

    claim_id: str
    """``C1``, ``C2``, ... in report order."""
    text: str
    """The claim as written (for a split compound sentence: the part that makes this claim)."""
    sentence: str
    """The whole sentence it came from."""
    kind: ClaimKind
    """Fact, recommendation or inference."""
    cited_ids: tuple[str, ...]
    """Source ids (``S1``) or evidence ids (``E1``) the sentence cites; a sentence citation
    (``[S1.3]``) cites its source here and the sentence in ``cited_sentences``."""
    cited_sentences: tuple[str, ...] = ()
    """Sentence ids the sentence cites (``S1.3``: the third sentence of ``S1``'s excerpt, see
    :mod:`citewise.text.sentences`); the claim is checked against exactly those sentences."""
    subject: str = ""
    """The main clause's subject, carried into a clause of a compound sentence that has none of its
    own ("The module parses URLs, and returns a tuple": "The module" for "returns a tuple"); the
    claim is checked as :attr:`checked_text`, and ``text`` stays as written."""

    @property
    def checked_text(self) -> str:
        """The text the support checks read: ``text`` with the carried :attr:`subject` before it."""
        return f"{self.subject} {self.text}" if self.subject else self.text


@dataclass(frozen=True, slots=True)
class ClaimScope:
    """The conditions a claim's truth depends on, as far as they can be read off the claim."""

    dates: tuple[str, ...] = ()
    """Dates and periods named (``2024``, ``2020. 3. 24.``)."""
    numbers: tuple[str, ...] = ()
    """Figures with their units (``30일``, ``5%``, ``$2.1 million``)."""
    entities: tuple[str, ...] = ()
    """Named entities (laws, organisations, places)."""
    conditions: tuple[str, ...] = ()
    """Qualifiers (``only``, ``at least``, ``unless``, ``이상``, ``다만``)."""
    as_of: str | None = None
    """For a claim that names no date: the publication date (``YYYY-MM-DD``) its supporting source
    states, so the claim is read as true as of then; ``None`` when the claim has dates or the source
    states none."""


@dataclass(frozen=True, slots=True)
class SupportCheck:
    """How one claim fares against the text of one cited source."""

    source_id: str
    """The cited source."""
    span: str | None
    """The best supporting span found in the stored page text (exact text), or None."""
    span_found: bool
    """True when ``span`` occurs in the stored page text (normalised match)."""
    missing: tuple[str, ...] = ()
    """Numbers, dates, units or entities of the claim absent from the span."""
    decision: Decision = Decision.UNREVIEWED
    """The deterministic (or model-assisted) verdict for this source."""
    reason: str = ""
    """Why, in a sentence."""
    judge: str = "deterministic"
    """``deterministic`` or the model id that judged."""
    traceable: bool = True
    """False when the cited id names no stored, extracted source (the citation cannot be traced)."""
    judge_failure: str | None = None
    """Why the model judge (``verify --llm``) gave no usable second opinion on this check — a
    malformed reply, a failed call, a span not in the page; the deterministic verdict stands."""
    sentence_ids: tuple[str, ...] = ()
    """The cited sentences the span was taken from (``S1.3``), when the claim cites sentences."""


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One row of the claim ledger."""

    claim: Claim
    """The claim."""
    scope: ClaimScope
    """Its date, population, unit, dataset and conditions."""
    checks: tuple[SupportCheck, ...]
    """One per cited source."""
    decision: Decision
    """Supported, unsupported, conflicting or unreviewed."""
    action: LedgerAction
    """Accept, narrow, investigate, label as inference, remove."""
    source_url: str | None = None
    """Stored URL of the supporting source (from citewise's records)."""
    quote: str | None = None
    """The exact quote that supports it."""
    reviewer: str | None = None
    """A person who overrode the decision, if any."""
    review_reason: str | None = None
    """Why they did."""
    answers: tuple[str, ...] = ()
    """The required sub-questions (as planned) this claim answers in the delivered text: only a
    supported factual claim answers one (see :mod:`citewise.verify.answers`)."""


class GapReason(str, enum.Enum):
    """Why a required sub-question has no supported claim in the delivered text."""

    NOT_FOUND = "not_found"  #: the coverage review found no verified evidence for it
    NOT_VERIFIED = "not_verified"  #: what the draft said about it failed verification (removed or marked)
    NOT_ANSWERED = "not_answered"  #: evidence was reviewed, but no supported claim of the text answers it
    PARTIAL = "partial"  #: supported claims address it, but the last review found only partial support


@dataclass(frozen=True, slots=True)
class Gap:
    """A required sub-question the delivered text does not answer with a supported claim, or answers
    only in part (:attr:`GapReason.PARTIAL`)."""

    topic: str
    """The sub-question, as planned."""
    reason: GapReason
    """Why it is a gap."""
    claim_ids: tuple[str, ...] = ()
    """The draft's claims on it that failed verification (their sentences removed or marked)."""
    missing: str | None = None
    """What the coverage review said is missing, when it said (a primary source, a date ...)."""


class Criterion(str, enum.Enum):
    """One acceptance criterion (SPEC 5.6)."""

    DELIVERED = "delivered"  #: a validated report or an answer was delivered
    QUESTIONS_ANSWERED = "questions_answered"  #: every required sub-question has a supported claim
    CLAIMS_SUPPORTED = "claims_supported"  #: every factual claim is supported (and there is one)
    CITATIONS_TRACEABLE = "citations_traceable"  #: every cited id names a stored source
    CONFLICTS_EXPLAINED = "conflicts_explained"  #: no material conflict is left unexplained


@dataclass(frozen=True, slots=True)
class Acceptance:
    """The acceptance decision for a report, with its reasons."""

    accepted: bool
    """True when the report may be published as it is."""
    reasons: tuple[str, ...]
    """Why (each failed criterion, or that all passed)."""
    verifier_version: str
    """Version of the verifier that decided."""
    decided_by: str = "citewise"
    """``citewise`` or the person who overrode it."""
    counts: dict[str, int] = field(default_factory=dict)
    """Claims by decision."""
    unmet: tuple[Criterion, ...] = ()
    """The criteria not met (empty when accepted); ``reasons`` renders them."""
    gaps: tuple[Gap, ...] = ()
    """Required sub-questions the delivered text does not answer with a supported claim."""

    @property
    def verified_by(self) -> str:
        """The verifier in words a reader understands, keeping its version id for the record
        (``verify-1`` -> ``citewise's verifier, rule set verify-1``)."""
        return verifier_label(self.verifier_version)


def verifier_label(version: str) -> str:
    """``verify-1`` as readers see it: whose checks, which rule set, and the model judge if one took part.

    >>> verifier_label("verify-1+judge:gpt-4o")
    "citewise's verifier, rule set verify-1, with the model judge gpt-4o"
    """
    rules, _, judge = version.partition("+judge:")
    label = f"citewise's verifier, rule set {rules}"
    return f"{label}, with the model judge {judge}" if judge else label


class ConflictExplanation(enum.StrEnum):
    """Whether the two sides' own conditions explain why their figures differ."""

    UNEXPLAINED = "unexplained"  #: the same thing under the same conditions: unresolved
    PERIOD = "period"  #: each side states a different date or period
    CONDITIONS = "conditions"  #: they state different conditions (population or scope, definition, unit)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two claims from different sources that give different figures for the same thing."""

    first: Claim
    """One claim."""
    second: Claim
    """The other claim."""
    first_source: str
    """The source the first claim rests on."""
    second_source: str
    """The source the second claim rests on."""
    entity: str
    """What both claims are about (a named entity, or the claims' leading term)."""
    metric: str
    """The measured quantity, as the metric terms both claims share."""
    period: str | None
    """The date or period both claims name, if any."""
    first_value: str
    """The first claim's figure, as written."""
    second_value: str
    """The second claim's figure, as written."""
    first_conditions: tuple[str, ...]
    """Qualifiers of the first claim (``이상``, ``only`` ...)."""
    second_conditions: tuple[str, ...]
    """Qualifiers of the second claim."""
    explanation: ConflictExplanation = ConflictExplanation.UNEXPLAINED
    """Whether the sides' conditions explain the difference (then both are shown, side by side);
    unexplained, the conflict is unresolved and the report is not accepted."""
    first_period: str | None = None
    """The date or period the first claim states (when the two differ)."""
    second_period: str | None = None
    """The date or period the second claim states."""
    first_published: str | None = None
    """When the first claim's source was published, as the page states it (None when unknown)."""
    second_published: str | None = None
    """When the second claim's source was published."""

    @property
    def resolved(self) -> bool:
        """True when the sides' own conditions explain the difference."""
        return self.explanation is not ConflictExplanation.UNEXPLAINED

    def describe(self) -> str:
        """Both values with their sources and conditions, in one line."""

        def side(
            value: str, source: str, conditions: tuple[str, ...], period: str | None, published: str | None
        ) -> str:
            notes = [*([period] if period else []), *conditions, *([f"published {published}"] if published else [])]
            return f"{value} [{source}]" + (f" ({', '.join(notes)})" if notes else "")

        when = f" in {self.period}" if self.period and self.explanation is not ConflictExplanation.PERIOD else ""
        first = side(
            self.first_value, self.first_source, self.first_conditions, self.first_period, self.first_published
        )
        second = side(
            self.second_value, self.second_source, self.second_conditions, self.second_period, self.second_published
        )
        because = {
            ConflictExplanation.PERIOD: " — different periods, both kept",
            ConflictExplanation.CONDITIONS: " — different conditions, both kept",
        }.get(self.explanation, "")
        return f"{self.entity} {self.metric}{when}: {first} vs {second}{because}"


class UnsupportedAction(str, enum.Enum):
    """What happens to a factual claim that verification did not support."""

    REMOVE = "remove"  #: its sentence is taken out (and listed under the gaps)
    MARK = "mark"  #: its sentence stays, marked inline as unverified


@dataclass(frozen=True, slots=True)
class Finding:
    """A claim the ledger did not support, and why: what the writer gets to revise, and what the
    reader sees under the gaps when it is removed."""

    claim_id: str
    """The claim (``C3``) in the checked draft."""
    sentence: str
    """The sentence it is part of, as written (citations included)."""
    decision: Decision
    """Unsupported or conflicting."""
    reason: str
    """Why, from the ledger's checks."""
    closest: str | None = None
    """The stored text that came closest, when a span was found."""
