"""The retrieval plan: the reviewed constraints a retrieval request carries (SPEC 3.2).

A plan says which evidence may be used at all; the gate (:mod:`citewise.evidence.gate`) applies it
to every candidate before anything is ranked. Constraints combine with AND:

* ``pairs`` — exact (document, section) pairs. When given, a candidate's (doc, section) must be one
  of them. Pairs travel together: permitting A 제2조 and B 제7조 permits neither A 제7조 nor B 제2조.
* ``docs`` — allowed documents. When given, a candidate's document must be one of them, and every
  pair's document must be too (a pair outside ``docs`` is a contradiction and is refused).
* ``origins`` — allowed origins, compared parsed (:mod:`citewise.text.origins`), never as string
  prefixes. A value with a scheme (``file:///corpus/``, ``https://x.org/laws``) admits a version
  whose ``origin_url`` or ``official_publisher`` has that scheme, host and port and starts with its
  whole path segments; a bare host (``law.go.kr``) admits that host or a subdomain of it by whole
  labels, over http(s) on the default port. Userinfo never widens a match.
* ``required_uses`` — uses (``quote``, ``summarise``) that must all be in the version's
  ``permitted_uses``.
* version policy — the version **in force** on ``as_of`` (``None``: today): of the versions a
  reviewer approved (now ``approved`` or ``superseded``), the one with the newest effective date on
  or before that date (ties: the later version). A version with no effective date counts from its
  promulgation date; a version with neither is in force from any date but loses to every dated one.
  A version promulgated but not yet in effect supersedes nothing until it takes effect (the answer
  notes it with its date). When no approved version is in force on the date, the first one to take
  effect is eligible and the answer says it is not yet in force (:mod:`citewise.records.versions`).
* ``approval_required`` (default on) — the version and the section must be approved. Rejected
  material is excluded even when approval is not required.

Example::

    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001248:제2조"], as_of="2020-01-01")
    plan = load_plan(Path("plan.yaml"), store)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from citewise.errors import InputError, NotFoundError
from citewise.evidence.rules import DEFAULT_RULES, check_rule_names
from citewise.store.evidence import EvidenceStore
from citewise.text.origins import parse_origin_rule

__all__ = ["DEFAULT_NEAR_DUPLICATE_THRESHOLD", "RetrievalPlan", "load_plan", "parse_pair"]

#: Jaccard similarity of 5-character shingles at or above which two passages are near-duplicates.
DEFAULT_NEAR_DUPLICATE_THRESHOLD = 0.9


@dataclass(frozen=True, slots=True)
class RetrievalPlan:
    """Reviewed constraints on which evidence a retrieval may use. Empty tuples mean "no limit"."""

    pairs: frozenset[tuple[str, str]] = frozenset()
    """Exact (document id, section id) pairs allowed; empty: any section of an allowed document."""
    docs: frozenset[str] = frozenset()
    """Document ids allowed; empty: any document."""
    origins: tuple[str, ...] = ()
    """Allowed origins: URLs (scheme, host, port, whole path segments) or hosts (subdomains by labels)."""
    required_uses: tuple[str, ...] = ()
    """Uses every eligible version's licence must permit (all of them)."""
    as_of: date | None = None
    """The date versions are judged in force on; ``None``: today."""
    approval_required: bool = True
    """Version and section must be approved (rejected material is excluded regardless)."""
    rules: tuple[str, ...] = DEFAULT_RULES
    """Names of the gate rules to evaluate, in order (see ``citewise.evidence.rules.RULES``)."""
    near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD
    """Jaccard similarity (5-character shingles of normalised text) that makes a near-duplicate."""

    def __post_init__(self) -> None:
        check_rule_names(self.rules)
        for origin in self.origins:
            parse_origin_rule(origin)  # a rule that cannot be understood fails here, saying why
        if not 0.0 < self.near_duplicate_threshold <= 1.0:
            raise InputError(f"near_duplicate_threshold must be in (0, 1], got {self.near_duplicate_threshold}")
        outside = sorted({doc for doc, _ in self.pairs} - self.docs) if self.docs else []
        if outside:
            raise InputError(
                f"contradictory plan: pairs name documents outside 'docs': {', '.join(outside)} "
                f"(allowed docs: {', '.join(sorted(self.docs))})"
            )

    @classmethod
    def from_values(
        cls,
        store: EvidenceStore | None = None,
        *,
        pairs: Iterable[str] = (),
        docs: Iterable[str] = (),
        origins: Iterable[str] = (),
        as_of: str | date | None = None,
        require_use: str | Iterable[str] = (),
        approval_required: bool = True,
        rules: Iterable[str] | None = None,
        near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    ) -> RetrievalPlan:
        """A plan from command-line style values, checked against ``store`` when one is given.

        ``pairs`` are ``DOC_ID:SECTION_ID`` strings; ``as_of`` is ``YYYY-MM-DD``, ``latest`` or None.
        """
        uses = (require_use,) if isinstance(require_use, str) else tuple(require_use)
        plan = cls(
            pairs=frozenset(parse_pair(p) for p in _strings(pairs, "pairs")),
            docs=frozenset(_strings(docs, "docs")),
            origins=tuple(_strings(origins, "origins")),
            required_uses=tuple(_strings(uses, "require_use")),
            as_of=_as_of(as_of),
            approval_required=_flag(approval_required, "approval_required"),
            rules=DEFAULT_RULES if rules is None else tuple(_strings(rules, "rules")),
            near_duplicate_threshold=_threshold(near_duplicate_threshold),
        )
        if store is not None:
            plan.check_documents(store)
        return plan

    def check_documents(self, store: EvidenceStore) -> None:
        """Raise NotFoundError naming every document the plan mentions that the store lacks."""
        known = {d.doc_id for d in store.documents()}
        named = self.docs | {doc for doc, _ in self.pairs}
        unknown = sorted(named - known)
        if unknown:
            raise NotFoundError(f"the plan names documents not in the store: {', '.join(unknown)}")

    def describe(self) -> dict[str, object]:
        """The plan as plain values, for the audit record and cache keys."""
        return {
            "pairs": sorted(f"{doc}:{section}" for doc, section in self.pairs),
            "docs": sorted(self.docs),
            "origins": list(self.origins),
            "required_uses": list(self.required_uses),
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "approval_required": self.approval_required,
            "rules": list(self.rules),
            "near_duplicate_threshold": self.near_duplicate_threshold,
        }

    def permits_pair(self, doc_id: str, section_id: str) -> bool:
        """True when no pairs are given or (doc_id, section_id) is exactly one of them."""
        return not self.pairs or (doc_id, section_id) in self.pairs

    def permits_document(self, doc_id: str) -> bool:
        """True when no documents are listed or ``doc_id`` is one of them."""
        return not self.docs or doc_id in self.docs


