"""The same-evidence experiment (SPEC 6): one frozen evidence pack per question, the identical pack
given to every configuration, every report verified by the same ledger.

Configurations ("contenders") are a single model doing plan, review and writing (the baseline), and
split planner/writer pairs. Each (question, contender) cell is one ordinary research run over the
pack (:mod:`citewise.eval.pack`), recorded like any run, scored from its audit record
(:mod:`citewise.eval.metrics`). Cells run concurrently (``concurrency``), the result is stored after
every cell, and an interrupted experiment resumes with the cells it still lacks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from threading import Lock
from typing import Any

from citewise.errors import InputError
from citewise.eval.metrics import RunScore, score_run
from citewise.eval.pack import EvidencePack, PackExtractor, PackSearch
from citewise.eval.questions import QuestionSet
from citewise.prices import PriceTable
from citewise.records.budget import Budget
from citewise.research.settings import ResearchSettings
from citewise.store.evaluations import EvaluationStore
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore

__all__ = [
    "END_TO_END",
    "run_end_to_end",
    "Cell",
    "Contender",
    "ContenderSummary",
    "cell_data",
    "cell_from_data",
    "contenders",
    "run_same_evidence",
    "summarize",
]

SAME_EVIDENCE = "same-evidence"
END_TO_END = "end-to-end"


@dataclass(frozen=True, slots=True)
class Contender:
    """One configuration under test."""

    label: str
    planner_model: str
    writer_model: str


def contenders(writers: Sequence[str], planner: str | None = None) -> list[Contender]:
    """Every writer alone (plans, reviews and writes), and with ``planner`` planning when given."""
    found: list[Contender] = []
    for writer in dict.fromkeys(w.strip() for w in writers if w.strip()):
        found.append(Contender(f"single {writer}", writer, writer))
        if planner and planner != writer:
            found.append(Contender(f"{planner} + {writer}", planner, writer))
    return found


@dataclass(frozen=True, slots=True)
class Cell:
    """One question under one contender."""

    question_id: str
    contender: str
    pack_digest: str
    score: RunScore | None = None
    error: str | None = None
    """Why the run produced no score (it failed; its evidence stays recorded)."""


@dataclass(frozen=True, slots=True)
class ContenderSummary:
    """One contender over the whole set."""

    label: str
    planner_model: str
    writer_model: str
    questions: int
    accepted: int
    citation_support_rate: float | None
    unsupported: int
    unmapped: int
    valid_citation_rate: float | None
    subquestions_answered: float | None
    query_relevance: float | None
    sources_per_accepted: float | None
    tokens: int
    mean_latency_s: float
    cost_usd: Decimal
    cost_per_accepted_usd: Decimal | None
    pack_digests: tuple[str, ...]
    """Every pack the contender saw (identical across contenders in a same-evidence run)."""
    failed: int = 0
    mean_sites: float | None = None
    """Distinct sites per report, averaged over the contender's reports."""
    largest_site_share: float | None = None
    """The largest site's share of a report's sources, averaged over the reports that have sources."""


@dataclass
class _Progress:
    total: int
    done: int = 0
    lock: Lock = field(default_factory=Lock)


def run_same_evidence(
    store: EvidenceStore,
    qset: QuestionSet,
    packs: dict[str, EvidencePack],
    chosen: Sequence[Contender],
    client: Any,
    *,
    budget: Budget,
    prices: PriceTable,
    concurrency: int = 4,
    resume: str | None = None,
    progress: Callable[[int, int, Cell], None] | None = None,
) -> tuple[str, list[Cell]]:
    """Run every missing cell; returns the evaluation id and every cell (resumed ones included)."""
    evaluations = EvaluationStore(store)
    settings_data = {
        "contenders": [asdict(c) for c in chosen],
        "budget": asdict(budget),
        "packs": {qid: p.digest for qid, p in packs.items()},
        "pack_runs": {qid: p.origin_run for qid, p in packs.items()},
        "started_at": datetime.now(UTC).isoformat(),
    }
    cells: list[Cell] = []
    if resume:
        stored = evaluations.get(resume)
        cells = [cell_from_data(c) for c in stored.result.get("cells", []) if c.get("score")]
        evaluation_id = resume
        recorded = stored.result.get("settings", {}).get("packs", {})
        changed = sorted(q for q, d in recorded.items() if q in packs and packs[q].digest != d)
        if changed:
            raise InputError(f"the evidence of {', '.join(changed)} differs from the packs of {resume}: not resumable")
    else:
        evaluation_id = evaluations.create(
            SAME_EVIDENCE, qset.path, qset.digest, {"settings": settings_data, "cells": []}
        )
    done = {(c.question_id, c.contender) for c in cells}
    todo = [(q, c) for q in qset.questions for c in chosen if (q.id, c.label) not in done and q.id in packs]
    state, lock = _Progress(len(todo)), Lock()

    def one(item: tuple[Any, Contender]) -> None:
        question, contender = item
        cell = _run_cell(store, question, packs[question.id], contender, client, budget, prices)
        with lock:
            cells.append(cell)
            evaluations.save(evaluation_id, {"settings": settings_data, "cells": [cell_data(c) for c in cells]})
            state.done += 1
            if progress is not None:
                progress(state.done, state.total, cell)

    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="citewise-eval") as pool:
        list(pool.map(one, todo))
    return evaluation_id, cells


