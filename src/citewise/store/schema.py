"""The current relational schema, as SQLAlchemy Core tables used by queries.

Migrations (:mod:`citewise.store.migrations`) create and change the tables with explicit, portable
DDL; these definitions describe the result and must agree with it (a test checks that they do).
Timestamps and dates are ISO 8601 text so that SQLite and PostgreSQL store them the same way.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "batch_items",
    "batches",
    "claim_ledgers",
    "claim_reviews",
    "documents",
    "evaluations",
    "document_versions",
    "metadata",
    "provider_slots",
    "rate_buckets",
    "provider_cache",
    "review_decisions",
    "run_events",
    "runs",
    "schema_migrations",
    "section_embeddings",
    "sections",
    "store_meta",
]

metadata = sa.MetaData()

schema_migrations = sa.Table(
    "schema_migrations",
    metadata,
    sa.Column("id", sa.String(100), primary_key=True),
    sa.Column("applied_at", sa.String(40), nullable=False),
)

store_meta = sa.Table(
    "store_meta",
    metadata,
    sa.Column("key", sa.String(100), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

documents = sa.Table(
    "documents",
    metadata,
    sa.Column("doc_id", sa.String(200), primary_key=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("origin_path", sa.Text),
    sa.Column("origin_format", sa.String(40)),
)

document_versions = sa.Table(
    "document_versions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("doc_id", sa.String(200), sa.ForeignKey("documents.doc_id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("content_hash", sa.String(80), nullable=False),
    sa.Column("format", sa.String(40), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("full_text", sa.Text, nullable=False),
    sa.Column("issuing_authority", sa.Text),
    sa.Column("official_publisher", sa.Text),
    sa.Column("retrieval_provider", sa.Text),
    sa.Column("origin_url", sa.Text),
    sa.Column("retrieved_at", sa.String(40)),
    sa.Column("version_label", sa.Text),
    sa.Column("promulgated_on", sa.String(10)),
    sa.Column("effective_on", sa.String(10)),
    sa.Column("language", sa.String(20)),
    sa.Column("licence", sa.Text),
    sa.Column("permitted_uses", sa.Text, nullable=False),
    sa.Column("metadata_json", sa.Text, nullable=False),
    sa.Column("section_count", sa.Integer, nullable=False),
    sa.Column("ingested_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("doc_id", "version"),
)

sections = sa.Table(
    "sections",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("version_id", sa.Integer, sa.ForeignKey("document_versions.id"), nullable=False),
    sa.Column("section_id", sa.String(200), nullable=False),
    sa.Column("ordinal", sa.Integer, nullable=False),
    sa.Column("heading", sa.Text, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("content_hash", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("deleted", sa.Boolean, nullable=False),
    sa.Column("reserved", sa.Boolean, nullable=False),
    sa.Column("deleted_parts", sa.Text, nullable=False),
    sa.UniqueConstraint("version_id", "section_id"),
)

section_embeddings = sa.Table(
    "section_embeddings",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("model_id", sa.String(200), nullable=False),
    sa.Column("model_version", sa.String(100), nullable=False),
    sa.Column("content_hash", sa.String(80), nullable=False),
    sa.Column("dim", sa.Integer, nullable=False),
    sa.Column("vector", sa.LargeBinary, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("model_id", "model_version", "content_hash"),
)

review_decisions = sa.Table(
    "review_decisions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("version_id", sa.Integer, sa.ForeignKey("document_versions.id"), nullable=False),
    sa.Column("section_id", sa.String(200)),
    sa.Column("decision", sa.String(20), nullable=False),
    sa.Column("reviewer", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("decided_at", sa.String(40), nullable=False),
)

runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("mode", sa.String(20), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("outcome", sa.String(40)),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("finished_at", sa.String(40)),
    sa.Column("retrieval_json", sa.Text, nullable=False),
    sa.Column("answer_json", sa.Text, nullable=False),
    sa.Column("result_json", sa.Text, nullable=False),
    sa.Column("heartbeat_at", sa.String(40)),
    sa.Column("lease_owner", sa.Text),
)

run_events = sa.Table(
    "run_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(64), sa.ForeignKey("runs.id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("stage", sa.String(40), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.UniqueConstraint("run_id", "seq"),
)

claim_ledgers = sa.Table(
    "claim_ledgers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(64), sa.ForeignKey("runs.id"), nullable=False),
    sa.Column("verifier_version", sa.String(40), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("entries_json", sa.Text, nullable=False),
    sa.Column("conflicts_json", sa.Text, nullable=False),
    sa.Column("acceptance_json", sa.Text, nullable=False),
)

claim_reviews = sa.Table(
    "claim_reviews",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.String(64), sa.ForeignKey("runs.id"), nullable=False),
    sa.Column("claim_id", sa.String(20), nullable=False),
    sa.Column("decision", sa.String(20), nullable=False),
    sa.Column("reviewer", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("decided_at", sa.String(40), nullable=False),
)

batches = sa.Table(
    "batches",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("settings_json", sa.Text, nullable=False),
    sa.Column("max_cost_micro", sa.BigInteger),
    sa.Column("committed_micro", sa.BigInteger, nullable=False),
)

batch_items = sa.Table(
    "batch_items",
    metadata,
    sa.Column("batch_id", sa.String(64), sa.ForeignKey("batches.id"), primary_key=True),
    sa.Column("line_no", sa.Integer, primary_key=True),
    sa.Column("item_id", sa.Text, nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("run_id", sa.String(64)),
    sa.Column("owner", sa.Text),
    sa.Column("claimed_at", sa.String(40)),
    sa.Column("finished_at", sa.String(40)),
    sa.Column("outcome", sa.String(40)),
    sa.Column("error", sa.Text),
    sa.Column("claims", sa.Integer, nullable=False),
)

rate_buckets = sa.Table(
    "rate_buckets",
    metadata,
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("micro_tokens", sa.BigInteger, nullable=False),
    sa.Column("updated_us", sa.BigInteger, nullable=False),
)

provider_slots = sa.Table(
    "provider_slots",
    metadata,
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("slot", sa.Integer, primary_key=True),
    sa.Column("owner", sa.Text),
    sa.Column("until_us", sa.BigInteger, nullable=False),
)

evaluations = sa.Table(
    "evaluations",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("question_set", sa.Text, nullable=False),
    sa.Column("set_digest", sa.String(80), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Column("result_json", sa.Text, nullable=False),
)

provider_cache = sa.Table(
    "provider_cache",
    metadata,
    sa.Column("cache_key", sa.String(80), primary_key=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("provider", sa.String(100), nullable=False),
    sa.Column("settings_json", sa.Text, nullable=False),
    sa.Column("target", sa.Text, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("retrieved_at", sa.String(40), nullable=False),
    sa.Column("stored_at", sa.String(40), nullable=False),
    sa.Column("hits", sa.Integer, nullable=False),
    sa.Column("last_hit_at", sa.String(40)),
    sa.Index("ix_provider_cache_provider", "provider", "kind"),
    sa.Index("ix_provider_cache_retrieved", "retrieved_at"),
)
