"""``citewise store verify`` covers research sources (issue 11, point 8): the hash of every source's page
text and excerpt is recorded when the source is built, and verify re-derives both and counts each kind."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from citewise.audit.events import EventKind, SourceStored
from citewise.cli import app
from citewise.hashing import content_hash
from citewise.store.schema import run_events
from citewise.store.source_hashes import verify_sources
from tests.loop_harness import Env, covered, draft_citing, plan_reply, two_pages
from tests.loop_harness import env as env  # noqa: F401 - the loop tests' fixture, by its name

pytestmark = pytest.mark.integration


def _research(env: Env) -> str:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))
    return env.run().run_id


def _verify_json(store_url: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(app, ["store", "verify", "--store", store_url, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_sources_carry_the_hashes_of_their_page_text_and_excerpt(env: Env) -> None:
    run_id = _research(env)
    (s1, s2) = [e.source for e in env.record(run_id).of(SourceStored)]
    for source in (s1, s2):
        assert source.page_text_hash == content_hash(source.page_text)
        assert source.content_hash == content_hash(source.content)

    report = verify_sources(env.store)
    assert (report.page_texts, report.excerpts, report.unhashed, report.mismatches) == (2, 2, 0, ())

    code, data = _verify_json(env.store.url)
    assert code == 0 and data["ok"] is True
    assert data["checked_by_kind"] == {"documents_and_sections": 0, "source_page_texts": 2, "source_excerpts": 2}
    assert data["checked"] == 4


def test_an_edited_page_text_or_excerpt_is_a_mismatch(env: Env) -> None:
    run_id = _research(env)
    with env.store.transaction() as conn:
        rows = conn.execute(
            sa.select(run_events.c.seq, run_events.c.payload).where(
                run_events.c.run_id == run_id, run_events.c.stage == EventKind.SOURCE_STORED.value
            )
        ).all()
        first, second = sorted(rows)
        edited = json.loads(first.payload)
        edited["source"]["page_text"] += "\n\nA sentence nobody extracted."
        excerpt = json.loads(second.payload)
        excerpt["source"]["content"] = "An excerpt the model never saw."
        for seq, payload in ((first.seq, edited), (second.seq, excerpt)):
            conn.execute(
                sa.update(run_events)
                .where(run_events.c.run_id == run_id, run_events.c.seq == seq)
                .values(payload=json.dumps(payload))
            )

    report = verify_sources(env.store)
    assert [(m.source_id, m.field) for m in report.mismatches] == [("S1", "page_text"), ("S2", "content")]

    code, data = _verify_json(env.store.url)
    assert code == 1 and data["ok"] is False
    assert [(m["source_id"], m["field"]) for m in data["source_mismatches"]] == [("S1", "page_text"), ("S2", "content")]


def test_sources_recorded_before_hashes_are_counted_not_failed(env: Env) -> None:
    run_id = _research(env)
    with env.store.transaction() as conn:
        rows = conn.execute(
            sa.select(run_events.c.seq, run_events.c.payload).where(
                run_events.c.run_id == run_id, run_events.c.stage == EventKind.SOURCE_STORED.value
            )
        ).all()
        for seq, payload in rows:
            old = json.loads(payload)
            del old["source"]["page_text_hash"], old["source"]["content_hash"]
            conn.execute(
                sa.update(run_events)
                .where(run_events.c.run_id == run_id, run_events.c.seq == seq)
                .values(payload=json.dumps(old))
            )
    report = verify_sources(env.store)
    assert (report.page_texts, report.excerpts, report.unhashed, report.mismatches) == (0, 0, 2, ())
    assert [e.source.page_text_hash for e in env.record(run_id).of(SourceStored)] == [None, None]  # old events read
