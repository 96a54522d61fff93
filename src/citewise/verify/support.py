"""Does the stored text of a cited source support a claim? Deterministic checks, and an optional model.

A citation id proves only that a source exists. :func:`check_support` looks for the span of the
source's stored page text that the claim rests on and checks it, rule by rule, in this order; the
first rule that fails decides, and its reason names what failed:

1. **Span.** :func:`best_span` picks the sentence (or two adjacent sentences) sharing the most
   Korean-aware terms (:func:`citewise.text.analyze.analyze`) with the claim; the question, when
   given as ``context``, breaks ties between sentences at half weight. A proviso that follows the
   span (다만, 단, However, Provided that, except) is part of it: a rule is read with its
   exceptions. The span is an exact substring of the page text and must pass
   :func:`~citewise.text.quotes.quote_occurs`; no span → *unsupported*.
2. **Term overlap.** At least :data:`MIN_OVERLAP` of the claim's distinct terms must occur in the
   span. Terms the claim shares with the question are left out when the claim has others: the
   question's words are given, the claim's new words are what it asserts. Reply boilerplate
   ("The answer is:", "Based on the document,") is not a term.
2b. **Meaning** (:mod:`citewise.verify.meaning`). When the overlap is too low and an embedder is
   configured, the page's sentences sharing a quarter of the claim's terms are compared with the
   claim by the embedder; the most similar one at or above the threshold (0.86, 0.92 for a claim in
   Hangul) becomes the span, provided it shares a quarter of what the claim says besides its names
   (:func:`_predicate_terms`). Every rule below then applies to it as to a lexical span.
3. **Figures.** Every number of the claim, with its unit, must be in the span after normalisation
   (:func:`citewise.verify.figures.figures`): digits, commas and full-width forms; simple Korean
   numerals (삼십 일, 석 달, 두 명); multipliers (천, 만, 억, thousand, million); and unit families
   (% / percent / 퍼센트; 원 / 만원 / 억원; years as 12 months; weeks as 7 days). A number that is
   not there is named: "wrong number: 60일 (the span has 30일)".
4. **Dates** of the claim must be in the span, at least as specific as the claim states them
   (:func:`citewise.verify.figures.date_supported`).
5. **Named entities** of the claim (capitalised names, 「law names」, quoted names) must be in the
   span as words of it (an acronym is not found inside another word), case and spacing ignored
   (:func:`citewise.verify.names.entity_present`); its articles (제N조) and code names (``urllib.request``,
   ``KeyError``) must be on the page or in the question.
6. **Negation** (:mod:`citewise.verify.qualifiers`). A predicate the claim negates ("not", "no",
   "never", 않, 없, 못, 아니) must not be affirmed by the span's sentence closest to the claim,
   and a predicate that sentence negates must not be affirmed by the claim; a claim that negates
   anything where the span negates nothing says the opposite of it. "Without"/없이 and "not
   only"/뿐만 아니라 are not negations of a predicate, nor is "is not stated in the document".
   Verbs negate their act (avoids, disables, stops … from; not "to avoid", a purpose); a correction
   ("X, not Y", "rather than Y") rules Y out; "without raising" contradicts a span that raises;
   금지되지 않고 permits; the contrapositive of a necessary condition (…해야만 … 효력이 없다) is no mismatch.
6b. **Roles** (:mod:`citewise.verify.roles`): the claim must not swap two parties of the span, and
   (:func:`citewise.verify.qualifiers.contrast_problem`) must not trade a term for its opposite
   (서면 / 구두, stdout / stderr, before / after).
6c. **Cases** (:mod:`citewise.verify.cases`): no case of a condition given the outcome the span
   gives another ("if ignore_errors is true, … raise" where true ignores and false raises; "4시간이면
   1시간" where 4시간 has 30분 and 8시간 1시간), read in the span and its neighbouring sentences.
6d. **Conditions and names** (:mod:`citewise.verify.conditions`): no time condition moved to the
   other side of a figure or event (15일 이내 / 15일이 지난 후, 등기 전 / 등기 후), no requirement of the
   span done without (동의 없이 … 할 수 있다), no public body, kind of decree (대통령령 / 법무부령) or
   code name swapped for another the span names, no type the span never names ("a list" for "a
   dictionary"), no "only when …" whose words the span lacks, no phrase the span rules out ("not
   the address of the proxy server") affirmed.
7. **Scope** (:mod:`citewise.verify.qualifiers`). A claim that says all / always / every / anyone /
   모든 / 항상 / 언제든지 / 누구나 while the span qualifies (some, only, unless, 일부, 경우, 다만,
   이상 ...) or says nothing of the kind overstates; so does a claim that drops or changes the
   condition on a figure (the span's "5명 이상" as the claim's "5명", or "이상" as "미만").
7b. **Additions** (:mod:`citewise.verify.additions`). Each clause a Korean claim joins with a
   connective ending and a comma (하며, / 하고,) must share half of its own terms with the span: an
   answer that restates the provision and adds a detail it does not state is unsupported. An
   English clause joined by ", and …" must share a third of its terms with the span unless it
   brings fewer than four terms the page never uses.
8. Otherwise the claim is *supported* by this source.

:func:`judge_with_model` (:mod:`citewise.verify.judge`, re-exported here) asks a model for the same
judgement as strict JSON; its span must occur in the page text or the judgement is discarded
(returned as *unreviewed*, so the caller keeps the deterministic verdict).

``Figure``, ``figures``, ``date_parts`` and ``negated_keys`` are re-exported from
:mod:`citewise.verify.figures` and :mod:`citewise.verify.qualifiers`, where they live.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from citewise.records.verify import Claim, Decision, SupportCheck
from citewise.text.quotes import quote_occurs
from citewise.verify.additions import unsupported_addition
from citewise.verify.cases import swapped_case
from citewise.verify.claims import DATE_PATTERN, claim_scope, without_answer_frame, without_attribution
from citewise.verify.conditions import changed_condition, changed_version, only_one_of
from citewise.verify.duties import obligation_denied
from citewise.verify.figures import Figure, date_parts, date_supported, figures, identifiers, page_versions
from citewise.verify.judge import JUDGE_PROMPT_VERSION, judge_failure, judge_with_model
from citewise.verify.meaning import (
    MAX_CANDIDATES,
    MEANING_MIN_OVERLAP,
    MeaningScorer,
    default_scorer,
)
from citewise.verify.names import entity_present, section_name, traded_name
from citewise.verify.qualifiers import (
    contrast_problem,
    negated_keys,
    negation_mismatch,
    scope_problem,
    unmatched_negation,
    unsaid_without,
)
from citewise.verify.references import CODE_NAME, wrong_reference
from citewise.verify.roles import role_swap
from citewise.verify.spans import (
    PROVISO,
    Sentence,
    alone_in,
    best_span,
    claim_terms,
    closest_sentence,
    cover,
    locate,
    span_terms,
    verbatim_place,
    with_items,
)

__all__ = [
    "JUDGE_PROMPT_VERSION",
    "MIN_OVERLAP",
    "Figure",
    "best_span",
    "check_support",
    "date_parts",
    "figures",
    "judge_failure",
    "judge_with_model",
    "negated_keys",
]

MIN_OVERLAP: Final = 0.5
"""Share of the claim's distinct terms that must occur in the span."""

