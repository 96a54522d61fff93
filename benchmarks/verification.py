"""The cost of verified delivery itself: how long citewise takes to verify a report before delivery.

A report of about 30 cited claims is built from the bundled statutes (``examples/corpus``): each
claim is a sentence copied from its cited article (supported) or the same sentence with a figure
changed (unsupported, so removal and the second verification run too). The script times
:func:`citewise.verify.delivery.deliver` on it — ledger, conflicts, removal, the verification of
what remains, acceptance — with no network and no model, and prints the median and p95 over the
repetitions. The target (issue 9) is under 100 ms per report of ~30 claims.

    .venv/bin/python benchmarks/verification.py [--claims 30] [--repeat 30]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.ingest.pipeline import ingest_paths  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.verify.delivery import deliver  # noqa: E402
from citewise.verify.ledger import CitedText  # noqa: E402

CORPUS = ROOT / "examples" / "corpus" / "kr-statutes"
_SENTENCE = re.compile(r"[^.\n]*?다\.")


def _report(claims: int) -> tuple[str, dict[str, CitedText]]:
    """A report of ``claims`` cited sentences and the texts its ids point to."""
    with tempfile.TemporaryDirectory() as tmp, EvidenceStore.open(str(Path(tmp) / "b.sqlite")) as store:
        ingest_paths(store, [CORPUS])
        sections = [s for v in store.versions() for s in store.sections(v.doc_id, v.version) if not s.deleted]
    texts: dict[str, CitedText] = {}
    lines: list[str] = []
    for section in sections:
        sentences = [m.group().strip() for m in _SENTENCE.finditer(section.text) if 25 < len(m.group()) < 200]
        if not sentences:
            continue
        ident = f"S{len(texts) + 1}"
        texts[ident] = CitedText(ident, None, section.text, section.text)
        sentence = sentences[0]
        if len(lines) % 3 == 2 and re.search(r"\d", sentence):  # every third claim: a wrong figure
            sentence = re.sub(r"\d+", lambda m: str(int(m.group()) + 7), sentence, count=1)
        lines.append(f"{sentence[:-1]} [{ident}].")
        if len(lines) == claims:
            break
    body = "## Findings\n\n" + "\n\n".join(lines) + "\n"
    return body, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    body, texts = _report(args.claims)
    deliver(body, texts, kind="research")  # warm-up (regex compilation, analyzer tables)
    times = []
    result = None
    for _ in range(args.repeat):
        started = time.perf_counter()
        result = deliver(body, texts, kind="research")
        times.append((time.perf_counter() - started) * 1000)
    assert result is not None
    claims = len(result.entries) + len(result.removed)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"report: {args.claims} cited sentences, {claims} claims checked, {len(result.removed)} removed")
    print("| measure | value |")
    print("|---|---|")
    print(f"| verify + deliver, median | {statistics.median(times):.1f} ms |")
    print(f"| verify + deliver, p95 | {p95:.1f} ms |")
    print(f"| per claim, median | {statistics.median(times) / max(claims, 1):.2f} ms |")
    print(f"| accepted after removal | {result.acceptance.accepted} |")


if __name__ == "__main__":
    main()
