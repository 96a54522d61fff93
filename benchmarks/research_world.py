"""The fake world of the research benchmark: the web pages, the search and extraction answers, and
the scripted models, with the shipped latency profile.

It is used by :mod:`research_loop` in its own process and serves every revision the benchmark runs:
today's code in process, and an earlier revision (the seed loop) in a subprocess that talks to the
same loopback servers, so both meet the same pages, the same model judgements and the same waits.
It imports nothing from citewise but the fake servers' reply types.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citewise.testing import FakeReply
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply

__all__ = ["FACTS", "LEADS", "PARAPHRASED", "QUESTION", "TOPICS", "Latencies", "Model", "Prompts", "Web", "page_text"]


@dataclass(frozen=True)
class Prompts:
    """How the scripted model tells a plan request from a review request: the first 200 characters
    of the planner's and the reviewer's system prompts of the revision under test."""

    plan: str
    review: str

    @classmethod
    def today(cls) -> Prompts:
        from citewise.research import prompts

        return cls(prompts.PLAN_SYSTEM_PROMPT[:200], prompts.REVIEW_SYSTEM_PROMPT[:200])


QUESTION = "How did deposit protection rules for tenants change, and what do they cost landlords?"
TOPICS = ["What changed in deposit protection rules?", "What do the rules cost landlords?", "When did they apply?"]
CITE_MODES = ("text", "reference")

# What the pages say. Each page carries one sentence of each topic (which one alternates) among
# sentences that answer nothing, so the reviewer has to pick.
FACTS = (
    (
        "Deposit protection rules changed in 2024, when every tenancy deposit had to be registered with an "
        "approved scheme within 30 days of receipt.",
        "The 2024 reform also obliged landlords to give tenants the scheme's name, the deposit amount and the "
        "dispute procedure in writing.",
    ),
    (
        "Landlords pay a registration fee of 15 pounds per deposit, and insured schemes charge an annual "
        "membership fee of about 50 pounds.",
        "A landlord who fails to protect a deposit can be ordered to pay the tenant up to three times the "
        "deposit amount.",
    ),
)
LEADS = ("Deposit protection rules changed in 2024", "Landlords pay a registration fee of 15 pounds per deposit")
# --paraphrase: leads a lexical check cannot match to their sentence, so verification sends them back
PARAPHRASED = ("Safeguards for renters' money were overhauled", "Owners owe a modest sum for every sum they hold")
FILLER = (
    "The agency publishes guidance for tenants and landlords on its website every spring.",
    "Local councils run advice lines that answer questions about repairs, rent increases and notices.",
    "Letting agents who are members of a redress scheme must display its logo in their offices.",
    "Most disputes about cleaning and damage are settled without a hearing.",
)


def _queries_first(request: Mapping[str, Any], system: str) -> bool:
    """Whether the planner is asked for its queries before its topics: the order of the structured
    output schema's properties when one is sent (a model writes them in that order), else the order
    of the reply the instructions show."""
    schema = (request.get("response_format") or {}).get("json_schema", {}).get("schema", {})
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if isinstance(properties, Mapping) and properties:
        return next(iter(properties)) == "queries"
    return '{"queries"' in system


def page_text(url: str, n: int) -> str:
    """Page ``n`` of a query: a heading and two paragraphs, each with one fact among filler."""
    first, second = FACTS[0][n % 2], FACTS[1][(n + 1) % 2]
    return (
        f"# Deposit protection guide {n}\n\n"
        f"{FILLER[n % 4]} {first} {FILLER[(n + 1) % 4]}\n\n"
        f"{FILLER[(n + 2) % 4]} {second} This page was prepared for {url}."
    )


@dataclass(frozen=True)
class Latencies:
    """How long the fake servers take to answer."""

    search_s: float = 0.8
    """Per search call."""
    extract_s: float = 1.5
    """Per extraction call."""
    model_s: float = 3.0
    """Per model call, before the output tokens."""
    tokens_per_s: float = 50.0
    """Model output speed."""

    def scaled(self, factor: float) -> Latencies:
        """Every wait multiplied by ``factor`` (a quick run keeps the shape of a real one)."""
        return Latencies(
            self.search_s * factor, self.extract_s * factor, self.model_s * factor, self.tokens_per_s / factor
        )


class Web:
    """Five results per search; the pages of :func:`page_text`."""

    def __init__(self, latencies: Latencies) -> None:
        self.latencies = latencies

    def search(self, request: Any) -> FakeSearchReply:
        query = str(request.get("query", ""))
        slug = "-".join(query.lower().split())[:48]
        results = [
            {
                "url": f"https://news.example/{slug}/{n}",
                "title": f"{query} {n}",
                "content": f"snippet {n}",
                "score": 0.9,
            }
            for n in range(1, 6)
        ]
        return FakeSearchReply(results, delay=self.latencies.search_s)

    def extract(self, request: Any) -> FakeExtractReply:
        urls = request.get("urls", [])
        pages = [{"url": u, "raw_content": page_text(u, int(u.rsplit("/", 1)[1]))} for u in urls]
        return FakeExtractReply(pages, delay=self.latencies.extract_s)


def _sentences(source: Mapping[str, Any]) -> dict[str, str]:
    """A source as the model sees it: its numbered sentences, or (before sentence ids) its content."""
    if "sentences" in source:
        return dict(source["sentences"])
    # Before sentence ids there were none to cite: the keys are placeholders, only the text is used.
    return {
        f"{source['id']}.?{n}": fact
        for n, fact in enumerate(f for pair in FACTS for f in pair)
        if fact in " ".join(source["content"].split())
    }


def _support(sources: Sequence[Mapping[str, Any]], topic: int) -> list[tuple[str, str, str]]:
    """``(source id, sentence id, text)`` of the first source stating each sentence of ``topic``."""
    found: list[tuple[str, str, str]] = []
    for fact in FACTS[topic]:
        for source in sources:
            hit = next((i for i, text in _sentences(source).items() if text == fact), None)
            if hit is not None:
                found.append((source["id"], hit, fact))
                break
    return found


def _revise(items: Sequence[Mapping[str, Any]], lines: bool) -> str:
    """A targeted revision: each failed sentence replaced by a quote of its first evidence sentence
    that states a fact of a topic, or removed; as lines (revise-v3) or as JSON (revise-v2)."""
    facts = {f for pair in FACTS for f in pair}
    answers = []
    for item in items:
        quoted = next((i for i, text in item["evidence"].items() if text in facts), None)
        answers.append((item["id"], f"{{{{{quoted}}}}}" if quoted else None))
    if lines:
        return "\n".join(f"{ident}: {text or '-'}" for ident, text in answers)
    return json.dumps({"revisions": [{"id": ident, "replacement": text} for ident, text in answers]})


_EXAMPLE_COVERED = re.compile(r"^T\d+ covered\b", re.MULTILINE)
_EXAMPLE_GAP = re.compile(r"^T\d+ \w+.*\| query:", re.MULTILINE)
_EXAMPLE_QUERY_FIRST = re.compile(r"^T\d+ \w+[^\n:]*\| query:[^\n]*\| gap:", re.MULTILINE)


def _query_first(system: str) -> bool:
    """Whether the instructions' example gap lines give the query before the gap (review-v7)."""
    return _EXAMPLE_QUERY_FIRST.search(system) is not None


