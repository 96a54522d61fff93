"""The shape every support-guard case takes: a page, a faithful claim it must pass, a perturbation it
must flag (the lexical rule, no embedder)."""

from __future__ import annotations

from citewise.records.verify import Decision
from citewise.verify.support import check_support


def assert_passes_and_flags(page: str, faithful: str, perturbed: str) -> None:
    """``faithful`` is supported by ``page`` and ``perturbed`` is not; the verifier's reason on failure."""
    passed = check_support(faithful, "S1", page, meaning=False)
    assert passed.decision is Decision.SUPPORTED, passed.reason
    flagged = check_support(perturbed, "S1", page, meaning=False)
    assert flagged.decision is Decision.UNSUPPORTED, flagged.reason
