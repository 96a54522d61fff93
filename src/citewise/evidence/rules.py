"""Eligibility rules as data: the candidate record, exclusion reasons and the rule table (SPEC 3.3).

A rule is a plain function ``(candidate, context) -> tuple[Exclusion, ...]``: an empty tuple means the
candidate passes it. :data:`RULES` maps rule names to those functions; a plan lists the names it
evaluates and an unknown name fails listing the valid ones. Duplicates are not a per-candidate rule:
they need the whole candidate set and are collapsed afterwards (:mod:`citewise.evidence.dedupe`).

The rules read the plan through :class:`PlanConstraints`, not :mod:`citewise.evidence.plan`: the plan
checks its rule names against this table, so this module sits below it and cannot import it back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from citewise.errors import InputError
from citewise.records import DocumentVersion, ReviewStatus
from citewise.records.gate import Candidate, Exclusion, ExclusionReason
from citewise.records.versions import in_force_from, next_version, version_in_force
from citewise.text.origins import parse_origin_rule

__all__ = [
    "DEFAULT_RULES",
    "RULES",
    "GateContext",
    "PlanConstraints",
    "Rule",
    "check_rule_names",
    "version_in_force",
]


class PlanConstraints(Protocol):
    """What the rules read of a retrieval plan; :class:`~citewise.evidence.plan.RetrievalPlan` is the one."""

    @property
    def pairs(self) -> frozenset[tuple[str, str]]:
        """Exact (document id, section id) pairs allowed; empty: any."""
        ...

    @property
    def docs(self) -> frozenset[str]:
        """Document ids allowed; empty: any."""
        ...

    @property
    def origins(self) -> tuple[str, ...]:
        """Allowed origins: URLs (scheme, host, port, leading path segments) or hosts (subdomains by
        labels), compared parsed by :mod:`citewise.text.origins`."""
        ...

    @property
    def required_uses(self) -> tuple[str, ...]:
        """Uses every eligible version's licence must permit."""
        ...

    @property
    def as_of(self) -> date | None:
        """The date versions are judged in force on; ``None``: today."""
        ...

    @property
    def approval_required(self) -> bool:
        """Version and section must be approved."""
        ...

    def permits_pair(self, doc_id: str, section_id: str) -> bool:
        """True when no pairs are given or (doc_id, section_id) is one of them."""
        ...

    def permits_document(self, doc_id: str) -> bool:
        """True when no documents are listed or ``doc_id`` is one of them."""
        ...


@dataclass(frozen=True, slots=True)
class GateContext:
    """What the rules may consult besides the candidate."""

    plan: PlanConstraints
    """The reviewed constraints."""
    today: date
    """The date "latest" means in force on (injectable so tests and audits are reproducible)."""
    versions: Mapping[str, tuple[DocumentVersion, ...]]
    """Every stored version of each candidate's document, for the version policy."""


Rule = Callable[[Candidate, GateContext], tuple[Exclusion, ...]]


def _exclude(reason: ExclusionReason, detail: str) -> tuple[Exclusion, ...]:
    return (Exclusion(reason, detail),)


def identity_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The section belongs to exactly the document version it is presented with."""
    s, d = c.section, c.document
    if (s.doc_id, s.version) != (d.doc_id, d.version):
        return _exclude(
            ExclusionReason.IDENTITY,
            f"section {s.section_id} of {s.doc_id}@{s.version} presented as part of {d.doc_id}@{d.version}",
        )
    return ()


def pair_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """(document, section) is one of the plan's exact pairs (pairs travel together)."""
    if ctx.plan.permits_pair(c.section.doc_id, c.section.section_id):
        return ()
    allowed = ", ".join(f"{d}:{s}" for d, s in sorted(ctx.plan.pairs))
    return _exclude(
        ExclusionReason.PAIR_NOT_PERMITTED,
        f"{c.section.doc_id}:{c.section.section_id} is not a permitted pair (permitted: {allowed})",
    )


