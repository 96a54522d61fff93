"""Domain diversity (SPEC 4.3, issue 25): one site does not supply most of the sources when other sites
answer, and one text on two sites is one source with both URLs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from citewise.records.research import Source
from citewise.research.sites import RoundSites, SitePolicy, dominance_note, site_figures, twin_of
from citewise.text.domains import registrable_domain
from tests.loop_harness import Env, covered, draft_citing, page, plan_reply
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name


def _source(n: int, url: str, text: str = "") -> Source:
    return Source(
        f"S{n}",
        url,
        url,
        "t",
        "q",
        datetime(2026, 1, 1, tzinfo=UTC),
        text or f"text {n}",
        text or f"text {n}",
        "tavily",
        1,
        domain=registrable_domain(url),
    )


@pytest.mark.unit
@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.mirror-news.co.uk/a", "mirror-news.co.uk"),
        ("https://a.b.blogspot.com/x", "b.blogspot.com"),  # a private suffix: each blog its own site
        ("https://[::1]:8080/x", "::1"),
        ("https://WWW.Example.COM./x", "example.com"),
        ("ftp://example.com/x", None),
        ("not a url", None),
    ],
)
def test_the_site_of_a_url_is_its_registrable_domain(url: str, site: str | None) -> None:
    assert registrable_domain(url) == site


@pytest.mark.unit
def test_one_page_per_site_per_round_while_others_answer() -> None:
    sites = RoundSites([], SitePolicy())
    answering = RoundSites.answering(["https://big.example/1", "https://big.example/2", "https://small.example/1"])
    assert sites.allows("big.example", answering)
    sites.take("big.example")
    assert not sites.allows("big.example", answering)  # the second page of the same site waits
    assert sites.allows("small.example", answering)
    only_big = RoundSites.answering(["https://big.example/3", "https://big.example/4"])
    assert sites.allows("big.example", only_big)  # the only site that answers is read


@pytest.mark.unit
def test_a_site_keeps_to_its_share_of_the_sources_and_the_primary_site_is_exempt() -> None:
    stored = [_source(1, "https://big.example/1"), _source(2, "https://small.example/1")]
    answering = RoundSites.answering(["https://big.example/9", "https://other.example/1"])
    assert not RoundSites(stored, SitePolicy()).allows("big.example", answering)  # 2 of 3 > half
    assert RoundSites(stored, SitePolicy(max_share=0.7)).allows("big.example", answering)
    assert RoundSites(stored, SitePolicy(primary=frozenset({"big.example"}))).allows("big.example", answering)


@pytest.mark.unit
def test_the_same_text_on_another_site_is_a_twin_and_a_different_text_is_not() -> None:
    text = " ".join(
        f"Clause {i}: the deposit is returned within {i} months of the end of lease {i}." for i in range(12)
    )
    stored = [_source(1, "https://a.example/x", text)]
    assert twin_of(text.replace("one month", "one month"), stored) == (stored[0], 1.0)
    twin = twin_of(text + " Mirrored by b.example.", stored)
    assert twin is not None and twin[0].source_id == "S1" and 0.9 <= twin[1] < 1.0
    assert twin_of("A different page about tenants' repairs and notices, nothing else.", stored) is None


@pytest.mark.unit
def test_figures_and_the_limitation_when_one_site_dominates() -> None:
    sources = [_source(i, f"https://big.example/{i}") for i in range(1, 4)] + [_source(4, "https://other.example/1")]
    figures = site_figures(sources, SitePolicy(primary=frozenset({"other.example"})))
    assert (figures.sources, figures.distinct_domains, figures.largest_domain, figures.largest_count) == (
        4,
        2,
        "big.example",
        3,
    )
    assert figures.largest_share == 0.75 and figures.primary_share == 0.25
    note = dominance_note(figures, SitePolicy())
    assert note == "One site, big.example, supplied 3 of the 4 sources (1 other site): the findings lean on it."
    balanced = site_figures(sources[2:], SitePolicy())
    assert dominance_note(balanced, SitePolicy()) is None


@pytest.mark.integration
def test_a_site_ranked_first_for_every_query_supplies_at_most_half(env: Env) -> None:
    queries = ["deposit law", "deposit return", "deposit interest"]
    for i, q in enumerate(queries):
        env.web.hits[q] = [
            f"https://republisher.example/{i}a",
            f"https://republisher.example/{i}b",
            f"https://site{i}.example/page",
        ]
        env.web.pages.update(
            {
                f"https://republisher.example/{i}a": page(f"republished {i} a"),
                f"https://republisher.example/{i}b": page(f"republished {i} b"),
                f"https://site{i}.example/page": page(f"own page {i}"),
            }
        )
    env.brain.script("plan", plan_reply(queries=queries))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    domains = [s.domain for s in result.sources]
    assert domains.count("republisher.example") <= len(domains) / 2
    assert {"site0.example", "site1.example", "site2.example"} <= set(domains)
    record = env.record(result.run_id)
    from citewise.audit.events import ReportMade, Skipped

    skipped = [e.skip for e in record.of(Skipped) if e.skip.reason.value == "same_site"]
    assert skipped and all("republisher.example" in s.target for s in skipped)
    report = record.last(ReportMade)
    assert report is not None and report.sites is not None
    assert report.sites.distinct_domains == len(set(domains)) and report.sites.largest_share <= 0.5


@pytest.mark.integration
def test_a_page_and_its_mirror_on_another_site_are_one_source_with_both_urls(env: Env) -> None:
    original, mirror = "https://publisher.example/notice", "https://aggregator.example/copy-of-notice"
    text = page("the official deposit notice") + "".join(
        f"\n\nClause {i}: a deposit of lease {i} is returned within {i + 1} months, with interest." for i in range(8)
    )
    env.web.hits["rental deposit law"] = [original, mirror]
    env.web.pages.update({original: text, mirror: text + "\n\nShared by aggregator."})
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1"))

    result = env.run()

    assert [(s.source_id, s.url, s.mirrors) for s in result.sources] == [("S1", original, (mirror,))]
    assert f"the same text at {mirror}" in result.markdown
