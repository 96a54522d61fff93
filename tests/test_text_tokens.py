"""The one token estimate (``citewise.text.tokens``): above what a tokenizer counts, in any script.

The request admission of every model call and the native-engine path estimated prompts two ways; the
engine's divided all characters by three, a third of a token for a Hangul syllable.
"""

from __future__ import annotations

import pytest

from citewise.llm.admission import MESSAGE_OVERHEAD_TOKENS, PendingRequest
from citewise.text.tokens import estimate_text_tokens

pytestmark = pytest.mark.unit

TEXTS = [
    "Deposits are protected up to 50 million won per depositor.",
    "주택임대차보호법 제3조에 따라 임차인은 대항력을 가진다.",
    "임대차 (lease) 기간은 2년이다; the tenant may end it earlier.",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_estimate_errs_high(text: str) -> None:
    estimate = estimate_text_tokens(text)
    assert estimate >= len(text) // 4  # English prose: about four characters a token
    assert estimate >= sum(1 for ch in text if "가" <= ch <= "힣")  # Korean: at most a token a syllable


def test_an_admitted_request_is_estimated_by_it() -> None:
    request = PendingRequest("m", ({"role": "user", "content": TEXTS[1]},), 100)
    assert request.estimated_prompt_tokens == 2 * MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(TEXTS[1])
