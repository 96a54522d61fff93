"""citewise: an evidence layer and research agent whose every factual sentence cites evidence it
retrieved, stored and checked itself.

The public API mirrors the ``citewise`` command line::

    from citewise import Citewise
    with Citewise(store="evidence.sqlite") as cw:
        cw.ingest("statutes/")
        cw.approve("kr-law-001248", reviewer="Kim", reason="checked against law.go.kr")
        hits = cw.search("보증금 회수")
"""

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
from citewise.version import __version__

__all__ = [
    "Budget",
    "ResearchResult",
    "ResearchSettings",
    "RunRecord",
    "RunStatus",
    "Verification",
    "AnswerPath",
    "AnswerProvenance",
    "AskOutcome",
    "AskResult",
    "AskSettings",
    "Citation",
    "Citewise",
    "Evidence",
    "RetrievalPlan",
    "CitewiseError",
    "ConfigError",
    "Document",
    "DocumentVersion",
    "IngestOptions",
    "IngestOutcome",
    "IngestResult",
    "InputError",
    "NotFoundError",
    "ParseError",
    "Provenance",
    "ReviewDecision",
    "ReviewError",
    "ReviewStatus",
    "RunError",
    "SearchHit",
    "Section",
    "SectionKind",
    "StoreError",
    "UserError",
    "__version__",
]
