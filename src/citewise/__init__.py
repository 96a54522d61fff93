"""citewise: an evidence layer and research agent whose every factual sentence cites evidence it
retrieved, stored and checked itself.

The public API mirrors the ``citewise`` command line::

    from citewise import Citewise
    with Citewise(store="evidence.sqlite") as cw:
        cw.ingest("statutes/")
        cw.approve("kr-law-001248", reviewer="Kim", reason="checked against law.go.kr")
        hits = cw.search("보증금 회수")

Names load when first used (PEP 562): ``import citewise.cli`` or ``import citewise.text.analyze``
does not pay for the whole API, and ``from citewise import Citewise`` works as always.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from citewise.version import __version__

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from citewise.answer.result import AskResult, AskSettings
    from citewise.api import Citewise
    from citewise.errors import (
        CitewiseError,
        ConfigError,
        InputError,
        NotFoundError,
        ParseError,
        ReviewError,
        RunError,
        StoreError,
        UserError,
    )
    from citewise.evidence.plan import RetrievalPlan
    from citewise.ingest.pipeline import IngestOptions
    from citewise.records import (
        Document,
        DocumentVersion,
        IngestOutcome,
        IngestResult,
        Provenance,
        ReviewDecision,
        ReviewStatus,
        SearchHit,
        Section,
        SectionKind,
    )
    from citewise.records.answer import AnswerPath, AnswerProvenance, AskOutcome, Citation, Evidence
    from citewise.records.budget import Budget
    from citewise.research.context import ResearchResult
    from citewise.research.settings import ResearchSettings
    from citewise.store.runs import RunRecord, RunStatus
    from citewise.verify.service import Verification

_WHERE: dict[str, str] = {
    "AskResult": "citewise.answer.result",
    "AskSettings": "citewise.answer.result",
    "Citewise": "citewise.api",
    **dict.fromkeys(
        (
            "CitewiseError",
            "ConfigError",
            "InputError",
            "NotFoundError",
            "ParseError",
            "ReviewError",
            "RunError",
            "StoreError",
            "UserError",
        ),
        "citewise.errors",
    ),
    "RetrievalPlan": "citewise.evidence.plan",
    "IngestOptions": "citewise.ingest.pipeline",
    **dict.fromkeys(
        (
            "Document",
            "DocumentVersion",
            "IngestOutcome",
            "IngestResult",
            "Provenance",
            "ReviewDecision",
            "ReviewStatus",
            "SearchHit",
            "Section",
            "SectionKind",
        ),
        "citewise.records",
    ),
    **dict.fromkeys(
        ("AnswerPath", "AnswerProvenance", "AskOutcome", "Citation", "Evidence"), "citewise.records.answer"
    ),
    "Budget": "citewise.records.budget",
    "ResearchResult": "citewise.research.context",
    "ResearchSettings": "citewise.research.settings",
    "RunRecord": "citewise.store.runs",
    "RunStatus": "citewise.store.runs",
    "Verification": "citewise.verify.service",
}

__all__ = [
    "AnswerPath",
    "AnswerProvenance",
    "AskOutcome",
    "AskResult",
    "AskSettings",
    "Budget",
    "Citation",
    "Citewise",
    "CitewiseError",
    "ConfigError",
    "Document",
    "DocumentVersion",
    "Evidence",
    "IngestOptions",
    "IngestOutcome",
    "IngestResult",
    "InputError",
    "NotFoundError",
    "ParseError",
    "Provenance",
    "ResearchResult",
    "ResearchSettings",
    "RetrievalPlan",
    "ReviewDecision",
    "ReviewError",
    "ReviewStatus",
    "RunError",
    "RunRecord",
    "RunStatus",
    "SearchHit",
    "Section",
    "SectionKind",
    "StoreError",
    "UserError",
    "Verification",
    "__version__",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'citewise' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value  # later look-ups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
