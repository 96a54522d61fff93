"""The versions of each document a store holds, re-read only when the store's versions change."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

from citewise.records import DocumentVersion
from citewise.store.protocol import EvidenceStoreProtocol

__all__ = ["KnownVersions", "known_versions"]


class KnownVersions:
    """The versions of the documents a process has asked about, per store, kept while the store's
    :meth:`~citewise.store.evidence.EvidenceStore.versions_marker` is unchanged (a version stored or
    a review decision recorded, by any process, changes it): search flags its hits' versions on every
    call, and reading the marker is cheaper than reading ten documents' versions.

    At most ``max_documents`` documents are kept per store (then the store's entry starts again).
    """

    def __init__(self, max_documents: int = 20_000) -> None:
        self._stores: weakref.WeakKeyDictionary[EvidenceStoreProtocol, tuple[object, dict[str, list[DocumentVersion]]]]
        self._stores = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._max = max_documents

    def of(self, store: EvidenceStoreProtocol, doc_ids: Sequence[str]) -> dict[str, list[DocumentVersion]]:
        """The versions of each of ``doc_ids`` in ``store`` (unknown ids: empty lists), by number."""
        if not doc_ids:
            return {}
        marker = store.versions_marker()  # read before the versions: what is read is at least this new
        with self._lock:
            entry = self._stores.get(store)
            if entry is None or entry[0] != marker or len(entry[1]) > self._max:
                entry = self._stores[store] = (marker, {})
            known = entry[1]
            found = {doc_id: known[doc_id] for doc_id in doc_ids if doc_id in known}
        missing = [doc_id for doc_id in dict.fromkeys(doc_ids) if doc_id not in found]
        if missing:
            read = store.versions_of(missing)
            found.update(read)
            with self._lock:
                known.update(read)
        return {doc_id: list(found[doc_id]) for doc_id in doc_ids}


known_versions = KnownVersions()
"""The process's :class:`KnownVersions` (search uses it)."""
