"""``Citewise.verify_store()`` checks what ``citewise store verify`` checks: documents, sections and
research sources' page texts and excerpts, with the same counts and mismatches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from citewise import Citewise
from citewise.audit.events import EventKind
from citewise.cli import app
from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.store.schema import run_events, sections
from tests.conftest import make_doc
from tests.loop_harness import Env
from tests.loop_harness import env as env  # noqa: F401 - the loop tests' fixture, by its name
from tests.test_store_verify_sources import _research

pytestmark = pytest.mark.integration


def _cli(store_url: str) -> dict[str, object]:
    return json.loads(CliRunner().invoke(app, ["store", "verify", "--store", store_url, "--json"]).stdout)


def test_verify_store_counts_documents_sections_and_research_sources_as_the_cli_does(env: Env, tmp_path: Path) -> None:
    _research(env)
    store_document(env.store, make_doc("doc-a"), tmp_path / "doc-a.txt", IngestOptions(), {})
    with Citewise(store=env.store.url) as cw:
        report = cw.verify_store()
    assert report.ok and report.mismatches == [] and report.sources.mismatches == ()
    assert (report.checked, report.sources.page_texts, report.sources.excerpts) == (3, 2, 2)  # 1 version, 2 sections
    cli = _cli(env.store.url)
    assert cli["checked"] == report.total == 7 and cli["ok"] is True


def test_verify_store_reports_an_edited_section_and_an_edited_source(env: Env, tmp_path: Path) -> None:
    run_id = _research(env)
    store_document(env.store, make_doc("doc-a"), tmp_path / "doc-a.txt", IngestOptions(), {})
    with env.store.transaction() as conn:
        conn.execute(sa.update(sections).where(sections.c.section_id == "§ 2").values(text="Edited after review."))
        seq, payload = conn.execute(
            sa.select(run_events.c.seq, run_events.c.payload)
            .where(run_events.c.run_id == run_id, run_events.c.stage == EventKind.SOURCE_STORED.value)
            .order_by(run_events.c.seq)
        ).first()  # type: ignore[misc]
        edited = json.loads(payload)
        edited["source"]["content"] = "An excerpt the model never saw."
        conn.execute(
            sa.update(run_events)
            .where(run_events.c.run_id == run_id, run_events.c.seq == seq)
            .values(payload=json.dumps(edited))
        )
    with Citewise(store=env.store.url) as cw:
        report = cw.verify_store()
    assert not report.ok
    assert [(m.doc_id, m.section_id) for m in report.mismatches] == [("doc-a", "§ 2")]
    assert [(m.source_id, m.field) for m in report.sources.mismatches] == [("S1", "content")]
    checked, mismatches, _sources = report  # still unpacks like the (checked, mismatches) of before
    assert checked == 3 and mismatches == report.mismatches
