"""Domain diversity (SPEC 4.3): no one site supplies most of a run's sources when other sites answer
too, and one text on two sites is one source with both URLs.

Which pages a query reads (:class:`RoundSites`, used by :func:`~citewise.research.extraction.choose_pages`):
in rank order, a hit is passed over while other sites answer the same query when its site already
gave a page this round, or when taking it would lift its site above :attr:`SitePolicy.max_share` of
the run's sources. A site the policy names primary (the issuer's or official publisher's own site)
is never passed over, and a query that only one site answers reads that site's pages. A hit passed
over is recorded as skipped (``same_site``) and spends no budget; a later round may read it.

After reading, a page whose text is the same or nearly the same as a stored source's (Jaccard
similarity of 5-character shingles at least :data:`SAME_TEXT`) becomes that source's mirror
(:func:`twin_of`): the source that was stored first leads, and the mirror is listed with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from citewise.evidence.dedupe import jaccard, shingles
from citewise.records.research import SiteFigures, Source
from citewise.text.domains import registrable_domain

__all__ = ["SAME_TEXT", "RoundSites", "SitePolicy", "dominance_note", "site_figures", "twin_of"]

SAME_TEXT = 0.9
"""Shingle similarity at or above which two pages are one text (as the gate's near-duplicates)."""


@dataclass(frozen=True, slots=True)
class SitePolicy:
    """How sources are spread over sites."""

    max_share: float = 0.5
    """The most of a run's sources one site may supply while other sites answer (default half)."""
    primary: frozenset[str] = field(default_factory=frozenset)
    """Sites (registrable domains) that are the primary source: never passed over for diversity."""
    spread: bool = True
    """Whether pages are passed over for their site at all (False: rank order alone decides; the
    same text on two sites is still one source)."""

    def __post_init__(self) -> None:
        if not 0 < self.max_share <= 1:
            raise ValueError(f"max_share must be above 0 and at most 1, got {self.max_share}")


class RoundSites:
    """The sites a collection round has read from so far, and the rule for the next page.

    Build one per round from the run's stored sources; for each query, :meth:`answering` names the
    sites among its hits, :meth:`allows` says whether a hit on ``domain`` may be read, and
    :meth:`take` counts a page chosen."""

    def __init__(self, sources: Sequence[Source], policy: SitePolicy) -> None:
        self.policy = policy
        self.stored: Counter[str] = Counter(s.domain for s in sources if s.domain)
        self.this_round: Counter[str] = Counter()

    @staticmethod
    def answering(urls: Iterable[str]) -> frozenset[str]:
        """The sites ``urls`` are on."""
        return frozenset(d for d in map(registrable_domain, urls) if d is not None)

    def allows(self, domain: str | None, answering: frozenset[str]) -> bool:
        """Whether a hit on ``domain`` may be read for a query answered by ``answering`` sites."""
        if not self.policy.spread or domain is None or domain in self.policy.primary or not answering - {domain}:
            return True  # a store reference, the primary source, or the only site that answers
        if self.this_round[domain]:
            return False  # one page per site per round while others answer
        total = sum(self.stored.values()) + sum(self.this_round.values()) + 1
        return total == 1 or self.stored[domain] + 1 <= self.policy.max_share * total

    def take(self, domain: str | None) -> None:
        """Count a page chosen on ``domain``."""
        if domain is not None:
            self.this_round[domain] += 1


def twin_of(page_text: str, sources: Sequence[Source]) -> tuple[Source, float] | None:
    """The stored source whose text ``page_text`` repeats (and how closely), if one does."""
    mine = shingles(page_text)
    if not mine:
        return None
    best: tuple[Source, float] | None = None
    for source in sources:
        similarity = jaccard(mine, shingles(source.page_text))
        if similarity >= SAME_TEXT and (best is None or similarity > best[1]):
            best = (source, similarity)
    return best


def site_figures(sources: Sequence[Source], policy: SitePolicy) -> SiteFigures:
    """How ``sources`` spread over sites."""
    counts = Counter(s.domain for s in sources if s.domain)
    largest = counts.most_common(1)[0] if counts else (None, 0)
    primary = sum(n for d, n in counts.items() if d in policy.primary)
    return SiteFigures(len(sources), len(counts), largest[0], largest[1], primary)


def dominance_note(figures: SiteFigures, policy: SitePolicy) -> str | None:
    """The limitation to state when one site supplied more than the policy's share, else None."""
    if figures.largest_domain is None or figures.sources < 2 or figures.largest_share <= policy.max_share:
        return None
    others = figures.distinct_domains - 1
    return (
        f"One site, {figures.largest_domain}, supplied {figures.largest_count} of the {figures.sources} sources"
        + (" (no other site answered)" if others == 0 else f" ({others} other site{'s' if others > 1 else ''})")
        + ": the findings lean on it."
    )
