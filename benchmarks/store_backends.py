"""The evidence store on SQLite and on PostgreSQL, side by side.

    python benchmarks/store_backends.py [--backends sqlite,postgresql] [--quick] [--json]

Each figure is measured by the script that measures it alone, once per backend, each in a new empty
store:

* ingest sections/s and search p50/p95 at 1x and 10x the statute corpus (:func:`scale.run_size`,
  200 searches over the Korean questions);
* research-loop overhead per run: wall time of one concurrent three-round run against the fake
  servers minus its critical-path floor of recorded network waits (:func:`research_loop.run_once`);
* retrieval quality, R@5 and MRR@10, on ARES NQ (2,000 queries) and on the 49 Korean questions
  (:func:`retrieval_quality.citewise_ares`, :func:`retrieval_quality.citewise_korean`).

PostgreSQL is a throwaway server from :mod:`citewise.testing.postgres` (initdb into a temporary
directory, started on a loopback port, one database per measurement). Before it is measured, one
statute file must ingest into it; when no server can be had or that fails, the table has the SQLite
column only and a line saying why. A measurement that fails on a backend leaves its cells empty,
notes the reason under the table and makes the exit status 1.

``--quick`` is a smoke run: 1x and 2x, 50 searches, fake-server latencies x0.05, the first 200 ARES
queries.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines, research_loop, retrieval_quality, scale  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.records import IngestOutcome  # noqa: E402

if TYPE_CHECKING:
    from citewise.testing.postgres import PostgresCluster

BACKENDS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
"""Backend names (as ``--backends`` takes them) and column headings."""


class Backend(Protocol):
    """Where the stores of one column live."""

    def new_store(self, label: str) -> str:
        """The URL (or SQLite path) of a new, empty store; ``label`` is letters, digits and ``_``."""
        ...


@dataclass
class SqliteBackend:
    """A new SQLite file per store."""

    directory: Path

    def new_store(self, label: str) -> str:
        return str(self.directory / f"{label}.sqlite")


@dataclass
class PostgresBackend:
    """A new database per store on one throwaway server."""

    cluster: PostgresCluster

    def new_store(self, label: str) -> str:
        return self.cluster.create_database(label)


class BackendUnavailable(Exception):
    """The backend cannot be measured here; the message says why, in one line."""


def open_backend(name: str, stack: ExitStack, tmp: Path) -> Backend:
    """The backend called ``name``, ready to measure (BackendUnavailable when it is not)."""
    if name == "sqlite":
        return SqliteBackend(tmp)
    try:
        from citewise.testing.postgres import PostgresCluster, PostgresUnavailable
    except ImportError as exc:
        raise BackendUnavailable(f"citewise.testing.postgres cannot be imported: {exc}") from exc
    try:
        cluster = stack.enter_context(PostgresCluster.start())
    except PostgresUnavailable as exc:
        raise BackendUnavailable(_one_line(exc)) from exc
    backend = PostgresBackend(cluster)
    _check_ingest(backend)
    return backend


def _check_ingest(backend: Backend) -> None:
    statute = sorted(baselines.KR_CORPUS_DIR.glob("*__*.md"))[0]
    try:
        with Citewise(backend.new_store("probe")) as cw:
            results = cw.ingest(statute)
    except Exception as exc:  # a store still being ported may fail anywhere: say how, measure the rest
        raise BackendUnavailable(f"ingest fails: {_one_line(exc)}") from exc
    failed = [r.error for r in results if r.outcome is IngestOutcome.FAILED]
    if failed:
        raise BackendUnavailable(f"ingest fails: {failed[0]}")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


# -- measurements -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What to measure, and how much of it."""

    sizes: tuple[int, ...] = (1, 10)
    """Corpus replication factors for ingest and search."""
    searches: int = 200
    """Searches timed at each size."""
    latency_scale: float = 1.0
    """Multiplier of the fake servers' latencies in the research run."""
    ares_queries: int | None = None
    """ARES NQ queries evaluated (None: all 2,000)."""

    @classmethod
    def quick(cls) -> Plan:
        """A smoke run of every measurement."""
        return cls(sizes=(1, 2), searches=50, latency_scale=0.05, ares_queries=200)


Cells = dict[str, str]
"""Row label -> formatted value, for one backend."""


