"""The research loop's test harness: a scripted web behind the fake Tavily, a scripted planner and
writer behind the fake OpenAI-compatible endpoint, and the ``env`` fixture that wires real clients
to both (SPEC 2, 4, 5.1). Tests import what they use from here; the fakes answer from the request
body, so the order in which concurrent calls arrive cannot change an outcome.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from citewise.audit.events import EventKind, ReportMade, RunFailed
from citewise.config import Secret
from citewise.llm import ChatClient, ModelSettings
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.budget import Budget
from citewise.research.loop import ResearchResult, research
from citewise.research.prompts import REVIEW_V5_SYSTEM_PROMPT, REVIEW_V6_SYSTEM_PROMPT, REVIEW_V7_SYSTEM_PROMPT
from citewise.research.settings import ResearchSettings
from citewise.serial import to_data
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.testing.fake_openai import FakeError, FakeOpenAIServer, FakeReply
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply, FakeTavilyError, FakeTavilyServer
from tests.conftest import REPO

TAVILY_KEY = "tvly-secret-loop-7f3a9c11"
MODEL_KEY = "sk-secret-loop-91b2e4d0"
PLANNER = "planner-x"
WRITER = "writer-y"
QUESTION = "How are rental deposits protected?"
TOPICS = ["Which law protects rental deposits?", "How is a deposit returned?"]
SAMPLE = REPO / "examples" / "corpus"


# -- the scripted web behind the fake Tavily ------------------------------------------------------


def page(name: str) -> str:
    return f"# {name}\n\nFact about {name}: deposits are protected here.\n\nMore background on {name}."


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "q"


def title_of(url: str) -> str:
    """A page's title (no URL in it: the models must never see one)."""
    return "Page " + slug(url.split("://", 1)[1])


@dataclass
class Web:
    """Tavily's answers, chosen by the request body.

    ``hits``: query -> result URLs; a query not listed gets one fresh page of its own
    (``https://auto.example/<slug>``). ``pages``: URL -> text (``""`` is an empty page); a URL
    without a page fails to extract. ``search_errors``: query -> errors served before the answer.
    """

    hits: dict[str, list[str]] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    search_errors: dict[str, list[FakeTavilyError]] = field(default_factory=dict)

    def search(self, body: Any) -> FakeSearchReply | FakeTavilyError:
        query = body["query"]
        if self.search_errors.get(query):
            return self.search_errors[query].pop(0)
        if query not in self.hits:
            url = f"https://auto.example/{slug(query)}"
            self.hits[query] = [url]
            self.pages.setdefault(url, page(f"auto {query}"))
        results = [{"url": u, "title": f"Title {u}", "content": f"SNIPPET {u}"} for u in self.hits[query]]
        return FakeSearchReply(results)

    def extract(self, body: Any) -> FakeExtractReply:
        urls = list(body["urls"])
        found = [{"url": u, "raw_content": self.pages[u], "title": title_of(u)} for u in urls if u in self.pages]
        failed = [{"url": u, "error": "Failed to fetch url"} for u in urls if u not in self.pages]
        return FakeExtractReply(found, failed)


# -- the scripted models behind the fake OpenAI endpoint ------------------------------------------

Step = Any  # a dict (sent as JSON), a str, a FakeReply/FakeError, or a callable of the request data


def purpose_of(body: Mapping[str, Any]) -> str:
    system = body["messages"][0]["content"]
    if "This is a repair." in system:
        return "repair"
    if "This is a revision." in system:
        return "revise"
    if system.startswith("You plan web research"):
        return "plan"
    if system.startswith("You review whether"):
        return "review"
    if system.startswith("You write a research report"):
        return "write"
    raise AssertionError(f"unknown prompt: {system[:60]!r}")