SHORT_ANSWER_TERMS: Final = 3
"""A claim with this many own terms or fewer must be found in a span that shares the question's terms."""


# -- the check ----------------------------------------------------------------------------------------


def _unsupported(
    source_id: str, span: str | None, found: bool, reason: str, missing: tuple[str, ...] = ()
) -> SupportCheck:
    return SupportCheck(source_id, span, found, missing, Decision.UNSUPPORTED, reason)


def check_support(
    claim: Claim | str,
    source_id: str,
    page_text: str,
    *,
    context: str = "",
    cited: tuple[int, int] | None = None,
    meaning: MeaningScorer | bool = True,
    source: str = "",
) -> SupportCheck:
    """The deterministic verdict on ``claim`` against the stored text of ``source_id``.

    ``cited`` is the character range of the sentences the claim cites by id (``[S1.3]``): the span is
    then exactly those sentences, with a proviso that follows them, instead of the best-scoring ones.
    ``context`` (e.g. the question the claim answers) helps find the span; terms, figures, dates and
    names the claim repeats from it are "given": they must occur in the page but not necessarily in
    the span, and they do not count towards the overlap rule; so is a version ``source`` (the page's
    address or origin: docs.python.org/3.11/…) names. Names are looked up in the span and its
    neighbouring sentences, where "the strike" or "it" in the span is named. See the module docstring
    for every rule. ``meaning`` is the :class:`~citewise.verify.meaning.MeaningScorer` that may find
    the span by meaning when the term overlap is too low (rule 2b); True (the default) uses the
    configured embedder's, False the lexical rule alone.

    >>> page = "임차인은 임대차가 끝나기 6개월 전부터 2개월 전까지 갱신을 요구할 수 있다."
    >>> check_support("임차인은 계약 만료 6개월 전부터 2개월 전까지 갱신을 요구할 수 있다.", "S1", page).decision.value
    'supported'
    >>> check_support("임차인은 계약 만료 6개월 전부터 1개월 전까지 갱신을 요구할 수 있다.", "S1", page).reason
    'wrong number: 1개월 (the span has 6개월, 2개월)'
    """
    text = claim.checked_text if isinstance(claim, Claim) else claim
    whole = claim.sentence if isinstance(claim, Claim) and claim.sentence else text
    verbatim = verbatim_place(whole, page_text) if cited is None else None
    if verbatim is not None:
        cited = verbatim  # a quote: its span is where it stands, however the page's lines are cut
    located = locate(text, page_text, context) if cited is None else cover(page_text, *cited)
    if located is None:
        if cited is not None:
            return _unsupported(source_id, None, False, "the cited sentence holds no text")
        return _unsupported(source_id, None, False, "no span of the page shares terms with the claim")
    sentences, first, last = located
    span = page_text[sentences[first].start : sentences[last].end]
    if not quote_occurs(span, page_text):
        return _unsupported(source_id, span, False, "the span does not occur in the page text")
    if verbatim is not None and alone_in(span, whole):
        return SupportCheck(source_id, span, True, (), Decision.SUPPORTED, "the page says the sentence word for word")
    how = "span found"
    versions = page_versions(source)
    given = f"{context} {versions}".strip()
    if (reason := _overlap_problem(text, span, given)) and not reason.startswith("low term overlap"):
        return _unsupported(source_id, span, True, reason)
    if reason:
        scorer = default_scorer() if meaning is True else (meaning or None)
        found = _by_meaning(text, page_text, sentences, (first, last), given, scorer, cited is not None)
        if isinstance(found, str):
            return _unsupported(source_id, span, True, f"{reason}{found}")
        first, last = with_items(page_text, sentences, found[0], found[1])
        span = page_text[sentences[first].start : sentences[last].end]
        how = f"span found by meaning (similarity {found[2]:.2f})"
    around = page_text[sentences[max(0, first - 1)].start : sentences[min(len(sentences) - 1, last + 1)].end]
    # A proviso (다만, …) qualifies the rule before it: the figures it leaves unsaid are the rule's.
    rule = page_text[sentences[first - 1].start : sentences[first].start] if first and PROVISO.match(span) else ""
    missing, reason = _missing_facts(text, span, around, f"{page_text}\n{versions}", given, rule=rule)
    if reason:
        return _unsupported(source_id, span, True, reason, missing)
    if reason := _says_otherwise(text, span, page_text, context, around):
        return _unsupported(source_id, span, True, reason)
    return SupportCheck(source_id, span, True, (), Decision.SUPPORTED, f"{how}; figures, dates, names agree")