def _run_cell(
    store: EvidenceStore,
    question: Any,
    pack: EvidencePack,
    contender: Contender,
    client: Any,
    budget: Budget,
    prices: PriceTable,
) -> Cell:
    from citewise.research.loop import research

    settings = ResearchSettings(
        search=PackSearch(pack),
        extractor=PackExtractor(pack),
        budget=budget,
        prices=prices,
        client=client,
        planner_model=contender.planner_model,
        writer_model=contender.writer_model,
        concurrent=False,
    )
    try:
        result = research(store, question.question, settings)
    except Exception as exc:  # noqa: BLE001 - one cell fails alone; its run keeps what it collected
        return Cell(question.id, contender.label, pack.digest, error=f"{type(exc).__name__}: {str(exc)[:200]}")
    record = RunStore(store).get(result.run_id)
    return Cell(question.id, contender.label, pack.digest, score_run(record, question.required_subquestions, prices))


def summarize(cells: Sequence[Cell], chosen: Sequence[Contender]) -> list[ContenderSummary]:
    """Per contender: rates over its cells, totals, cost per accepted report."""
    rows = []
    for contender in chosen:
        mine = [c for c in cells if c.contender == contender.label]
        scores = [c.score for c in mine if c.score is not None]
        accepted = sum(1 for s in scores if s.accepted)
        cost = sum((s.cost_usd for s in scores), Decimal(0))
        rows.append(
            ContenderSummary(
                label=contender.label,
                planner_model=contender.planner_model,
                writer_model=contender.writer_model,
                questions=len(mine),
                accepted=accepted,
                citation_support_rate=_rate(sum(s.supported for s in scores), sum(s.fact_claims for s in scores)),
                unsupported=sum(s.unsupported for s in scores),
                unmapped=sum(s.unmapped for s in scores),
                valid_citation_rate=_rate(sum(s.valid_cited for s in scores), sum(s.cited for s in scores)),
                subquestions_answered=_rate(sum(s.answered for s in scores), sum(s.subquestions for s in scores)),
                query_relevance=_rate(sum(s.relevant_queries for s in scores), sum(s.queries for s in scores)),
                sources_per_accepted=(sum(s.sources for s in scores) / accepted) if accepted else None,
                tokens=sum(s.tokens for s in scores),
                mean_latency_s=(sum(s.latency_s for s in scores) / len(scores)) if scores else 0.0,
                cost_usd=cost,
                cost_per_accepted_usd=(cost / accepted) if accepted else None,
                pack_digests=tuple(sorted({c.pack_digest for c in mine})),
                failed=sum(1 for c in mine if c.score is None),
                mean_sites=round(sum(s.sites for s in scores) / len(scores), 2) if scores else None,
                largest_site_share=_mean([s.largest_site_share for s in scores if s.sources]),
            )
        )
    return rows


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def cell_data(cell: Cell) -> dict[str, Any]:
    data = asdict(cell)
    if cell.score is not None:
        data["score"]["cost_usd"] = str(cell.score.cost_usd)
    return data


def cell_from_data(data: dict[str, Any]) -> Cell:
    score = dict(data["score"])
    score["cost_usd"] = Decimal(score["cost_usd"])
    return Cell(data["question_id"], data["contender"], data["pack_digest"], RunScore(**score), data.get("error"))


def run_end_to_end(
    store: EvidenceStore,
    qset: QuestionSet,
    engines: dict[str, Callable[[str], str]],
    *,
    prices: PriceTable,
    settings_data: dict[str, Any],
    concurrency: int = 4,
    resume: str | None = None,
    progress: Callable[[int, int, Cell], None] | None = None,
) -> tuple[str, list[Cell]]:
    """Each engine retrieves its own evidence for every question (``engines``: name -> a function
    researching a question and returning its run id); every run scored from its audit record.
    Returns the evaluation id and every cell (resumed ones included)."""
    evaluations = EvaluationStore(store)
    data = {**settings_data, "contenders": [asdict(Contender(name, name, name)) for name in engines]}
    cells: list[Cell] = []
    if resume:
        cells = [cell_from_data(c) for c in evaluations.get(resume).result.get("cells", []) if c.get("score")]
        evaluation_id = resume
    else:
        evaluation_id = evaluations.create(END_TO_END, qset.path, qset.digest, {"settings": data, "cells": []})
    done = {(c.question_id, c.contender) for c in cells}
    todo = [(q, name) for q in qset.questions for name in engines if (q.id, name) not in done]
    state, lock = _Progress(len(todo)), Lock()

    def one(item: tuple[Any, str]) -> None:
        question, name = item
        try:
            run_id = engines[name](question.question)
            record = RunStore(store).get(run_id)
            cell = Cell(question.id, name, "", score_run(record, question.required_subquestions, prices))
        except Exception as exc:  # noqa: BLE001 - one cell fails alone
            cell = Cell(question.id, name, "", error=f"{type(exc).__name__}: {str(exc)[:200]}")
        with lock:
            cells.append(cell)
            evaluations.save(evaluation_id, {"settings": data, "cells": [cell_data(c) for c in cells]})
            state.done += 1
            if progress is not None:
                progress(state.done, state.total, cell)

    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="citewise-e2e") as pool:
        list(pool.map(one, todo))
    return evaluation_id, cells
