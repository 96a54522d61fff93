"""The audit store: runs and their typed events.

A run is created before any work starts and every step is appended as a typed event
(:mod:`citewise.audit.events`) when it happens, so a run that crashes still shows everything it
collected. Appending is the only write to a run's history: verification and claim reviews append
events too. Each append also renews the run's lease (its owner and last sign of life), so a run whose
process died reads as ``interrupted`` instead of ``running`` forever. API keys never reach the
payloads: keys live in :class:`~citewise.config.Secret` values, which refuse to serialise, and
:meth:`RunStore.append` redacts every known secret (and its masked forms, as providers echo them)
from each payload before it is written.
"""

from __future__ import annotations

import enum
import json
import os
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from citewise.audit import legacy
from citewise.audit.events import Event, RunConfigured, decode, encode
from citewise.config import redact_data, redact_url_credentials
from citewise.errors import NotFoundError, StoreError
from citewise.records.runs import RunKind, RunOutcome, run_outcome
from citewise.serial import SerialError
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.schema import claim_ledgers, claim_reviews, run_events, runs

__all__ = ["STALE_AFTER", "RecordedEvent", "RunRecord", "RunStatus", "RunStore", "owner_alive", "this_process"]

E = TypeVar("E", bound=Event)

STALE_AFTER = timedelta(seconds=120)
"""A running run whose lease was not renewed for this long, by a process that cannot be checked
directly, is shown as interrupted (research runs renew it every few seconds while they work)."""


class RunStatus(str, enum.Enum):
    """Where a run stands."""

    RUNNING = "running"  #: its process is working on it
    FINISHED = "finished"  #: it ended with an outcome
    FAILED = "failed"  #: it stopped with an error (everything collected is kept; research can resume)
    INTERRUPTED = "interrupted"  #: its process died (no heartbeat); research can resume


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """One event of a run, in order."""

    seq: int
    """1, 2, ... within the run."""
    at: datetime
    """When it was recorded (UTC)."""
    event: Event
    """What happened."""


@dataclass(frozen=True, slots=True)
class RunRecord:
    """A run as stored: what was asked, how it stands, and every event."""

    run_id: str
    """Identifier (``ask-YYYYMMDD-HHMMSS-xxxxxx``)."""
    kind: RunKind
    """Which command made the run."""
    question: str
    """The question, verbatim."""
    mode: str
    """``active`` or ``shadow``."""
    status: RunStatus
    """Running, finished, failed or interrupted."""
    outcome: RunOutcome | None
    """The outcome it closed with (a :class:`ReportStatus` or an :class:`AskOutcome`); None while open."""
    created_at: datetime
    """When the run started (UTC)."""
    finished_at: datetime | None
    """When it ended (UTC), if it did."""
    heartbeat_at: datetime | None = None
    """The run's last sign of life (UTC)."""
    events: tuple[RecordedEvent, ...] = ()
    """Every event, in order (empty in listings)."""

    def of(self, cls: type[E]) -> list[E]:
        """Every event of type ``cls``, in order."""
        return [r.event for r in self.events if isinstance(r.event, cls)]

    def last(self, cls: type[E]) -> E | None:
        """The latest event of type ``cls``, if any."""
        found = self.of(cls)
        return found[-1] if found else None