@dataclass
class Brain:
    """What the planner, reviewer and writer answer, per purpose. Each purpose's steps are served in
    order and the last one repeats; a callable gets the decoded user message (the data the model sees)."""

    steps: dict[str, deque[Step]] = field(
        default_factory=lambda: {p: deque() for p in ("plan", "review", "write", "repair", "revise")}
    )
    seen: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def script(self, purpose: str, *steps: Step) -> None:
        self.steps[purpose].extend(steps)

    def __call__(self, body: Any) -> FakeReply | FakeError:
        purpose = purpose_of(body)
        data = json.loads(body["messages"][-1]["content"])
        self.seen.append((purpose, data))
        queue = self.steps[purpose]
        if not queue:
            return FakeError(500, f"nothing scripted for {purpose}", "server_error")
        step = queue.popleft() if len(queue) > 1 else queue[0]
        if callable(step):
            step = step(data)
        if isinstance(step, FakeReply | FakeError):
            return step
        if isinstance(step, dict):
            system = body["messages"][0]["content"]
            line_prompts = (REVIEW_V6_SYSTEM_PROMPT, REVIEW_V5_SYSTEM_PROMPT, REVIEW_V7_SYSTEM_PROMPT)
            asked_for_lines = purpose == "review" and system in line_prompts
            gaps_first, query_first = (
                system in (REVIEW_V6_SYSTEM_PROMPT, REVIEW_V7_SYSTEM_PROMPT),
                system == line_prompts[2],
            )
            lines = review_lines(step, gaps_first=gaps_first, query_first=query_first) if asked_for_lines else None
            return FakeReply(lines if lines is not None else json.dumps(step))
        return FakeReply(step)

    def calls(self, purpose: str) -> list[dict[str, Any]]:
        return [data for p, data in self.seen if p == purpose]


_TOPIC_ID = re.compile(r"T\d+")
_STATUSES = ("covered", "weak", "conflicting", "missing")


def _one_line(text: object) -> bool:
    """Whether ``text`` reads back from a line as it is: one line, no "|", whitespace as the line
    reader folds it, and not a word the reader takes for "none" nor only sentence ids (read as cited)."""
    if not isinstance(text, str) or "|" in text or text != " ".join(text.split()):
        return False
    return text.casefold() not in ("", "-", "none", "null") and not all(
        re.fullmatch(r"S\d+\.\d+", t) for t in re.split(r"[\s,;\[\]]+", text) if t
    )


def review_lines(reply: Mapping[str, Any], *, gaps_first: bool = False, query_first: bool = False) -> str | None:
    """A review written as a JSON object (review-v4's shape) as the same judgements in review-v5's
    lines (``T1 covered S1.2``, ``T2 missing: <gap> | query: <query>``, ``T1 quote S2: <text>``), the
    way a reviewer asked by review-v5 answers, or with ``gaps_first`` as one asked by review-v6 does
    (the topics not covered first), with ``query_first`` too as one asked by review-v7 does
    (``T2 missing | query: <query> | gap: <gap>``); None when the lines could not say exactly the same (a topic not
    given by id, an unknown status, a gap or query that would not fit on its line), so the JSON is
    sent as it is and read by the line prompts' JSON fallback."""
    items = reply.get("topics") if set(reply) == {"topics"} else None
    if not isinstance(items, list) or not items:
        return None
    if gaps_first:
        items = sorted(items, key=lambda item: isinstance(item, dict) and item.get("status") == "covered")
    out, quotes = [], []
    for item in items:
        if not isinstance(item, dict) or not _TOPIC_ID.fullmatch(str(item.get("topic", ""))):
            return None
        topic, status = item["topic"], item.get("status")
        ids, given = item.get("sentence_ids") or [], item.get("quotes") or []
        gap, query = item.get("gap"), item.get("follow_up_query")
        if status not in _STATUSES or not all(isinstance(i, str) and re.fullmatch(r"S\d+\.\d+", i) for i in ids):
            return None
        if any(v is not None and not _one_line(v) for v in (gap, query)) or (query is not None and gap is None):
            return None
        line = " ".join([topic, status, *ids])
        if query_first and query is not None:
            out.append(f"{line} | query: {query}" + (f" | gap: {gap}" if gap is not None else ""))
            continue
        line += f": {gap}" if gap is not None else ""
        out.append(line + (f" | query: {query}" if query is not None else ""))
        for quote in given:
            text = quote.get("quote") if isinstance(quote, dict) else None
            if not isinstance(text, str) or not text.strip() or "\n" in text or not _one_line(quote.get("source_id")):
                return None
            quotes.append(f"{topic} quote {quote['source_id']}: {text}")
    return "\n".join([*out, *quotes])