def measure_scale(backend: Backend, plan: Plan, tmp: Path) -> Iterator[Cells]:
    queries = [q["query"] for q in baselines.load_questions()]
    for factor in plan.sizes:
        r = scale.run_size(factor, queries, plan.searches, tmp, store_url=backend.new_store(f"scale_{factor}"))
        yield {
            f"ingest sections/s, {factor}x ({r['sections']} sections)": f"{r['sections_per_s']:.0f}",
            f"search p50 ms, {factor}x": f"{r['search_p50_ms']:.1f}",
            f"search p95 ms, {factor}x": f"{r['search_p95_ms']:.1f}",
        }


def measure_research(backend: Backend, plan: Plan, tmp: Path) -> Iterator[Cells]:
    latencies = research_loop.Latencies().scaled(plan.latency_scale)
    r = research_loop.run_once(True, tmp, store_url=backend.new_store("research"), latencies=latencies)
    yield {
        f"research run wall s ({r['rounds']} rounds, {r['sources']} sources)": f"{r['wall_s']:.2f}",
        "research-loop overhead s/run (wall - network floor)": f"{r['wall_s'] - r['floor_s']:.2f}",
    }


def measure_quality(backend: Backend, plan: Plan, tmp: Path) -> Iterator[Cells]:
    ares = retrieval_quality.citewise_ares(tmp, store_url=backend.new_store("ares"), limit=plan.ares_queries)
    yield _quality(f"ARES NQ ({ares.queries} queries)", ares)
    korean = retrieval_quality.citewise_korean(tmp, store_url=backend.new_store("korean"))
    yield _quality(f"Korean statutes ({korean.queries} questions)", korean)


def _quality(label: str, run: retrieval_quality.CitewiseRun) -> Cells:
    return {f"{label} R@5": f"{run.figures['recall@5']:.3f}", f"{label} MRR@10": f"{run.figures['mrr@10']:.3f}"}


Measurement = Callable[[Backend, Plan, Path], Iterator[Cells]]
MEASUREMENTS: dict[str, Measurement] = {
    "ingest and search": measure_scale,
    "research loop": measure_research,
    "retrieval quality": measure_quality,
}


@dataclass
class Table:
    """Rows in first-measured order, one column per measured backend, and what went wrong."""

    columns: list[str] = field(default_factory=list)
    rows: dict[str, dict[str, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    failed: bool = False

    def add(self, column: str, cells: Cells) -> None:
        for label, value in cells.items():
            self.rows.setdefault(label, {})[column] = value

    def markdown(self) -> str:
        if not self.columns:
            return "\n".join(["nothing measured", "", *self.notes])
        widths = [max([len("measure"), *map(len, self.rows)])]
        widths += [max([len(c), *(len(r.get(c, "")) for r in self.rows.values())]) for c in self.columns]
        lines = [_line(["measure", *self.columns], widths), _line(["-" * w for w in widths], widths)]
        for label, cells in self.rows.items():
            lines.append(_line([label, *(cells.get(c, "") for c in self.columns)], widths))
        return "\n".join(lines + ([""] + self.notes if self.notes else []))


def _line(cells: list[str], widths: list[int]) -> str:
    return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"


def run(backends: list[str], plan: Plan) -> Table:
    """Measure every backend in ``backends`` with ``plan``."""
    table = Table()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        for name in backends:
            title = BACKENDS[name]
            print(f"  {title}: starting", file=sys.stderr)
            try:
                backend = open_backend(name, stack, Path(tmp))
            except BackendUnavailable as exc:
                table.notes.append(f"{title}: not available ({exc})")
                continue
            table.columns.append(title)
            for what, measure in MEASUREMENTS.items():
                workdir = Path(tempfile.mkdtemp(dir=tmp))
                try:
                    for cells in measure(backend, plan, workdir):
                        table.add(title, cells)
                except Exception as exc:  # one failed measurement must not hide the others: noted, exit 1
                    table.notes.append(f"{title}: {what} failed: {type(exc).__name__}: {_one_line(exc)}")
                    table.failed = True
                print(f"  {title}: {what} done", file=sys.stderr)
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated: sqlite, postgresql")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run of every measurement")
    parser.add_argument("--json", action="store_true", help="rows and notes as JSON instead of a table")
    args = parser.parse_args()
    backends = [b.strip().lower() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown or not backends:
        parser.error(f"unknown backend(s) {unknown}; valid backends: {', '.join(BACKENDS)}")
    table = run(backends, Plan.quick() if args.quick else Plan())
    if args.json:
        print(json.dumps({"columns": table.columns, "rows": table.rows, "notes": table.notes}, indent=2))
    else:
        print(table.markdown())
    return 1 if table.failed else 0


if __name__ == "__main__":
    sys.exit(main())
