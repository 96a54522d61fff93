"""The model client: OpenAI-compatible Chat Completions through the official ``openai`` SDK.

One adapter serves every OpenAI-compatible endpoint — CometAPI by default, or OpenAI, vLLM, Ollama
and others through ``CITEWISE_LLM_BASE_URL`` and ``CITEWISE_LLM_API_KEY``::

    from citewise.llm import ChatClient, ModelSettings

    with ChatClient(ModelSettings.from_env()) as client:
        result = client.complete("gpt-4o-mini", [{"role": "user", "content": "Hello"}])
        print(result.text, result.usage)

What the client guarantees:

- **No hidden retries.** The SDK's own retries are off (``max_retries=0``); every request is one
  attempt, recorded in :attr:`ChatClient.calls`. Bounded retries belong to the caller, inside its
  budget (:attr:`ModelError.retryable` says which failures are worth one).
- **Only a finished reply is a result.** Anything but ``finish_reason == "stop"`` with non-empty
  content raises a typed :class:`~citewise.llm.errors.ModelReplyError`.
- **Usage per call**: the model id as returned, prompt/completion/cached tokens and latency, also
  for calls that failed after the endpoint billed them.
- **Typed errors** mapped from the SDK at this boundary; messages never contain the key.
- **Caps before sending**: inside :meth:`ChatClient.admitting`, every request of the calling thread is
  shown to an :data:`~citewise.llm.admission.Admission` first, which may lower its reply cap or stop
  it (nothing is sent, nothing recorded): that is how a run stays under its token and money caps.

:class:`ModelSettings` and the environment it is read from live in :mod:`citewise.llm.settings`, the
records a call leaves (:class:`TokenUsage`, :class:`ChatResult`, :class:`CallRecord`) in
:mod:`citewise.llm.records`; both are re-exported here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from types import TracebackType
from typing import Any, TypeVar

from citewise.errors import ConfigError
from citewise.llm.admission import Admission, PendingRequest
from citewise.llm.attempt import Attempt, CallerRaised, endpoint_error, relayed, result_of
from citewise.llm.errors import (
    ModelBadRequest,
    ModelEndpointError,
    ModelError,
    display_url,
    from_broken_stream,
    from_sdk_error,
)
from citewise.llm.records import CallRecord, ChatResult, TokenUsage
from citewise.llm.settings import (
    BASE_URL_ENV,
    DEFAULT_BASE_URL,
    KEY_ENVS,
    ModelSettings,
    model_configured,
)
from citewise.llm.settings import MAX_COMPLETION_TOKENS_ENV as MAX_COMPLETION_TOKENS_ENV
from citewise.llm.settings import MISSING_KEY_MESSAGE as MISSING_KEY_MESSAGE
from citewise.llm.settings import STRUCTURED_OUTPUT_ENV as STRUCTURED_OUTPUT_ENV
from citewise.llm.settings import TIMEOUT_ENV as TIMEOUT_ENV
from citewise.llm.structured import excerpt, json_schema_format, schema_instruction
from citewise.llm.wire import (
    OffOrigin,
    Streamed,
    about_response_format,
    about_streaming,
    read_stream,
    same_origin_as,
    validated,
    validated_text,
    with_instruction,
)

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENVS",
    "CallRecord",
    "ChatClient",
    "ChatResult",
    "Message",
    "ModelSettings",
    "TokenUsage",
    "model_configured",
]

Message = Mapping[str, Any]
"""A chat message as the API takes it: ``{"role": "user", "content": "..."}``."""

T = TypeVar("T")


# -- the client -------------------------------------------------------------------------------


class ChatClient:
    """Chat Completions against one OpenAI-compatible endpoint; see the module docstring.

    Thread-safe for concurrent calls. Close it (or use it as a context manager) to release its
    connections.
    """

    def __init__(self, settings: ModelSettings | None = None) -> None:
        import openai

        self.settings = settings or ModelSettings.from_env()
        self.calls: list[CallRecord] = []
        """Every request made, in order, successful or not."""
        self._lock = threading.Lock()
        self._plain_json_models: set[str] = set()  # models whose endpoint refused response_format
        self._unstreamed_models: set[str] = set()  # models whose endpoint refused to stream
        self._admissions = threading.local()  # the Admission of each thread inside admitting()
        self._sinks = threading.local()  # the call records of each thread inside collecting()
        # Every request, each redirect hop included, must stay on the configured endpoint's origin: a
        # redirect elsewhere would re-send the prompt (and could answer with anything) to another host.
        http_client = openai.DefaultHttpxClient(
            timeout=self.settings.timeout_s, event_hooks={"request": [same_origin_as(self.settings.base_url)]}
        )
        self._sdk = openai.OpenAI(
            api_key=self.settings.api_key.reveal(),
            base_url=self.settings.base_url,
            timeout=self.settings.timeout_s,
            max_retries=0,
            http_client=http_client,
        )

    @classmethod
    def from_env(cls) -> ChatClient:
        """A client configured by :meth:`ModelSettings.from_env`."""
        return cls(ModelSettings.from_env())

    def __repr__(self) -> str:
        return f"ChatClient(base_url={display_url(self.settings.base_url)!r}, calls={len(self.calls)})"

    def close(self) -> None:
        """Release the HTTP connections."""
        self._sdk.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def usage(self) -> TokenUsage:
        """Tokens reported over all calls so far (calls without reported usage count as zero)."""
        total = TokenUsage()
        for record in list(self.calls):
            if record.usage is not None:
                total = total + record.usage
        return total

    @contextmanager
    def admitting(self, admit: Admission) -> Iterator[None]:
        """Show every request this thread sends inside the block to ``admit`` first.

        ``admit`` returns the reply cap to send (a lower one is used, a higher one ignored) or raises
        to stop the request: then nothing is sent and no :class:`CallRecord` is made. Other threads
        sharing the client are not affected; blocks nest (the innermost applies).
        """
        previous = getattr(self._admissions, "admit", None)
        self._admissions.admit = admit
        try:
            yield
        finally:
            self._admissions.admit = previous

    @contextmanager
    def collecting(self) -> Iterator[list[CallRecord]]:
        """The :class:`CallRecord` of every call this thread makes inside the block (also kept in
        :attr:`calls`, which every thread shares), so concurrent callers each see their own."""
        previous = getattr(self._sinks, "sink", None)
        sink: list[CallRecord] = []
        self._sinks.sink = sink
        try:
            yield sink
        finally:
            self._sinks.sink = previous

    # -- public calls -------------------------------------------------------------------------

    def complete(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        max_completion_tokens: int | None = None,
        temperature: float | None = None,
        response_format: Mapping[str, Any] | None = None,
    ) -> ChatResult:
        """One chat completion; the text of a finished reply, or a typed :class:`ModelError`.

        ``temperature`` and ``response_format`` are only sent when given.
        """
        params = self._params(model, messages, max_completion_tokens, temperature, response_format)
        return self._attempt(params, None)

    def stream(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        on_text: Callable[[str], None],
        max_completion_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        """One chat completion streamed (``stream`` true, with ``stream_options.include_usage`` so the
        last event carries the usage): ``on_text(piece)`` gets each piece of the reply in this thread
        as it arrives; the finished reply, its errors and its record are those of :meth:`complete`.

        An endpoint that answers 400 about streaming gets the request again unstreamed (``on_text``
        then gets the whole reply at once), and later calls for that model are not streamed."""
        if model not in self._unstreamed_models:
            params = self._params(model, messages, max_completion_tokens, temperature, None)
            params |= {"stream": True, "stream_options": {"include_usage": True}}
            try:
                streamed: ChatResult = self._attempt(params, None, on_text)
                return streamed
            except ModelBadRequest as exc:
                if exc.status_code not in (400, 422) or "stream" not in (exc.detail or str(exc)).lower():
                    raise
                with self._lock:
                    self._unstreamed_models.add(model)
        result = self.complete(model, messages, max_completion_tokens=max_completion_tokens, temperature=temperature)
        on_text(result.text)
        return result

    def complete_text(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        validate: Callable[[str], T],
        max_completion_tokens: int | None = None,
        temperature: float | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> tuple[T, ChatResult]:
        """A plain-text reply in a format of the caller's, passed through ``validate``; a reply it
        rejects (:class:`ValueError`, ``TypeError``, ``KeyError``) raises :class:`ModelReplyInvalid`
        and is recorded as such. With ``on_text`` the reply is streamed as by :meth:`stream` (an
        endpoint that refuses gets it unstreamed, and ``on_text`` the whole reply once it is valid)."""

        def finish(result: ChatResult) -> T:
            return validated_text(result, validate)

        params = self._params(model, messages, max_completion_tokens, temperature, None)
        if on_text is not None and model not in self._unstreamed_models:
            streamed = params | {"stream": True, "stream_options": {"include_usage": True}}
            try:
                value, result = self._attempt(streamed, finish, on_text)
                return value, result
            except ModelBadRequest as exc:
                if not about_streaming(exc):
                    raise
                with self._lock:
                    self._unstreamed_models.add(model)
        value, result = self._attempt(params, finish)
        if on_text is not None:
            on_text(result.text)
        return value, result

    def complete_json(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any],
        name: str,
        validate: Callable[[Any], T],
        max_completion_tokens: int | None = None,
        temperature: float | None = None,
    ) -> tuple[T, ChatResult]:
        """A JSON reply matching ``schema``, decoded and passed through ``validate``.

        Structured output (``response_format`` ``json_schema``, strict) is requested when the
        settings allow it. An endpoint that answers 400 about ``response_format`` gets the same
        request again without it, the schema moved into the instructions; the result says so
        (``structured_fallback``) and later calls for that model skip the refused attempt.
        ``validate`` raises :class:`ValueError` (or ``TypeError``/``KeyError``) for a payload it
        rejects; that, and JSON that does not parse, raise :class:`ModelReplyInvalid`.
        """

        def finish(result: ChatResult) -> T:
            return validated(result, validate)

        structured = self.settings.structured_output and model not in self._plain_json_models
        if structured:
            try:
                response_format = json_schema_format(name, schema)
                params = self._params(model, messages, max_completion_tokens, temperature, response_format)
                return self._attempt(params, finish)
            except ModelBadRequest as exc:
                if not about_response_format(exc):
                    raise
                with self._lock:
                    self._plain_json_models.add(model)
        plain = with_instruction(messages, schema_instruction(schema))
        params = self._params(model, plain, max_completion_tokens, temperature, None)
        value, result = self._attempt(params, finish)
        return value, replace(result, structured_fallback=self.settings.structured_output)

    def stream_json(
        self,
        model: str,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any],
        name: str,
        validate: Callable[[Any], T],
        on_text: Callable[[str], None],
        max_completion_tokens: int | None = None,
    ) -> tuple[T, ChatResult]:
        """:meth:`complete_json` streamed: ``on_text(piece)`` gets each piece of the JSON reply in this
        thread as it arrives; the whole reply is validated once it has arrived. An endpoint that refuses
        ``response_format`` gets the request again streamed with the schema in the instructions (as
        :meth:`complete_json` does); one that refuses to stream gets :meth:`complete_json`, and
        ``on_text`` the whole reply at once. Later calls for that model skip the refused attempt."""
        if model not in self._unstreamed_models:
            structured = self.settings.structured_output and model not in self._plain_json_models
            response_format = json_schema_format(name, schema) if structured else None
            sent = messages if structured else with_instruction(messages, schema_instruction(schema))
            params = self._params(model, sent, max_completion_tokens, None, response_format)
            params |= {"stream": True, "stream_options": {"include_usage": True}}
            try:
                value, result = self._attempt(params, lambda r: validated(r, validate), on_text)
                fallback = not structured and self.settings.structured_output
                return value, replace(result, structured_fallback=fallback) if fallback else result
            except ModelBadRequest as exc:
                if structured and about_response_format(exc):  # streamed again, the schema in the prompt
                    with self._lock:
                        self._plain_json_models.add(model)
                    return self.stream_json(
                        model,
                        messages,
                        schema=schema,
                        name=name,
                        validate=validate,
                        on_text=on_text,
                        max_completion_tokens=max_completion_tokens,
                    )
                if not about_streaming(exc):
                    raise
                with self._lock:
                    self._unstreamed_models.add(model)
        value, result = self.complete_json(
            model, messages, schema=schema, name=name, validate=validate, max_completion_tokens=max_completion_tokens
        )
        on_text(result.text)
        return value, result

    # -- one attempt --------------------------------------------------------------------------

    def _params(
        self,
        model: str,
        messages: Sequence[Message],
        max_completion_tokens: int | None,
        temperature: float | None,
        response_format: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        if not model or not model.strip():
            raise ConfigError("no model id given: set the planner/writer model setting")
        if not messages:
            raise ValueError("a chat completion needs at least one message")
        params: dict[str, Any] = {
            "model": model,
            "messages": [dict(message) for message in messages],
            "max_completion_tokens": max_completion_tokens or self.settings.max_completion_tokens,
        }
        if temperature is not None:
            params["temperature"] = temperature
        if response_format is not None:
            params["response_format"] = dict(response_format)
        return params

    def _attempt(
        self,
        params: dict[str, Any],
        finish: Callable[[ChatResult], T] | None,
        on_text: Callable[[str], None] | None = None,
    ) -> Any:
        response_format = params.get("response_format")
        self._admit(params)
        attempt = Attempt(
            requested_model=params["model"],
            params=params,
            format_type=str(response_format.get("type")) if response_format else None,
        )
        try:
            result = self._request(attempt, None if on_text is None else relayed(on_text))
            value = finish(result) if finish is not None else result
        except ModelError as exc:
            self._record(attempt, type(exc).__name__)
            raise
        except CallerRaised as raised:  # the caller's own error, not the endpoint's: passed on as it was
            self._record(attempt, type(raised.error).__name__)
            raise raised.error from None
        self._record(attempt, "ok")
        return (value, result) if finish is not None else result

    def _request(self, attempt: Attempt, on_text: Callable[[str], None] | None = None) -> ChatResult:
        import openai
        from openai.types.chat import ChatCompletion

        try:
            raw = self._sdk.chat.completions.with_raw_response.create(**attempt.params)
            attempt.status_code = raw.status_code
            attempt.request_id = raw.headers.get("x-request-id")
            if on_text is not None:  # the stream has begun: a failure from now on is a broken stream
                attempt.received = []
            completion = raw.parse() if on_text is None else read_stream(raw.parse(), on_text, attempt.received)
        except OffOrigin as exc:
            raise ModelEndpointError(
                f"the model endpoint {display_url(self.settings.base_url)} redirected the request to another "
                f"origin ({exc.target}); citewise only talks to the configured endpoint: check {BASE_URL_ENV}",
                **attempt.info(),
            ) from None
        except openai.OpenAIError as exc:
            where = {"model": attempt.requested_model, "base_url": display_url(self.settings.base_url)}
            if attempt.received is None:
                error = from_sdk_error(exc, **where, timeout_s=self.settings.timeout_s, redact=self._redact)
            else:
                received = sum(len(piece) for piece in attempt.received)
                error = from_broken_stream(
                    exc, **where, timeout_s=self.settings.timeout_s, received_chars=received, redact=self._redact
                )
            attempt.status_code = error.status_code
            attempt.request_id = error.request_id
            raise error from exc
        except ValueError as exc:  # a body declared as JSON that is not
            raise endpoint_error(self.settings.base_url, "a body that is not valid JSON", attempt) from exc
        if completion is None:
            raise endpoint_error(self.settings.base_url, "a stream without chat.completion.chunk events", attempt)
        if not isinstance(completion, ChatCompletion | Streamed):
            content_type = raw.headers.get("content-type", "unknown content type")
            raise endpoint_error(self.settings.base_url, f"a {content_type.split(';')[0]} body", attempt)
        return result_of(completion, attempt, self.settings.base_url)

    def _record(self, attempt: Attempt, outcome: str) -> None:
        record = attempt.record(outcome)
        with self._lock:
            self.calls.append(record)
        sink: list[CallRecord] | None = getattr(self._sinks, "sink", None)
        if sink is not None:
            sink.append(record)

    def _admit(self, params: dict[str, Any]) -> None:
        """Let this thread's admission (if any) lower the reply cap or stop the request."""
        admit: Admission | None = getattr(self._admissions, "admit", None)
        if admit is None:
            return
        asked = int(params["max_completion_tokens"])
        pending = PendingRequest(params["model"], tuple(params["messages"]), asked, params.get("response_format"))
        allowed = admit(pending)
        params["max_completion_tokens"] = max(1, min(asked, int(allowed)))

    # -- error mapping ------------------------------------------------------------------------

    def _redact(self, text: str) -> str:
        """Server-provided text, shortened, with the key removed should an endpoint echo it."""
        return excerpt(text.replace(self.settings.api_key.reveal(), "<redacted>"), 300)
