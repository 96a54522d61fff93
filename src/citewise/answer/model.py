"""The model answer path: one call to a writer model, its reply validated against the evidence.

::

    from citewise.answer.model import ModelAnswerFailed, compose_with_model

    try:
        answer, provenance = compose_with_model(client, "gpt-4o-mini", question, evidence)
    except ModelAnswerFailed as failed:
        answer = compose_extractive(question, evidence)       # the deterministic composer
        provenance = replace(failed.provenance, path=AnswerPath.DETERMINISTIC)

A failed model answer is never an error to the user and never a silent fallback either:
:class:`ModelAnswerFailed` carries why (:attr:`~ModelAnswerFailed.code`) and an
:class:`~citewise.records.answer.AnswerProvenance` with the requested model, the prompt version
and the tokens the failed call spent, for the run record. There are no retries here: a retry is
the caller's decision, inside its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from citewise.answer.prompts import ASK_PROMPT_VERSION, ASK_SCHEMA, ASK_SCHEMA_NAME, build_ask_messages
from citewise.answer.validate import AnswerRejected, validate_answer
from citewise.errors import RunError
from citewise.llm import (
    ChatClient,
    ModelAuthError,
    ModelBadRequest,
    ModelEmptyReply,
    ModelEndpointError,
    ModelError,
    ModelRateLimited,
    ModelRefused,
    ModelReplyError,
    ModelReplyInvalid,
    ModelServerError,
    ModelTimeout,
    ModelTruncated,
    ModelUnavailable,
    ModelUnexpectedFinish,
    TokenUsage,
)
from citewise.records.answer import AnswerPath, AnswerProvenance, ComposedAnswer, Evidence

__all__ = ["MODEL_ERROR_CODES", "ModelAnswerFailed", "compose_with_model"]

MODEL_ERROR_CODES: Final[dict[type[ModelError], str]] = {
    ModelTruncated: "truncated",
    ModelReplyInvalid: "invalid_json",
    ModelRefused: "refused",
    ModelEmptyReply: "empty_reply",
    ModelUnexpectedFinish: "unexpected_finish",
    ModelReplyError: "unusable_reply",
    ModelRateLimited: "rate_limited",
    ModelTimeout: "timeout",
    ModelUnavailable: "unavailable",
    ModelServerError: "server_error",
    ModelAuthError: "auth_error",
    ModelBadRequest: "bad_request",
    ModelEndpointError: "endpoint_error",
    ModelError: "model_error",
}
"""The :attr:`ModelAnswerFailed.code` of a failed call, by the most specific error class."""


class ModelAnswerFailed(RunError):
    """The model path produced no acceptable answer; the caller falls back and records why.

    :attr:`code` is an :class:`~citewise.answer.validate.AnswerRejected` code (``unknown_id``,
    ``not_covered`` ...) when the reply broke a rule, or one of :data:`MODEL_ERROR_CODES`
    (``truncated``, ``invalid_json``, ``rate_limited`` ...) when the call failed. The cause is
    chained (``__cause__``).
    """

    def __init__(self, reason: str, code: str, provenance: AnswerProvenance) -> None:
        super().__init__(reason)
        self.reason = reason
        """What went wrong, for the run record (also in :attr:`provenance`)."""
        self.code = code
        """Machine-readable: which rule the reply broke, or how the call failed."""
        self.provenance = provenance
        """Path ``none``; the requested model, prompt version, tokens spent and ``fallback_reason``."""


def compose_with_model(
    client: ChatClient, model: str, question: str, evidence: Sequence[Evidence]
) -> tuple[ComposedAnswer, AnswerProvenance]:
    """Ask ``model`` to answer ``question`` from ``evidence``; the validated answer and its provenance.

    One call with structured output (:data:`~citewise.answer.prompts.ASK_SCHEMA`), then
    :func:`~citewise.answer.validate.validate_answer`. Raises :class:`ModelAnswerFailed` when the
    call fails or the reply is rejected; :class:`~citewise.errors.ConfigError` for an empty model id.
    """
    if not evidence:
        raise ValueError("compose_with_model needs at least one evidence passage")
    attempt = AnswerProvenance(path=AnswerPath.NONE, requested_model=model, prompt_version=ASK_PROMPT_VERSION)
    messages = build_ask_messages(question, evidence)
    try:
        # The client only decodes the JSON here; the answer rules run below, once the call is
        # recorded with its usage, so a rejected answer still accounts for the tokens it cost.
        reply, result = client.complete_json(model, messages, schema=ASK_SCHEMA, name=ASK_SCHEMA_NAME, validate=_as_is)
    except ModelError as exc:
        code = _error_code(exc)
        raise _failed(f"the model call failed ({code}): {exc}", code, attempt, exc.usage) from exc
    try:
        answer = validate_answer(reply, evidence)
    except AnswerRejected as exc:
        reason = f"the model's answer was rejected ({exc.code}): {exc.reason}"
        raise _failed(reason, exc.code, attempt, result.usage) from exc
    prompt_tokens, completion_tokens = _tokens(result.usage)
    provenance = AnswerProvenance(
        path=AnswerPath.MODEL,
        model=result.model,
        requested_model=result.requested_model,
        prompt_version=ASK_PROMPT_VERSION,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
    )
    return answer, provenance


def _as_is(value: Any) -> Any:
    return value


def _error_code(exc: ModelError) -> str:
    for kind in type(exc).__mro__:
        if kind in MODEL_ERROR_CODES:
            return MODEL_ERROR_CODES[kind]
    return "model_error"


def _tokens(usage: TokenUsage | None) -> tuple[int | None, int | None]:
    # No reported usage is unknown, not zero.
    return (None, None) if usage is None else (usage.prompt, usage.completion)


def _failed(reason: str, code: str, attempt: AnswerProvenance, usage: TokenUsage | None) -> ModelAnswerFailed:
    prompt_tokens, completion_tokens = _tokens(usage)
    provenance = AnswerProvenance(
        path=attempt.path,
        requested_model=attempt.requested_model,
        prompt_version=attempt.prompt_version,
        fallback_reason=reason,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
    )
    return ModelAnswerFailed(reason, code, provenance)
