"""Origins are compared parsed (SPEC 3.2): scheme, host by whole labels, port, whole path segments.

The look-alikes are the ones an attacker publishes at: a host that begins with the allowed one, the
allowed one as userinfo, another port, another scheme, percent-encoded dots, a path that only
starts with the same characters. None of them may be admitted by any rule.
"""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date
from pathlib import Path

import pytest

from citewise.errors import InputError
from citewise.evidence import RetrievalPlan
from citewise.evidence.gate import evaluate, load_candidates
from citewise.records import DocumentVersion
from citewise.records.gate import Candidate, ExclusionReason, SourceRef
from citewise.store.evidence import EvidenceStore
from citewise.text.origins import normalise_host, parse_origin_rule, same_origin

LAW = "https://www.law.go.kr"

LOOK_ALIKES = [
    "https://www.law.go.kr.evil.example/lsInfoP.do",  # a host that begins with the allowed one
    "https://www.law.go.krevil.example/",
    "https://www.law.go.kr@evil.example/",  # the allowed host as userinfo
    "https://www.law.go.kr:pw@evil.example/",
    "https://user@www.law.go.kr/",  # credentials on the right host: still refused
    "https://www.law.go.kr:8443/lsInfoP.do",  # another port
    "http://www.law.go.kr/",  # another scheme
    "ftp://www.law.go.kr/",
    "https://www%2elaw%2ego%2ekr%2eevil.example/",  # percent-encoded dots resolve to the look-alike
    "https://www.law.go.kr%2eevil.example/",
    "https://evil.example/https://www.law.go.kr/",  # the allowed origin inside the path
    "https://evil.example/?u=https://www.law.go.kr",
    "",
    "not a url",
    "https://[::1/",  # unparsable
]


@pytest.mark.parametrize("url", LOOK_ALIKES)
def test_a_url_rule_admits_no_look_alike(url: str) -> None:
    assert not parse_origin_rule(LAW).matches(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://www.law.go.kr/lsInfoP.do?lsiSeq=1",
        "https://WWW.LAW.GO.KR/",
        "https://www.law.go.kr./x",  # the trailing dot is the same host
        "https://www.law.go.kr:443/x",  # the default port written out
        "https://www%2elaw.go.kr/x",  # a percent-encoded dot that parses to the host itself
    ],
)
def test_a_url_rule_admits_its_own_origin(url: str) -> None:
    assert parse_origin_rule(LAW).matches(url)


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://x.org/laws", True),
        ("https://x.org/laws/", True),
        ("https://x.org/laws/civil/1", True),
        ("https://x.org/lawsuit", False),  # whole segments, not characters
        ("https://x.org/laws-old/a", False),
        ("https://x.org/laws/../admin", False),  # dot segments are resolved before comparing
        ("https://x.org/laws/%2e%2e/admin", False),
        ("https://x.org/", False),
        ("https://x.org/%6Caws/a", True),  # a percent-encoded letter is the same segment
    ],
)
def test_a_path_rule_compares_whole_segments(url: str, allowed: bool) -> None:
    assert parse_origin_rule("https://x.org/laws/").matches(url) is allowed
    assert parse_origin_rule("https://x.org/laws").matches(url) is allowed


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://law.go.kr/", True),
        ("https://www.law.go.kr/a", True),
        ("http://open.law.go.kr/a", True),
        ("https://evillaw.go.kr/", False),  # labels, not characters
        ("https://law.go.kr.evil.example/", False),
        ("https://law.go.kr@evil.example/", False),
        ("https://evil.example@law.go.kr/", False),  # credentials never match
        ("https://law.go.kr:8443/", False),  # a host rule without a port: the default port only
        ("file:///law.go.kr/a", False),
        ("https://law.go.kr%2eevil.example/", False),
    ],
)
def test_a_host_rule_matches_the_host_and_its_subdomains_by_labels(url: str, allowed: bool) -> None:
    assert parse_origin_rule("law.go.kr").matches(url) is allowed
    assert parse_origin_rule("LAW.GO.KR.").matches(url) is allowed


