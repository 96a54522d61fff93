"""The store as ingestion uses it. The store's own behaviour (migrations from blank and from every
previous schema, versioning, hashes and ``verify()``, review decisions, search, reindex) is tested
on every backend by the conformance class: ``tests/store_conformance.py``, run by
``tests/test_store_backends.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import ParseError
from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.records import IngestOutcome
from citewise.store.evidence import EvidenceStore
from tests.conftest import make_doc

pytestmark = pytest.mark.integration


def test_a_document_with_duplicate_section_ids_is_refused_before_the_store_sees_it(store: EvidenceStore) -> None:
    doc = make_doc()
    broken = type(doc)(
        **{**{f: getattr(doc, f) for f in doc.__dataclass_fields__}, "sections": doc.sections + (doc.sections[0],)}
    )
    with pytest.raises(ParseError, match="duplicate section id"):
        store_document(store, broken, Path("x.txt"), IngestOptions(), {})
    assert store.documents() == []
    assert store_document(store, doc, Path("x.txt"), IngestOptions(), {}).outcome is IngestOutcome.NEW_DOCUMENT
