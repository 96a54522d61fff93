"""Does ``citewise ask`` quote the sentence that answers? English questions on documentation and rules.

    python benchmarks/ask_english.py [--store PATH] [--dump FILE] [--verbose]

Every question of ``benchmarks/data/en_doc_questions.jsonl`` (36 questions about the Python docs of
the shared corpora — ipaddress, urllib.parse, http.client, What's New in 3.11 — and US CFR title
27, each with the section that answers it and a phrase of the sentence that does) is asked of the
store ``benchmarks/relevance_gate.py`` builds (the sample corpus and the shared corpora, every
document approved), lexically (``CITEWISE_EMBEDDER=none``), with the deterministic composer,
verified as delivered. Per half — ``dev`` (odd ids) and ``held-back`` (even ids, not looked at while
changing the composer) — it prints:

* **answered** — a composed, verified answer was delivered;
* **top 1** — the first passage the answer cites is the gold section (the sample corpus's copy of a
  document, ``library-ipaddress``, and the shared corpus's, ``library-ipaddress-2``, are the same);
* **gold cited** — the gold section is among the passages the answer cites;
* **phrase** — the delivered text holds the answer's phrase: the reader got the sentence that answers;
* **handoffs** — handed off or "no eligible evidence" (every question is answerable).

``--store`` keeps the built store for a rerun; ``--dump FILE`` writes each question's outcome,
cited sections and text as JSON lines, to compare two runs; ``--verbose`` prints each question
whose answer lacks its phrase.

Figures of 2026-12-07, dev / held-back (before = 7e44043; after = a passage's sentence chosen with the
question's words weighed by how few sections of the store hold them, an entry quoted before its
description, directives and example code never the answer, rule set verify-17): phrase 6 / 11 ->
7 / 12, gold cited 12 / 15 -> 13 / 15, top 1 9 / 11 -> 9 / 10, handoffs 2 / 1 -> 1 / 1; at 6cf92fb
(code blocks never quoted, a rule with its proviso, verify-17's verbatim sentences): phrase 8 / 12,
gold cited 14 / 15, top 1 8 / 10, handoffs 1 / 1. More in
``benchmarks/data/README.md`` ("en_doc_questions.jsonl").
"""

from __future__ import annotations

import argparse
import json
import os
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

QUESTIONS = ROOT / "benchmarks" / "data" / "en_doc_questions.jsonl"
# The sample corpus's ipaddress page is also in the shared corpus: ingested twice, the second copy is
# library-ipaddress-2, and either answers.
_COPIES = {"library-ipaddress-2": "library-ipaddress"}


def _key(doc_id: str, section_id: str) -> str:
    return f"{_COPIES.get(doc_id, doc_id)}#{section_id}"


def _half(row: dict[str, object]) -> str:
    return "dev" if int(str(row["id"]).split("-")[-1]) % 2 else "held-back"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, help="build the store here, or reuse it")
    parser.add_argument("--dump", type=Path, help="write each question's outcome as JSON lines")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = {
        half: dict.fromkeys(("questions", "answered", "top 1", "gold cited", "phrase", "handoffs"), 0)
        for half in ("dev", "held-back")
    }
    dumped: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or Path(tmp) / "store.sqlite"
        if not path.exists():
            build_store(path)
        with EvidenceStore.open(str(path)) as store:
            for row in rows:
                result = ask(store, row["question"], RetrievalPlan(), AskSettings(today=date(2026, 12, 1)))
                c = counts[_half(row)]
                c["questions"] += 1
                gold = set(row["gold"])
                cited = list(
                    dict.fromkeys(
                        _key(x.doc_id, x.section_id) for x in result.citations if f"[{x.evidence_id}]" in result.text
                    )
                )
                answered = result.outcome in (AskOutcome.FALLBACK, AskOutcome.MODEL_ANSWER) and bool(cited)
                said = answered and row["answer"] in " ".join(result.text.split())
                c["answered"] += answered
                c["top 1"] += answered and cited[0] in gold
                c["gold cited"] += answered and bool(gold & set(cited))
                c["phrase"] += said
                c["handoffs"] += not answered
                if args.verbose and not said:
                    print(f"{row['id']} {row['question']}\n   {result.outcome.value}: {cited}")
                dumped.append(
                    json.dumps(
                        {**row, "outcome": result.outcome.value, "cited": cited, "text": result.text},
                        ensure_ascii=False,
                    )
                )
    if args.dump:
        args.dump.write_text("\n".join(dumped) + "\n", encoding="utf-8")
    names = list(counts["dev"])
    print("| half | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for half, c in counts.items():
        print(f"| {half} | " + " | ".join(str(c[n]) for n in names) + " |")


if __name__ == "__main__":
    main()
