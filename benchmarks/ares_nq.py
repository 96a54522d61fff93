"""ARES NQ synthetic queries as a retrieval set and a claim-support set.

Source: /work/shared/evalsets/ares-nq/nq_synthetic_queries.zip (ARES project,
stanford-futuredata/ARES @ c7c9018a, Apache-2.0), one TSV of 3,000 rows with the
columns ``document_index, document, synthetic_query, Context_Relevance_Label,
generated_answer, Answer_Faithfulness_Label, Answer_Relevance_Label`` (plus a
pandas leftover ``__index_level_0__``, ignored here).

Facts about the data (checked by ``python benchmarks/ares_nq.py``):

- 2,000 rows have ``Context_Relevance_Label == "Yes"``: these are the retrieval
  queries, each with the row's document as its single gold document. They hold
  only 1,000 distinct query strings -- every query appears twice, once with a
  faithful and once with an unfaithful generated answer, always with the same
  document -- and their gold documents are 597 distinct passages.
- The corpus is the 1,446 distinct ``document`` strings of all 3,000 rows
  (including the 1,000 ``Context_Relevance_Label == "No"`` rows). Documents
  are identified by text, not by ``document_index``: 165 passages occur under
  more than one ``document_index`` (1,619 distinct indexes in all).
- Documents are Wikipedia passages without a title line (they start mid-article,
  e.g. "The ...", "In 1875, ..."; 62 start with WikiExtractor's "BULLET::::-"),
  so the exported ``title`` is empty.
- 1,000 rows have ``Answer_Faithfulness_Label == "Yes"`` and 1,000 ``"No"`` (all
  of them retrieval rows); the other 1,000 rows leave it empty.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

ZIP_PATH = Path(__file__).resolve().parents[2] / "shared" / "evalsets" / "ares-nq" / "nq_synthetic_queries.zip"
TSV_NAME = "nq_synthetic_queries.tsv"
COLUMNS = (
    "document_index",
    "document",
    "synthetic_query",
    "Context_Relevance_Label",
    "generated_answer",
    "Answer_Faithfulness_Label",
    "Answer_Relevance_Label",
)
# Counts stated in /work/shared/evalsets/README.md
EXPECTED = {
    "rows": 3000,
    "retrieval_queries": 2000,
    "documents": 1446,
    "support_yes": 1000,
    "support_no": 1000,
}

Row = dict[str, str]


def load_rows(path: Path = ZIP_PATH) -> list[Row]:
    """All TSV rows, as dicts over :data:`COLUMNS` (values are strings)."""
    with zipfile.ZipFile(path) as zf:
        raw = zf.read(TSV_NAME).decode("utf-8")
    reader = csv.DictReader(io.StringIO(raw, newline=""), delimiter="\t")
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ValueError(f"{path}: TSV lacks columns {missing}")
    return [{c: row[c] for c in COLUMNS} for row in reader]


def document_ids(rows: Sequence[Row]) -> dict[str, str]:
    """``document`` text -> ``nq-<n>``, numbered 0.. in order of first appearance."""
    ids: dict[str, str] = {}
    for row in rows:
        ids.setdefault(row["document"], f"nq-{len(ids)}")
    return ids


def query_id(row_index: int) -> str:
    """Stable id of a retrieval query: its 0-based row number in the TSV."""
    return f"nq-q{row_index}"


def retrieval_set(
    rows: Sequence[Row] | None = None,
) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """``(documents, queries)``: documents are ``(doc_id, text)`` for every
    distinct document in first-appearance order; queries are
    ``(query_id, query, gold_doc_id)`` for the rows with
    ``Context_Relevance_Label == "Yes"``, in file order (duplicate query strings
    are kept, as in the source: 2,000 queries, 1,000 distinct strings)."""
    rows = load_rows() if rows is None else rows
    ids = document_ids(rows)
    documents = [(doc_id, text) for text, doc_id in ids.items()]
    queries = [
        (query_id(i), row["synthetic_query"], ids[row["document"]])
        for i, row in enumerate(rows)
        if row["Context_Relevance_Label"] == "Yes"
    ]
    return documents, queries


def _title(text: str) -> str:
    # The passages carry no title line (see module docstring); a passage that
    # did would have it on a first line of its own.
    first, sep, _rest = text.partition("\n")
    return first.strip() if sep and len(first.split()) <= 12 else ""


def write_corpus_jsonl(path: Path | str, rows: Sequence[Row] | None = None) -> int:
    """Write one ``{"_id", "title", "text"}`` line per document; returns the count."""
    documents, _queries = retrieval_set(rows)
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc_id, text in documents:
            fh.write(json.dumps({"_id": doc_id, "title": _title(text), "text": text}, ensure_ascii=False) + "\n")
    return len(documents)


def write_queries_jsonl(path: Path | str, rows: Sequence[Row] | None = None) -> int:
    """Write one ``{"id", "query", "gold": [doc_id]}`` line per retrieval query."""
    _documents, queries = retrieval_set(rows)
    with Path(path).open("w", encoding="utf-8") as fh:
        for qid, query, gold in queries:
            fh.write(json.dumps({"id": qid, "query": query, "gold": [gold]}, ensure_ascii=False) + "\n")
    return len(queries)


def support_set(rows: Sequence[Row] | None = None) -> list[dict[str, str]]:
    """Rows with ``Answer_Faithfulness_Label`` Yes or No: ``{"id", "query",
    "generated_answer", "document", "doc_id", "label"}`` where ``label`` is
    "Yes" (the document supports the answer) or "No"."""
    rows = load_rows() if rows is None else rows
    ids = document_ids(rows)
    return [
        {
            "id": query_id(i),
            "query": row["synthetic_query"],
            "generated_answer": row["generated_answer"],
            "document": row["document"],
            "doc_id": ids[row["document"]],
            "label": row["Answer_Faithfulness_Label"],
        }
        for i, row in enumerate(rows)
        if row["Answer_Faithfulness_Label"] in ("Yes", "No")
    ]


def counts(rows: Sequence[Row] | None = None) -> dict[str, int]:
    rows = load_rows() if rows is None else rows
    documents, queries = retrieval_set(rows)
    support = support_set(rows)
    return {
        "rows": len(rows),
        "retrieval_queries": len(queries),
        "distinct_query_strings": len({q for _id, q, _g in queries}),
        "gold_documents": len({g for _id, _q, g in queries}),
        "documents": len(documents),
        "document_index_values": len({r["document_index"] for r in rows}),
        "documents_with_titles": sum(1 for _id, text in documents if _title(text)),
        "support_yes": sum(1 for s in support if s["label"] == "Yes"),
        "support_no": sum(1 for s in support if s["label"] == "No"),
    }


def main() -> int:
    found = counts()
    for name, value in found.items():
        note = ""
        if name in EXPECTED:
            note = "  ok" if EXPECTED[name] == value else f"  MISMATCH: README says {EXPECTED[name]}"
        print(f"{name:<24}{value:>7}{note}")
    return 0 if all(found[k] == v for k, v in EXPECTED.items()) else 1


if __name__ == "__main__":
    sys.exit(main())
