"""Rechecking a delivered report against its sources as they read now (``citewise recheck RUN``).

For periodic reports whose sources move under them: every source the report cites is extracted
again with the extractor the run used (through the store's cache unless ``fresh``), its content hash
compared with the stored one, and the claim ledger re-run on the stored report against the new text.
Each claim is then one of (:class:`~citewise.records.research.RecheckStatus`):

- ``unchanged``: the page it rests on reads as it did;
- ``page_changed``: the page changed, but the claim's quote is still in it;
- ``quote_gone``: the page changed and the quote is no longer in it;
- ``page_gone``: the page could not be read again (the extractor failed on it, or it came back empty);
  its cached copy is dropped, so a later recheck through the cache does not bring it back.

A claim rests on the source whose quote supported it in the ledger (the first supporting check);
a claim no cited source supported rests on all of its cited sources, the worst of them counting.
The result is appended to the run as a :class:`~citewise.audit.events.Rechecked` event; nothing
recorded earlier changes. A claim *holds* when it is unchanged, its quote is still there, or the text
read now still supports it; ``citewise recheck`` exits 0 when every claim holds, else 3.

A page changed for the report's purposes when its text changed; so that sentence citations
(``[S1.3]``) can still be checked, the excerpt the models were given is kept for a changed page when
it still occurs in the new text, and dropped (those citations then fail) when it does not. A
provider failure (the extractor refused, timed out) stops the recheck before anything is recorded:
it says nothing about the pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from citewise.audit.events import ClaimRecheck, Rechecked, ReportMade, RunConfigured, SourceRecheck, SourceStored
from citewise.config import env
from citewise.errors import ConfigError, InputError
from citewise.hashing import content_hash
from citewise.providers.cached import CachedExtractor
from citewise.providers.registry import registry
from citewise.providers.tavily_settings import KEY_ENV as TAVILY_KEY_ENV
from citewise.records.providers import Extractor
from citewise.records.research import RecheckStatus, Source
from citewise.records.runs import RunKind
from citewise.records.verify import Decision, LedgerEntry, SupportCheck
from citewise.research.caching import cache_ttl, cached_extractor
from citewise.research.urls import WEB_SCHEMES
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.text.quotes import normalise_for_match
from citewise.text.urls import url_key
from citewise.verify.ledger import CitedText, cited_texts, ledger_for_text, report_text

__all__ = ["EXTRACT_BATCH", "Recheck", "recheck_run"]

EXTRACT_BATCH = 20
"""URLs per extract call (Tavily Extract takes at most 20)."""

_WORST = (RecheckStatus.UNCHANGED, RecheckStatus.PAGE_CHANGED, RecheckStatus.QUOTE_GONE, RecheckStatus.PAGE_GONE)


@dataclass(frozen=True, slots=True)
class Recheck:
    """What ``recheck_run`` found, as recorded on the run."""

    run_id: str
    """The run rechecked."""
    rechecked: Rechecked
    """The recorded event: per source and per claim."""

    @property
    def holds(self) -> bool:
        """True when every claim still stands."""
        return self.rechecked.holds

    def count(self, status: RecheckStatus) -> int:
        """Claims with ``status``."""
        return sum(1 for c in self.rechecked.claims if c.status is status)


@dataclass(frozen=True, slots=True)
class _Read:
    text: str | None
    retrieved_at: datetime | None
    cached: bool
    error: str | None = None


def recheck_run(
    store: EvidenceStore,
    run_id: str,
    *,
    fresh: bool = False,
    extractor: Extractor | None = None,
    ttl: timedelta | str | None = None,
    extract: str | None = None,
) -> Recheck:
    """Read every cited source of ``run_id``'s report again and record how each claim stands.

    ``extractor``: the extractor to read with (default: the one the run used, by its registry name,
    configured from the environment; ``extract`` names another registered one, e.g. ``own``).
    ``fresh``: bypass the cache (pages are fetched again, and the cache is refreshed with them); else
    a cached page younger than ``ttl`` (default ``CITEWISE_CACHE_TTL`` or 24 h) is used."""
    runs = RunStore(store)
    record = runs.get(run_id)
    body = _delivered_body(record)
    sources = {stored.source.source_id: stored.source for stored in record.of(SourceStored)}
    before_texts = cited_texts(store, record)
    before = ledger_for_text(body, before_texts)
    cited = sorted({i for e in before for i in e.claim.cited_ids if i in sources}, key=_source_order)
    reader = extractor if extractor is not None else _run_extractor(store, record, extract)
    try:
        reader = cached_extractor(store, reader, cache_ttl(ttl, no_cache=False))
        reads = _read_all(reader, [sources[i] for i in cited], fresh)
    finally:
        if extractor is None:
            reader.close()
    checked = tuple(_source_recheck(sources[i], reads[i]) for i in cited)
    by_id = {c.source_id: c for c in checked}
    now_texts = dict(before_texts)
    for sid in cited:
        now_texts[sid] = _now_text(before_texts[sid], reads[sid], by_id[sid].status)
    after = {e.claim.claim_id: e for e in ledger_for_text(body, now_texts)}
    claims = tuple(
        _claim_recheck(entry, after[entry.claim.claim_id], by_id, now_texts)
        for entry in before
        if any(i in by_id for i in entry.claim.cited_ids) and entry.claim.claim_id in after
    )
    event = Rechecked(getattr(reader, "name", type(reader).__name__), fresh, checked, claims)
    runs.append(run_id, event)
    return Recheck(run_id, event)


def _delivered_body(record: RunRecord) -> str:
    if record.kind is not RunKind.RESEARCH:
        raise InputError(f"run {record.run_id} is an {record.kind} run; recheck reads research reports")
    report = record.last(ReportMade)
    if report is None or not report.body:
        raise InputError(f"run {record.run_id} delivered no report, so there is nothing to recheck")
    return report_text(record)


def _source_order(source_id: str) -> tuple[int, str]:
    digits = source_id[1:]
    return (int(digits) if digits.isdigit() else 0, source_id)


def _run_extractor(store: EvidenceStore, record: RunRecord, chosen: str | None) -> Any:
    configured = record.last(RunConfigured)
    used = configured.extract if configured is not None else "tavily"
    if used == "none" and chosen is None:
        raise InputError(f"run {record.run_id} read no pages (--extract none), so there is nothing to recheck")
    name = chosen or used
    options: dict[str, Any] = {"store": store} if name == "local" else {}
    if name == "tavily" and env(TAVILY_KEY_ENV) is None:
        # Said here rather than by the provider, whose message suggests `research --search local`.
        raise ConfigError(
            f"no Tavily key: set {TAVILY_KEY_ENV} to read run {record.run_id}'s sources again with Tavily"
            " Extract (the extractor it used), or recheck with citewise's own fetcher: --extract own"
        )
    return registry.extractor(name, **options)


def _read_all(reader: Any, sources: Sequence[Source], fresh: bool) -> dict[str, _Read]:
    """Every source's text now: from the cache (unless ``fresh``), else in batched extract calls."""
    reads: dict[str, _Read] = {}
    missing: list[Source] = []
    for source in sources:
        hit = reader.lookup(source.url) if isinstance(reader, CachedExtractor) and not fresh else None
        if hit is not None:
            reads[source.source_id] = _Read(hit.page.raw_content, hit.retrieved_at, True)
        else:
            missing.append(source)
    schemes = tuple(getattr(reader, "url_schemes", WEB_SCHEMES))
    for start in range(0, len(missing), EXTRACT_BATCH):
        batch = missing[start : start + EXTRACT_BATCH]
        response = reader.extract([s.url for s in batch])  # a ProviderError stops the recheck here
        pages = {url_key(p.url, schemes=schemes): p for p in response.pages}
        failures = {url_key(f.url, schemes=schemes): f.error for f in response.failures}
        for source in batch:
            key = url_key(source.url, schemes=schemes)
            page = pages.get(key)
            if page is not None and page.raw_content.strip():
                reads[source.source_id] = _Read(page.raw_content, response.retrieved_at, False)
            else:
                error = "the page came back empty" if page is not None else failures.get(key, "not in the answer")
                reads[source.source_id] = _Read(None, None, False, error)
                if isinstance(reader, CachedExtractor):  # a cached copy must not bring it back later
                    reader.forget(source.url)
    return reads