def test_a_host_rule_with_a_port_matches_that_port_only() -> None:
    rule = parse_origin_rule("law.go.kr:8443")
    assert rule.matches("https://www.law.go.kr:8443/") and not rule.matches("https://www.law.go.kr/")


def test_ip_hosts_have_no_subdomains() -> None:
    rule = parse_origin_rule("2.3")
    assert not rule.matches("http://10.1.2.3/")
    assert parse_origin_rule("127.0.0.1").matches("http://0x7f.1/")  # the standard's numeric forms


def test_file_rules_compare_paths_by_segment() -> None:
    rule = parse_origin_rule("file:///corpus/")
    assert rule.matches("file:///corpus/kr/a.md")
    assert not rule.matches("file:///corpus-private/a.md")
    assert not rule.matches("https://corpus/")


@pytest.mark.parametrize(
    "text",
    ["", "  ", "law.go.kr/laws", "https://", "https://user@law.go.kr/", "https://law.go.kr/?q=1", "http://a b/", "a@b"],
)
def test_a_rule_that_cannot_be_understood_fails_saying_why(text: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_origin_rule(text)
    assert "origin" in str(caught.value) and "\n" not in str(caught.value)


def test_the_plan_refuses_a_bad_origin_when_it_is_made() -> None:
    with pytest.raises(InputError, match="neither a host nor a URL"):
        RetrievalPlan.from_values(origins=["law.go.kr/laws"])


def test_same_origin_compares_scheme_host_and_port() -> None:
    hosts = frozenset({"127.0.0.1", "localhost", "::1"})
    assert same_origin("http://127.0.0.1:8765", "http", hosts, 8765)
    assert same_origin("http://[::1]:8765", "http", hosts, 8765)
    assert same_origin("http://LOCALHOST:8765", "http", hosts, 8765)
    assert not same_origin("http://127.0.0.1:9999", "http", hosts, 8765)  # another port
    assert not same_origin("https://127.0.0.1:8765", "http", hosts, 8765)  # another scheme
    assert not same_origin("http://127.0.0.1.evil.example:8765", "http", hosts, 8765)
    assert not same_origin("null", "http", hosts, 8765)
    assert normalise_host("::1") == "[::1]" and normalise_host("127.1") == "127.0.0.1"


# -- through the gate: a look-alike document is excluded with its reason --------------------------


def _as_published_at(candidate: Candidate, url: str) -> Candidate:
    provenance = dataclasses.replace(candidate.document.provenance, origin_url=url, official_publisher=None)
    document: DocumentVersion = dataclasses.replace(candidate.document, provenance=provenance)
    return dataclasses.replace(candidate, document=document)


@pytest.mark.parametrize("url", LOOK_ALIKES[:10])
def test_the_gate_excludes_a_document_published_at_a_look_alike(
    sample_store_file: Path, tmp_path: Path, url: str
) -> None:
    copy = tmp_path / "store.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as store:
        doc = store.documents()[0]
        section = store.sections(doc.doc_id)[0]
        loaded, versions = load_candidates(store, [SourceRef(doc.doc_id, section.version, section.section_id)])
    [candidate] = loaded
    assert isinstance(candidate, Candidate)
    plan = RetrievalPlan(origins=(LAW,), approval_required=False)
    today = date(2026, 11, 30)
    outcome = evaluate(plan, [_as_published_at(candidate, url)], today=today, versions=versions)
    assert not outcome.eligible
    assert {e.reason for d in outcome.decisions for e in d.reasons} == {ExclusionReason.ORIGIN_NOT_ALLOWED}
    honest = evaluate(plan, [_as_published_at(candidate, f"{LAW}/lsInfoP.do")], today=today, versions=versions)
    assert honest.eligible
