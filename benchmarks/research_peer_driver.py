"""Run GPT Researcher once against servers another process runs; print one JSON line.

:mod:`research_peer` runs this file with the Python of a virtual environment that has
``gpt-researcher`` installed (never the project's own), with the environment pointing GPT
Researcher at the loopback fake world (``OPENAI_BASE_URL``, ``RETRIEVER=custom`` with
``RETRIEVER_ENDPOINT``) and a ``sitecustomize`` on ``PYTHONPATH`` that refuses every connection
to anything but this machine. GPT Researcher runs unchanged: ``GPTResearcher(query,
report_type="research_report")``, ``conduct_research()``, then ``write_report()``.

    PEER_PYTHON benchmarks/research_peer_driver.py "QUESTION"
"""

from __future__ import annotations

import asyncio
import json
import sys
import time


async def _run(question: str) -> dict[str, object]:
    from gpt_researcher import GPTResearcher

    started = time.perf_counter()
    researcher = GPTResearcher(query=question, report_type="research_report")
    await researcher.conduct_research()
    researched = time.perf_counter()
    report = await researcher.write_report()
    done = time.perf_counter()
    return {
        "wall_s": done - started,
        "research_s": researched - started,
        "write_s": done - researched,
        "report_chars": len(report or ""),
        "sources": len(researcher.get_source_urls()),
        "report": report,
    }


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: research_peer_driver.py QUESTION")
    result = asyncio.run(_run(argv[0]))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
