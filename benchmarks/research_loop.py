"""Wall time and model output of a three-round research run against fake servers with realistic latencies.

    python benchmarks/research_loop.py                  # citing by reference vs quoting as text
    python benchmarks/research_loop.py --cite reference --scale 0.2
    python benchmarks/research_loop.py --cite reference --scale 0.2 --paraphrase --no-sequential

Latencies: search 0.8 s, extract 1.5 s per call, model 3 s plus output tokens at 50 per second
(``--scale`` multiplies every wait). The scripted reviewer always leaves one topic missing with a new
follow-up query, so the run uses all three rounds at the default budgets (8 searches, 12 page
extractions).

Two scripted models make the same judgements from the same evidence, and differ only in how they
write them down (``--cite``):

* ``text`` — as models did before sentence ids (prompts review-v1/write-v1): the reviewer copies
  each supporting sentence into ``quotes``; the writer restates each supporting sentence, citing
  ``[S#]``. It reads the sources from ``content`` or from ``sentences``, so it runs unchanged against
  the code before sentence ids, which is how the "before" figures are measured.
* ``reference`` — the reviewer lists the supporting sentences' ids (``S1.3``); the writer cites
  ``[S1.3]`` and quotes ``{{S1.3}}``, which citewise replaces by the stored sentence.

Both cover the same topics with the same sentences in every round ("equal coverage", checked and
printed). Output tokens are the fake server's estimate (4 characters a token) of what each model
wrote. Reports, per run: wall time, the critical-path floor (the plan call plus, per round, the
slowest search + the slowest extraction + the model calls, from the recorded latencies), the
non-network overhead (wall time minus the floor), model calls, and input and output tokens of the
reviewer and the writer, and the stage timeline of the first run (plan; per round: search and read,
review, draft; delivery with verification and revision) from the recorded event times.

``--paraphrase`` makes the writer paraphrase its lead sentences so that verification sends them back
and every run pays a revision; the revision's output tokens are then printed against the draft it
revises. Figures of 2026-12-01 (``--cite reference --scale 0.2 --paraphrase --no-sequential``):
revise-v1 (the whole draft back) 189 output tokens against the revised draft's 60, writer input
16,702 tokens, wall 10.30 s; revise-v2 (only the two failed sentences, answered by a replacement
each in JSON) 24 output tokens against the same 60, writer input 13,992, wall 9.29 s. Figures of
2026-12-02, same command: revise-v3 (one line per failed sentence, ``R1: {{S1.3}}``) 6 output
tokens against the draft's 60 (0.10 of it).

The seed loop (:data:`SEED_REVISION`, the project's first working research loop; ``--seed REV`` for
another revision of the same API, ``--no-seed`` to skip it) runs in the same invocation: its
``src`` is unpacked with ``git archive`` into a temporary folder and driven by ``research_seed.py``
in a subprocess with that folder as its ``PYTHONPATH``, against fake servers run here with the same
pages, the same scripted judgements (quoting as text, as models did then) and the same latencies
(:mod:`research_world`). The seed reads every page; today's loop reads one page per site of this
one-site world (its site rule), then reviews, verifies and revises. Wall time, today / seed, at
``--cite reference --paraphrase --no-sequential`` on 2026-12-02 (2 shared cores, loaded):

==================================================  =========  =========  ============
run                                                 seed, s    today, s   today / seed
==================================================  =========  =========  ============
``--scale 0.2``, revise-v2, no speculative draft    11.56      9.03       0.78
``--scale 0.2``, revise-v3 and speculative draft    11.72      7.49       0.64
``--scale 1``, revise-v2, no speculative draft      57.08      44.17      0.77
``--scale 1``, revise-v3, speculative, streamed     57.09      35.18      0.62
``--scale 0.2 --no-speculate --no-stream``          12.01      9.69       0.81
``--scale 0.2``, only the last round drafted        11.64      6.58       0.57
``--scale 1``, only the last round drafted          56.99      30.76      0.54
``--scale 0.2``, and review-v4                      11.55      6.21       0.54
``--scale 1``, and review-v4                        56.89      29.41      0.52
``--scale 0.2``, review-v4 (before review-v5)       11.56      6.13       0.53
``--scale 0.2``, and review-v5                      11.48      5.50       0.48
``--scale 1``, review-v4 (before review-v5)         56.92      29.33      0.52
``--scale 1``, and review-v5                        56.84      26.13      0.46
``--scale 0.2``, waiting on the dropped draft       11.55      5.57       0.48
``--scale 0.2``, not waiting on it                  11.61      5.43       0.47
``--scale 1``, waiting on the dropped draft         57.07      26.32      0.46
``--scale 1``, not waiting on it                    57.10      25.70      0.45
``--scale 1``, searching after the plan (before)    56.88      22.23      0.39
``--scale 1``, searching as plan and review stream  56.89      21.66      0.38
``--scale 1``, review-v5 (gap line last)            56.88      21.75      0.38
``--scale 1``, review-v6 (gap lines first)          56.87      21.24      0.37
==================================================  =========  =========  ============

The last two rows (2026-12-03, load 0.0 to 1.8, default options): the planner's reply (plan-v2,
queries before topics) is streamed and each query's search starts as soon as the reply holds it
whole (:mod:`citewise.research.ahead`), and a streamed review's gap line starts the next round's
search. At ``--scale 1`` round 1's search and read fell from 2.3 to 1.6 s past the plan (only the
last query's search, 0.25 s, still ends after the plan's call), the floor from 22.13 to 21.58 s. In
this world the reviewer writes its gap line last, so a review's line arrives with the end of its
reply and rounds 2 and 3 gain nothing there.

The two rows after them (2026-12-03, load 1.6 and 1.0, default options; the first from the code
before review-v6): review-v6 asks for the lines of the topics not covered first, and the scripted
reviewer writes them first when (and only when) its prompt's example shows a gap line first. The
gap line now arrives before the covered lines are written, so rounds 2 and 3's search and read each
end 0.20 s sooner past their review (2.31 to 2.11 s with ``--cite reference --no-seed
--no-sequential``, ``--review-prompt review-v5`` against the default), the floor falls from 21.62 to
21.16 s. What is left of the review after its gap line (the covered lines, about 11 tokens) is all
that can be gained this way: the gap line itself, with its gap text before the query, is most of
the reply, and the search (0.8 s) and read (1.5 s) then take longer than the rest of the review.

The rows from "only the last round drafted" on (2026-12-02, load 2 to 5) draft only the round the
loop stops after; with ``--draft-every-round`` (drafting each round's review, as before) the same
code at review-v3 gave 7.58 s (0.66) and 35.18 s (0.62): round 1's draft, 4.34 s at ``--scale 1``,
is off the critical path. review-v4 names each topic by its id (``T1``) instead of copying it back:
300 review output tokens in the three reviews against 366, 0.45 s less a review at ``--scale 1``.

review-v5 (the last four rows, 2026-12-02, load 1.9 to 5.3; each review-v4 row run just before its
review-v5 row) writes the same judgements as one line per topic (``T1 covered S2.3 S1.3``,
``T3 missing: no date | query: ...``) instead of a JSON object: 25 output tokens a review against
100, of which the keys were 53 and the nulls and empty lists 6 (output tokens per call, in order:
plan 47, review 25, review 25, speculative draft 60, review 25, speculative draft 60, revise 6). At
``--scale 1`` round 1's review takes 3.51 s (5.02 before); rounds 2 and 3 took 4.25 and 4.23 s,
no longer the review's time but that of the draft written beside it (3 s + 60 tokens), which the
loop waited for even when the review dropped it. ``--review-prompt review-v4`` runs the JSON reply of before.

The last four rows (2026-12-02, run back to back, load 0.9 to 5.3 for the "waiting" rows and 7.8 to
11.5 for the others, which the network-bound loop hardly feels): without a token or money cap, a
draft dropped because the review asks for more searching is no longer waited for; its call ends
beside the next round's search and read, with its reported usage recorded and counted. Round 2's
review stage fell from 4.32 to 3.51 s at ``--scale 1`` (the same as round 1's); round 3's kept
draft is still waited for (its review 3.53 s, then the draft 0.77 s). The floor counts a dropped
draft's call only past its review and the next round's search and read (25.27 s at ``--scale 1``
against a wall time of 25.42 s, load 0.5; it counted the dropped draft's 0.7 s before).

``--cache`` (default ``both``): today's concurrent runs without the store's cache, and one more with
it, as ``citewise research`` runs by default (24 h; the store is new, so every call is a miss and
is cached); the "cache on" row and the "default path" line are that run. On 2026-12-03 (load 2.9
to 1.4 before, 5.1 to 4.8 after) the default path went from 22.32 s (floor 22.20) to 21.34 s
(floor 21.21) once searches ahead went through the cache (they were off with it before).

The drafts are streamed and each line is checked as it arrives (``--no-stream`` to compare); with
the lexical checks of this world verification takes a few hundredths of a second either way, so
streaming shows no wall-time difference here. From round 2 on today's run drafts while it reviews
(:mod:`citewise.research.speculate`): in this world the review of round 2 asks for more searching,
so its draft is dropped at once (the timeline shows ``draft dropped``), and round 3's draft, written beside
its review from the same coverage, is kept. Round 1, whose review asks for more searching, is not
drafted at all (``--draft-every-round`` to compare).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citewise.audit.events import (  # noqa: E402
    AttemptEnded,
    DraftDropped,
    DropReason,
    ModelCallEnded,
    ModelCallStarted,
    RoundStarted,
)
from citewise.config import Secret  # noqa: E402
from citewise.llm import ChatClient, ModelSettings  # noqa: E402
from citewise.providers.cached import DEFAULT_CACHE_TTL  # noqa: E402
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings  # noqa: E402
from citewise.records.research import AttemptKind  # noqa: E402
from citewise.research import prompts  # noqa: E402
from citewise.research.caching import cached_providers  # noqa: E402
from citewise.research.loop import research  # noqa: E402
from citewise.research.revise import REVISE_PROMPT_VERSION  # noqa: E402
from citewise.research.settings import ResearchSettings  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.runs import RunRecord, RunStore  # noqa: E402
from citewise.testing import FakeOpenAIServer, FakeTavilyServer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from research_world import CITE_MODES, LEADS, PARAPHRASED, QUESTION, Latencies, Model, Prompts, Web  # noqa: E402

SEED_REVISION = "b864327"
"""The seed loop: "citewise research: live progress, report rendered at the end, --resume"
(2026-11-30), the first revision in which the research loop and the ``citewise research`` command
worked end to end (its source is the same as that of the benchmark's first version, 94ee207)."""


def _floor(record: RunRecord) -> tuple[float, float]:
    """(critical-path floor, total network wait) from the recorded latencies. A search started while
    the plan or the review before its round streamed in (:mod:`citewise.research.ahead`) counts only
    for what it took past that call. A speculative draft
    runs beside its round's review: only what it took beyond that review is on the critical path. One
    dropped without waiting for it (its first ``DraftDropped`` carries no draft) also runs beside the next
    round's search and read: only what it took beyond both is on the path."""
    floor = total = 0.0
    per_round: dict[int, dict[AttemptKind, float]] = {}
    reviews: dict[int, float] = {}
    drafts: list[tuple[int, float]] = []  # (round, latency) of each speculative draft's call
    started: list[int] = []
    unwaited: set[int] = set()
    round_no = 0
    gates = _gates(record)
    for recorded in record.events:
        event = recorded.event
        if isinstance(event, RoundStarted):
            round_no = event.round
        elif isinstance(event, AttemptEnded):
            a = event.attempt
            slot = per_round.setdefault(a.round, {AttemptKind.SEARCH: 0.0, AttemptKind.EXTRACT: 0.0})
            latency = on_path = a.latency_s or 0.0
            gate = gates.get(a.round)
            if gate is not None and a.kind is AttemptKind.SEARCH and a.started_at < gate:
                # searched ahead, while the plan or the review before streamed in: only what it took
                # past that call is on the path
                on_path = max(0.0, (a.started_at - gate).total_seconds() + latency)
            slot[a.kind] = max(slot.get(a.kind, 0.0), on_path)
            total += latency
        elif isinstance(event, DraftDropped) and event.draft is None and event.reason is DropReason.MORE_SEARCHING:
            unwaited.add(event.round)
        elif isinstance(event, ModelCallStarted) and event.purpose.value == "speculative_draft":
            started.append(round_no)
        elif isinstance(event, ModelCallEnded):
            latency = event.latency_s or 0.0
            total += latency
            if event.purpose.value == "speculative_draft":
                drafts.append((started.pop(0) if started else round_no, latency))
                continue
            floor += latency
            if event.purpose.value == "review":
                reviews[round_no] = latency
    collected = {r: s[AttemptKind.SEARCH] + s[AttemptKind.EXTRACT] for r, s in per_round.items()}
    for draft_round, latency in drafts:
        beside = reviews.get(draft_round, 0.0)
        if draft_round in unwaited:
            beside += collected.get(draft_round + 1, 0.0)
        floor += max(0.0, latency - beside)
    floor += sum(collected.values())
    return floor, total


def _gates(record: RunRecord) -> dict[int, datetime]:
    """When the call that names a round's queries ended, by round: the plan for round 1, the last
    review before the round for the others."""
    gates: dict[int, datetime] = {}
    named: datetime | None = None
    for recorded in record.events:
        event = recorded.event
        if isinstance(event, ModelCallEnded) and event.purpose.value in ("plan", "review"):
            named = recorded.at
        elif isinstance(event, RoundStarted) and named is not None:
            gates[event.round] = named
    return gates


_ROLE = {
    "review": "review",
    "draft": "writer",
    "speculative_draft": "writer",
    "repair": "writer",
    "revise": "writer",
}
_PURPOSES = ("draft", "revise")  # also counted on their own: a revision against the draft it revises


_STAGE = {
    "plan_made": "plan",
    "collection_ended": "search + read",
    "review_made": "review",
    "draft_made": "draft",
    "draft_dropped": "draft dropped",
    "report_made": "deliver (verify, revise)",
}


def _timeline(record: RunRecord) -> list[tuple[str, float]]:
    """The stages of the run in order, each with the seconds it took, from the recorded event times
    (each stage ends at its event and starts where the one before ended)."""
    if not record.events:
        return []
    start = previous = record.events[0].at
    stages: list[tuple[str, float]] = []
    round_no = 0
    last_call = ""
    for recorded in record.events:
        kind = recorded.event.kind.value
        if kind == "round_started":  # (its searches may have started ahead: they count in its stage)
            round_no += 1
        if isinstance(recorded.event, ModelCallEnded):
            last_call = recorded.event.purpose.value
        label = _STAGE.get(kind)
        if label is None:
            continue
        if label == "draft" and last_call == "revise":
            label = "revise (into the draft)"
        if label in ("search + read", "review", "draft", "draft dropped"):
            label = f"round {round_no}: {label}"
        stages.append((label, (recorded.at - previous).total_seconds()))
        previous = recorded.at
    stages.append(("total", (previous - start).total_seconds()))
    return stages


def _model_use(record: RunRecord) -> dict[str, Any]:
    """Calls, input and output tokens of the reviewer and the writer (draft, repair and revision calls),
    and the output tokens of every model call in order (``per_call_out``)."""
    use: dict[str, Any] = {"calls": 0, "per_call_out": []}
    for recorded in record.events:
        event = recorded.event
        if not isinstance(event, ModelCallEnded):
            continue
        use["calls"] += 1
        use["per_call_out"].append((event.purpose.value, event.completion_tokens or 0))
        if event.purpose in _PURPOSES:
            use[f"{event.purpose}_out"] = use.get(f"{event.purpose}_out", 0) + (event.completion_tokens or 0)
        if event.purpose in ("draft", "speculative_draft"):
            use["last_draft_out"] = event.completion_tokens or 0  # the draft a revision revises
        role = _ROLE.get(event.purpose)
        if role is not None:
            use[f"{role}_calls"] = use.get(f"{role}_calls", 0) + 1
            use[f"{role}_out"] = use.get(f"{role}_out", 0) + (event.completion_tokens or 0)
            use[f"{role}_in"] = use.get(f"{role}_in", 0) + (event.prompt_tokens or 0)
    return use


def run_once(
    concurrent: bool,
    tmp: Path,
    store_url: str | None = None,
    latencies: Latencies | None = None,
    cite: str = "reference",
    verify: bool = True,
    leads: Sequence[str] = LEADS,
    speculate: bool = True,
    stream: bool = True,
    draft_every_round: bool = False,
    review_prompt: str = prompts.REVIEW_PROMPT_VERSION,
    cache: bool = False,
) -> dict[str, Any]:
    """One research run; the store is a new SQLite file in ``tmp`` unless ``store_url`` names another.
    ``review_prompt`` picks the reviewer's prompt (review-v4 for the JSON reply it had before).
    ``cache`` wraps the search and the extractor in the store's cache as ``citewise research`` does by
    default (24 h): the store is new, so every query and page is a miss, answered and written to it."""
    latencies = latencies or Latencies()
    web = Web(latencies)
    with FakeTavilyServer() as tavily, FakeOpenAIServer(tokens_per_s=latencies.tokens_per_s) as model:
        tavily.search_responder, tavily.extract_responder = web.search, web.extract
        model.responder = Model(latencies, cite, leads)
        connection = TavilyConnection(TavilySettings(api_key=Secret("tvly-bench"), base_url=tavily.base_url))
        client = ChatClient(ModelSettings(api_key=Secret("sk-bench"), base_url=model.base_url, timeout_s=60))
        url = store_url or str(tmp / f"bench-{concurrent}-{cite}-{verify}-{cache}.sqlite")
        with connection, client, EvidenceStore.open(url) as store:
            search, extractor = TavilySearch(connection=connection), TavilyExtract(connection=connection)
            ttl = DEFAULT_CACHE_TTL if cache else timedelta(0)
            if cache:
                search, extractor = cached_providers(store, search, extractor, ttl)
            settings = ResearchSettings(
                search=search,
                extractor=extractor,
                cache_ttl=ttl,
                client=client,
                planner_model="planner",
                writer_model="writer",
                concurrent=concurrent,
                verify=verify,
                speculate=speculate,
                stream=stream,
                draft_every_round=draft_every_round,
                review_prompt=review_prompt,
            )
            started = time.perf_counter()
            result = research(store, QUESTION, settings)
            wall = time.perf_counter() - started
            record = RunStore(store).get(result.run_id)
            floor, network = _floor(record)
    return {
        "review_prompt": review_prompt,
        "cache": cache,
        "speculate": speculate,
        "stream": stream,
        "draft_every_round": draft_every_round,
        "timeline": _timeline(record),
        "cite": cite,
        "verify": verify,
        "accepted": result.acceptance.accepted if result.acceptance is not None else None,
        "removed": len(result.removed),
        "concurrent": concurrent,
        "wall_s": wall,
        "floor_s": floor,
        "network_s": network,
        "rounds": len(result.reviews),
        "sources": len(result.sources),
        "stop": result.stop_reason.value,
        "status": result.status.value,
        "coverage": tuple(tuple(i.status.value for i in review.items) for review in result.reviews),
        **_model_use(record),
    }


def _unpack(revision: str, into: Path) -> Path:
    """The ``src`` folder of ``revision`` of this repository, unpacked into ``into`` (``git archive``)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "src"], check=True, capture_output=True
        ).stdout
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"cannot unpack revision {revision}: {exc.stderr.decode(errors='replace').strip()}") from exc
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _in_seed(src: Path, *args: str) -> dict[str, Any]:
    """Run :mod:`research_seed` with the earlier revision's ``src`` as its only citewise; its JSON."""
    driver = Path(__file__).resolve().parent / "research_seed.py"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, str(driver), *args], env=env, capture_output=True, text=True, timeout=900, check=False
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"the seed loop failed: {last}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run_seed(
    revision: str, tmp: Path, latencies: Latencies, concurrent: bool = True, leads: Sequence[str] = LEADS
) -> dict[str, Any]:
    """One research run of the seed loop at ``revision``, in a subprocess, against the same fake world
    and latencies as :func:`run_once` (the servers run here; the models quote as text, as models did
    before sentence ids)."""
    src = _unpack(revision, tmp / f"seed-{revision}")
    prompts_then = Prompts(**_in_seed(src, "prompts"))
    web = Web(latencies)
    with FakeTavilyServer() as tavily, FakeOpenAIServer(tokens_per_s=latencies.tokens_per_s) as model:
        tavily.search_responder, tavily.extract_responder = web.search, web.extract
        model.responder = Model(latencies, "text", leads, prompts_then)
        store = str(tmp / f"seed-{revision}-{concurrent}.sqlite")
        args = ["run", "--tavily", tavily.base_url, "--model", model.base_url, "--store", store, "--question", QUESTION]
        return {"revision": revision, **_in_seed(src, *args, *([] if concurrent else ["--sequential"]))}


