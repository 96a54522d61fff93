"""Write ``benchmarks/data/support_pairs.jsonl`` from the dev and held-out seeds.

    .venv/bin/python benchmarks/make_support_pairs.py

Each seed (``support_seeds_dev.py``, ``support_seeds_dev2.py`` (more dev claims, ids ``dev2-…``),
``support_seeds_heldout.py``, ``support_seeds_heldout2.py``, ``support_seeds_heldout3.py``,
``support_seeds_heldout4.py``, ``support_seeds_heldout5.py``, ``support_seeds_heldout6.py``,
``support_seeds_heldout7.py``, ``support_seeds_heldout8.py``,
``support_seeds_heldout9.py``, ``support_seeds_heldout10.py``, ``support_seeds_heldout11.py``,
``support_seeds_heldout12.py``) is one
evidence passage copied from a shared corpus, with
hand-written claims: faithful paraphrases and perturbations, each with its ``kind``. Every passage also
gets one ``unrelated`` claim: the first paraphrase of the next seed of the same split and language
(a claim another passage supports, this one does not).

Rows: ``id``, ``split`` (dev / heldout / heldout2 / … / heldout12), ``set`` (human: short
FEVER-like claims; model: answer-style sentences), ``lang``, ``kind``, ``label``, ``question``, ``claim``, ``evidence``,
``origin`` (where the evidence comes from, and its licence).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import support_seeds_dev  # noqa: E402
import support_seeds_dev2  # noqa: E402
import support_seeds_heldout  # noqa: E402
import support_seeds_heldout2  # noqa: E402
import support_seeds_heldout3  # noqa: E402
import support_seeds_heldout4  # noqa: E402
import support_seeds_heldout5  # noqa: E402
import support_seeds_heldout6  # noqa: E402
import support_seeds_heldout7  # noqa: E402
import support_seeds_heldout8  # noqa: E402
import support_seeds_heldout9  # noqa: E402
import support_seeds_heldout10  # noqa: E402
import support_seeds_heldout11  # noqa: E402
import support_seeds_heldout12  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "support_pairs.jsonl"


def rows(split: str, seeds: list[dict[str, object]], prefix: str = "") -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for n, seed in enumerate(seeds):
        claims = list(seed["claims"])  # type: ignore[call-overload]
        same_lang = [s for s in seeds if s["lang"] == seed["lang"]]
        other = same_lang[(same_lang.index(seed) + 1) % len(same_lang)]
        borrowed = next(c for c in other["claims"] if c[2] == "supported")  # type: ignore[attr-defined]
        claims.append((borrowed[0], "unrelated", "unsupported", borrowed[3]))
        for m, (kind_set, kind, label, claim) in enumerate(claims, start=1):
            out.append(
                {
                    "id": f"{prefix or split}-{seed['lang']}-{n + 1:02d}-{m:02d}",
                    "split": split,
                    "set": kind_set,
                    "lang": str(seed["lang"]),
                    "kind": kind,
                    "label": label,
                    "question": str(seed["question"]),
                    "claim": claim,
                    "evidence": str(seed["evidence"]),
                    "origin": str(seed["origin"]),
                }
            )
    return out


def main() -> int:
    written = (
        rows("dev", support_seeds_dev.SEEDS)
        + rows("dev", support_seeds_dev2.SEEDS, prefix="dev2")
        + rows("heldout", support_seeds_heldout.SEEDS)
        + rows("heldout2", support_seeds_heldout2.SEEDS)
        + rows("heldout3", support_seeds_heldout3.SEEDS)
        + rows("heldout4", support_seeds_heldout4.SEEDS)
        + rows("heldout5", support_seeds_heldout5.SEEDS)
        + rows("heldout6", support_seeds_heldout6.SEEDS)
        + rows("heldout7", support_seeds_heldout7.SEEDS)
        + rows("heldout8", support_seeds_heldout8.SEEDS)
        + rows("heldout9", support_seeds_heldout9.SEEDS)
        + rows("heldout10", support_seeds_heldout10.SEEDS)
        + rows("heldout11", support_seeds_heldout11.SEEDS)
        + rows("heldout12", support_seeds_heldout12.SEEDS)
    )
    with OUT.open("w", encoding="utf-8") as fh:
        for row in written:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(written)} rows to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