def parse_pair(value: str) -> tuple[str, str]:
    """``DOC_ID:SECTION_ID`` -> (doc id, section id). Section ids may not contain a colon."""
    if not isinstance(value, str):
        raise InputError(f"malformed pair {value!r}: expected a string DOC_ID:SECTION_ID")
    doc_id, colon, section_id = value.partition(":")
    if not colon:
        raise InputError(f"malformed pair {value!r}: no colon; expected DOC_ID:SECTION_ID (e.g. kr-law-001248:제2조)")
    if not doc_id.strip() or not section_id.strip():
        raise InputError(f"malformed pair {value!r}: both DOC_ID and SECTION_ID are needed")
    return doc_id.strip(), section_id.strip()


_PLAN_KEYS = {
    "pairs",
    "docs",
    "origins",
    "as_of",
    "require_use",
    "approval_required",
    "rules",
    "near_duplicate_threshold",
}


def load_plan(path: Path, store: EvidenceStore | None = None) -> RetrievalPlan:
    """Read a plan file (``.json``, or YAML otherwise) with the keys of :meth:`RetrievalPlan.from_values`::

    pairs: ["kr-law-001248:제2조", "kr-law-001872:제7조"]
    docs: [kr-law-001248, kr-law-001872]
    origins: [law.go.kr]
    require_use: quote
    as_of: 2020-01-01            # or: latest
    approval_required: true
    """
    try:
        raw = path.read_text(encoding="utf-8")
        data = json.loads(raw) if path.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        raise InputError(f"cannot read plan file {path}: {exc}") from exc
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InputError(f"plan file {path} must be a mapping with keys: {', '.join(sorted(_PLAN_KEYS))}")
    unknown = sorted(set(data) - _PLAN_KEYS)
    if unknown:
        raise InputError(f"plan file {path}: unknown keys {unknown}; valid keys: {sorted(_PLAN_KEYS)}")
    try:
        return RetrievalPlan.from_values(store, **_plan_arguments(data))
    except InputError as exc:
        raise InputError(f"plan file {path}: {exc}") from exc
    except NotFoundError as exc:
        raise NotFoundError(f"plan file {path}: {exc}") from exc


def _plan_arguments(data: Mapping[str, Any]) -> dict[str, Any]:
    args = dict(data)
    # YAML reads an unquoted 2020-01-01 as a date and a lone string where a list was meant.
    for key in ("pairs", "docs", "origins", "rules"):
        if isinstance(args.get(key), str):
            args[key] = [args[key]]
    return {k: v for k, v in args.items() if v is not None or k == "as_of"}


def _strings(values: Iterable[Any], name: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InputError(f"{name} must be a list of strings, got {values!r}")
    out = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{name} must hold non-empty strings, got {value!r}")
        out.append(value.strip())
    return out


def _as_of(value: object) -> date | None:
    if value is None or value == "latest":
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise InputError(f"as_of {value!r} is not a date: expected YYYY-MM-DD or 'latest'")


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false, got {value!r}")
    return value


def _threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"near_duplicate_threshold must be a number in (0, 1], got {value!r}")
    return float(value)
