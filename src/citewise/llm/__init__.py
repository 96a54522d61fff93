"""Models: an OpenAI-compatible Chat Completions client, typed errors, JSON reply validation.

``citewise.llm`` imports the ``openai`` SDK only when a :class:`ChatClient` is created, so the
keyless paths of citewise do not pay for it.
"""

from citewise.llm.admission import Admission, PendingRequest
from citewise.llm.client import ChatClient, Message
from citewise.llm.errors import (
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
    ModelStreamBroken,
    ModelTimeout,
    ModelTruncated,
    ModelUnavailable,
    ModelUnexpectedFinish,
)
from citewise.llm.records import CallRecord, ChatResult, TokenUsage
from citewise.llm.settings import ModelSettings, model_configured
from citewise.llm.structured import (
    expect_object,
    expect_str,
    expect_str_list,
    json_schema_format,
    parse_json_reply,
)

__all__ = [
    "Admission",
    "CallRecord",
    "ChatClient",
    "ChatResult",
    "Message",
    "ModelAuthError",
    "ModelBadRequest",
    "ModelEmptyReply",
    "ModelEndpointError",
    "ModelError",
    "ModelRateLimited",
    "ModelRefused",
    "ModelReplyError",
    "ModelReplyInvalid",
    "ModelServerError",
    "ModelSettings",
    "ModelTimeout",
    "ModelTruncated",
    "ModelStreamBroken",
    "ModelUnavailable",
    "ModelUnexpectedFinish",
    "PendingRequest",
    "TokenUsage",
    "expect_object",
    "expect_str",
    "expect_str_list",
    "json_schema_format",
    "model_configured",
    "parse_json_reply",
]
