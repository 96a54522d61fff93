"""Vectors shipped with a corpus, so that ingesting it does not embed every text again.

Embedding is the slow step of a first ingest (the sample corpus's 257 texts take minutes on a busy
two-core machine). A corpus may carry the vectors one embedder computed for its section texts, in
one ``.npz`` file (:func:`write_shipped`): the model id and version, and one row per text keyed by
the text's content hash, stored as float16 to halve the file (a row read back is re-normalised; its
cosine with the float32 vector is above 0.9999, closer than any ranking tells apart).

:func:`use_shipped` stores a row only where both keys still hold — the configured embedder is the
one that made the file (same id, same version) and the stored text has that very content hash — and
leaves every other text to :func:`~citewise.search.dense.embed_pending`, which computes it as
before. Before trusting a file, one of its texts is embedded again and must come out the same
(cosine at least :data:`SAME_VECTOR`): a file of the right name but made otherwise is not used.

The file is data, read with ``allow_pickle=False``: it can hold arrays of strings and numbers only.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from citewise.errors import InputError
from citewise.search.embedders import Embedder
from citewise.store.protocol import EvidenceStoreProtocol

__all__ = ["SAME_VECTOR", "ShippedVectors", "use_shipped", "write_shipped"]

SAME_VECTOR = 0.999
"""Cosine between a shipped row and the embedder's own vector of that text, at least."""


@dataclass(frozen=True, slots=True)
class ShippedVectors:
    """What :func:`use_shipped` did with one file."""

    path: str
    """The file."""
    used: int
    """Vectors stored from it (texts that needed one, with the file's content hash)."""
    not_used: str | None = None
    """Why none was used: another embedder or version made it, or it does not match this one."""


def write_shipped(store: EvidenceStoreProtocol, embedder: Embedder, path: Path) -> int:
    """Write every vector the store holds for ``embedder``'s model to ``path``; return how many."""
    model = embedder.model
    stored = store.vectors(model.model_id, model.version)
    count = len(stored.content_hashes)
    matrix = np.frombuffer(stored.data, dtype=np.float32).reshape(count, model.dim) if count else np.zeros((0, 0))
    order = np.argsort(np.asarray(stored.content_hashes))  # the same store gives the same file
    np.savez_compressed(
        path,
        model_id=np.asarray(model.model_id),
        model_version=np.asarray(model.version),
        content_hashes=np.asarray(stored.content_hashes)[order],
        vectors=np.ascontiguousarray(matrix[order], dtype=np.float16),
    )
    return count


def use_shipped(store: EvidenceStoreProtocol, embedder: Embedder, path: Path) -> ShippedVectors:
    """Store the rows of ``path`` that ``embedder`` would compute for texts still without a vector."""
    model = embedder.model
    model_id, version, hashes, matrix = _read(path)
    if (model_id, version) != (model.model_id, model.version):
        return ShippedVectors(str(path), 0, f"made by {model_id} {version}, not {model.model_id} {model.version}")
    if matrix.ndim != 2 or matrix.shape[0] != len(hashes) or (len(hashes) and matrix.shape[1] != model.dim):
        raise InputError(f"{path}: {matrix.shape} vectors for {len(hashes)} texts of dimension {model.dim}")
    row_of = {h: i for i, h in enumerate(hashes)}
    pending = [(h, text) for h, text in store.texts_to_embed(model.model_id, model.version) if h in row_of]
    if not pending:
        return ShippedVectors(str(path), 0)
    probe_hash, probe_text = pending[0]
    own = embedder.embed([probe_text])[0]
    if float(np.dot(own, matrix[row_of[probe_hash]])) < SAME_VECTOR:
        return ShippedVectors(str(path), 0, f"its vectors are not {model.model_id}'s own for the same text")
    rows = [(h, matrix[row_of[h]].tobytes()) for h, _t in pending]
    store.add_vectors(model.model_id, model.version, model.dim, rows)
    return ShippedVectors(str(path), len(rows))


def _read(path: Path) -> tuple[str, str, list[str], np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as data:
            return (
                str(data["model_id"]),
                str(data["model_version"]),
                [str(h) for h in data["content_hashes"].tolist()],
                _unit_rows(np.asarray(data["vectors"], dtype=np.float32)),
            )
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise InputError(f"cannot read shipped vectors {path}: {exc}") from None


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled back to unit length (search takes inner products of unit vectors)."""
    if matrix.ndim != 2 or not matrix.size:
        return matrix
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.ascontiguousarray(matrix / np.where(norms > 0, norms, 1.0), dtype=np.float32)
