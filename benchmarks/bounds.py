"""Do the bounds hold? Time and peak memory of the hostile inputs of issue 22, through ingest and the fetcher.

    python benchmarks/bounds.py [--json] [--only NAME]

Each case runs in a fresh process under the **default** limits (ingest: 60 s and 1 GiB per file;
fetcher: 20 s and 512 MB to read one body, 30 s in all), so the figures are what a user gets:

- ``ingest html-200k-attributes``: an HTML file with one element of 200,000 attributes (2.3 MB) in a
  folder with a good file (before issue 22: killed at 300 s, nothing stored);
- ``ingest pdf-bomb``: a 1.4 MB PDF whose content stream inflates to 1.4 GB, beside a good file;
- ``fetch html-200k-attributes`` and ``fetch pdf-bomb``: the same bodies served by a loopback fake
  and read by the own fetcher (before: the PDF ran past 120 s and 590 MB);
- ``injection 45 kB quoted blank lines``: the page that stalled a research run for 2 minutes.

The table shows the outcome, the seconds of the timed call and the peak RSS of the process and of
the bounded child it forked (``ru_maxrss`` of self and children), with the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PRELUDE = """
import json, resource, sys, tempfile, time
from pathlib import Path
def results_line(results):
    parts = []
    for r in results:
        why = f" ({r.error.split(': ', 1)[1][:60]})" if r.error else ""
        parts.append(f"{Path(r.source).name}: {r.outcome.value}{why}")
    return "; ".join(parts)
def peaks():
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(me / 1024), round(kids / 1024)
"""

CASES = {
    "ingest html-200k-attributes": """
from citewise.ingest.pipeline import ingest_paths
from citewise.store.evidence import EvidenceStore
from citewise.testing.hostile_files import many_attributes_html
root = Path(tempfile.mkdtemp())
(root / "docs").mkdir()
(root / "docs" / "attrs.html").write_bytes(many_attributes_html())
(root / "docs" / "good.md").write_text("# Good\\n\\nA good file.\\n")
with EvidenceStore.open(str(root / "s.sqlite")) as store:
    t = time.perf_counter(); results = ingest_paths(store, [root / "docs"]); seconds = time.perf_counter() - t
outcome = results_line(results)
""",
    "ingest pdf-bomb": """
from citewise.ingest.pipeline import ingest_paths
from citewise.store.evidence import EvidenceStore
from citewise.testing.hostile_files import pdf_bomb
root = Path(tempfile.mkdtemp())
(root / "docs").mkdir()
(root / "docs" / "bomb.pdf").write_bytes(pdf_bomb())
(root / "docs" / "good.md").write_text("# Good\\n\\nA good file.\\n")
size = (root / "docs" / "bomb.pdf").stat().st_size
with EvidenceStore.open(str(root / "s.sqlite")) as store:
    t = time.perf_counter(); results = ingest_paths(store, [root / "docs"]); seconds = time.perf_counter() - t
outcome = f"{size / 2**20:.1f} MB file; " + results_line(results)
""",
    "fetch html-200k-attributes": """
from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.testing.fake_web import FakeWeb
from citewise.testing.hostile_files import many_attributes_html
with FakeWeb() as web:
    url = web.page("/attrs", many_attributes_html())
    with Fetcher(FetchSettings(), policy=AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))) as f:
        t = time.perf_counter(); r = f.fetch(url); seconds = time.perf_counter() - t
outcome = f"{r.outcome.value}: {r.decisions[-1].detail[:70]}"
""",
    "fetch pdf-bomb": """
from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.testing.fake_web import FakeWeb
from citewise.testing.hostile_files import pdf_bomb
with FakeWeb() as web:
    url = web.page("/bomb.pdf", pdf_bomb(), content_type="application/pdf")
    with Fetcher(FetchSettings(), policy=AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))) as f:
        t = time.perf_counter(); r = f.fetch(url); seconds = time.perf_counter() - t
outcome = f"{r.outcome.value}: {r.decisions[-1].detail[:70]}"
""",
    "injection 45 kB quoted blank lines": """
from citewise.research.injection import injection_flags
text = ("> \\n" * 15_000)[:45_000]
t = time.perf_counter(); flags = injection_flags(text); seconds = time.perf_counter() - t
outcome = f"flags {list(flags)}"
""",
}
_REPORT = """
me, kids = peaks()
print(json.dumps({"seconds": round(seconds, 3), "outcome": outcome, "peak_mb": me, "child_peak_mb": kids}))
"""


def run(name: str) -> dict[str, object]:
    """One case in a fresh process; its figures."""
    env = {**os.environ, "CITEWISE_EMBEDDER": "none", "PYTHONPATH": str(ROOT / "src")}
    code = _PRELUDE + CASES[name] + _REPORT
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        return {"case": name, "outcome": "CRASHED: " + (done.stderr.strip().splitlines() or ["?"])[-1][:100]}
    return {"case": name, **json.loads(done.stdout.strip().splitlines()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", help="run only the case whose name contains this")
    args = parser.parse_args()
    rows = [run(name) for name in CASES if not args.only or args.only in name]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"load average {os.getloadavg()[0]:.2f}")
    for r in rows:
        print(
            f"{r['case']:<36} {r.get('seconds', float('nan')):>8.2f} s  peak {r.get('peak_mb', '-')} MB"
            f" (child {r.get('child_peak_mb', '-')} MB)  {r['outcome']}"
        )


if __name__ == "__main__":
    main()