def _says_otherwise(text: str, span: str, page_text: str, context: str, around: str) -> str | None:
    """Rules 6 and on: why the span, whose figures, dates and names agree, still does not say what the
    claim says; ``around`` (the span and the sentences beside it) holds a condition's other cases."""
    body = without_answer_frame(text)
    return (
        negation_mismatch(text, closest_sentence(text, span, page_text))
        or obligation_denied(body, span)
        or unmatched_negation(body, span)
        or unsaid_without(body, span)
        or role_swap(text, span)
        or traded_name(body, span, page_text)
        or section_name(text, span, page_text)
        or contrast_problem(text, span)
        or changed_condition(text, span, context)
        or swapped_case(body, around)
        or changed_version(body, around)
        or only_one_of(body, around)
        or scope_problem(text, span)
        or unsupported_addition(without_attribution(body), span, context, page_text)
    )


def _by_meaning(
    text: str,
    page_text: str,
    sentences: list[Sentence],
    located: tuple[int, int],
    context: str,
    scorer: MeaningScorer | None,
    cited: bool,
) -> tuple[int, int, float] | str:
    """Rule 2b: the span (first, last, similarity) the claim rests on by meaning, or why there is none.

    Candidates are the located span and, unless the claim cites its sentences, each sentence of the
    page (with a proviso that follows it) sharing at least :data:`MEANING_MIN_OVERLAP` of the
    claim's own terms besides its names (:func:`_predicate_terms`) — the :data:`MAX_CANDIDATES`
    sharing most. The most similar one must reach
    the scorer's threshold (:data:`~citewise.verify.meaning.MEANING_THRESHOLD`) and pass the
    overlap rule at the lower share.
    """
    if scorer is None or not text.strip():
        return ""
    candidates = [located]
    own = _predicate_terms(text, context)
    if not cited:
        ranked = sorted(
            (i for i, s in enumerate(sentences) if len(s.terms & own) >= MEANING_MIN_OVERLAP * len(own)),
            key=lambda i: -len(sentences[i].terms & own),
        )
        for i in ranked[:MAX_CANDIDATES]:
            last = (
                i + 1
                if i + 1 < len(sentences) and PROVISO.match(page_text[sentences[i + 1].start : sentences[i + 1].end])
                else i
            )
            if (i, last) not in candidates:
                candidates.append((i, last))
    spans = [page_text[sentences[a].start : sentences[b].end] for a, b in candidates]
    scores = scorer.similarities(without_answer_frame(text), spans)
    best = max(range(len(spans)), key=lambda n: (scores[n], -n))
    if scores[best] < (threshold := scorer.threshold_for(text)):
        return f"; meaning similarity {scores[best]:.2f} is below {threshold}"
    if reason := _overlap_problem(text, spans[best], context, minimum=MEANING_MIN_OVERLAP):
        return f"; by meaning (similarity {scores[best]:.2f}): {reason}"
    shared = own & frozenset(span_terms(spans[best]))
    if len(shared) < MEANING_MIN_OVERLAP * len(own):
        return f"; by meaning (similarity {scores[best]:.2f}): the span shares only names with the claim"
    return candidates[best][0], candidates[best][1], scores[best]