def _covered(run: Mapping[str, Any]) -> str:
    final = run["coverage"][-1] if run["coverage"] else ()
    return f"{sum(s == 'covered' for s in final)}/{len(final)}"


def _print(runs: Sequence[Mapping[str, Any]]) -> None:
    path = runs[0]
    print(f"code: prompts {path['review_prompt']}, {prompts.WRITE_PROMPT_VERSION}, {REVISE_PROMPT_VERSION}")
    speculative, streamed = ("on" if path[k] else "off" for k in ("speculate", "stream"))
    every = "every round" if path["draft_every_round"] else "only the round the loop stops after"
    print(f"speculative draft {speculative}, streamed writer {streamed}, drafts {every}\n")
    print(
        "| cite | verify | run | rounds | sources | covered | model calls | review out tok | writer out tok "
        "| review+writer out tok | review+writer in tok | wall s | floor s | overhead s |"
    )
    print("|" + "---|" * 14)
    for r in runs:
        out = r.get("review_out", 0) + r.get("writer_out", 0)
        tokens_in = r.get("review_in", 0) + r.get("writer_in", 0)
        verify = "off" if not r["verify"] else ("accepted" if r["accepted"] else "not accepted")
        verify += f", {r['removed']} removed" if r["removed"] else ""
        print(
            f"| {r['cite']} | {verify} | {_path(r)} | {r['rounds']} "
            f"| {r['sources']} "
            f"| {_covered(r)} | {r['calls']} | {r.get('review_out', 0)} | {r.get('writer_out', 0)} | {out} "
            f"| {tokens_in} | {r['wall_s']:.2f} | {r['floor_s']:.2f} | {r['wall_s'] - r['floor_s']:.2f} |"
        )