def _source_recheck(source: Source, read: _Read) -> SourceRecheck:
    stored = source.page_text_hash or content_hash(source.page_text)
    if read.text is None:
        gone = RecheckStatus.PAGE_GONE
        return SourceRecheck(source.source_id, source.url, gone, stored, None, None, error=read.error)
    new = content_hash(read.text)
    status = RecheckStatus.UNCHANGED if new == stored else RecheckStatus.PAGE_CHANGED
    return SourceRecheck(source.source_id, source.url, status, stored, new, read.retrieved_at, read.cached)


def _now_text(before: CitedText, read: _Read, status: RecheckStatus) -> CitedText:
    if status is RecheckStatus.UNCHANGED:
        return before
    text = read.text or ""
    keep = bool(before.excerpt) and _occurs(before.excerpt, text)
    return CitedText(before.ident, before.url, text, before.excerpt if keep else "")


def _occurs(quote: str, text: str) -> bool:
    wanted = normalise_for_match(quote)
    return bool(wanted) and wanted in normalise_for_match(text)


def _support(entry: LedgerEntry) -> SupportCheck | None:
    """The check a claim rests on: its first supporting one, else the first with a span (as the
    ledger picks the entry's quote)."""
    return next((c for c in entry.checks if c.decision is Decision.SUPPORTED), None) or next(
        (c for c in entry.checks if c.span), None
    )


def _claim_recheck(
    before: LedgerEntry, after: LedgerEntry, sources: Mapping[str, SourceRecheck], now: Mapping[str, CitedText]
) -> ClaimRecheck:
    claim = before.claim
    support = _support(before)
    rests_on = support if support is not None and support.source_id in sources else None
    if rests_on is not None:
        status = sources[rests_on.source_id].status
        if (
            status is RecheckStatus.PAGE_CHANGED
            and rests_on.span
            and not _occurs(rests_on.span, now[rests_on.source_id].page_text)
        ):
            status = RecheckStatus.QUOTE_GONE
        source_id, quote = rests_on.source_id, rests_on.span
    else:
        status = max((sources[i].status for i in claim.cited_ids if i in sources), key=_WORST.index)
        source_id, quote = None, None
    return ClaimRecheck(claim.claim_id, claim.text, status, source_id, quote, before.decision, after.decision)
