"""The evidence layer between search and answer: retrieval plan, eligibility gate, ranking contract.

Data flows plan -> gate -> rank::

    plan = RetrievalPlan.from_values(store, pairs=["kr-law-001248:제2조", "kr-law-001872:제7조"])
    gated = gate(store, plan, search(store, query, k=20))       # every exclusion with its reason
    ranked = apply_ranker(TermOverlapRanker(), query, gated.eligible)  # reorder only, verified
"""

from citewise.evidence.dedupe import collapse_duplicates, jaccard, shingles
from citewise.evidence.gate import EligibilityDecision, GateOutcome, evaluate, gate, load_candidates
from citewise.evidence.plan import DEFAULT_NEAR_DUPLICATE_THRESHOLD, RetrievalPlan, load_plan, parse_pair
from citewise.evidence.rank import (
    LexicalRanker,
    Ranker,
    RankingOutcome,
    RankingViolation,
    TermOverlapRanker,
    ViolationKind,
    apply_ranker,
)
from citewise.evidence.rules import DEFAULT_RULES, RULES, version_in_force
from citewise.records.gate import Candidate, Exclusion, ExclusionReason, SourceRef

__all__ = [
    "DEFAULT_NEAR_DUPLICATE_THRESHOLD",
    "DEFAULT_RULES",
    "RULES",
    "Candidate",
    "EligibilityDecision",
    "Exclusion",
    "ExclusionReason",
    "GateOutcome",
    "LexicalRanker",
    "Ranker",
    "RankingOutcome",
    "RankingViolation",
    "RetrievalPlan",
    "SourceRef",
    "TermOverlapRanker",
    "ViolationKind",
    "apply_ranker",
    "collapse_duplicates",
    "evaluate",
    "gate",
    "jaccard",
    "load_candidates",
    "load_plan",
    "parse_pair",
    "shingles",
    "version_in_force",
]
