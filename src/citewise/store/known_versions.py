"""The versions of each document a store holds, re-read only when the store's versions change."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

from citewise.records import DocumentVersion
from citewise.store.protocol import EvidenceStoreProtocol

__all__ = ["KnownVersions", "VersionsReader", "known_versions"]

_Known = dict[str, list[DocumentVersion]]


class KnownVersions:
    """The versions of the documents a process has asked about, per store, kept while the store's
    :meth:`~citewise.store.evidence.EvidenceStore.versions_marker` is unchanged (a version stored or
    a review decision recorded, by any process, changes it): search flags its hits' versions on every
    call, and reading the marker is cheaper than reading ten documents' versions.

    At most ``max_documents`` documents are kept per store (then the store's entry starts again).
    """

    def __init__(self, max_documents: int = 20_000) -> None:
        self._stores: weakref.WeakKeyDictionary[EvidenceStoreProtocol, tuple[object, _Known]]
        self._stores = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._max = max_documents

    def of(self, store: EvidenceStoreProtocol, doc_ids: Sequence[str]) -> dict[str, list[DocumentVersion]]:
        """The versions of each of ``doc_ids`` in ``store`` (unknown ids: empty lists), by number."""
        if not doc_ids:
            return {}
        return self.reader(store).of(doc_ids)

    def reader(self, store: EvidenceStoreProtocol) -> VersionsReader:
        """A reader of ``store``'s versions as new as its marker now (read once, here): hybrid search
        makes one while the question is embedded, reads its lexical hits' documents with it, and
        after the nearest texts only the documents it has not seen, without reading the marker again."""
        marker = store.versions_marker()  # read before the versions: what is read is at least this new
        with self._lock:
            entry = self._stores.get(store)
            if entry is None or entry[0] != marker or len(entry[1]) > self._max:
                entry = self._stores[store] = (marker, {})
        return VersionsReader(store, entry[1], self._lock)


class VersionsReader:
    """The versions of ``store``'s documents at one marker (:meth:`KnownVersions.reader`): those
    known at that marker, and the others read from the store when first asked for."""

    def __init__(self, store: EvidenceStoreProtocol, known: _Known, lock: threading.Lock) -> None:
        self._store = store
        self._known = known
        self._lock = lock

    def of(self, doc_ids: Sequence[str]) -> dict[str, list[DocumentVersion]]:
        """The versions of each of ``doc_ids`` (unknown ids: empty lists), by number."""
        with self._lock:
            found = {doc_id: self._known[doc_id] for doc_id in doc_ids if doc_id in self._known}
        missing = [doc_id for doc_id in dict.fromkeys(doc_ids) if doc_id not in found]
        if missing:
            read = self._store.versions_of(missing)
            found.update(read)
            with self._lock:
                self._known.update(read)
        return {doc_id: list(found[doc_id]) for doc_id in doc_ids}


known_versions = KnownVersions()
"""The process's :class:`KnownVersions` (search uses it)."""
