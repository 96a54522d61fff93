"""Conflicting figures across sources, and sources that only repeat one another.

:func:`find_conflicts` compares every pair of factual claims that rest on *different* sources. Two
claims are about the same thing when they name the same entity (or neither names one), the same
period (or neither names one) and the same metric — their remaining words, figures and dates
left out, overlap by at least :data:`METRIC_SIMILARITY` (shared terms over the smaller claim's
terms, Korean-aware), so a qualifier added to one claim does not hide the match. When such
claims carry figures of the same unit family whose values differ after normalisation (% and
퍼센트; 원, 만원, 억원; days, weeks; months and years), that is a :class:`Conflict`. It keeps both
values as written, their conditions and both sources: a conflict is shown, never averaged or
silently resolved.

:func:`independent_sources` collapses sources whose supporting spans (or whole pages) are
near-identical — one announcement repeated by several sites counts once. Near-identical means a
Jaccard similarity of character 5-shingles of at least :data:`DUPLICATE_SIMILARITY`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Final

from citewise.records.verify import Claim, ClaimKind, Conflict, ConflictExplanation, Decision, SupportCheck
from citewise.text.analyze import analyze
from citewise.verify.claims import claim_scope
from citewise.verify.figures import Figure, date_parts, figures

__all__ = [
    "DUPLICATE_SIMILARITY",
    "METRIC_SIMILARITY",
    "Conflict",
    "find_conflicts",
    "independent_sources",
    "shingle_similarity",
]

METRIC_SIMILARITY: Final = 0.6
"""Least overlap coefficient of two claims' metric terms for them to be about the same metric."""
DUPLICATE_SIMILARITY: Final = 0.8
"""Least character-shingle Jaccard similarity for two spans or pages to count as one source."""
SHINGLE: Final = 5


@dataclass(frozen=True, slots=True)
class _Reading:
    claim: Claim
    source: str
    entity: str
    period: tuple[tuple[int | None, int | None, int | None], ...]
    period_text: str | None
    metric: frozenset[str]
    figures: tuple[Figure, ...]
    conditions: tuple[str, ...]


def _fold_entity(entity: str) -> str:
    return re.sub(r"(?:'s|’s)$", "", unicodedata.normalize("NFKC", entity)).strip().lower()


def _source_of(claim: Claim, checks: Sequence[SupportCheck]) -> str | None:
    for check in checks:
        if check.decision is Decision.SUPPORTED:
            return check.source_id
    for check in checks:
        if check.span_found:
            return check.source_id
    return claim.cited_ids[0] if claim.cited_ids else None


def _reading(claim: Claim, checks: Sequence[SupportCheck]) -> _Reading | None:
    source = _source_of(claim, checks)
    found = tuple(figures(claim.text))
    if source is None or not found or claim.kind is not ClaimKind.FACT:
        return None
    scope = claim_scope(claim.text)
    excluded: set[str] = set()
    for part in (*scope.numbers, *scope.dates, *scope.entities):
        excluded.update(analyze(part))
    terms = [t for t in analyze(claim.text) if t not in excluded and not t.isdigit()]
    entity = _fold_entity(scope.entities[0]) if scope.entities else ""
    return _Reading(
        claim=claim,
        source=source,
        entity=entity,
        period=tuple(sorted({date_parts(d) for d in scope.dates} - {(None, None, None)}, key=_date_key)),
        period_text=scope.dates[0] if scope.dates else None,
        metric=frozenset(terms),
        figures=found,
        conditions=scope.conditions,
    )