def _path(run: Mapping[str, Any]) -> str:
    """How a run was made: concurrent or sequential, and with the cache on (``citewise research``'s default)."""
    return ("concurrent" if run["concurrent"] else "sequential") + (", cache on" if run.get("cache") else "")


def _compare(before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
    out_before = before.get("review_out", 0) + before.get("writer_out", 0)
    out_after = after.get("review_out", 0) + after.get("writer_out", 0)
    same = before["coverage"] == after["coverage"]
    print(f"\ncoverage per round, text vs reference: {'equal' if same else 'DIFFERENT'} {after['coverage']}")
    print(
        f"review+writer output tokens: {out_before} -> {out_after} "
        f"({100 * (out_before - out_after) / max(out_before, 1):.0f}% fewer)"
    )
    print(
        f"wall time (concurrent): {before['wall_s']:.2f} s -> {after['wall_s']:.2f} s "
        f"({100 * (before['wall_s'] - after['wall_s']) / before['wall_s']:.0f}% less)"
    )


def _print_seed(seed: Mapping[str, Any], today: Mapping[str, Any]) -> None:
    """The seed loop's run beside today's concurrent run (same world, same latencies)."""
    print(
        f"\nseed loop ({seed['revision']}, cite text, concurrent): {seed['rounds']} rounds, {seed['sources']} sources, "
        f"{seed['calls']} model calls, {seed['out_tokens']} output tokens, stop {seed['stop']}, "
        f"floor {seed['floor_s']:.2f} s"
    )
    out = today.get("review_out", 0) + today.get("writer_out", 0)
    print(
        f"today (cite {today['cite']}, concurrent): {today['rounds']} rounds, {today['sources']} sources, "
        f"{today['calls']} model calls, {out} review+writer output tokens, floor {today['floor_s']:.2f} s"
    )
    print(
        f"wall time: seed {seed['wall_s']:.2f} s, today {today['wall_s']:.2f} s, "
        f"today / seed {today['wall_s'] / seed['wall_s']:.2f} (goal at most 0.80)"
    )


def add_path_switches(parser: argparse.ArgumentParser) -> None:
    """The switches of today's path both research benchmarks take: drafting every round, the review prompt."""
    parser.add_argument(
        "--draft-every-round", action="store_true", help="also draft rounds whose review asks for more searching"
    )
    parser.add_argument(
        "--review-prompt",
        choices=prompts.REVIEW_PROMPT_VERSIONS,
        default=prompts.REVIEW_PROMPT_VERSION,
        help="the reviewer's prompt (review-v4: the JSON reply of before, to compare)",
    )


def add_cache_switch(parser: argparse.ArgumentParser) -> None:
    """``--cache``: today's runs without the cache (as measured before it could search ahead), with it
    (``citewise research``'s default), or both."""
    parser.add_argument(
        "--cache",
        choices=("off", "on", "both"),
        default="both",
        help="today's runs without the store's cache, with it (citewise research's default), or both (default)",
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cite", choices=(*CITE_MODES, "both"), default="both", help="how the models cite")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every fake-server wait")
    parser.add_argument("--no-sequential", action="store_true", help="skip the sequential run")
    parser.add_argument("--verify-off", action="store_true", help="also run without verified delivery, to compare")
    parser.add_argument(
        "--seed",
        metavar="REV",
        default=SEED_REVISION,
        help=f"the earlier revision to compare with, in the same run (default {SEED_REVISION}, the seed loop)",
    )
    parser.add_argument("--no-seed", action="store_true", help="skip the seed loop's run")
    parser.add_argument("--no-speculate", action="store_true", help="draft only after each review")
    parser.add_argument("--no-stream", action="store_true", help="do not stream the writer's drafts")
    add_path_switches(parser)
    add_cache_switch(parser)
    parser.add_argument(
        "--paraphrase", action="store_true", help="the writer paraphrases its leads: each run pays a revision"
    )
    args = parser.parse_args(argv)
    latencies = Latencies().scaled(args.scale)
    leads = PARAPHRASED if args.paraphrase else LEADS
    modes = CITE_MODES if args.cite == "both" else (args.cite,)
    with tempfile.TemporaryDirectory() as tmp:
        path = {"speculate": not args.no_speculate, "stream": not args.no_stream}
        path["draft_every_round"] = args.draft_every_round
        path["review_prompt"] = args.review_prompt
        off = args.cache in ("off", "both")
        runs = [
            run_once(True, Path(tmp), latencies=latencies, cite=mode, leads=leads, cache=not off, **path)
            for mode in modes
        ]
        cached = None
        if args.cache == "both":  # citewise research's default path: the cache on (a new store, every call a miss)
            cached = run_once(True, Path(tmp), latencies=latencies, cite=modes[-1], leads=leads, cache=True, **path)
        if not args.no_sequential:
            sequential = run_once(
                False, Path(tmp), latencies=latencies, cite=modes[-1], leads=leads, cache=not off, **path
            )
            runs.append(sequential)
        unverified = None
        if args.verify_off:
            unverified = run_once(True, Path(tmp), latencies=latencies, cite=modes[-1], verify=False)
            runs.append(unverified)
        seed = None if args.no_seed else run_seed(args.seed, Path(tmp), latencies, leads=leads)
    _print([*runs, cached] if cached is not None else runs)
    first = runs[0]
    print(f"\nstage timeline (cite {first['cite']}, {'concurrent' if first['concurrent'] else 'sequential'}):")
    for label, seconds in first["timeline"]:
        print(f"  {label:<28} {seconds:6.2f} s")
    print(f"  critical-path floor from the fake's latencies: {first['floor_s']:.2f} s")
    calls = ", ".join(f"{purpose} {tokens}" for purpose, tokens in first["per_call_out"])
    print(f"output tokens per model call, in order: {calls}")
    if not args.no_sequential:
        concurrent = runs[len(modes) - 1]
        print(f"\nsequential / concurrent wall time: {sequential['wall_s'] / concurrent['wall_s']:.2f}")
        overhead = concurrent["wall_s"] - concurrent["floor_s"]
        print(f"non-network overhead (concurrent run, wall minus floor): {overhead:.2f} s")
    if len(modes) == 2:
        _compare(runs[0], runs[1])
    for r in runs:
        if r.get("revise_out"):
            print(
                f"\nrevision output tokens ({r['cite']}, {'concurrent' if r['concurrent'] else 'sequential'}): "
                f"{r['revise_out']} against the revised draft's {r.get('last_draft_out', 0)} "
                f"({r['revise_out'] / max(r.get('last_draft_out', 0), 1):.2f} of it)"
            )
    if seed is not None:
        _print_seed(seed, runs[len(modes) - 1])
        if cached is not None:
            print(
                f"default path ({_path(cached)}): today {cached['wall_s']:.2f} s, floor {cached['floor_s']:.2f} s, "
                f"today / seed {cached['wall_s'] / seed['wall_s']:.2f}"
            )
    elif cached is not None:
        print(f"\ndefault path ({_path(cached)}): {cached['wall_s']:.2f} s, floor {cached['floor_s']:.2f} s")
    if unverified is not None:
        verified = runs[len(modes) - 1]
        print(
            f"\nverified delivery on vs off (concurrent, cite {modes[-1]}): wall {verified['wall_s']:.2f} s vs "
            f"{unverified['wall_s']:.2f} s, model calls {verified['calls']} vs {unverified['calls']}, writer output "
            f"tokens {verified.get('writer_out', 0)} vs {unverified.get('writer_out', 0)}"
        )


if __name__ == "__main__":
    main()
