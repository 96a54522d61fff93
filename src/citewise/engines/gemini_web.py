"""Gemini with ``google_search`` grounding, through the official ``google-genai`` SDK (streamed).

Grounding comes as ``groundingSupports`` whose ``segment`` offsets are UTF-8 **byte** offsets into
the whole answer (``startIndex`` is left out when it is 0), each pointing at ``groundingChunks``
whose ``web.uri`` is a redirect, not the page: citewise resolves it before reading the page
(:mod:`citewise.engines.redirects`). Billing is per grounded request, so a request that searched
counts as one search call. The SDK's retries are off (one attempt).
"""

from __future__ import annotations

import time
from typing import Any

from citewise.engines.citations import byte_to_char
from citewise.engines.connect import (
    EngineEndpoint,
    OffOrigin,
    engine_endpoint,
    http_error,
    off_origin_error,
    redactor,
    same_origin_as,
)
from citewise.engines.prompt import ENGINE_INSTRUCTIONS, progress_to
from citewise.records.engines import (
    EngineAnswer,
    EngineCitation,
    EngineError,
    EngineErrorKind,
    EngineRequest,
    EngineSearch,
    EngineUsage,
    ProgressCallback,
)

__all__ = ["DEFAULT_MODEL", "GeminiGrounded", "parse_chunks"]

DEFAULT_MODEL = "gemini-2.5-flash"


class GeminiGrounded:
    """The ``gemini`` engine; see the module docstring."""

    name = "gemini"

    def __init__(self, model: str | None = None, endpoint: EngineEndpoint | None = None) -> None:
        import httpx
        from google import genai
        from google.genai import types

        self.endpoint = endpoint or engine_endpoint("gemini")
        self.model = model or DEFAULT_MODEL
        self._http = httpx.Client(
            timeout=self.endpoint.timeout_s, event_hooks={"request": [same_origin_as(self.endpoint.base_url)]}
        )
        self._sdk = genai.Client(
            api_key=self.endpoint.key.reveal(),
            http_options=types.HttpOptions(
                base_url=self.endpoint.base_url,
                api_version="v1beta",  # as the recordings: google_search grounding on the Gemini API
                timeout=int(self.endpoint.timeout_s * 1000),
                retry_options=types.HttpRetryOptions(attempts=1),  # no hidden retries
                httpx_client=self._http,
            ),
        )

    @property
    def options(self) -> dict[str, str]:
        return {"tool": "google_search", "stream": "true"}

    def answer(self, request: EngineRequest, progress: ProgressCallback | None = None) -> EngineAnswer:
        import httpx
        from google.genai import errors, types

        started = time.perf_counter()
        report = progress_to(progress)
        config = types.GenerateContentConfig(
            system_instruction=ENGINE_INSTRUCTIONS,
            tools=[types.Tool(google_search=types.GoogleSearch())],
            max_output_tokens=request.max_output_tokens,
        )
        chunks: list[dict[str, Any]] = []
        try:
            report("searching")
            for chunk in self._sdk.models.generate_content_stream(
                model=self.model, contents=request.question, config=config
            ):
                report("writing")
                chunks.append(chunk.model_dump(mode="json"))
        except errors.APIError as exc:
            headers = getattr(getattr(exc, "response", None), "headers", None)
            raise http_error(
                self.endpoint,
                int(exc.code or 0),
                str(exc.message or exc.status or ""),
                headers,
                redactor(self.endpoint),
            ) from exc
        except OffOrigin as exc:
            raise off_origin_error(self.endpoint, exc) from exc
        except httpx.TimeoutException as exc:
            raise EngineError(
                f"no answer from Gemini within {self.endpoint.timeout_s:g} s", EngineErrorKind.TIMEOUT
            ) from exc
        except httpx.TransportError as exc:
            if isinstance(exc.__cause__, OffOrigin):
                raise off_origin_error(self.endpoint, exc.__cause__) from exc
            raise EngineError(f"cannot reach the gemini endpoint: {exc}", EngineErrorKind.UNAVAILABLE) from exc
        return parse_chunks(chunks, self.model, time.perf_counter() - started)

    def close(self) -> None:
        self._http.close()


def parse_chunks(chunks: list[dict[str, Any]], requested_model: str, latency_s: float) -> EngineAnswer:
    """An :class:`EngineAnswer` from the streamed responses (or one unstreamed response), in the
    SDK's field names. Segment offsets are bytes into the whole answer; they become characters."""
    if not chunks:
        raise EngineError("Gemini answered with an empty stream", EngineErrorKind.INVALID_RESPONSE)
    text_parts: list[str] = []
    grounding: dict[str, Any] = {}
    finish = None
    for chunk in chunks:
        candidate = (chunk.get("candidates") or [{}])[0] or {}
        for part in (candidate.get("content") or {}).get("parts") or []:
            if part.get("text") and not part.get("thought"):
                text_parts.append(str(part["text"]))
        meta = candidate.get("grounding_metadata") or {}
        for key in ("grounding_chunks", "grounding_supports", "web_search_queries"):
            if meta.get(key):
                grounding[key] = meta[key]
        finish = candidate.get("finish_reason") or finish
    usage = _usage(chunks[-1].get("usage_metadata") or {}, bool(grounding.get("web_search_queries")))
    if finish == "MAX_TOKENS":
        raise EngineError("the Gemini answer was cut off at max_output_tokens", EngineErrorKind.TRUNCATED, usage=usage)
    text = "".join(text_parts)
    sources = [
        ((c.get("web") or {}).get("uri"), (c.get("web") or {}).get("title"))
        for c in grounding.get("grounding_chunks") or []
    ]
    citations: list[EngineCitation] = []
    for support in grounding.get("grounding_supports") or []:
        segment = support.get("segment") or {}
        start = byte_to_char(text, int(segment.get("start_index") or 0))
        end = byte_to_char(text, int(segment.get("end_index") or 0))
        for index in support.get("grounding_chunk_indices") or []:
            if 0 <= index < len(sources) and sources[index][0]:
                citations.append(EngineCitation(str(sources[index][0]), sources[index][1], start, end))
            else:  # a support naming no chunk: kept, so the check flags it as never returned
                citations.append(EngineCitation(f"grounding-chunk:{index}", None, start, end))
    queries = tuple(str(q) for q in grounding.get("web_search_queries") or ())
    urls = tuple(str(uri) for uri, _ in sources if uri)
    searches = tuple(EngineSearch("google_search", q, urls if i == 0 else ()) for i, q in enumerate(queries))
    if not searches and urls:
        searches = (EngineSearch("google_search", None, urls),)
    return EngineAnswer(
        engine="gemini",
        requested_model=requested_model,
        model=chunks[-1].get("model_version"),
        text=text,
        citations=tuple(citations),
        searches=searches,
        tool_errors=(),
        usage=usage,
        latency_s=latency_s,
        response_id=chunks[-1].get("response_id"),
    )


def _usage(meta: dict[str, Any], grounded: bool) -> EngineUsage:
    prompt = meta.get("prompt_token_count")
    tool = int(meta.get("tool_use_prompt_token_count") or 0)
    output = meta.get("candidates_token_count")
    thoughts = int(meta.get("thoughts_token_count") or 0)
    return EngineUsage(
        input_tokens=None if prompt is None else int(prompt) + tool,
        output_tokens=None if output is None else int(output) + thoughts,
        cached_tokens=int(meta.get("cached_content_token_count") or 0),
        search_calls=1 if grounded else 0,
    )
