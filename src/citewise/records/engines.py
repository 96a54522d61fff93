"""The native search engines' shared shape: what an engine is asked, what it answers, how it fails.

An engine is a provider's own model with its own web search tool (OpenAI Responses ``web_search``,
Anthropic ``web_search_20250305``, Gemini ``google_search`` grounding). Each adapter turns its
provider's wire format into the same typed records, so everything after the call — extracting the
cited pages, mapping citations to sentences, verifying, pricing — is the same for every engine, and
an experiment harness can call each engine the same way::

    engine = get_engine("anthropic", model="claude-sonnet-4-5")
    answer = engine.answer(EngineRequest("How long is a lease?", max_searches=5))
    answer.text, answer.citations, answer.searches, answer.usage

Errors (a :class:`~citewise.errors.RunError` unless the endpoint lacks the tool)::

    EngineError            the engine call failed; kind, status_code, retry_after
    EngineToolUnavailable  (a ConfigError) the endpoint does not offer the native tool
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from citewise.errors import ConfigError, RunError

__all__ = [
    "CitationCheck",
    "CitationFlag",
    "CitationStatus",
    "EngineAnswer",
    "EngineCitation",
    "EngineError",
    "EngineErrorKind",
    "EngineProgress",
    "EngineRequest",
    "EngineSearch",
    "EngineToolError",
    "EngineToolUnavailable",
    "EngineUsage",
    "NativeEngine",
]


@dataclass(frozen=True, slots=True)
class EngineRequest:
    """What an engine is asked."""

    question: str
    """The user's question, sent as it is."""
    max_searches: int = 8
    """Search tool calls the engine may make (Anthropic ``max_uses``, OpenAI ``max_tool_calls``)."""
    max_output_tokens: int = 4096
    """Reply cap sent with the call."""


@dataclass(frozen=True, slots=True)
class EngineSearch:
    """One search (or fetch) the engine's tool made, and the URLs it returned."""

    tool: str
    """``web_search``, ``web_fetch`` or ``google_search``."""
    query: str | None
    """The query the engine searched for (None when the provider did not say)."""
    urls: tuple[str, ...] = ()
    """URLs the tool returned (empty when the provider does not list them)."""


@dataclass(frozen=True, slots=True)
class EngineCitation:
    """One citation of the engine's answer, in character offsets of :attr:`EngineAnswer.text`."""

    url: str
    """The cited URL as the engine gave it (for Gemini, the grounding redirect URL)."""
    title: str | None
    """The title the engine gave."""
    start: int
    """Character offset where the cited span of the answer begins."""
    end: int
    """Character offset just after it."""
    cited_text: str | None = None
    """The text the engine says it took from the page (Anthropic ``cited_text``)."""


@dataclass(frozen=True, slots=True)
class EngineToolError:
    """A tool call the provider reported as failed inside a successful answer."""

    tool: str
    """Which tool."""
    code: str
    """The provider's error code (``max_uses_exceeded``, ``too_many_requests``, ``unavailable`` ...)."""


@dataclass(frozen=True, slots=True)
class EngineUsage:
    """What the call used, as the provider reported it."""

    input_tokens: int | None = None
    """Prompt tokens, cached ones included (tool results fed back to the model count here)."""
    output_tokens: int | None = None
    """Output tokens, reasoning included."""
    cached_tokens: int = 0
    """Prompt tokens served from the provider's cache."""
    search_calls: int = 0
    """Billed search tool calls (Gemini: grounded requests)."""


@dataclass(frozen=True, slots=True)
class EngineAnswer:
    """The engine's answer in citewise's terms."""

    engine: str
    """``openai``, ``anthropic`` or ``gemini``."""
    requested_model: str
    """The model id citewise asked for."""
    model: str | None
    """The model id the provider reported."""
    text: str
    """The answer text as written (citations are in :attr:`citations`, not in the text)."""
    citations: tuple[EngineCitation, ...]
    """Every citation, in answer order."""
    searches: tuple[EngineSearch, ...]
    """Every search and fetch the engine's tools made."""
    tool_errors: tuple[EngineToolError, ...]
    """Tool calls that failed inside the answer."""
    usage: EngineUsage
    """Tokens and search calls."""
    latency_s: float
    """Wall time of the call."""
    searched_urls_known: bool = True
    """False when the provider did not list the URLs its searches returned: a cited URL then cannot
    be checked against them."""
    response_id: str | None = None
    """The provider's response id."""


