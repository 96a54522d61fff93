"""Fit the injection classifier and choose its threshold on the development split.

    python benchmarks/injection_classifier.py [--target 0.02] [--out src/citewise/data/injection_model.npz]

Fitted on the ``train`` rows of ``benchmarks/data/injection_train.jsonl`` and on
``benchmarks/data/injection_eval.jsonl`` (the set the patterns were written on); the threshold is the
lowest probability at which the patterns and the classifier together flag at most ``--target`` of the
``dev`` split's benign texts. The held-out sets (``injection_varied.jsonl``'s ``test`` split and
``injection_heldout.jsonl``) are not read here: measure them with ``citewise eval injection``.

Logistic regression in numpy: class-balanced log loss with an L2 penalty, full-batch Adam. An
injection text is one example (its whole text, as one window); a benign text gives one example per
window, since at run time every window of a page is scored and one must not fire.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.research.injection import fold_text, pattern_flags  # noqa: E402
from citewise.research.injection_model import (  # noqa: E402
    DIMENSIONS,
    STRUCTURAL,
    InjectionModel,
    window_features,
    window_logit,
)

DATA = ROOT / "benchmarks" / "data"


def _rows(path: Path, split: str | None) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split is None or r.get("split") == split]


def _examples(rows: list[dict[str, str]]) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    indices, structural, labels = [], [], []
    for row in rows:
        positive = row["label"] == "injection"
        text = fold_text(row["text"])
        windows = window_features(text, window=10**9) if positive else window_features(text)
        for idx, st in windows:
            indices.append(idx)
            structural.append(st)
            labels.append(1.0 if positive else 0.0)
    return indices, np.array(structural, dtype=np.float64), np.array(labels)


def fit(indices: list[np.ndarray], structural: np.ndarray, y: np.ndarray, epochs: int, l2: float) -> InjectionModel:
    """Full-batch Adam on the balanced, L2-penalised log loss."""
    rows = np.repeat(np.arange(len(indices)), [len(i) for i in indices])
    cols = np.concatenate(indices)
    vals = np.concatenate([np.full(len(i), 1.0 / np.sqrt(max(len(i), 1))) for i in indices])
    sample = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean())) / len(y)
    w = np.zeros(DIMENSIONS + len(STRUCTURAL) + 1)
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, epochs + 1):
        z = np.bincount(rows, weights=w[cols] * vals, minlength=len(y)) + structural @ w[DIMENSIONS:-1] + w[-1]
        g = (1 / (1 + np.exp(-z)) - y) * sample
        grad = np.concatenate(
            [np.bincount(cols, weights=g[rows] * vals, minlength=DIMENSIONS), structural.T @ g, [g.sum()]]
        )
        grad[:-1] += l2 * w[:-1]
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    # the weights as they are stored and loaded (float16 hashed weights), so dev sees the shipped model
    hashed = w[:DIMENSIONS].astype(np.float16).astype(np.float32)
    return InjectionModel(hashed, w[DIMENSIONS:-1].astype(np.float32), float(np.float32(w[-1])), threshold=1.0)


def scores(model: InjectionModel, rows: list[dict[str, str]]) -> np.ndarray:
    """Each text's best-window probability."""
    out = []
    for row in rows:
        logits = [window_logit(model, idx, st) for idx, st in window_features(fold_text(row["text"]))]
        out.append(1 / (1 + np.exp(-max(logits))) if logits else 0.0)
    return np.array(out)


def choose_threshold(model: InjectionModel, dev: list[dict[str, str]], target: float) -> float:
    """The lowest threshold at which patterns or classifier flag at most ``target`` of dev's benign texts."""
    benign = [r for r in dev if r["label"] == "benign"]
    by_rules = np.array([bool(pattern_flags(r["text"])) for r in benign])
    s = scores(model, benign)
    allowed = int(target * len(benign)) - int(by_rules.sum())
    candidates = np.sort(s[~by_rules])[::-1]
    if allowed < 0:
        return 1.0
    if allowed >= len(candidates):
        return 0.5
    # just above the first benign score that must stay unflagged, in the float32 it is stored as
    return float(np.nextafter(np.float32(candidates[allowed]), np.float32(1.0)))


def pages(dev: list[dict[str, str]], size: int = 12) -> list[dict[str, str]]:
    """Longer benign pages: the dev split's corpus paragraphs joined ``size`` at a time. A page has
    many windows, and one is enough to flag it, so false alarms grow with length."""
    paragraphs = [r["text"] for r in dev if r["label"] == "benign" and r["source"].startswith("corpus/")]
    chunks = [paragraphs[i : i + size] for i in range(0, len(paragraphs), size)]
    return [{"text": "\n\n".join(c), "label": "benign"} for c in chunks if len(c) == size]


def report(model: InjectionModel, name: str, rows: list[dict[str, str]]) -> None:
    s = scores(model, rows)
    rules = np.array([bool(pattern_flags(r["text"])) for r in rows])
    labels = np.array([r["label"] == "injection" for r in rows])
    flagged = rules | (s >= model.threshold)
    parts = [f"{name:28}"]
    for label, mask in (("injections", labels), ("benign", ~labels)):
        if mask.any():
            share, alone = flagged[mask].mean(), rules[mask].mean()
            parts.append(f"{label} flagged {share:6.1%} of {mask.sum():5d} (patterns alone {alone:6.1%})")
    print("   ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=0.02, help="largest share of dev benign texts flagged")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "citewise" / "data" / "injection_model.npz")
    args = parser.parse_args()
    train = _rows(DATA / "injection_train.jsonl", "train") + _rows(DATA / "injection_eval.jsonl", None)
    dev = _rows(DATA / "injection_train.jsonl", "dev")
    began = time.perf_counter()
    indices, structural, y = _examples(train)
    model = fit(indices, structural, y, args.epochs, args.l2)
    threshold = choose_threshold(model, dev, args.target)
    model = InjectionModel(model.hashed, model.structural, model.bias, threshold)
    print(
        f"fitted on {len(y)} windows ({int(y.sum())} injections) in {time.perf_counter() - began:.1f} s;"
        f" threshold {threshold:.3f} (dev benign flagged <= {args.target:.1%})"
    )
    report(model, "train", train)
    report(model, "dev", dev)
    report(model, "dev pages (not tuned on)", pages(dev))
    np.savez_compressed(
        args.out,
        hashed=model.hashed.astype(np.float16),
        structural=model.structural,
        bias=np.float32(model.bias),
        threshold=np.float32(model.threshold),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} kB)")


if __name__ == "__main__":
    main()
