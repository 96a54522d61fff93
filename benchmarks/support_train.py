"""Fit a logistic-regression support decision over what the check already computes, and compare it
with the current rules by leave-one-split-out cross-validation on the seen pair splits.

    nice -n 10 .venv/bin/python benchmarks/support_train.py [--without-verdicts] [--write]

Features per pair (``benchmarks/data/support_pairs.jsonl``, the blind split ``heldout11`` left out):
the lexical and by-meaning decisions, the family of the by-meaning reason (negation, number, name,
scope, condition, article, low overlap, no span, claims read one by one), the share of the claim's
terms found in the evidence and the embedder's best cosine between the claim and one evidence
sentence. Guards that are precise (negation, wrong or missing figure, date or name, wrong article)
stay vetoes: the model decides only pairs none of them flagged. Each fold fits on all seen splits but
one and is scored on that one; the figures pooled over folds are printed beside the current rules'.
``--write`` stores the weights fitted on every seen split in ``src/citewise/data/support_model.npz``
(only worth doing when both pooled shares beat the rules).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baselines import terms  # noqa: E402

from citewise.eval.support import evaluate_support, load_pairs  # noqa: E402
from citewise.verify.meaning import default_scorer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "benchmarks" / "data" / "support_pairs.jsonl"
MODEL = ROOT / "src" / "citewise" / "data" / "support_model.npz"
BLIND = "heldout11"
FAMILIES = (
    "negation",
    "number",
    "name",
    "scope",
    "condition",
    "article",
    "low term overlap",
    "no span",
    "claims",
)
VETOES = ("negation", "number", "name", "article", "date")


@dataclass(frozen=True, slots=True)
class Row:
    split: str
    label: int  # 1 supported
    rules: int  # 1 passed by the current rules (by meaning)
    veto: bool
    x: np.ndarray


def _head(reason: str, passed: float) -> str:
    """The family part of an unsupported verdict's reason ("" for a pass: its reason names no guard)."""
    return "" if passed else reason.split(":")[0].lower()


def _family(head: str) -> list[float]:
    return [float(f in head) for f in FAMILIES]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?。다])\s+", text) if s.strip()] or [text]


def features() -> list[Row]:
    pairs = [p for p in load_pairs(PAIRS) if p.split != BLIND]
    lexical = {r.id: r for r in evaluate_support(pairs, meaning=False).results}
    meaning = {r.id: r for r in evaluate_support(pairs, meaning=True).results}
    scorer = default_scorer()
    rows: list[Row] = []
    for p in pairs:
        m, lx = meaning[p.id], lexical[p.id]
        wanted = terms(p.claim)
        share = len(wanted & terms(p.evidence)) / len(wanted) if wanted else 0.0
        cosine = max(scorer.similarities(p.claim, _sentences(p.evidence)), default=0.0) if scorer else 0.0
        passed = float(m.decision.value == "supported")
        head = _head(m.reason, passed)
        x = np.array([1.0, passed, float(lx.decision.value == "supported"), share, cosine, *_family(head)])
        rows.append(Row(p.split, int(p.label == "supported"), int(passed), any(v in head for v in VETOES), x))
    return rows


def fit(x: np.ndarray, y: np.ndarray, *, steps: int = 3000, rate: float = 0.5, l2: float = 1e-2) -> np.ndarray:
    """Logistic regression by gradient descent, class-balanced, L2 on all but the bias."""
    w = np.zeros(x.shape[1])
    weight = np.where(y == 1, 0.5 / max(1, y.sum()), 0.5 / max(1, (1 - y).sum()))
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (weight * (p - y)) + l2 * np.r_[0.0, w[1:]]
        w -= rate * grad
    return w


def decide(rows: list[Row], w: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    x = np.stack([r.x for r in rows])
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    veto = np.array([r.veto for r in rows])
    return ((p >= threshold) & ~veto).astype(int)


def shares(y: np.ndarray, passed: np.ndarray) -> tuple[float, float]:
    flagged = float(((passed == 0) & (y == 0)).sum() / max(1, (y == 0).sum()))
    kept = float(((passed == 1) & (y == 1)).sum() / max(1, (y == 1).sum()))
    return flagged, kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true")
    parser.add_argument(
        "--without-verdicts", action="store_true", help="Features without the lexical and by-meaning decisions."
    )
    args = parser.parse_args()
    rows = features()
    if args.without_verdicts:
        rows = [Row(r.split, r.label, r.rules, r.veto, np.delete(r.x, [1, 2])) for r in rows]
    splits = sorted({r.split for r in rows})
    ys, ours, rules = [], [], []
    print(f"{'held-out fold':<14}{'pairs':>6}{'rules flagged/passed':>26}{'model flagged/passed':>26}")
    for split in splits:
        train = [r for r in rows if r.split != split]
        test = [r for r in rows if r.split == split]
        w = fit(np.stack([r.x for r in train]), np.array([r.label for r in train], dtype=float))
        y = np.array([r.label for r in test])
        got, old = decide(test, w), np.array([r.rules for r in test])
        ys.append(y), ours.append(got), rules.append(old)
        (rf, rp), (mf, mp) = shares(y, old), shares(y, got)
        print(f"{split:<14}{len(test):>6}{rf:>15.1%} / {rp:>6.1%}{mf:>17.1%} / {mp:>6.1%}")
    y, got, old = np.concatenate(ys), np.concatenate(ours), np.concatenate(rules)
    (rf, rp), (mf, mp) = shares(y, old), shares(y, got)
    print(f"{'pooled':<14}{len(y):>6}{rf:>15.1%} / {rp:>6.1%}{mf:>17.1%} / {mp:>6.1%}")
    better = mf > rf and mp > rp
    print("adopt: yes (both shares improve)" if better else "adopt: no (not both shares improve)")
    if args.write:
        w = fit(np.stack([r.x for r in rows]), np.array([r.label for r in rows], dtype=float))
        np.savez(MODEL, weights=w, families=np.array(FAMILIES), vetoes=np.array(VETOES))
        print(f"wrote {MODEL}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
