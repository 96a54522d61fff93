"""Wall time of GPT Researcher (the peer) beside today's research loop, in the same fake world.

    python benchmarks/research_peer.py --peer-python /tmp/gptr/bin/python            # 3 runs each, scale 1
    python benchmarks/research_peer.py --peer-python /tmp/gptr/bin/python --runs 5 --scale 0.2

The peer is not a project dependency: install it into a virtual environment of its own and name that
environment's Python (``python3 -m venv /tmp/gptr && /tmp/gptr/bin/pip install gpt-researcher==0.15.1``).
Without it the script says so in one line and exits with status 2.

Both sides meet the world of :mod:`research_world`: the same question, five results per search, the
same pages, the same latencies (search 0.8 s, extract 1.5 s, model 3 s plus output tokens at 50 per
second; ``--scale`` multiplies every wait). Today's loop runs in process through
:func:`research_loop.run_once` (citing by reference, speculative and streamed drafts, verified
delivery) against :class:`~citewise.testing.FakeTavilyServer` and
:class:`~citewise.testing.FakeOpenAIServer`. The peer runs unchanged in a subprocess
(:mod:`research_peer_driver`: ``GPTResearcher(question, report_type="research_report")``,
``conduct_research()``, ``write_report()``), pointed at loopback servers run here by its own
settings: ``OPENAI_BASE_URL`` (a :class:`~citewise.testing.FakeOpenAIServer`), ``RETRIEVER=custom``
with ``RETRIEVER_ENDPOINT`` (a search endpoint answering in the custom retriever's list format, each
result a page URL and a short snippet, so the peer fetches every page itself, each GET taking the
extraction latency), its default ``bs`` scraper. Its token counting (tiktoken, for its cost
estimate) reads the encodings that its own install ships in litellm (``TIKTOKEN_CACHE_DIR``). The
peer's environment drops every proxy variable, sets every key to a dummy value, and puts a
``sitecustomize`` first on its ``PYTHONPATH`` that refuses every connection to anything but this
machine (refusals are counted and printed). With pages this short the peer's context compressor
takes its no-embedding path, so no embeddings endpoint is needed (a request for one would be
answered 404 and show in the printed request counts).

The scripted model answers the peer by matching its prompts: the agent choice (its system prompt
"This task involves researching a given topic") with the JSON ``server``/``agent_role_prompt``
object it asks for, the sub-queries ("Write N search queries") with a JSON list of the same three
queries citewise's planner is given, and the report with a Markdown report in the shape its prompt
asks for (a title, a section per topic, in-text hyperlink citations, a reference list) stating the
same facts citewise's writer states. The peer's prompt asks for "at least 1200 words"; the scripted
report is the same content as citewise's, so the two output the same order of tokens, and
``--peer-words N`` pads it with the pages' other sentences to N words to show what a longer report
costs (about 1.7 tokens a word, so 0.033 s a word at 50 tokens a second).

What each side does in that time differs, and is printed: the peer makes 3 model calls (agent
choice, sub-queries, report), 5 searches and fetches every result page (20); it reviews nothing and
verifies nothing. Today's loop plans, searches, extracts one page a site, reviews each round's
evidence, drafts, verifies every sentence against its stored source and revises what fails; in this
world the scripted reviewer always leaves one topic missing, so it uses all three rounds (6 model
calls: the plan, three reviews and two drafts each written beside its review; a critical-path floor
of 22.9 s at scale 1 counting the dropped draft's 0.7 s past its review, which is no longer on
the path) and its report is not accepted (2 of 3 topics). ``--draft-every-round`` drafts
round 1 too, after its review, as the loop did before (7 calls, floor 31.5 s).

Figures of 2026-12-02, GPT Researcher 0.15.1 (2 shared cores; load average before the runs):

=========================================================  =====  ==========  ========  ============
run                                                        load   peer, s     today, s  today / peer
=========================================================  =====  ==========  ========  ============
``--runs 3 --scale 1`` (the shipped profile), medians      0.85   21.74       31.64     1.46
``--runs 5 --scale 0.2``, medians                          0.65   5.23        6.49      1.24
``--runs 1 --scale 1 --peer-words 1200`` (1209 words)      0.61   57.15       31.70     0.55
``--runs 3 --scale 1``, medians, drafting every round      6.14   22.00       31.63     1.44
``--runs 3 --scale 1 --draft-every-round``, medians        7.21   23.14       31.79     1.37
``--runs 3 --scale 1``, medians, review-v3                 9.76   23.81       27.49     1.15
``--runs 3 --scale 1``, medians, review-v4                 2.14   21.65       26.01     1.20
``--runs 3 --scale 1``, medians, review-v4 (before v5)     3.80   23.02       26.44     1.15
``--runs 3 --scale 1``, medians, review-v5                 1.86   22.02       23.04     1.05
``--runs 3 --scale 1``, medians, dropped draft waited for  11.86  23.43       23.25     0.99
``--runs 3 --scale 1``, medians, not waited for            4.64   21.58       22.28     1.03
``--runs 3 --scale 1``, medians, searching after the plan  0.11   21.66       22.22     1.03
``--runs 3 --scale 1``, medians, searching as it streams   0.12   21.67       21.65     1.00
``--runs 3 --scale 1``, medians, review-v5 (gaps last)     1.22   21.68       21.77     1.00
``--runs 3 --scale 1``, medians, review-v6 (gaps first)    0.43   21.63       21.23     0.98
=========================================================  =====  ==========  ========  ============

The first four rows draft every round (the loop's behaviour until a round that goes on to another
went undrafted); all but the last three are at review-v3, which copied each topic back as text.
The last two rows ran one after the other: review-v5 has the reviewer answer one line per topic
instead of a JSON object (25 output tokens a review instead of 100; ``--review-prompt review-v4``
to compare), which lowers today's floor from 26.1 to 22.9 s. The peer's time grows with the load
(its imports and page parsing are CPU work); today's does not.

The last two rows ran one after the other: a draft dropped because the review asks for more
searching is no longer waited for (its call ends beside the next round's search and read), which
takes today's run from 23.25 to 22.28 s; the peer's time fell with the load (11.9 to 4.6), so the
ratio rose. At equal load the goal (at most the peer) is still not met by about 0.7 s.

The two rows after them (2026-12-03, at equal load): the first queries are searched while the
plan streams in, and a streamed review's gap line starts the next round's search
(:mod:`citewise.research.ahead`), which takes today's run from 22.22 to 21.65 s, level with the
peer (floor 22.15 to 21.59 s). The margin is a few hundredths of a second.

The last two rows (2026-12-03, one after the other; review-v5 from the code before review-v6):
review-v6 asks the reviewer for the lines of the topics not covered first, so the gap line that
starts the next round's search arrives before the covered lines are written; today's run falls from
21.77 to 21.23 s (floor 21.61 to 21.18 s), 0.40 s under the peer.

``--cache`` (default ``both``) runs today's loop without the store's cache and with it (the
default path of ``citewise research``), each ``--runs`` times, in columns of their own. On
2026-12-03 the cache-on median went from 22.66 s (peer 22.54 s, ratio 1.01; load 1.4 to 3.5) to
21.31 s (peer 22.08 s, 0.96; load 4.8 to 0.8) once searches ahead went through the cache, and with
review-v7 to 21.21 s (peer 21.67 s, 0.98; load 0.2 to 0.1).

The peer's figure is its in-process time from ``GPTResearcher(...)`` to the written report (its
interpreter start and imports, about 1.5 s more, are printed as "peer process s"); today's is the
time of ``research(...)``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from research_loop import add_cache_switch, add_path_switches, run_once  # noqa: E402
from research_world import FACTS, FILLER, QUESTION, TOPICS, Latencies, page_text  # noqa: E402

from citewise.testing import FakeOpenAIServer, FakeReply  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "research_peer_driver.py"
QUERIES = ["deposit protection 2024", "landlord fee", "tenant rules"]
AGENT = json.dumps(
    {
        "server": "🏠 Housing Policy Agent",
        "agent_role_prompt": "You are a housing policy analyst AI assistant. You write objective, "
        "well-structured reports on tenancy law and its costs.",
    }
)

GUARD = '''"""Refuse every connection to anything but this machine (the peer benchmark's network guard)."""
import ipaddress, socket, sys

_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex


def _loopback(address):
    if not isinstance(address, tuple):
        return True  # a Unix socket
    host = str(address[0]).split("%", 1)[0]
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _refuse(address):
    print(f"peer guard: refused a connection to {address!r}", file=sys.stderr)
    return ConnectionRefusedError(f"only loopback connections are allowed; refused {address!r}")


def connect(sock, address):
    if not _loopback(address):
        raise _refuse(address)
    return _connect(sock, address)


def connect_ex(sock, address):
    if not _loopback(address):
        raise _refuse(address)
    return _connect_ex(sock, address)


socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
'''


def _html(text: str) -> bytes:
    """A page of :func:`research_world.page_text` as HTML: its heading, then one ``<p>`` a paragraph."""
    heading, *paragraphs = text.split("\n\n")
    title = heading.lstrip("# ")
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>".encode()


class PeerWeb:
    """The world's search and pages on one loopback HTTP server, for a peer that fetches pages itself.

    ``GET /search?query=Q`` answers (after the search latency) five results in the format of GPT
    Researcher's custom retriever, ``[{"url", "body"}]``, each URL a page on this server and each
    body a short snippet; ``GET /<slug>/<n>`` answers page ``n`` after the extraction latency."""

    def __init__(self, latencies: Latencies) -> None:
        self.latencies = latencies
        self.searches: list[str] = []
        self.pages: list[str] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> PeerWeb:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def answer(self, path: str) -> tuple[int, str, bytes, float]:
        """(status, content type, body, delay) for a GET of ``path``."""
        url = urlparse(path)
        if url.path == "/search":
            query = parse_qs(url.query).get("query", [""])[0]
            with self._lock:
                self.searches.append(query)
            slug = "-".join(query.lower().split())[:48] or "q"
            results = [{"url": f"{self.base_url}/{slug}/{n}", "body": f"snippet {n}"} for n in range(1, 6)]
            return 200, "application/json", json.dumps(results).encode(), self.latencies.search_s
        last = url.path.rsplit("/", 1)[-1]
        if not last.isdigit():
            return 404, "text/plain", b"not found", 0.0
        with self._lock:
            self.pages.append(url.path)
        page = _html(page_text(self.base_url + url.path, int(last)))
        return 200, "text/html; charset=utf-8", page, self.latencies.extract_s

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        web = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                status, content_type, body, delay = web.answer(self.path)
                time.sleep(delay)
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler


def _report(context: str, words: int) -> str:
    """A Markdown research report in the shape the peer's prompt asks for, stating the facts of the
    two topics the pages cover, each cited with a hyperlink to the first page of ``context`` stating
    it; padded with the pages' other sentences to about ``words`` words when that is more."""
    pages = re.split(r"\n(?=Source: )", context)
    cited: list[str] = []

    def source(fact: str) -> str:
        for page in pages:
            flat = " ".join(page.split())
            found = re.search(r"This page was prepared for (\S+?)\.(?:\s|$)", flat)
            if fact in flat and found:
                if found.group(1) not in cited:
                    cited.append(found.group(1))
                return found.group(1)
        return ""

    lines = [f"# {QUESTION}", ""]
    for topic, facts in zip(TOPICS, FACTS, strict=False):
        lines += [f"## {topic}", ""]
        lines += [f"{fact} ([source]({source(fact)}))" for fact in facts if source(fact)]
        lines.append("")
    filler = list(FILLER)
    padding: list[str] = []
    while filler and len(" ".join(lines + padding).split()) < words:
        padding.append(filler[len(padding) % len(filler)])
    if padding:
        lines += ["## Background", "", " ".join(padding), ""]
    lines += ["## References", "", *(f"- [{url}]({url})" for url in cited)]
    return "\n".join(lines)


class PeerModel:
    """Answers GPT Researcher's prompts (see the module docstring); counts calls by kind."""

    def __init__(self, latencies: Latencies, words: int) -> None:
        self.delay = latencies.model_s
        self.words = words
        self.calls: dict[str, int] = {}

    def __call__(self, request: Any) -> FakeReply:
        messages = request.get("messages", [])
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        user = str(messages[-1].get("content", "")) if messages else ""
        if "This task involves researching a given topic" in system:
            kind, reply = "agent choice", AGENT
        elif re.match(r"\s*Write \d+ search queries", user):
            kind, reply = "sub-queries", json.dumps(QUERIES)
        elif user.lstrip().startswith("Information:"):
            context = user.split('Information: "', 1)[-1].split('"\n---', 1)[0]
            kind, reply = "report", _report(context, self.words)
        else:
            kind, reply = "other", "I have no answer to that request."
        self.calls[kind] = self.calls.get(kind, 0) + 1
        return FakeReply(reply, delay=self.delay)


def _peer_env(model_url: str, search_url: str, guard_dir: Path, peer_python: Path) -> dict[str, str]:
    """The peer's environment: ours without proxies or provider keys, pointed at the loopback world."""
    dropped = ("proxy", "api_key", "openai", "tavily", "langchain", "langsmith", "retriever")
    env = {k: v for k, v in os.environ.items() if not any(d in k.lower() for d in dropped) and k != "PYTHONPATH"}
    site = subprocess.run(
        [str(peer_python), "-c", "import litellm, os; print(os.path.dirname(litellm.__file__))"],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "PYTHONPATH": str(guard_dir), "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    ).stdout.strip()
    env |= {
        "PYTHONPATH": str(guard_dir),
        "OPENAI_API_KEY": "sk-bench",
        "OPENAI_BASE_URL": model_url,
        "TAVILY_API_KEY": "tvly-bench",
        "RETRIEVER": "custom",
        "RETRIEVER_ENDPOINT": search_url,
        "NO_PROXY": "*",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "ANONYMIZED_TELEMETRY": "False",
    }
    if site:
        env["TIKTOKEN_CACHE_DIR"] = str(Path(site) / "litellm_core_utils" / "tokenizers")
    return env


def run_peer(peer_python: Path, latencies: Latencies, tmp: Path, words: int = 0) -> dict[str, Any]:
    """One GPT Researcher run in a subprocess against a fresh world; its figures and the world's counts."""
    guard_dir = tmp / "guard"
    guard_dir.mkdir(exist_ok=True)
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    work = tmp / "peer-cwd"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    with PeerWeb(latencies) as web, FakeOpenAIServer(tokens_per_s=latencies.tokens_per_s) as model:
        scripted = PeerModel(latencies, words)
        model.responder = scripted
        env = _peer_env(model.base_url, f"{web.base_url}/search", guard_dir, peer_python)
        started = time.perf_counter()
        done = subprocess.run(
            [str(peer_python), str(DRIVER), QUESTION],
            env=env,
            cwd=work,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        process_s = time.perf_counter() - started
        paths = [r.path for r in model.requests]
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"the peer failed: {last}")
    result = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    report = str(result.pop("report"))
    return {
        **result,
        "process_s": process_s,
        "calls": dict(scripted.calls),
        "model_paths": sorted(set(paths)),
        "searches": len(web.searches),
        "pages": len(web.pages),
        "refused": done.stderr.count("peer guard: refused"),
        "report_words": len(report.split()),
        "report_tokens": max(1, len(report) // 4),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer-python", type=Path, required=True, help="a Python with gpt-researcher installed")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (the median is compared)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every fake-server wait")
    parser.add_argument("--peer-words", type=int, default=0, help="pad the peer's report to this many words")
    add_path_switches(parser)
    add_cache_switch(parser)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    check = [str(args.peer_python), "-c", "import gpt_researcher"]
    if not args.peer_python.exists() or subprocess.run(check, capture_output=True, check=False).returncode != 0:
        print(f"no gpt-researcher at {args.peer_python}: install it into a venv of its own and name its python")
        raise SystemExit(2)
    latencies = Latencies().scaled(args.scale)
    load = os.getloadavg()
    peer: list[dict[str, Any]] = []
    ours: dict[bool, list[dict[str, Any]]] = {}
    caches = {"off": (False,), "on": (True,), "both": (False, True)}[args.cache]
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            peer.append(run_peer(args.peer_python, latencies, Path(tmp), args.peer_words))
            for cache in caches:
                store = str(Path(tmp) / f"today-{n}-{cache}.sqlite")
                ours.setdefault(cache, []).append(
                    run_once(
                        True,
                        Path(tmp),
                        store_url=store,
                        latencies=latencies,
                        draft_every_round=args.draft_every_round,
                        review_prompt=args.review_prompt,
                        cache=cache,
                    )
                )
    _print(peer, ours, args.scale, load)


def _print(
    peer: Sequence[dict[str, Any]],
    ours: Mapping[bool, Sequence[dict[str, Any]]],
    scale: float,
    load: tuple[float, float, float],
) -> None:
    """The runs side by side; today's with the cache off and on (``citewise research``'s default) in
    columns of their own when both were run."""
    first, today = peer[0], next(iter(ours.values()))[0]
    before, after = (" ".join(f"{x:.2f}" for x in avg) for avg in (load, os.getloadavg()))
    print(f"scale {scale}, {len(peer)} runs each, load average {before} before, {after} after")
    print(f"today's reviewer prompt {today['review_prompt']}\n")
    print(
        f"peer (gpt-researcher): {first['calls']} model calls, {first['searches']} searches, {first['pages']} pages "
        f"fetched, {first['sources']} sources, report {first['report_words']} words "
        f"(~{first['report_tokens']} tokens), "
        f"model paths {first['model_paths']}, refused connections {sum(p['refused'] for p in peer)}"
    )
    out = today.get("review_out", 0) + today.get("writer_out", 0)
    verify = "accepted" if today["accepted"] else "not accepted"
    floors = ", ".join(f"{_label(c)} {runs[0]['floor_s']:.2f} s" for c, runs in ours.items())
    print(
        f"today (citewise): {today['rounds']} rounds, {today['sources']} sources, {today['calls']} model calls, "
        f"{out} review+writer output tokens, verified delivery {verify}, floor {floors}\n"
    )
    labels = [f"today wall s, {_label(cache)}" for cache in ours]
    print("| run | peer wall s | peer process s | " + " | ".join(labels) + " |")
    print("|---|---|---|" + "---|" * len(labels))
    for n, p in enumerate(peer):
        walls = " | ".join(f"{runs[n]['wall_s']:.2f}" for runs in ours.values())
        print(f"| {n + 1} | {p['wall_s']:.2f} | {p['process_s']:.2f} | {walls} |")
    peer_median = statistics.median(p["wall_s"] for p in peer)
    print()
    for cache, runs in ours.items():
        today_median = statistics.median(t["wall_s"] for t in runs)
        print(
            f"median wall time ({_label(cache)}): peer {peer_median:.2f} s, today {today_median:.2f} s, "
            f"today / peer {today_median / peer_median:.2f} (goal at most 1.00)"
        )


def _label(cache: bool) -> str:
    return "cache on (the default)" if cache else "cache off"


if __name__ == "__main__":
    main()