def document_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The document is one the plan allows."""
    if ctx.plan.permits_document(c.document.doc_id):
        return ()
    allowed = ", ".join(sorted(ctx.plan.docs))
    return _exclude(ExclusionReason.DOCUMENT_NOT_ALLOWED, f"{c.document.doc_id} is not in the plan's docs ({allowed})")


def _approval(status: ReviewStatus, accepted: set[ReviewStatus], ctx: GateContext) -> bool:
    if status is ReviewStatus.REJECTED:
        return False
    return status in accepted or not ctx.plan.approval_required


def document_approval_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The version was approved by a reviewer (superseded versions were; the version rule decides)."""
    status = c.document.status
    if _approval(status, {ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED}, ctx):
        return ()
    detail = f"{c.document.doc_id}@{c.document.version} is {status.value}"
    return _exclude(ExclusionReason.DOCUMENT_NOT_APPROVED, detail)


def section_approval_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The section itself is approved (a section rejected inside an approved version stays out)."""
    status = c.section.status
    if _approval(status, {ReviewStatus.APPROVED}, ctx):
        return ()
    return _exclude(ExclusionReason.SECTION_NOT_APPROVED, f"section {c.ref} is {status.value}")


def origin_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The origin URL or the official publisher matches one of the plan's origins."""
    origins = ctx.plan.origins
    p = c.document.provenance
    urls = (p.origin_url, p.official_publisher)
    if not origins or any(parse_origin_rule(o).matches(url) for o in origins for url in urls):
        return ()
    return _exclude(
        ExclusionReason.ORIGIN_NOT_ALLOWED,
        f"origin {p.origin_url!r} / publisher {p.official_publisher!r} match none of {list(origins)}",
    )


def usage_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """Every use the plan requires is among the version's permitted uses."""
    permitted = c.document.provenance.permitted_uses
    missing = [u for u in ctx.plan.required_uses if u not in permitted]
    if not missing:
        return ()
    return _exclude(
        ExclusionReason.USE_NOT_PERMITTED,
        f"{c.document.doc_id}@{c.document.version} does not permit {missing} (permitted: {list(permitted)})",
    )


def deleted_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """Deleted provisions and reserved placeholders exist but are never evidence."""
    found: tuple[Exclusion, ...] = ()
    if c.section.deleted:
        found += _exclude(ExclusionReason.DELETED, f"{c.ref} is a deleted provision")
    if c.section.reserved:
        found += _exclude(ExclusionReason.RESERVED, f"{c.ref} is a reserved placeholder")
    return found


def version_rule(c: Candidate, ctx: GateContext) -> tuple[Exclusion, ...]:
    """The version is the one in force on the plan's date (``as_of``, else today); see
    :mod:`citewise.records.versions`. The ``superseded`` review status is not consulted: a newer
    version that has not taken effect yet supersedes nothing. When no reviewed version is in force on
    that date, the first one to take effect is eligible (the answer notes that it is not yet in force)."""
    d = c.document
    on = ctx.plan.as_of or ctx.today
    stored = ctx.versions.get(d.doc_id, (d,))
    chosen = version_in_force(stored, on)
    starts = in_force_from(d)
    if chosen is None:
        chosen = next_version(stored, on)
        if chosen is None or chosen.version == d.version:
            return ()
    elif chosen.version == d.version:
        return ()
    if starts is not None and starts > on:
        return _exclude(
            ExclusionReason.NOT_YET_IN_FORCE,
            f"{d.doc_id}@{d.version} takes effect {starts}, after {on} (version {chosen.version} is used then)",
        )
    return _exclude(
        ExclusionReason.SUPERSEDED,
        f"{d.doc_id}@{d.version} is not the version in force on {on} (that is version {chosen.version})",
    )


#: Every gate rule by name, in the order they run. Built-in rules register exactly as others would.
RULES: dict[str, Rule] = {
    "identity": identity_rule,
    "pair": pair_rule,
    "document": document_rule,
    "document_approval": document_approval_rule,
    "section_approval": section_approval_rule,
    "origin": origin_rule,
    "usage": usage_rule,
    "deleted": deleted_rule,
    "version": version_rule,
}

#: The rules a plan evaluates unless it names others.
DEFAULT_RULES: tuple[str, ...] = tuple(RULES)


def check_rule_names(names: Iterable[str]) -> None:
    """Raise InputError naming any unknown rule and listing the valid ones."""
    unknown = [n for n in names if n not in RULES]
    if unknown:
        raise InputError(f"unknown gate rule(s) {unknown}; valid rules: {', '.join(RULES)}")
