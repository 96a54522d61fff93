"""Verified delivery for ``ask``: the answer a person reads has been through the claim ledger.

A composed answer (model or deterministic) is verified against the text of the evidence it may cite
before it is returned: factual sentences the sections do not support are removed (or marked), the
rest is delivered with the acceptance decision. If nothing verifiable survives a model's answer, the
deterministic composer's extractive answer is verified and delivered instead, recorded as that path.
If nothing survives that either, the answer is never an empty one: the ask becomes a handoff that
says why — no composed sentence could be verified — and, where the evidence's versions explain it,
which version is in force on the date, that the cited one is approved, and when it takes effect.
Clarifications, handoffs, "no eligible evidence" and shadow mode (the existing answer is returned
unchanged) have no claims of citewise's to verify.
"""

from __future__ import annotations

from dataclasses import replace

from citewise.answer.deterministic import Weights, answer_line, compose_extractive
from citewise.answer.meaning import SentenceMeaning
from citewise.answer.result import AskResult, AskSettings
from citewise.records.answer import AnswerPath, AnswerProvenance, AskOutcome
from citewise.records.verify import ClaimKind, Decision, UnsupportedAction
from citewise.verify.delivery import Delivery, deliver
from citewise.verify.ledger import CitedText

__all__ = ["verify_answer"]

_COMPOSED = (AskOutcome.MODEL_ANSWER, AskOutcome.FALLBACK)


def verify_answer(
    result: AskResult,
    settings: AskSettings,
    meaning: SentenceMeaning | None = None,
    weights: Weights | None = None,
) -> tuple[AskResult, Delivery | None]:
    """``result`` as delivered after verification, and the verification (None when there was nothing
    of citewise's to verify, or verification is off). ``meaning``: what the extractive answer that
    replaces an unverifiable model answer weighs (:func:`~citewise.answer.deterministic.compose_extractive`),
    with the question's terms weighing ``weights``."""
    if not settings.verify or settings.mode == "shadow" or result.outcome not in _COMPOSED:
        return result, None
    texts = {
        e.evidence_id: CitedText(e.evidence_id, e.origin_url, e.text, document=f"{e.doc_id}@{e.version}")
        for e in result.evidence
    }
    delivery = deliver(result.text, texts, kind="ask", action=settings.unsupported)
    if not _supported_claims(delivery) and result.outcome is AskOutcome.MODEL_ANSWER:
        # Nothing of the model's answer could be verified: the extractive answer, verified in turn.
        composed = compose_extractive(result.question, result.evidence, meaning=meaning, weights=weights)
        fallback = AnswerProvenance(
            AnswerPath.DETERMINISTIC,
            requested_model=result.provenance.requested_model,
            prompt_version=result.provenance.prompt_version,
            fallback_reason="no claim of the model's answer could be verified against the evidence",
            prompt_tokens=result.provenance.prompt_tokens,
            completion_tokens=result.provenance.completion_tokens,
        )
        removed = delivery.removed
        result = replace(
            result, outcome=AskOutcome.FALLBACK, text=composed.text, citations=composed.citations, provenance=fallback
        )
        delivery = deliver(result.text, texts, kind="ask", action=settings.unsupported)
        delivery = replace(delivery, removed=removed + delivery.removed)
    if settings.unsupported is UnsupportedAction.REMOVE and (whole := _whole_groups(result, delivery)) is not None:
        # A quote the composer quoted with others (a list item with its lead-in) was removed: they go too.
        removed = delivery.removed
        result = replace(result, text=whole)
        delivery = deliver(whole, texts, kind="ask", action=settings.unsupported)
        delivery = replace(delivery, removed=removed + delivery.removed)
    if not delivery.has_finding:
        return _handed_off(result, settings, delivery), None
    cited = {c.evidence_id for c in result.citations if f"[{c.evidence_id}]" in delivery.text}
    delivered = replace(
        result,
        text=delivery.text.strip(),
        citations=tuple(c for c in result.citations if c.evidence_id in cited),
        acceptance=delivery.acceptance,
        removed=delivery.removed,
    )
    return delivered, delivery


def _whole_groups(result: AskResult, delivery: Delivery) -> str | None:
    """The answer's text without every quote of a group (:attr:`Citation.group
    <citewise.records.answer.Citation.group>`) of which verification removed one; None when no group
    lost one."""
    present = set(delivery.text.splitlines())
    broken = {c.group for c in result.citations if c.group and answer_line(c) not in present}
    if not broken:
        return None
    dropped = {answer_line(c) for c in result.citations if c.group in broken}
    return "\n".join(line for line in result.text.splitlines() if line not in dropped)


NOTHING_VERIFIED = "no sentence composed from the eligible evidence could be verified against it"


def _handed_off(result: AskResult, settings: AskSettings, delivery: Delivery) -> AskResult:
    """The ask as a handoff when verification left no supported claim: the gap says why."""
    failed = delivery.removed + delivery.marked
    decisions = [f.decision for f in failed]
    counts = ", ".join(f"{decisions.count(d)} {d.value}" for d in dict.fromkeys(decisions))
    versions = "; ".join(note.render().rstrip(".") for note in result.version_notes)
    gap = NOTHING_VERIFIED + (f" ({counts})" if counts else "") + (f"; {versions}" if versions else "")
    text = f"No verified answer: {gap}. Handed off to {settings.handoff_target}."
    provenance = AnswerProvenance(
        AnswerPath.NONE,
        requested_model=result.provenance.requested_model,
        prompt_version=result.provenance.prompt_version,
        fallback_reason=result.provenance.fallback_reason,
        prompt_tokens=result.provenance.prompt_tokens,
        completion_tokens=result.provenance.completion_tokens,
    )
    return replace(
        result,
        outcome=AskOutcome.HANDOFF,
        text=text,
        citations=(),
        provenance=provenance,
        gap=gap,
        removed=failed,
    )


def _supported_claims(delivery: Delivery) -> bool:
    return any(e.claim.kind is ClaimKind.FACT and e.decision is Decision.SUPPORTED for e in delivery.entries)