class CitationStatus(str, enum.Enum):
    """Whether citewise could check a citation's claims against a page it read itself."""

    CHECKED = "checked"  #: the page is stored; its sentences go to the claim ledger
    UNREVIEWED = "unreviewed"  #: the page could not be read: its claims are never supported


class CitationFlag(str, enum.Enum):
    """What citewise found wrong with a citation (it is still checked when its page was read)."""

    NOT_SEARCHED = "not_searched"  #: none of the engine's searches returned this URL
    CITED_TEXT_NOT_ON_PAGE = "cited_text_not_on_page"  #: the quoted ``cited_text`` is not on the page
    PAGE_UNREADABLE = "page_unreadable"  #: citewise could not read the page
    NO_SENTENCE = "no_sentence"  #: its offsets cover no sentence of the answer


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """One engine citation against citewise's own records."""

    url: str
    """The URL the engine cited."""
    status: CitationStatus
    """Checked against a stored page, or unreviewed."""
    source_id: str | None = None
    """The stored source it maps to (None when its page could not be read)."""
    final_url: str | None = None
    """Where a redirect led (Gemini), when it was one."""
    flags: tuple[CitationFlag, ...] = ()
    """What is wrong with it."""
    sentences: tuple[str, ...] = ()
    """The answer's sentences it covers, as the engine wrote them."""
    cited_text: str | None = None
    """The text the engine said it took from the page."""


class EngineErrorKind(str, enum.Enum):
    """Why an engine call failed (typed: code never reads the message)."""

    RATE_LIMITED = "rate_limited"
    AUTH = "auth"
    BAD_REQUEST = "bad_request"
    SERVER = "server"
    UNAVAILABLE = "unavailable"
    TIMEOUT = "timeout"
    INVALID_RESPONSE = "invalid_response"
    TRUNCATED = "truncated"

    @property
    def retryable(self) -> bool:
        """Whether one bounded retry may help."""
        return self in (EngineErrorKind.RATE_LIMITED, EngineErrorKind.SERVER, EngineErrorKind.TIMEOUT)


class EngineError(RunError):
    """An engine call failed; the message never contains the key."""

    def __init__(
        self,
        message: str,
        kind: EngineErrorKind,
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
        usage: EngineUsage | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status_code = status_code
        self.retry_after = retry_after
        """Seconds the provider asked to wait (rate limits), when it said."""
        self.usage = usage
        """What a call that failed after the provider billed it used, when known."""


class EngineToolUnavailable(ConfigError):
    """The configured endpoint does not offer the provider's native search tool (a gateway)."""


@dataclass(frozen=True, slots=True)
class EngineProgress:
    """Something the engine is doing now, for a live display (streamed calls report as they go)."""

    step: str
    """``searching``, ``reading`` or ``writing``."""
    detail: str = ""
    """The query being searched, when known."""


ProgressCallback = Callable[[EngineProgress], None]


@runtime_checkable
class NativeEngine(Protocol):
    """A provider's model with its own search tool, behind one call."""

    @property
    def name(self) -> str:
        """``openai``, ``anthropic`` or ``gemini``."""
        ...

    @property
    def model(self) -> str:
        """The model id it asks for."""
        ...

    @property
    def options(self) -> dict[str, str]:
        """The tool settings that change its answers (for the record)."""
        ...

    def answer(self, request: EngineRequest, progress: ProgressCallback | None = None) -> EngineAnswer:
        """One answer with citations; :class:`EngineError` or :class:`EngineToolUnavailable` on failure."""
        ...

    def close(self) -> None:
        """Release the connections."""
        ...
