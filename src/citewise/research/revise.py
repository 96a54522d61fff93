"""One revision of the final draft, from the claim ledger's findings (issue: verified delivery).

When verification finds factual claims it cannot support, the writer gets them back once — which
claim, why, and the stored text that came closest — and is asked to narrow the claim, cite the right
source, label it as an inference, or drop it. The revised draft is checked and verified again like
any draft; what still fails is removed before a reader sees it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from citewise.llm import ChatClient
from citewise.records.research import CoverageReview, Draft, ResearchPlan, Source
from citewise.research.prompts import build_write_messages
from citewise.text.citations import cited_ids
from citewise.verify.delivery import Finding

__all__ = ["REVISE_INSTRUCTIONS", "REVISE_PROMPT_VERSION", "build_revise_messages", "revise_with_model"]

REVISE_PROMPT_VERSION: Final = "revise-v1"
"""Version of the revision instructions (added to the writer's prompt)."""

REVISE_INSTRUCTIONS: Final = """\
This is a revision. The user message also has "draft" (your report) and "findings": claims of it \
that citewise could not verify against the stored text of the sources it cites, each with \
"claim_id", "sentence", "decision", "reason" and "closest_stored_text" (the nearest passage found, \
or null). For each finding: narrow the claim to what the closest stored text says, cite the source \
that does support it, label it plainly as your inference, or drop it. Keep every other sentence as \
it is. Return the whole revised report; cite only the given source ids and output no URLs."""


def build_revise_messages(
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    draft: str,
    found: Sequence[Finding],
) -> list[dict[str, str]]:
    """The writer's messages with the draft and the ledger's findings added (data, never instructions)."""
    system, user = build_write_messages(question, plan, sources, review)
    data = json.loads(user["content"])
    data["draft"] = draft
    data["findings"] = [
        {
            "claim_id": f.claim_id,
            "sentence": f.sentence,
            "decision": f.decision.value,
            "reason": f.reason,
            "closest_stored_text": f.closest,
        }
        for f in found
    ]
    return [
        {"role": "system", "content": f"{system['content']}\n\n{REVISE_INSTRUCTIONS}"},
        {"role": "user", "content": json.dumps(data, ensure_ascii=False, indent=1)},
    ]


def revise_with_model(
    client: ChatClient,
    model: str,
    question: str,
    plan: ResearchPlan,
    sources: Sequence[Source],
    review: CoverageReview,
    draft: Draft,
    found: Sequence[Finding],
) -> Draft:
    """One revision of ``draft``; check it with :func:`~citewise.research.writer.check_draft` and verify it."""
    result = client.complete(model, build_revise_messages(question, plan, sources, review, draft.markdown, found))
    markdown = result.text.strip()
    known = {s.source_id for s in sources}
    return Draft(draft.round, markdown, tuple(i for i in cited_ids(markdown) if i in known), result.model)
