"""Time to first progress of a streamed native engine call, against the time of the whole answer.

    python benchmarks/native_first_progress.py [--events-ms 20] [--latency-ms 300] [--runs 3]

Each engine (OpenAI Responses ``web_search``, Anthropic ``web_search``, Gemini grounding) is called
through its official SDK against the loopback fake, which answers after ``--latency-ms`` and then
sends the provider's event stream one event every ``--events-ms`` (a model writing as it goes). The
first progress report (the engine searching or writing) arrives with the first events; an
unstreamed call would show nothing until the whole answer is in. Prints the median over ``--runs``
and the machine load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.config import Secret  # noqa: E402
from citewise.engines.connect import EngineEndpoint  # noqa: E402
from citewise.engines.registry import get_engine  # noqa: E402
from citewise.records.engines import EngineProgress, EngineRequest  # noqa: E402
from citewise.testing import (  # noqa: E402
    FakeNativeServer,
    anthropic_web_answer,
    gemini_grounded_answer,
    openai_web_answer,
)

TEXT = " ".join(f"Sentence {n} of the answer states one thing about leases." for n in range(1, 41))
URL = "https://law.example/lease"


def _script(server: FakeNativeServer) -> None:
    if server.provider == "openai":
        server.enqueue_body(openai_web_answer(TEXT, [(0, 60, URL, "Act")], searches=[("lease", [URL])]))
    elif server.provider == "anthropic":
        server.enqueue_body(
            anthropic_web_answer([(TEXT, [(URL, "Act", "leases")])], searches=[("lease", [(URL, "Act")])])
        )
    else:
        server.enqueue_body(gemini_grounded_answer(TEXT, [(0, 60, [0])], [(URL, "Act")], queries=["lease"]))


def _once(provider: str, latency_s: float, event_delay_s: float) -> tuple[float, float]:
    with FakeNativeServer(provider, latency_s=latency_s, event_delay_s=event_delay_s) as server:
        _script(server)
        endpoint = EngineEndpoint(provider, Secret("sk-bench-0123456789"), server.base_url, "K", "U", timeout_s=60)
        engine = get_engine(provider, model="bench", endpoint=endpoint)
        first: list[float] = []
        started = time.perf_counter()

        def progress(step: EngineProgress) -> None:
            # Gemini's "searching" is said before the request goes out; its first event is "writing".
            if not first and not (provider == "gemini" and step.step == "searching"):
                first.append(time.perf_counter() - started)

        try:
            engine.answer(EngineRequest("How long does a lease run?"), progress)
        finally:
            engine.close()
        return (first[0] if first else float("nan")), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events-ms", type=float, default=20.0)
    parser.add_argument("--latency-ms", type=float, default=300.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}; latency {args.latency_ms:g} ms, one event every {args.events_ms:g} ms")
    print(f"{'engine':10} {'first progress (s)':>20} {'whole answer (s)':>18}")
    for provider in ("openai", "anthropic", "gemini"):
        runs = [_once(provider, args.latency_ms / 1000, args.events_ms / 1000) for _ in range(args.runs)]
        first = statistics.median(r[0] for r in runs)
        whole = statistics.median(r[1] for r in runs)
        print(f"{provider:10} {first:>20.3f} {whole:>18.3f}")


if __name__ == "__main__":
    main()
