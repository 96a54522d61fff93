"""Are the sentences ``citewise ask`` quotes whole? English answers on hard-wrapped pages.

    python benchmarks/ask_sentences.py [--store PATH] [--verbose]

The English questions of ``benchmarks/data/relevance_dev.jsonl`` are asked of the store
``benchmarks/relevance_gate.py`` builds (the sample corpus and the shared corpora: US CFR title 27,
two acts, the Python docs, every document approved), lexically (``CITEWISE_EMBEDDER=none``), with
the deterministic composer. For every delivered answer it counts the lines that are not a whole
sentence: a line that ends in no sentence mark (. : ; ! ? or a closing bracket or quote) or opens
in lower case — the piece of a hard-wrapped line ("If *strict* is ``True`` and host bits are set in
the supplied address,"). ``--store`` keeps the built store for a rerun; ``--verbose`` prints each
such line.

Figures of 2026-12-07 (before = a16c2b6's composer, which cut a passage at every line break; after
= the composer reading a stored text's hard-wrapped lines as one, :func:`citewise.text.sentences.
stored_sentences`): 34 answers, 31 of their 88 lines pieces of a line -> 35 answers, 2 of 80 lines
(a bullet, "* The :mod:`asyncore` module", and a table row: quoted as they stand). Later the same day
(documentation entries quoted before the description under them, and verify-17 keeping word-for-word
quotes of wrapped lines): 35 answers, 2 of 102 lines (two bullets); an entry line is a label, not
counted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["CITEWISE_EMBEDDER"] = "none"

from benchmarks.relevance_gate import build_store  # noqa: E402

from citewise.answer.ask import ask  # noqa: E402
from citewise.answer.result import AskSettings  # noqa: E402
from citewise.evidence import RetrievalPlan  # noqa: E402
from citewise.records.answer import AskOutcome  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.text.citations import EVIDENCE_MARKER  # noqa: E402
from citewise.text.lead_ins import is_entry  # noqa: E402

QUESTIONS = ROOT / "benchmarks" / "data" / "relevance_dev.jsonl"
_WHOLE_END = re.compile(r"[.:;!?)\]\"'\u201d]$")


def piece_of_a_line(line: str) -> bool:
    """Whether an answer line (its [E#] marker aside) is not a whole sentence. A documentation entry
    (``.. attribute:: is_loopback``), quoted before the description under it, is a label, not a piece."""
    body = EVIDENCE_MARKER.sub("", line).strip()
    return bool(body) and not is_entry(body) and (not _WHOLE_END.search(body) or body[0].islower())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, help="build the store here, or reuse it")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    english = [r for r in rows if r.get("lang") == "en"]
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "store.sqlite"
        if not path.exists():
            build_store(path)
        answers = lines = pieces = 0
        with EvidenceStore.open(str(path)) as store:
            for row in english:
                result = ask(store, row["question"], RetrievalPlan(), AskSettings(today=date(2026, 12, 1)))
                if result.outcome not in (AskOutcome.FALLBACK, AskOutcome.MODEL_ANSWER):
                    continue
                answers += 1
                for line in (x for x in result.text.splitlines() if EVIDENCE_MARKER.sub("", x).strip()):
                    lines += 1
                    if piece_of_a_line(line):
                        pieces += 1
                        if args.verbose:
                            print(f"  {line[:110]}")
    print(f"{len(english)} English questions: {answers} answers, {lines} lines, {pieces} not a whole sentence")


if __name__ == "__main__":
    main()
