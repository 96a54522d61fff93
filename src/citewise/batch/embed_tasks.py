"""The worker's side of distributed embedding (:mod:`citewise.batch.embedding`): one task embeds
the texts of its content hashes that still have no vector, with this process's own engine, and
stores the vectors in the worker's store (``CITEWISE_STORE``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from citewise.errors import ConfigError
from citewise.search.embedders import Embedder, get_embedder
from citewise.store.evidence import EvidenceStore

__all__ = ["embed_hashes", "run_embed_task"]

_ENGINES: dict[str, Embedder] = {}
_ENGINES_LOCK = threading.Lock()


def _engine(name: str) -> Embedder:
    with _ENGINES_LOCK:
        if name not in _ENGINES:
            _ENGINES[name] = get_embedder(name)  # once per worker process
        return _ENGINES[name]


def embed_hashes(store: EvidenceStore, name: str, model_id: str, model_version: str, hashes: Sequence[str]) -> int:
    """Embed the texts of ``hashes`` that still have no vector and store them; how many were new.

    Refuses (ConfigError) when this worker's ``name`` is another model or version than the job's:
    vectors of one model are never stored under another's id.
    """
    import numpy as np

    embedder = _engine(name)
    model = embedder.model
    if (model.model_id, model.version) != (model_id, model_version):
        raise ConfigError(
            f"this worker's embedder {name} is {model.model_id} {model.version}, the job's {model_id} {model_version}"
        )
    pending = store.texts_to_embed(model_id, model_version, hashes)
    if not pending:
        return 0  # a redelivered task whose texts another worker (or its first delivery) stored
    matrix = np.ascontiguousarray(embedder.embed([text for _h, text in pending]), dtype=np.float32)
    rows = [(h, matrix[i].tobytes()) for i, (h, _t) in enumerate(pending)]
    return store.add_vectors(model_id, model_version, model.dim, rows)


def run_embed_task(name: str, model_id: str, model_version: str, hashes: list[str]) -> int:
    """The Celery task's body: opens the worker's own store (``CITEWISE_STORE``)."""
    from citewise.config import resolve_store_url

    with EvidenceStore.open(resolve_store_url(None)) as store:
        return embed_hashes(store, name, model_id, model_version, hashes)
