"""The acceptance decision: a recorded judgement on a report, separate from "the loop finished".

A report is accepted when (SPEC 5.6), on the text the reader gets — after removal and marking:

1. it was delivered (a validated research report; an ask answer that is a composed answer, not a
   clarification, handoff or "no eligible evidence"), and every required sub-question is answered
   by at least one supported claim of the delivered text (:mod:`citewise.verify.answers`): a gap,
   however honestly marked, means not accepted;
2. its key claims are supported: every factual claim of the ledger is ``supported`` (recommendations
   and inferences are labelled, not required to be);
3. its citations are traceable: every cited id names a stored source;
4. no material conflict is left unexplained: every conflict found was resolved by a reviewer.
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.audit.events import AnswerGiven, ReportMade
from citewise.records.research import ReportStatus
from citewise.records.runs import RunKind
from citewise.records.verify import Acceptance, ClaimKind, Criterion, Decision, Gap, GapReason, LedgerEntry
from citewise.store.runs import RunRecord
from citewise.verify.meaning import default_scorer, rule_set

__all__ = ["VERIFIER_VERSION", "decide_acceptance", "delivered_answer", "gap_reason"]

VERIFIER_VERSION = "verify-17"
"""v2: acceptance needs every required sub-question answered by a supported claim of the delivered
text; signposting is not a finding. v3: support is decided by meaning when an embedder is
configured (:mod:`citewise.verify.meaning`), with new guards for swapped roles, contrasting terms,
wrong articles and code names; without an embedder the rule set is recorded as ``verify-3-lexical``
(:func:`citewise.verify.meaning.rule_set`). v4: a Korean clause joined by 하며, / 하고, that the span
does not state is an unsupported addition (:mod:`citewise.verify.additions`), and a topic and a
recipient that trade places are swapped roles; ``verify-4-lexical`` without an embedder. v5: a time
condition on the other side of a figure or an event, a dropped requirement (동의 없이), a public body
or code name swapped for another (:mod:`citewise.verify.conditions`), an English clause the span does
not state, more Korean role swaps (a topic traded with a subject, a thing given to another owner) and
English parties up to five words apart; ``verify-5-lexical`` without an embedder. v6: a name traded
for another name of the same page in an otherwise unchanged clause, a PEP credited for another's
statement (:mod:`citewise.verify.names`), 정부 and the head of an office as bodies, prohibitions in
other words (해서는 안 된다, 금지된다), a statute's numbered items read with the sentence that leads
them, and conditions changed in words (a thing's absence for its presence, 다른 for 같은);
``verify-6-lexical`` without an embedder. v7: a writer's lead ("According to What's New, …", "…에
따르면") names no fact the span must hold, a proviso's span has the figures of the rule it
qualifies, a document number ("PEP 681") is a name looked up on the page, 매월 is 1달 and a count
after a determiner ("its two parts") no figure, 1년이 안 된 is 1년 미만, negations in other words
(without / no, a prohibition with its consequence, "quote() never escapes" / "never quoted"), and
people given each other's acts ("written by A", "contributed by B") are swapped roles;
``verify-7-lexical`` without an embedder. v8: a name is a word of the page (an acronym is not found
inside another word), bounds in other words ("smaller than", "any higher value"), verbs that negate
their act (avoids, disables, stops … from), a correction or alternative ruled out ("an iterator, not
a list", "rather than", "in place of"), "without raising" against a span that raises, a prohibition
itself denied (금지되지 않는다) and the contrapositive of a necessary condition (…해야만 효력이 있으므로
… 효력이 없다); ``verify-8-lexical`` without an embedder. v9: who does what to whom is read in the span
and the claim (:mod:`citewise.verify.relations`): the doer of a shared verb, active or passive ("the
calling code assumes" / "is handled by the calling code"), a comparison ("first is not greater than
last"), default and alternative, and the 이/가 subject of a shared Korean verb (근로자가 청구하면); a
claim that trades them is swapped roles, however far apart its parties; ``verify-9-lexical`` without an
embedder. v10: Korean parties are read in the clause that holds the claim's predicate (a payer made
the payee there), a party the span never names made the subject while the span's subject is demoted,
and 라는 ("외국인근로자라는 이유로") marks a role; a containment said with a copula ("other is a subnet
of this network") turned round; the kind of decree (대통령령, 법무부령 …) as a maker that can be
swapped; usually / rarely; a type the span never names ("a list" for "a dictionary"); and a
restriction ("only when the … variable is set") whose words the span lacks; a phrase the span
rules out ("not the address of the proxy server") affirmed; a causative verb one predicate
however written (근로시키지 못한다 = 근로를 시킬 수 없다); ``verify-10-lexical`` without an
embedder. v11: sentences do not end at initials and titles (George R.R. Martin, St. Louis); a clause
without its own subject is checked with the main clause's (the ledger keeps it as written); a
recommendation or inference that states a figure, date, period, amount or article its cited texts
lack, or that is advice only by a statute's duty (하여야 한다) while citing a statute, is checked as
a fact; ``verify-11-lexical`` without an embedder. v12: a Markdown table cell that cites a source or
reads as a sentence is checked as a claim of its row (a failing cell is removed or marked in place,
or its row dropped); more narration and signpost wordings are layout, not claims;
``verify-13-lexical`` without an embedder. v14: a required sub-question the last review found only
partly supported (weak) is a gap even when supported claims address it (:attr:`GapReason.PARTIAL
<citewise.records.verify.GapReason.PARTIAL>`), and a year and month inside a Korean sentence
("2021.3. 소속 회사의") does not end it; ``verify-14-lexical`` without an embedder. v15: Korean
negation read more closely — every act of a list before one negated 하다 ("해고, 휴직, 감봉, 그 밖의
징벌을 하지 못한다") is forbidden; an article's caption and a statute's glosses in parentheses (징벌(懲罰),
"(이하 … 한다)") neither affirm nor part a negation from its predicate; a person (사용자) is not the
act (사용); and a claim that an act need not be done (지급할 필요가 없다, 지니지 않아도 된다) where the
span says it must be is a negation mismatch, unless a proviso of the span lifts the duty where the
claim says it does not hold; a claim that names an article as its source ("제35조에 따르면",
"제93조는") when the page is another article and names that one only in its text is a wrong article;
한 차례 is a count (once) and "15시간에 못 미치는" the bound 15시간 미만; an everyday name (CCTV) is on
the page where its statute term (영상정보처리기기) is. v16: a clause the span says word for word is
never a traded name, though a proviso beside it gives the same words another figure ("… 200만원을
차감한 금액으로 한다. 다만, … 400만원을 …"), and a sentence that says "다음과 같다" leads the items after
it as one that says "다음 각 호" does (:data:`citewise.text.lead_ins.LEADS_LIST`); ``verify-16-lexical``
without an embedder. v17: a claim whose sentence (four words or more) the page says word for word,
the page's markup in a word aside (":class:`X`"), is judged on the sentences it stands in, however
the page's lines are cut (a hard-wrapped quote was set against another line of its own sentence),
and so is each claim a compound sentence parts into; when that span is the sentence alone (no
proviso after it), the claim says what the page says and is supported (a bound inside nested
brackets was read as dropped); a Markdown mark without its pair is text ("2**32" stays a power,
where every * was taken off before), and a mark that opens a word keeps the space before it
("subclass of :class:`X`" had become "subclass of:class:X"); a Korean item's letter or number (가.,
3의2.) opens a list line as "3." does, where it was read as a sentence that cites nothing; two
sections of one stored document (an ask's evidence) do not conflict: they are the document's
provisions for different cases (:func:`citewise.verify.conflicts.find_conflicts`); the sentence of a
span a negation is read against is the one sharing the claim's rarest words in the page (a claim
about the case a proviso excepts is read against the proviso, not the rule);
``verify-17-lexical`` without an embedder."""

_ANSWERED = {"model_answer_accepted", "deterministic_evidence_fallback"}


def delivered_answer(record: RunRecord) -> tuple[bool, str]:
    """Whether the run delivered an answer to verify, and what it ended in."""
    if record.kind is RunKind.RESEARCH:
        report = record.last(ReportMade)
        status = report.status.value if report else "none"
        return report is not None and report.status is ReportStatus.REPORT, status
    answer = record.last(AnswerGiven)
    outcome = answer.outcome.value if answer else str(record.outcome)
    return answer is not None and outcome in _ANSWERED, outcome


_GAP_WHY = {
    GapReason.NOT_FOUND: "no verified evidence found",
    GapReason.NOT_VERIFIED: "its claims failed verification",
    GapReason.NOT_ANSWERED: "no supported claim answers it",
    GapReason.PARTIAL: "the review found partial or indirect support",
}


def gap_reason(gaps: Sequence[Gap]) -> str:
    """The acceptance reason that names every gap: those no supported claim answers, then those
    answered only in part."""

    def named(chosen: Sequence[Gap]) -> str:
        return "; ".join(
            f"“{' '.join(g.topic.split())}” ({_GAP_WHY[g.reason]}"
            + (f": {', '.join(g.claim_ids)})" if g.claim_ids else ")")
            for g in chosen
        )

    unanswered = [g for g in gaps if g.reason is not GapReason.PARTIAL]
    partial = [g for g in gaps if g.reason is GapReason.PARTIAL]
    parts = []
    if unanswered:
        parts.append(f"required sub-questions with no supported claim in the delivered text: {named(unanswered)}")
    if partial:
        parts.append(f"required sub-questions the delivered text answers only in part: {named(partial)}")
    return "; ".join(parts)


def decide_acceptance(
    kind: str,
    answered: bool,
    entries: Sequence[LedgerEntry],
    unresolved_conflicts: int,
    decided_by: str = "citewise",
    ended_in: str = "",
    gaps: Sequence[Gap] = (),
) -> Acceptance:
    """Accept or reject a report (``kind`` research or ask; ``answered`` False when no validated report
    or answer was delivered, ``ended_in`` saying what it ended in instead; ``gaps`` the required
    sub-questions the delivered text does not answer), with every unmet criterion and its reason."""
    unmet: list[tuple[Criterion, str]] = []
    if kind == "research" and not answered:
        unmet.append((Criterion.DELIVERED, f"no validated report (status {ended_in or 'none'})"))
    if kind == "ask" and not answered:
        unmet.append((Criterion.DELIVERED, f"the ask ended in {ended_in or 'no answer'}, not an answer"))
    if gaps:
        unmet.append((Criterion.QUESTIONS_ANSWERED, gap_reason(gaps)))
    facts = [e for e in entries if e.claim.kind is ClaimKind.FACT]
    if not facts and not unmet:
        unmet.append((Criterion.CLAIMS_SUPPORTED, "the report makes no factual claim that could be verified"))
    unsupported = [e.claim.claim_id for e in facts if e.decision is not Decision.SUPPORTED]
    if unsupported:
        unmet.append((Criterion.CLAIMS_SUPPORTED, f"factual claims not supported: {', '.join(unsupported)}"))
    untraceable = [e.claim.claim_id for e in entries for c in e.checks if not c.traceable]
    if untraceable:
        claims = ", ".join(sorted(set(untraceable)))
        unmet.append((Criterion.CITATIONS_TRACEABLE, f"claims citing no stored source: {claims}"))
    if unresolved_conflicts:
        unmet.append((Criterion.CONFLICTS_EXPLAINED, f"{unresolved_conflicts} material conflict(s) left unexplained"))
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.decision.value] = counts.get(e.decision.value, 0) + 1
    return Acceptance(
        accepted=not unmet,
        reasons=tuple(reason for _, reason in unmet) or ("every criterion met",),
        verifier_version=rule_set(default_scorer()),
        decided_by=decided_by,
        counts=counts,
        unmet=tuple(dict.fromkeys(criterion for criterion, _ in unmet)),
        gaps=tuple(gaps),
    )