def _date_key(parts: tuple[int | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if part is None else part for part in parts)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _conflict(a: _Reading, b: _Reading, documents: Mapping[str, str]) -> Conflict | None:
    if a.source == b.source or a.entity != b.entity or (a.period != b.period and not (a.period and b.period)):
        return None  # one names a period and the other does not: not comparable
    if documents.get(a.source) and documents.get(a.source) == documents.get(b.source):
        return None  # two sections of one document: its provisions for different cases, not two sources
    smaller = min(len(a.metric), len(b.metric))
    if not smaller or len(a.metric & b.metric) / smaller < METRIC_SIMILARITY:
        return None
    for fa in a.figures:
        same_family = [fb for fb in b.figures if fb.unit == fa.unit]
        if same_family and not any(fa.matches(other) for other in b.figures):
            return _described(a, b, fa, same_family[0])
    return None


def _explanation(a: _Reading, b: _Reading) -> ConflictExplanation:
    if a.period != b.period:
        return ConflictExplanation.PERIOD
    if a.conditions and b.conditions and set(a.conditions) != set(b.conditions):
        # each side states its own condition; one qualifier alone explains nothing
        return ConflictExplanation.CONDITIONS
    return ConflictExplanation.UNEXPLAINED


def _described(a: _Reading, b: _Reading, fa: Figure, fb: Figure) -> Conflict:
    common = a.metric & b.metric
    shared = [w for w in re.findall(r"[\w']+", a.claim.text) if set(analyze(w)) & common]
    entity = a.entity or (_fold_entity(shared[0]) if shared else "")
    return Conflict(
        first=a.claim,
        second=b.claim,
        first_source=a.source,
        second_source=b.source,
        entity=entity,
        metric=" ".join(w for w in dict.fromkeys(shared) if _fold_entity(w) != entity),
        period=a.period_text,
        first_value=fa.text,
        second_value=fb.text,
        first_conditions=a.conditions,
        second_conditions=b.conditions,
        explanation=(explanation := _explanation(a, b)),
        first_period=a.period_text if explanation is ConflictExplanation.PERIOD else None,
        second_period=b.period_text if explanation is ConflictExplanation.PERIOD else None,
    )


def find_conflicts(
    claims_with_checks: Sequence[tuple[Claim, Sequence[SupportCheck]]],
    published: Mapping[str, str | None] | None = None,
    documents: Mapping[str, str] | None = None,
) -> list[Conflict]:
    """Pairs of factual claims, resting on different sources, whose figures disagree, each with
    whether the sides' own conditions explain it (:class:`ConflictExplanation`: different periods,
    different stated conditions, or unexplained) and, from ``published`` (source id -> date), when
    each source was published. ``documents`` (source id -> the stored document and version it is a
    section of) marks sources that are sections of one document: a law's 제51조 (a two-week
    averaging period) and 제51조의2 (three to six months) regulate different cases, and are not two
    sources that disagree.

    >>> from citewise.records.verify import Claim, ClaimKind
    >>> a = Claim("C1", "In 2023 Seoul's average rent rose 5.2%", "", ClaimKind.FACT, ("S1",))
    >>> b = Claim("C2", "In 2023 Seoul's average rent rose 3.1 percent", "", ClaimKind.FACT, ("S2",))
    >>> [c.describe() for c in find_conflicts([(a, ()), (b, ())])]
    ['seoul average rent rose in 2023: 5.2% [S1] vs 3.1 percent [S2]']
    >>> c = Claim("C3", "In 2022 Seoul's average rent rose 3.1 percent", "", ClaimKind.FACT, ("S2",))
    >>> (x,) = find_conflicts([(a, ()), (c, ())], {"S1": "2024-01-05"})
    >>> x.explanation.value, x.resolved
    ('period', True)
    >>> x.describe().split(": ", 1)[1]
    '5.2% [S1] (2023, published 2024-01-05) vs 3.1 percent [S2] (2022) — different periods, both kept'
    """
    dates = published or {}
    readings = [r for claim, checks in claims_with_checks if (r := _reading(claim, checks)) is not None]
    conflicts: list[Conflict] = []
    for a, b in combinations(readings, 2):
        if (conflict := _conflict(a, b, documents or {})) is not None:
            conflicts.append(
                replace(conflict, first_published=dates.get(a.source), second_published=dates.get(b.source))
            )
    return conflicts


# -- repeated announcements ---------------------------------------------------------------------------


def _shingles(text: str) -> frozenset[str]:
    folded = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()
    if len(folded) <= SHINGLE:
        return frozenset({folded}) if folded else frozenset()
    return frozenset(folded[i : i + SHINGLE] for i in range(len(folded) - SHINGLE + 1))


def shingle_similarity(a: str, b: str) -> float:
    """Jaccard similarity of the character 5-shingles of two texts (case and spacing ignored).

    >>> shingle_similarity("The ministry announced a 3% rise.", "The Ministry announced a 3%  rise!") > 0.8
    True
    """
    return _jaccard(_shingles(a), _shingles(b))


def independent_sources(checks: Sequence[SupportCheck], page_texts: Mapping[str, str]) -> list[tuple[str, ...]]:
    """The checks' sources grouped so that each group is one independent source, in first-seen order.

    Two sources fall in one group when their supporting spans, or their whole pages, are
    near-identical (:func:`shingle_similarity` ≥ :data:`DUPLICATE_SIMILARITY`); the grouping is
    transitive. ``len(independent_sources(...))`` is the number of independent sources.
    """
    order: list[str] = []
    spans: dict[str, str] = {}
    for check in checks:
        if check.source_id not in spans:
            order.append(check.source_id)
            spans[check.source_id] = check.span or ""
    parent = {source: source for source in order}

    def root(source: str) -> str:
        while parent[source] != source:
            parent[source] = parent[parent[source]]
            source = parent[source]
        return source

    for a, b in combinations(order, 2):
        same_span = bool(spans[a] and spans[b]) and shingle_similarity(spans[a], spans[b]) >= DUPLICATE_SIMILARITY
        page_a, page_b = page_texts.get(a, ""), page_texts.get(b, "")
        same_page = bool(page_a and page_b) and shingle_similarity(page_a, page_b) >= DUPLICATE_SIMILARITY
        if same_span or same_page:
            parent[root(b)] = root(a)
    groups: dict[str, list[str]] = {}
    for source in order:
        groups.setdefault(root(source), []).append(source)
    return [tuple(group) for group in groups.values()]