def plan_reply(topics: Sequence[str] = TOPICS, queries: Sequence[str] = ("rental deposit law",)) -> dict[str, Any]:
    return {"topics": list(topics), "queries": list(queries)}


def fact_of(source: Mapping[str, Any]) -> str:
    """The id of the "Fact about ..." sentence of a source's excerpt (as the reviewer saw it)."""
    sentences: Mapping[str, str] = source["sentences"]
    return next((i for i, text in sentences.items() if text.startswith("Fact about")), next(iter(sentences)))


def verdict(
    data: Mapping[str, Any],
    *,
    missing: Mapping[int, str | None] | None = None,
    invented: Sequence[int] = (),
    invented_ids: Sequence[int] = (),
) -> dict[str, Any]:
    """A review of every topic the reviewer was given: covered by a cited sentence (topic i from
    source i, or the last source), except ``missing`` (topic index -> follow-up query), ``invented``
    (covered, with a quote given as text that is in no source) and ``invented_ids`` (covered, citing
    a sentence id the source does not have)."""
    missing = missing or {}
    sources = data["sources"]
    items = []
    for i, topic in enumerate(data["topics"]):
        if i in missing:
            items.append(
                {
                    "topic": topic,
                    "status": "missing",
                    "sentence_ids": [],
                    "quotes": [],
                    "gap": "no primary source",
                    "follow_up_query": missing[i],
                }
            )
            continue
        source = sources[min(i, len(sources) - 1)]
        quote = {"source_id": source["id"], "quote": "Deposits are fully insured by the central bank."}
        cited = [f"{source['id']}.99"] if i in invented_ids else [fact_of(source)]
        items.append(
            {
                "topic": topic,
                "status": "covered",
                "sentence_ids": [] if i in invented else cited,
                "quotes": [quote] if i in invented else [],
                "gap": None,
                "follow_up_query": None,
            }
        )
    return {"topics": items}


def covered(data: Mapping[str, Any]) -> dict[str, Any]:
    return verdict(data)


def revision_lines(answers: Sequence[tuple[str, str | None]]) -> str:
    """A revision reply (revise-v3): one ``R1: replacement`` line per sentence, ``R1: -`` to remove it."""
    return "\n".join(f"{ident}: {'-' if text is None else text}" for ident, text in answers)


def revise_by(fix: Any) -> Any:
    """A reviser (the writer's revision call): ``fix(sentence)`` gives each failed sentence's
    replacement, or None to remove it."""
    return lambda data: revision_lines([(s["id"], fix(s["sentence"])) for s in data["sentences"]])


insist = revise_by(lambda sentence: sentence)  # the writer sends its sentences back unchanged
drop = revise_by(lambda sentence: None)  # the writer removes every failed sentence


def draft_citing(*ids: str, extra: str = "") -> str:
    body = "\n\n".join(f"## Topic {n}\n\nDeposits are protected here [{i}]." for n, i in enumerate(ids, 1))
    return body + extra


# -- the harness ------------------------------------------------------------------------------------