def this_process() -> str:
    """The lease owner name of this process: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def owner_alive(owner: str | None) -> bool | None:
    """True/False when ``owner`` (``host:pid``) is a process on this host (checked directly); None
    when it cannot be checked from here (another host)."""
    if not owner or ":" not in owner:
        return None
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class RunStore:
    """Runs and events in the same database as the evidence."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store

    def create(self, kind: RunKind, question: str, mode: str = "active") -> str:
        """Start a run owned by this process; returns its id."""
        kind = RunKind(kind)
        now = utcnow()
        run_id = f"{kind.value}-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        with self.store.transaction() as conn:
            conn.execute(
                sa.insert(runs).values(
                    id=run_id,
                    kind=kind.value,
                    question=question,
                    mode=mode,
                    status=RunStatus.RUNNING.value,
                    created_at=now.isoformat(),
                    retrieval_json="{}",
                    answer_json="{}",
                    result_json="{}",
                    heartbeat_at=now.isoformat(),
                    lease_owner=this_process(),
                )
            )
        return run_id

    def append(self, run_id: str, event: Event) -> int:
        """Record one event now (and renew the run's lease); returns its sequence number."""
        kind, payload = encode(event)
        # The one boundary into the audit store: every known secret and its masked echoes go, and the
        # run's configured endpoints lose credentials in their URLs (issue 11: keys never stored).
        payload = redact_data(payload)
        if isinstance(event, RunConfigured):
            for name in ("search_options", "extract_options"):
                if payload.get(name):
                    payload[name] = {k: redact_url_credentials(v) for k, v in payload[name].items()}
        now = utcnow().isoformat()
        with self.store.transaction() as conn:
            last = conn.execute(sa.select(sa.func.max(run_events.c.seq)).where(run_events.c.run_id == run_id)).scalar()
            seq = (last or 0) + 1
            conn.execute(
                sa.insert(run_events).values(run_id=run_id, seq=seq, stage=kind, payload=_dumps(payload), at=now)
            )
            conn.execute(sa.update(runs).where(runs.c.id == run_id).values(heartbeat_at=now))
        return seq

    def heartbeat(self, run_id: str) -> None:
        """Renew the run's lease: it is still being worked on."""
        with self.store.transaction() as conn:
            conn.execute(sa.update(runs).where(runs.c.id == run_id).values(heartbeat_at=utcnow().isoformat()))

    def take_over(self, run_id: str) -> None:
        """Make this process the run's owner again (resume): it is running, not finished."""
        with self.store.transaction() as conn:
            conn.execute(
                sa.update(runs)
                .where(runs.c.id == run_id)
                .values(
                    status=RunStatus.RUNNING.value,
                    finished_at=None,
                    heartbeat_at=utcnow().isoformat(),
                    lease_owner=this_process(),
                )
            )

    def finish(self, run_id: str, *, status: RunStatus, outcome: RunOutcome | None) -> None:
        """Close a run with its status and outcome (the outcome's details are its events)."""
        with self.store.transaction() as conn:
            conn.execute(
                sa.update(runs)
                .where(runs.c.id == run_id)
                .values(
                    status=status.value,
                    outcome=outcome.value if outcome is not None else None,
                    finished_at=utcnow().isoformat(),
                )
            )

    def list(self, limit: int = 50) -> list[RunRecord]:
        """Newest runs first (without events)."""
        query = sa.select(runs).order_by(runs.c.created_at.desc(), runs.c.id.desc()).limit(limit)
        with self.store.engine.connect() as conn:
            return [_record(r) for r in conn.execute(query).mappings()]

    def page(
        self,
        *,
        offset: int = 0,
        limit: int = 50,
        text: str | None = None,
        kind: RunKind | None = None,
        status: RunStatus | None = None,
    ) -> tuple[int, tuple[RunRecord, ...]]:
        """One page of runs, newest first (without events), filtered in the database: ``text`` within
        the question or the id (case-insensitive), ``kind``, ``status``. Returns (runs matching, the page)."""
        query = sa.select(runs)
        if text:
            needle = text.lower()
            query = query.where(
                sa.or_(
                    sa.func.lower(runs.c.question).contains(needle, autoescape=True),
                    runs.c.id.contains(needle, autoescape=True),
                )
            )
        if kind:
            query = query.where(runs.c.kind == RunKind(kind).value)
        newest = (runs.c.created_at.desc(), runs.c.id.desc())
        live = (RunStatus.RUNNING, RunStatus.INTERRUPTED)
        with self.store.engine.connect() as conn:
            if status in live:  # read from each run's lease, not stored: only the few unfinished runs
                query = query.where(runs.c.status.in_([s.value for s in live])).order_by(*newest)
                chosen = [r for r in (_record(row) for row in conn.execute(query).mappings()) if r.status is status]
                return len(chosen), tuple(chosen[offset : offset + limit])
            if status is not None:
                query = query.where(runs.c.status == status.value)
            total = conn.execute(sa.select(sa.func.count()).select_from(query.subquery())).scalar_one()
            rows = conn.execute(query.order_by(*newest).offset(offset).limit(limit)).mappings()
            return int(total), tuple(_record(r) for r in rows)

    def ids_since(self, since: datetime | None) -> tuple[str, ...]:
        """Ids of the runs created at or after ``since`` (all when None), oldest first."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(runs.c.id, runs.c.created_at)).all()
        chosen = sorted((_utc(datetime.fromisoformat(created)), run_id) for run_id, created in rows)
        return tuple(run_id for created, run_id in chosen if since is None or created >= since)

    def get(self, run_id: str) -> RunRecord:
        """One run with its typed events; NotFoundError names how to list them."""
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(runs).where(runs.c.id == run_id)).mappings().first()
            if row is None:
                raise NotFoundError(f"no run {run_id!r}; see `citewise runs list`")
            rows = conn.execute(
                sa.select(run_events).where(run_events.c.run_id == run_id).order_by(run_events.c.seq)
            ).mappings()
            events = [_event(run_id, e) for e in rows]
            if _has_legacy_result(row):
                events = _with_legacy_run_data(conn, row, events)
        record = _record(row)
        return RunRecord(**{**{f: getattr(record, f) for f in record.__dataclass_fields__}, "events": tuple(events)})

    def latest_of(self, run_ids: Iterable[str], cls: type[E]) -> dict[str, E]:
        """The latest event of type ``cls`` of each run in ``run_ids`` that has one; only those
        events are read (for listings, which hold runs without their events)."""
        ids = list(dict.fromkeys(run_ids))
        if not ids:
            return {}
        e = run_events.c
        last = (
            sa.select(e.run_id, sa.func.max(e.seq).label("seq"))
            .where(e.run_id.in_(ids), e.stage == cls.kind.value)
            .group_by(e.run_id)
            .subquery()
        )
        query = sa.select(run_events).join(last, sa.and_(e.run_id == last.c.run_id, e.seq == last.c.seq))
        with self.store.engine.connect() as conn:
            rows = list(conn.execute(query).mappings())
        found: dict[str, E] = {}
        for row in rows:
            event = _event(row["run_id"], row).event
            if isinstance(event, cls):
                found[row["run_id"]] = event
        return found


def _event(run_id: str, e: RowMapping) -> RecordedEvent:
    payload = json.loads(e["payload"])
    at = datetime.fromisoformat(e["at"])
    try:
        event = decode(e["stage"], payload) if "v" in payload else legacy.decode_step(e["stage"], payload)
    except SerialError as exc:
        raise StoreError(f"run {run_id} event {e['seq']} ({e['stage']}) cannot be read: {exc}") from exc
    return RecordedEvent(e["seq"], at, event)


def _has_legacy_result(row: RowMapping) -> bool:
    return any(row[c] not in (None, "", "{}") for c in ("retrieval_json", "answer_json", "result_json"))


def _with_legacy_run_data(conn: Connection, row: RowMapping, events: list[RecordedEvent]) -> list[RecordedEvent]:
    """A run written before typed events: its run-level JSON and verification tables as events."""
    ledgers = conn.execute(
        sa.select(claim_ledgers).where(claim_ledgers.c.run_id == row["id"]).order_by(claim_ledgers.c.id)
    ).mappings()
    reviews = conn.execute(
        sa.select(claim_reviews).where(claim_reviews.c.run_id == row["id"]).order_by(claim_reviews.c.id)
    ).mappings()
    extra = legacy.run_events(
        kind=row["kind"],
        outcome=row["outcome"],
        retrieval=json.loads(row["retrieval_json"] or "{}"),
        answer=json.loads(row["answer_json"] or "{}"),
        result=json.loads(row["result_json"] or "{}"),
        ledgers=[dict(r) for r in ledgers],
        reviews=[dict(r) for r in reviews],
    )
    return _merged(events, extra, row)


def _merged(
    events: list[RecordedEvent], extra: Iterable[tuple[datetime | None, Event]], row: RowMapping
) -> list[RecordedEvent]:
    """Stored events and a legacy run's row-level events in time order (numbered again in that order:
    a legacy run's verifications came after its steps, and events appended since come after them)."""
    end = datetime.fromisoformat(row["finished_at"] or row["created_at"])
    timed = [(e.at, 0, i, e.event) for i, e in enumerate(events)]
    timed += [(_utc(at or end), 1, i, event) for i, (at, event) in enumerate(extra)]
    ordered = sorted(timed, key=lambda item: (_utc(item[0]), item[1], item[2]))
    return [RecordedEvent(seq, at, event) for seq, (at, _, _, event) in enumerate(ordered, start=1)]


def _utc(moment: datetime) -> datetime:
    from datetime import UTC

    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _status(r: RowMapping) -> RunStatus:
    status = RunStatus(r["status"])
    if status is not RunStatus.RUNNING:
        return status
    alive = owner_alive(r.get("lease_owner"))
    if alive is False:
        return RunStatus.INTERRUPTED
    beat = r.get("heartbeat_at")
    if alive is None and beat and utcnow() - _utc(datetime.fromisoformat(beat)) > STALE_AFTER:
        return RunStatus.INTERRUPTED
    if alive is None and not beat:
        return RunStatus.INTERRUPTED  # written before leases existed and never finished
    return status


def _record(r: RowMapping) -> RunRecord:
    kind = RunKind(r["kind"])
    return RunRecord(
        run_id=r["id"],
        kind=kind,
        question=r["question"],
        mode=r["mode"],
        status=_status(r),
        outcome=run_outcome(kind, r["outcome"]),
        created_at=datetime.fromisoformat(r["created_at"]),
        finished_at=datetime.fromisoformat(r["finished_at"]) if r["finished_at"] else None,
        heartbeat_at=datetime.fromisoformat(r["heartbeat_at"]) if r.get("heartbeat_at") else None,
    )