def _predicate_terms(text: str, context: str) -> frozenset[str]:
    """The claim's own terms without those of the names it mentions: what it says about its subject.

    A sentence that only names the subject ("The functions of urllib.parse are listed below.") is
    close in meaning to any claim about it, and supports none."""
    wanted = claim_terms(text)
    own = wanted - frozenset(span_terms(context)) or wanted
    body = without_answer_frame(text)
    names = [m.group() for m in CODE_NAME.finditer(body)] + list(claim_scope(body).entities)
    named = frozenset(t for name in names for t in span_terms(name))
    return own - named or own


def _overlap_problem(text: str, span: str, context: str, *, minimum: float = MIN_OVERLAP) -> str | None:
    terms = claim_terms(text)
    given = frozenset(span_terms(context))
    terms = terms - given or terms
    if not terms:
        return None
    in_span = frozenset(span_terms(span))
    shared = terms & in_span
    if len(shared) / len(terms) < minimum:
        return f"low term overlap: {len(shared)} of {len(terms)} claim terms in the span"
    # A short answer ("2", "His parents") is only evidence where the question's words are too.
    if given and len(terms) <= SHORT_ANSWER_TERMS and not given & in_span:
        return "short answer found only where the question's terms are not"
    return None


def _missing_facts(
    text: str, span: str, around: str, page: str, context: str, *, rule: str = ""
) -> tuple[tuple[str, ...], str]:
    """Figures, dates and names of the claim not where they should be, and the reasons. ``rule`` is
    the sentence a proviso span qualifies: its figures count as the span's. A document number
    ("PEP 681", "RFC 3986") is a name, not a figure: it must be on the page, as an article must."""
    body = without_answer_frame(text)
    scope = claim_scope(body)
    named = claim_scope(without_attribution(body)).entities
    given_figures = figures(context)
    given_scope = claim_scope(context)
    span_figures, page_figures = figures(f"{rule} {span}"), figures(page)
    on_page = {float(number) for _kind, number in identifiers(page) & identifiers(body)}
    missing: list[str] = []
    reasons: list[str] = []
    for figure in figures(body):
        if figure.unit is None and figure.value in on_page:
            continue
        given = any(figure.matches(g) for g in given_figures)
        if any(figure.matches(other) for other in (page_figures if given else span_figures)):
            continue
        missing.append(figure.text)
        same_unit = [f.text for f in span_figures if f.unit == figure.unit and figure.unit is not None]
        reasons.append(
            f"wrong number: {figure.text} (the span has {', '.join(same_unit)})"
            if same_unit
            else f"number not in the span: {figure.text}"
        )
    for date in scope.dates:
        where = page if date in given_scope.dates else span
        if not date_supported(date, [m.group() for m in DATE_PATTERN.finditer(unicodedata.normalize("NFKC", where))]):
            missing.append(date)
            reasons.append(f"date not in the span: {date}")
    for entity in named:
        if not entity_present(entity, page if entity_present(entity, context) else around):
            missing.append(entity)
            reasons.append(f"name not in the span: {entity}")
    if (wrong := wrong_reference(body, page, context)) and wrong[0] not in missing:
        missing.append(wrong[0])
        reasons.append(wrong[1])
    return tuple(missing), "; ".join(reasons)
