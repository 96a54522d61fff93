"""Relevance gate benchmark (issue 10, point 2): false answers and false handoffs on the labelled dev set.

Builds one store (no embeddings) from the sample corpus and the shared corpora (Korean statutes, US
CFR title 27, Python docs), approves everything, and for every question of
``benchmarks/data/relevance_dev.jsonl`` retrieves and gates exactly as ``citewise ask`` does, then
measures the relevance score of the top passages. Prints, per threshold, the false answers
(unanswerable questions the gate lets through) and false handoffs (answerable questions it stops),
then the errors at the threshold in use.

    python benchmarks/relevance_gate.py [--store PATH] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "corpora"
DEV = REPO / "benchmarks" / "data" / "relevance_dev.jsonl"
TODAY = date(2026, 12, 1)


def build_store(path: Path) -> None:
    from citewise.ingest.pipeline import ingest_paths
    from citewise.review import apply_manifest, decide
    from citewise.store.evidence import EvidenceStore

    with EvidenceStore.open(str(path)) as store:
        ingest_paths(store, [REPO / "examples" / "corpus"])
        apply_manifest(store, REPO / "examples" / "corpus" / "review.yaml")
        ingest_paths(store, [SHARED / "kr-statutes", SHARED / "us-cfr", SHARED / "python-docs"])
        for v in store.versions():
            if v.status.value == "review_required":
                decide(store, f"{v.doc_id}@{v.version}", "approve", reviewer="benchmark", reason="dev set")


def scores(store_path: Path) -> list[tuple[dict[str, object], float, tuple[str, ...]]]:
    from citewise.answer.ask import _evidence, _retrieve
    from citewise.answer.deterministic import AnswerRanker
    from citewise.answer.provisions import resolve_named
    from citewise.answer.question import analyse_question
    from citewise.answer.relevance import relevance
    from citewise.evidence.gate import gate
    from citewise.evidence.plan import RetrievalPlan
    from citewise.evidence.rank import apply_ranker
    from citewise.store.evidence import EvidenceStore

    out = []
    with EvidenceStore.open(str(store_path)) as store:
        plan = RetrievalPlan()
        for line in DEV.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            question = str(row["question"])
            named = resolve_named(store, question)
            items = _retrieve(store, question, plan, 30, named)
            gated = gate(store, plan, items, today=TODAY)
            ranker = AnswerRanker(frozenset((r.doc_id, r.section_id) for r in named.refs))  # as ask does
            ranked = apply_ranker(ranker, question, gated.eligible)
            measured = relevance(analyse_question(question), _evidence(ranked.candidates[:5]))
            out.append((row, measured.score, measured.missing))
    return out


def main() -> int:
    from citewise.answer.relevance import RELEVANCE_THRESHOLD

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="reuse (or create) this store")
    parser.add_argument("--verbose", action="store_true", help="print every question with its score")
    args = parser.parse_args()
    os.environ.setdefault("CITEWISE_EMBEDDER", "none")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "relevance.sqlite"
        if not path.exists():
            build_store(path)
        results = scores(path)
    answerable = sum(1 for r, _, _ in results if r["answerable"])
    print(f"dev set: {len(results)} questions, {answerable} answerable, {len(results) - answerable} unanswerable")
    print(f"{'threshold':>9}  {'false answers':>13}  {'false handoffs':>14}")
    for t in [x / 20 for x in range(1, 20)]:
        fa = sum(1 for r, s, _ in results if not r["answerable"] and s >= t)
        fh = sum(1 for r, s, _ in results if r["answerable"] and s < t)
        mark = "  <- in use" if abs(t - RELEVANCE_THRESHOLD) < 1e-9 else ""
        print(f"{t:>9.2f}  {fa:>13}  {fh:>14}{mark}")
    print(f"\nat the threshold in use ({RELEVANCE_THRESHOLD}):")
    for row, score, missing in results:
        wrong = (score >= RELEVANCE_THRESHOLD) != bool(row["answerable"])
        if wrong or args.verbose:
            kind = ("false answer" if not row["answerable"] else "false handoff") if wrong else "ok"
            print(f"  {kind:13} {score:.2f} [{row['lang']}] {row['question']}  missing: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
