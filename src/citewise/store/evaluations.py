"""Stored evaluation runs: one row per experiment, its result kept as typed JSON.

A result is written again as its cells finish (so an interrupted experiment resumes without doing
them twice), and experiments over one question set are listed in time order for ``eval history``.
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
from citewise.store.schema import evaluations

__all__ = ["EvaluationStore", "StoredEvaluation"]


@dataclass(frozen=True, slots=True)
class StoredEvaluation:
    evaluation_id: str
    kind: str
    question_set: str
    set_digest: str
    created_at: datetime
    updated_at: datetime
    result: dict[str, Any]
    """The result as JSON-ready data (see :mod:`citewise.eval.experiment`)."""


class EvaluationStore:
    """Evaluations in the same database as the runs they point at."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store

    def create(self, kind: str, question_set: str, set_digest: str, result: dict[str, Any]) -> str:
        now = utcnow()
        evaluation_id = f"eval-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        with self.store.transaction() as conn:
            conn.execute(
                sa.insert(evaluations).values(
                    id=evaluation_id,
                    kind=kind,
                    question_set=question_set,
                    set_digest=set_digest,
                    created_at=now.isoformat(),
                    updated_at=now.isoformat(),
                    result_json=json.dumps(result),
                )
            )
        return evaluation_id

    def save(self, evaluation_id: str, result: dict[str, Any]) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                sa.update(evaluations)
                .where(evaluations.c.id == evaluation_id)
                .values(result_json=json.dumps(result), updated_at=utcnow().isoformat())
            )

    def get(self, evaluation_id: str) -> StoredEvaluation:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(evaluations).where(evaluations.c.id == evaluation_id)).mappings().first()
        if row is None:
            raise NotFoundError(f"no evaluation {evaluation_id!r}; `citewise eval history` lists them")
        return _stored(row)

    def for_set(self, set_digest: str, kind: str | None = None) -> list[StoredEvaluation]:
        """Evaluations over one question set, oldest first."""
        query = sa.select(evaluations).where(evaluations.c.set_digest == set_digest)
        if kind is not None:
            query = query.where(evaluations.c.kind == kind)
        with self.store.engine.connect() as conn:
            rows = conn.execute(query.order_by(evaluations.c.created_at)).mappings().all()
        return [_stored(r) for r in rows]


def _stored(row: Any) -> StoredEvaluation:
    return StoredEvaluation(
        evaluation_id=row["id"],
        kind=row["kind"],
        question_set=row["question_set"],
        set_digest=row["set_digest"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        result=json.loads(row["result_json"]),
    )
