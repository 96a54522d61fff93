"""The audit store: runs and their events.

A run is created before any work starts and every step is appended as an event when it happens, so
a run that crashes still shows everything it collected. Payloads are JSON made from citewise's own
records; API keys never reach them (keys live in :class:`~citewise.config.Secret` values, which refuse
to serialise).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from citewise.errors import NotFoundError
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.schema import run_events, runs

__all__ = ["RunEvent", "RunRecord", "RunStore"]


@dataclass(frozen=True, slots=True)
class RunEvent:
    """One step of a run, in order."""

    seq: int
    """1, 2, ... within the run."""
    stage: str
    """What happened (``retrieve``, ``gate``, ``rank``, ``compose`` ...)."""
    payload: dict[str, Any]
    """What was recorded for the step."""
    at: datetime
    """When (UTC)."""


@dataclass(frozen=True, slots=True)
class RunRecord:
    """A run as stored: what was asked, how it ended, with retrieval and answer provenance apart."""

    run_id: str
    """Identifier (``ask-YYYYMMDD-HHMMSS-xxxxxx``)."""
    kind: str
    """``ask`` or ``research``."""
    question: str
    """The question, verbatim."""
    mode: str
    """``active`` or ``shadow``."""
    status: str
    """``running``, ``finished`` or ``failed``."""
    outcome: str | None
    """The recorded outcome (e.g. ``deterministic_evidence_fallback``)."""
    created_at: datetime
    """When the run started (UTC)."""
    finished_at: datetime | None
    """When it ended (UTC), if it did."""
    retrieval: dict[str, Any]
    """Retrieval provenance: plan, candidates, gate decisions, ranking, violations."""
    answer: dict[str, Any]
    """Answer provenance: path, model, prompt version, fallback reason."""
    result: dict[str, Any]
    """What the user was given (answer text, citations, clarification, handoff ...)."""
    events: tuple[RunEvent, ...] = ()
    """Every step, in order."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


class RunStore:
    """Runs and events in the same database as the evidence."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store

    def create(self, kind: str, question: str, mode: str = "active") -> str:
        """Start a run; returns its id."""
        now = utcnow()
        run_id = f"{kind}-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        with self.store.transaction() as conn:
            conn.execute(
                sa.insert(runs).values(
                    id=run_id,
                    kind=kind,
                    question=question,
                    mode=mode,
                    status="running",
                    created_at=now.isoformat(),
                    retrieval_json="{}",
                    answer_json="{}",
                    result_json="{}",
                )
            )
        return run_id

    def append(self, run_id: str, stage: str, payload: dict[str, Any]) -> int:
        """Record one step now; returns its sequence number."""
        with self.store.transaction() as conn:
            last = conn.execute(sa.select(sa.func.max(run_events.c.seq)).where(run_events.c.run_id == run_id)).scalar()
            seq = (last or 0) + 1
            conn.execute(
                sa.insert(run_events).values(
                    run_id=run_id, seq=seq, stage=stage, payload=_dumps(payload), at=utcnow().isoformat()
                )
            )
        return seq

    def finish(
        self,
        run_id: str,
        *,
        outcome: str | None,
        retrieval: dict[str, Any],
        answer: dict[str, Any],
        result: dict[str, Any],
        status: str = "finished",
    ) -> None:
        """Close a run with its outcome and provenance."""
        with self.store.transaction() as conn:
            conn.execute(
                sa.update(runs)
                .where(runs.c.id == run_id)
                .values(
                    status=status,
                    outcome=outcome,
                    finished_at=utcnow().isoformat(),
                    retrieval_json=_dumps(retrieval),
                    answer_json=_dumps(answer),
                    result_json=_dumps(result),
                )
            )

    def list(self, limit: int = 50) -> list[RunRecord]:
        """Newest runs first (without events)."""
        query = sa.select(runs).order_by(runs.c.created_at.desc(), runs.c.id.desc()).limit(limit)
        with self.store.engine.connect() as conn:
            return [_record(r) for r in conn.execute(query).mappings()]

    def get(self, run_id: str) -> RunRecord:
        """One run with its events; NotFoundError names how to list them."""
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(runs).where(runs.c.id == run_id)).mappings().first()
            if row is None:
                raise NotFoundError(f"no run {run_id!r}; see `citewise runs list`")
            events = conn.execute(
                sa.select(run_events).where(run_events.c.run_id == run_id).order_by(run_events.c.seq)
            ).mappings()
            recorded = tuple(
                RunEvent(e["seq"], e["stage"], json.loads(e["payload"]), datetime.fromisoformat(e["at"]))
                for e in events
            )
        record = _record(row)
        return RunRecord(**{**{f: getattr(record, f) for f in record.__dataclass_fields__}, "events": recorded})


def _record(r: sa.RowMapping) -> RunRecord:
    return RunRecord(
        run_id=r["id"],
        kind=r["kind"],
        question=r["question"],
        mode=r["mode"],
        status=r["status"],
        outcome=r["outcome"],
        created_at=datetime.fromisoformat(r["created_at"]),
        finished_at=datetime.fromisoformat(r["finished_at"]) if r["finished_at"] else None,
        retrieval=json.loads(r["retrieval_json"]),
        answer=json.loads(r["answer_json"]),
        result=json.loads(r["result_json"]),
    )