def _gaps_first(system: str) -> bool:
    """Whether the reviewer is asked for the lines of the topics not covered before the covered ones:
    the order of the example lines the instructions show (review-v6 shows a gap line first, review-v5
    a covered line), which is the order a model follows."""
    covered, gap = _EXAMPLE_COVERED.search(system), _EXAMPLE_GAP.search(system)
    return covered is not None and gap is not None and gap.start() < covered.start()


def _review_lines(review: Mapping[str, Any], gaps_first: bool = False, query_first: bool = False) -> str:
    """The judgements of a JSON review (v4 shape) written as review-v5 lines: ``T1 covered S1.2``,
    ``T3 missing: <gap> | query: <query>``, and ``T1 quote S2: <text>`` for each quote; in topic
    order, or with ``gaps_first`` the topics not covered first (each order kept among its own); with
    ``query_first`` a gap line as review-v7 asks, ``T3 missing | query: <query> | gap: <gap>``."""
    lines, quotes = [], []
    items = review["topics"]
    if gaps_first:
        items = sorted(items, key=lambda item: item["status"] == "covered")
    for item in items:
        line = " ".join([item["topic"], item["status"], *item.get("sentence_ids", [])])
        if query_first and item["follow_up_query"] is not None:
            gap = f" | gap: {item['gap']}" if item["gap"] is not None else ""
            lines.append(f"{line} | query: {item['follow_up_query']}{gap}")
            quotes += [f"{item['topic']} quote {q['source_id']}: {q['quote']}" for q in item["quotes"]]
            continue
        if item["gap"] is not None:
            line += f": {item['gap']}"
        if item["follow_up_query"] is not None:
            line += f" | query: {item['follow_up_query']}"
        lines.append(line)
        quotes += [f"{item['topic']} quote {q['source_id']}: {q['quote']}" for q in item["quotes"]]
    return "\n".join([*lines, *quotes])


