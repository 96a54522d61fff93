"""Time of the injection check against text size, on adversarial pages (issue 22).

    python benchmarks/injection_time.py [--sizes 5000,45000,200000] [--json]

An adversarial page repeats one unit until it has the size: every word and marker the patterns of
:mod:`citewise.research.injection` contain (``ignore``, ``system``, ``![``, ``<|``, ``#``, ``>`` ...),
each followed by a space, a line break, a quoted blank line (``> \\n``) or nothing — the shapes that
make a backtracking pattern quadratic (a 45 kB page of quoted blank lines took 40-80 s). For each
size the table shows the slowest unit and its seconds, and the total over all units; a linear check
grows the slowest time with the size, a quadratic one with its square. The time includes the
classifier of :mod:`citewise.research.injection_model` where no pattern matches (its cost is per
token: runs of punctuation such as ``![a][b]`` are its slowest units).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.research.injection import INJECTION_PATTERNS, injection_flags  # noqa: E402

SEPARATORS = (" ", "\n", "> \n", "")


def units() -> list[str]:
    """Every adversarial unit: pattern words and markers, each with every separator."""
    source = " ".join(p.pattern for p in INJECTION_PATTERNS.values())
    words = sorted(set(re.findall(r"[A-Za-z가-힣]{2,}", source)))
    markers = [">", "#", "![", "[", "]", "<|", "](", "://", "?", "=", ":", "\n", " ", "\t", "![](a://?", "![a][b]"]
    return [token + sep for token in words + markers for sep in SEPARATORS]


def page(unit: str, size: int) -> str:
    """``unit`` repeated to ``size`` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def measure(size: int) -> dict[str, object]:
    """The slowest unit at ``size`` and the total time over all units."""
    timings = []
    for unit in units():
        text = page(unit, size)
        started = time.perf_counter()
        injection_flags(text)
        timings.append((time.perf_counter() - started, unit))
    worst, unit = max(timings)
    return {
        "size": size,
        "units": len(timings),
        "slowest_s": round(worst, 4),
        "slowest_unit": unit,
        "total_s": round(sum(t for t, _ in timings), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,45000,200000")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(int(s)) for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'size':>8}  {'units':>5}  {'slowest s':>9}  {'slowest unit':<16}  {'total s':>8}")
    for r in rows:
        print(f"{r['size']:>8}  {r['units']:>5}  {r['slowest_s']:>9}  {r['slowest_unit']!r:<16}  {r['total_s']:>8}")


if __name__ == "__main__":
    main()
