"""Time and peak memory of the hostile-file suite: how long each hostile file takes to fail (or to be
ingested) and how much memory the process reaches meanwhile.

    python benchmarks/hostile_files.py [--json]

Every case of :mod:`citewise.testing.hostile_files` (the cases ``tests/test_hostile_files.py``
checks) runs in its own fresh process, so that its peak RSS is its own: the process imports
citewise, opens a new SQLite store, ingests the case's hostile files under the case's limits (the
timed call), then the good Markdown file. (``tests/test_hostile_files.py`` checks the good file in
the same command; here it comes after so the seconds are the hostile files' own.) The table shows
the case, its outcome (``failed alone``: the hostile files failed as expected and the good file was
stored), the first error line with the folder removed, the seconds of the hostile files' ingest,
and the peak RSS of the process with the baseline (after imports and opening the store) in
brackets. The machine's load average is printed with the figures.
The exit status is 1 when a case did not end as the suite expects.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.testing.hostile_files import hostile_cases  # noqa: E402

_CASE = """
import json, resource, sys, time
from pathlib import Path
from citewise.ingest.pipeline import IngestOptions, ingest_paths
from citewise.store.evidence import EvidenceStore
from citewise.testing.hostile_files import GOOD_FILE, hostile_cases

name, root = sys.argv[1], Path(sys.argv[2])
case = next(c for c in hostile_cases() if c.name == name)
folder = case.write(root / name)
with EvidenceStore.open(str(root / "store.sqlite")) as store:
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    hostile = [folder / name for name in case.files]
    start = time.perf_counter()
    results = ingest_paths(store, hostile, IngestOptions(limits=case.limits))
    seconds = time.perf_counter() - start
    results += ingest_paths(store, [folder / GOOD_FILE], IngestOptions(limits=case.limits))
# Each file is parsed in a forked child (citewise.ingest.bounded): its peak counts too.
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
failed = [r.error for r in results if r.outcome.value == "failed"]
good = any(r.source.endswith(GOOD_FILE) and r.outcome.value == "new_document" for r in results)
ok = good and (len(failed) == case.failures if case.expect else not failed)
ok = ok and all(case.expect in e for e in failed) if case.expect else ok
print(json.dumps({"seconds": seconds, "peak_kb": peak, "base_kb": base, "errors": failed, "ok": ok}))
"""


@dataclass(frozen=True, slots=True)
class Row:
    """One case's figures."""

    case: str
    outcome: str
    error: str
    seconds: float
    peak_rss_mb: float
    base_rss_mb: float


def run_case(name: str, root: Path) -> Row:
    """Run one case in a new process; its figures."""
    env = {**os.environ, "CITEWISE_EMBEDDER": "none", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", _CASE, name, str(root)], env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return Row(name, "CRASHED", last[:100], float("nan"), float("nan"), float("nan"))
    data = json.loads(done.stdout)
    error = (data["errors"][0] if data["errors"] else "").replace(str(root / name) + "/", "")
    outcome = ("failed alone" if data["errors"] else "ingested") if data["ok"] else "UNEXPECTED"
    return Row(name, outcome, error[:90], data["seconds"], data["peak_kb"] / 1024, data["base_kb"] / 1024)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run_case(case.name, Path(tmp) / case.name) for case in hostile_cases()]
    if args.json:
        print(json.dumps({"load_average": load, "rows": [asdict(r) for r in rows]}, indent=2))
    else:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
        print(f"{'case':<26} {'outcome':<13} {'seconds':>8} {'peak RSS MB':>16}  one-line error")
        for r in rows:
            rss = f"{r.peak_rss_mb:.0f} ({r.base_rss_mb:.0f})"
            print(f"{r.case:<26} {r.outcome:<13} {r.seconds:>8.3f} {rss:>16}  {r.error}")
        worst = max(rows, key=lambda r: r.seconds)
        peak = max(r.peak_rss_mb for r in rows)
        print(f"slowest: {worst.case} {worst.seconds:.3f} s; highest peak RSS {peak:.0f} MB")
    return 0 if all(r.outcome in ("failed alone", "ingested") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