class Model:
    """Plans, reviews (one topic always missing, with a new follow-up) and writes, citing by ``cite``."""

    def __init__(
        self, latencies: Latencies, cite: str, leads: Sequence[str] = LEADS, prompts: Prompts | None = None
    ) -> None:
        self.prompts = prompts or Prompts.today()
        self.leads = leads
        self.reviews = 0
        self.delay = latencies.model_s
        self.cite = cite

    def __call__(self, request: Any) -> FakeReply:
        system = request["messages"][0]["content"]
        data = json.loads(request["messages"][-1]["content"])
        if "This is a revision." in system and "sentences" in data:
            lines = "one line per sentence" in system  # revise-v3 and later
            return FakeReply(_revise(data["sentences"], lines), delay=self.delay)
        if "This is a repair." in system or "This is a revision." in system:  # revise-v1: the whole draft back
            return FakeReply(data["draft"], delay=self.delay)
        if system.startswith(self.prompts.plan) and "topics" not in data:
            queries = ["deposit protection 2024", "landlord fee", "tenant rules"]
            body: Any = {"topics": TOPICS, "queries": queries}
            if _queries_first(request, system):  # the fields in the order the prompt (or schema) asks
                body = {"queries": queries, "topics": TOPICS}
            return FakeReply(json.dumps(body), delay=self.delay)
        if system.startswith(self.prompts.review):
            self.reviews += 1
            review = self._review(data["sources"], data["topics"])
            lines = "one line per topic" in system  # review-v5 and later
            reply = _review_lines(review, _gaps_first(system), _query_first(system)) if lines else json.dumps(review)
            return FakeReply(reply, delay=self.delay)
        return FakeReply(self._write(data), delay=self.delay)

    def _review(self, sources: Sequence[Mapping[str, Any]], given: Any) -> dict[str, Any]:
        """The review, naming each topic as it was given: by its id (review-v4, topics given as
        ``{"T1": ...}``) or by its text (a list of topics, before)."""
        names = list(given) if isinstance(given, Mapping) else TOPICS
        items = []
        for topic in range(2):
            support = _support(sources, topic)
            item: dict[str, Any] = {"topic": names[topic], "status": "covered"}
            if self.cite == "reference":
                item |= {"sentence_ids": [sid for _, sid, _ in support], "quotes": []}
            else:
                ids = list(dict.fromkeys(src for src, _, _ in support))
                item |= {"source_ids": ids, "quotes": [{"source_id": src, "quote": t} for src, _, t in support]}
            items.append(item | {"gap": None, "follow_up_query": None})
        follow_up = f"deposit rules effective date {self.reviews}"
        missing = {
            "topic": names[-1],
            "status": "missing",
            "quotes": [],
            "gap": "no date",
            "follow_up_query": follow_up,
        }
        missing |= {"sentence_ids": []} if self.cite == "reference" else {"source_ids": []}
        return {"topics": [*items, missing]}

    def _write(self, data: Mapping[str, Any]) -> str:
        """One section per covered topic: a lead sentence, then each supporting sentence — restated
        with ``[S#]`` (text), or quoted by id (reference)."""
        sources = data["sources"]
        blocks = []
        for topic in range(2):
            support = _support(sources, topic)
            if not support:
                continue
            lines = [f"## {TOPICS[topic]}", ""]
            if self.cite == "reference":
                quotes = [f"- {{{{{sid}}}}}" for _, sid, _ in support]
                lines += [f"{self.leads[topic]} [{support[0][1]}].", "", *quotes]
            else:
                lines += [
                    f"{self.leads[topic]} [{support[0][0]}].",
                    "",
                    *(f"- {t[:-1]} [{src}]." for src, _, t in support),
                ]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)
