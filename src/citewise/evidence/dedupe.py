"""Exact and near-duplicate passages collapse to one, keeping the provenance of both (SPEC 3.3).

* **Exact**: the same ``content_hash`` of the normalised section *text* (headings differ between
  documents that copy a provision, so they are left out).
* **Near**: Jaccard similarity of the sets of 5-character shingles of the normalised text, with all
  whitespace removed, at or above the plan's threshold (0.9 by default). Character shingles need no
  tokenizer, so Korean, where particles glue onto words, works as well as English. At 0.9 a one
  character edit in a 50-character provision (5 of ~46 shingles changed) is *not* a near-duplicate;
  the same edit in a paragraph-long provision is.

The first passage in the given order is kept (the gate passes candidates in search order) and records
every collapsed passage in :attr:`Candidate.duplicates`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citewise.hashing import content_hash, normalize_text
from citewise.records.gate import Candidate, Exclusion, ExclusionReason

__all__ = ["SHINGLE_SIZE", "Collapse", "collapse_duplicates", "jaccard", "shingles"]

#: Characters per shingle.
SHINGLE_SIZE = 5

_SPACE = re.compile(r"\s+")


def shingles(text: str, size: int = SHINGLE_SIZE) -> frozenset[str]:
    """The set of ``size``-character substrings of the normalised text, whitespace removed."""
    flat = _SPACE.sub("", normalize_text(text))
    if len(flat) <= size:
        return frozenset({flat}) if flat else frozenset()
    return frozenset(flat[i : i + size] for i in range(len(flat) - size + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b| (1.0 for two empty sets)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


@dataclass(frozen=True, slots=True)
class Collapse:
    """A candidate folded into a kept one."""

    dropped: Candidate
    """The passage that was collapsed."""
    kept: Candidate
    """The passage it was collapsed into (as first kept, before its duplicates were recorded)."""
    exclusion: Exclusion
    """``duplicate`` or ``near_duplicate``, with the similarity in the detail."""


def collapse_duplicates(candidates: Sequence[Candidate], threshold: float) -> tuple[list[Candidate], list[Collapse]]:
    """Keep the first of each group of duplicates; return (kept, collapsed)."""
    kept: list[Candidate] = []
    kept_hashes: list[str] = []
    kept_shingles: list[frozenset[str]] = []
    collapsed: list[Collapse] = []
    for candidate in candidates:
        digest = content_hash(candidate.text)
        grams = shingles(candidate.text)
        match = _match(digest, grams, kept_hashes, kept_shingles, threshold)
        if match is None:
            kept.append(candidate)
            kept_hashes.append(digest)
            kept_shingles.append(grams)
            continue
        index, exclusion = match
        target = kept[index]
        collapsed.append(Collapse(candidate, target, _with_target(exclusion, target)))
        kept[index] = replace(target, duplicates=(*target.duplicates, candidate.ref, *candidate.duplicates))
    return kept, collapsed


def _match(
    digest: str,
    grams: frozenset[str],
    hashes: list[str],
    kept_shingles: list[frozenset[str]],
    threshold: float,
) -> tuple[int, Exclusion] | None:
    if digest in hashes:
        return hashes.index(digest), Exclusion(ExclusionReason.DUPLICATE, "same normalised text")
    best, best_score = -1, 0.0
    for i, other in enumerate(kept_shingles):
        score = jaccard(grams, other)
        if score > best_score:
            best, best_score = i, score
    if best >= 0 and best_score >= threshold:
        detail = f"Jaccard {best_score:.3f} >= {threshold} on {SHINGLE_SIZE}-character shingles"
        return best, Exclusion(ExclusionReason.NEAR_DUPLICATE, detail)
    return None


def _with_target(exclusion: Exclusion, target: Candidate) -> Exclusion:
    return Exclusion(exclusion.reason, f"{exclusion.detail}; collapsed into {target.ref}")
