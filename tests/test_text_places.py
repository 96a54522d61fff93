"""Where the nearest texts are (issue 26): dense search reads the first sections of each ranked
content hash in batches instead of counting every hash's sections; the sections it returns, and so
the hybrid hits, are those of reading every section of every hash, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.search import dense, hubs, local
from citewise.store.evidence import EvidenceStore
from citewise.store.rows import section_hash
from citewise.testing.embedder import HashingEmbedder
from citewise.testing.store_conformance import new_version

pytestmark = pytest.mark.integration

# How many documents hold each text (in document order d00, d01, ...); "gone" has no section.
COPIES = {"many": 23, "one": 1, "some": 4, "two": 2, "again": 7}
TEXTS = {name: f"Article about {name} matters." for name in COPIES}


@pytest.fixture(params=["sqlite", "postgresql"])
def copies_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EvidenceStore]:
    url = str(tmp_path / "copies.sqlite") if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    with EvidenceStore.open(url) as store:
        for doc in range(max(COPIES.values())):
            held = {f"§ {name}": TEXTS[name] for name, n in COPIES.items() if doc < n}
            store.store_version(new_version(f"d{doc:02d}", held))
        yield store


def _hash(name: str) -> str:
    return section_hash(f"§ {name}", TEXTS.get(name, "no such text"))


def _every_place(scored: list[tuple[str, float]]) -> list[tuple[str, str, float]]:
    """The contract written out: each hash's sections in document order, hash by hash."""
    names = {_hash(name): name for name in [*COPIES, "gone"]}
    return [(f"d{doc:02d}", f"§ {names[h]}", score) for h, score in scored for doc in range(COPIES.get(names[h], 0))]


ORDERS = {
    "one text fills the limit": ["many", "one", "some", "two", "again"],
    "single copies first": ["one", "two", "gone", "some", "many", "again"],
    "a hash twice and a missing one": ["some", "gone", "some", "many", "one", "again"],
    "missing first": ["gone", "again", "two", "one", "many"],
}


@pytest.mark.parametrize("order", ORDERS)
def test_every_limit_gives_the_first_places_of_reading_every_section(copies_store: EvidenceStore, order: str) -> None:
    scored = [(_hash(name), 0.9 - i / 100) for i, name in enumerate(ORDERS[order])]
    every = _every_place(scored)
    found = copies_store.sections_with_hashes(scored, None)
    assert [(m.section.doc_id, m.section.section_id, m.score) for m in found] == every
    for limit in range(len(every) + 3):
        found = copies_store.sections_with_hashes(scored, limit)
        assert [(m.section.doc_id, m.section.section_id, m.score) for m in found] == every[:limit], limit
        assert all(m.section.text == TEXTS[m.section.section_id[2:]] for m in found)


def test_a_text_that_fills_the_limit_is_one_read_of_its_rows(copies_store: EvidenceStore) -> None:
    statements: list[str] = []

    def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append(statement)

    scored = [(_hash(name), 0.5) for name in ("many", "some", "again")]
    sa.event.listen(copies_store.engine, "before_cursor_execute", seen)
    try:
        found = copies_store.sections_with_hashes(scored, 20)
        assert [m.section.doc_id for m in found] == [f"d{doc:02d}" for doc in range(20)]
        assert len(statements) == 1 and "count(" not in statements[0].lower()
        # every text, the many copies first: batches of one hash, then at least two, then the rest
        statements.clear()
        scored = [(_hash(name), 0.5) for name in ORDERS["one text fills the limit"]]
        assert len(copies_store.sections_with_hashes(scored, sum(COPIES.values()))) == sum(COPIES.values())
        assert len(statements) == 4
    finally:
        sa.event.remove(copies_store.engine, "before_cursor_execute", seen)


def test_hybrid_hits_of_one_text_in_many_documents_are_those_of_reading_every_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lease = {
        "제3조(대항력)": "임차인이 주택의 인도와 주민등록을 마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다.",
        "제4조(임대차기간)": "기간을 정하지 아니하거나 2년 미만으로 정한 임대차는 그 기간을 2년으로 본다.",
        "제8조(보증금)": "임차인은 보증금 중 일정액을 다른 담보물권자보다 우선하여 변제받을 권리가 있다.",
    }
    labour = {"제26조(해고의 예고)": "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다."}
    embedder = HashingEmbedder()
    with EvidenceStore.open(str(tmp_path / "many.sqlite")) as store:
        for copy in range(30):  # the lease act in thirty documents: every nearest text has 30 sections
            store.store_version(new_version(f"lease-{copy:02d}", lease))
        store.store_version(new_version("labour", labour))
        dense.embed_pending(store, embedder)
        questions = ["보증금을 돌려받으려면", "임대차 기간은 몇 년", "근로자 해고 예고"]
        hits = {q: local.search(store, q, k=10, embedder=embedder) for q in questions}
        with monkeypatch.context() as patch:  # the dense candidates from every section of the texts
            patch.setattr(
                hubs,
                "nearest_sections",
                lambda s, index, vector, limit: s.sections_with_hashes(hubs.nearest_texts(index, vector, limit), None)[
                    :limit
                ],
            )
            reference = {q: local.search(store, q, k=10, embedder=embedder) for q in questions}
    assert hits == reference
    assert all(len(found) == 10 for found in hits.values())
    assert len({h.doc_id for h in hits["보증금을 돌려받으려면"]}) > 1  # copies of one text among the hits