@dataclass
class Env:
    store: EvidenceStore
    tavily: FakeTavilyServer
    model: FakeOpenAIServer
    web: Web
    brain: Brain
    search: TavilySearch
    extract: TavilyExtract
    client: ChatClient

    def settings(self, budget: Budget | None = None, **options: Any) -> ResearchSettings:
        values: dict[str, Any] = {
            "search": self.search,
            "extractor": self.extract,
            "budget": budget or Budget(),
            "client": self.client,
            "planner_model": PLANNER,
            "writer_model": WRITER,
            "sleep": lambda seconds: None,  # bounded retries wait; tests need not
        }
        values.update(options)
        return ResearchSettings(**values)

    def run(self, question: str = QUESTION, budget: Budget | None = None, **options: Any) -> ResearchResult:
        return research(self.store, question, self.settings(budget, **options))

    def searched(self) -> list[str]:
        return [r.json["query"] for r in self.tavily.requests if r.path.rstrip("/") == "/search"]

    def extracted(self) -> list[str]:
        return [u for r in self.tavily.requests if r.path.rstrip("/") == "/extract" for u in r.json["urls"]]

    def record(self, run_id: str) -> RunRecord:
        return RunStore(self.store).get(run_id)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    web, brain = Web(), Brain()
    with (
        EvidenceStore.open(str(tmp_path / "s.sqlite")) as store,
        FakeTavilyServer(api_key=TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY) as model,
    ):
        model.responder = brain
        tavily_settings = TavilySettings(api_key=Secret(TAVILY_KEY), base_url=tavily.base_url, timeout_s=10)
        model_settings = ModelSettings(api_key=Secret(MODEL_KEY), base_url=model.base_url, timeout_s=10)
        with TavilyConnection(tavily_settings) as connection, ChatClient(model_settings) as client:
            yield Env(
                store,
                tavily,
                model,
                web,
                brain,
                TavilySearch(connection=connection),
                TavilyExtract(connection=connection),
                client,
            )


# The steps of a run under short names, each a typed event read as data (model_call_started events,
# which only make a crash during a model call visible, are left out of these lists).
STAGES = {
    EventKind.RUN_CONFIGURED: "settings",
    EventKind.PLAN_MADE: "plan",
    EventKind.ROUND_STARTED: "round_start",
    EventKind.ATTEMPT_STARTED: "attempt_start",
    EventKind.ATTEMPT_ENDED: "attempt",
    EventKind.ATTEMPT_INTERRUPTED: "attempt_interrupted",
    EventKind.SKIPPED: "skip",
    EventKind.SOURCE_STORED: "source",
    EventKind.COLLECTION_ENDED: "collected",
    EventKind.REVIEW_MADE: "review",
    EventKind.DRAFT_MADE: "draft",
    EventKind.ROUND_ENDED: "round_end",
    EventKind.MODEL_CALL_ENDED: "model_call",
    EventKind.MODEL_CALL_INTERRUPTED: "model_call_interrupted",
    EventKind.MODEL_RETRIED: "model_retry",
    EventKind.REPAIR_ASKED: "repair",
    EventKind.RUN_RESUMED: "resume",
    EventKind.REPORT_MADE: "report",
    EventKind.RUN_FAILED: "failed",
    EventKind.VERIFIED: "verified",
}


def stages(record: RunRecord) -> list[str]:
    return [STAGES[e.event.kind] for e in record.events if e.event.kind in STAGES]


def payloads(record: RunRecord, stage: str) -> list[dict[str, Any]]:
    return [to_data(e.event) for e in record.events if STAGES.get(e.event.kind) == stage]


def report_of(record: RunRecord) -> ReportMade:
    report = record.last(ReportMade)
    assert report is not None, "the run recorded no report"
    return report


def failure_of(record: RunRecord) -> str:
    failed = record.last(RunFailed)
    assert failed is not None, "the run recorded no failure"
    return failed.error


def attempts(record: RunRecord, kind: str | None = None) -> list[dict[str, Any]]:
    found = [p["attempt"] for p in payloads(record, "attempt")]
    return [a for a in found if kind is None or a["kind"] == kind]


def two_pages(env: Env, query: str = "rental deposit law") -> tuple[str, str]:
    a, b = "https://law.example/deposits", "https://gov.example/return"
    env.web.hits[query] = [a, b]
    env.web.pages.update({a: page("the deposit act"), b: page("deposit returns")})
    return a, b


def report_body(markdown: str) -> str:
    """The writer's part of a report: between the title and the gaps section."""
    return markdown.split("## Gaps and limitations")[0]
