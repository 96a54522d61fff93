"""OpenAI Responses with the ``web_search`` tool, through the official ``openai`` SDK (streamed).

The request asks for the sources of every search (``include=["web_search_call.action.sources"]``),
so a cited URL can be checked against what the searches returned; ``max_tool_calls`` carries the
search budget. The answer's ``url_citation`` annotations are character offsets into the output text.
"""

from __future__ import annotations

import time
from typing import Any

from citewise.engines.connect import EngineEndpoint, engine_endpoint, sdk_client, sdk_errors
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

__all__ = ["DEFAULT_MODEL", "OpenAIWebSearch", "parse_response"]

DEFAULT_MODEL = "gpt-5-mini"


class OpenAIWebSearch:
    """The ``openai`` engine; see the module docstring."""

    name = "openai"

    def __init__(self, model: str | None = None, endpoint: EngineEndpoint | None = None) -> None:
        import openai

        self.endpoint = endpoint or engine_endpoint("openai")
        self.model = model or DEFAULT_MODEL
        self._sdk = sdk_client(openai, openai.OpenAI, self.endpoint)

    @property
    def options(self) -> dict[str, str]:
        return {"tool": "web_search", "include": "web_search_call.action.sources", "stream": "true"}

    def answer(self, request: EngineRequest, progress: ProgressCallback | None = None) -> EngineAnswer:
        import openai

        started = time.perf_counter()
        with sdk_errors(openai, self.endpoint, "OpenAI"):
            stream = self._sdk.responses.create(
                model=self.model,
                instructions=ENGINE_INSTRUCTIONS,
                input=request.question,
                tools=[{"type": "web_search"}],
                include=["web_search_call.action.sources"],
                max_tool_calls=request.max_searches,
                max_output_tokens=request.max_output_tokens,
                stream=True,
            )
            final = _consume(stream, progress)
        return parse_response(final, self.model, time.perf_counter() - started)

    def close(self) -> None:
        self._sdk.close()


def _consume(stream: Any, progress: ProgressCallback | None) -> dict[str, Any]:
    """Read the event stream, reporting progress; the final response as a mapping."""
    report = progress_to(progress)
    for event in stream:
        kind = getattr(event, "type", "")
        if kind == "response.web_search_call.searching":
            report("searching")
        elif kind == "response.output_item.done" and getattr(event.item, "type", "") == "web_search_call":
            action = getattr(event.item, "action", None)
            report("searching", str(getattr(action, "query", None) or ""))
        elif kind == "response.output_text.delta":
            report("writing")
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            data: dict[str, Any] = event.response.model_dump(mode="json")
            return data
        elif kind == "error":
            raise EngineError(
                f"OpenAI reported an error in the stream: {getattr(event, 'message', '')}", EngineErrorKind.SERVER
            )
    raise EngineError("the OpenAI stream ended without a final response", EngineErrorKind.INVALID_RESPONSE)


def parse_response(data: dict[str, Any], requested_model: str, latency_s: float) -> EngineAnswer:
    """An :class:`EngineAnswer` from a Responses API body (a streamed one's final response too)."""
    status = data.get("status")
    if status == "failed":
        error = data.get("error") or {}
        raise EngineError(f"OpenAI failed the response: {error.get('message', 'no detail')}", EngineErrorKind.SERVER)
    if status == "incomplete":
        reason = (data.get("incomplete_details") or {}).get("reason", "unknown")
        raise EngineError(
            f"the OpenAI answer is incomplete ({reason})", EngineErrorKind.TRUNCATED, usage=_usage(data, 0)
        )
    searches: list[EngineSearch] = []
    sources_listed = False
    texts: list[str] = []
    citations: list[EngineCitation] = []
    offset = 0
    for item in data.get("output") or []:
        if item.get("type") == "web_search_call":
            action = item.get("action") or {}
            sources = action.get("sources")
            sources_listed = sources_listed or sources is not None
            urls = tuple(s["url"] for s in sources or () if isinstance(s, dict) and s.get("url"))
            if action.get("type") == "open_page" and action.get("url"):
                urls = (*urls, str(action["url"]))
            searches.append(EngineSearch("web_search", action.get("query"), urls))
        elif item.get("type") == "message":
            for part in item.get("content") or []:
                if part.get("type") != "output_text":
                    continue
                if texts:
                    texts.append("\n\n")
                    offset += 2
                text = str(part.get("text") or "")
                for note in part.get("annotations") or []:
                    if note.get("type") == "url_citation" and note.get("url"):
                        start, end = int(note.get("start_index") or 0), int(note.get("end_index") or 0)
                        citations.append(EngineCitation(note["url"], note.get("title"), offset + start, offset + end))
                texts.append(text)
                offset += len(text)
    searched = len(searches)  # OpenAI bills each web_search_call
    return EngineAnswer(
        engine="openai",
        requested_model=requested_model,
        model=data.get("model"),
        text="".join(texts),
        citations=tuple(citations),
        searches=tuple(searches),
        tool_errors=(),
        usage=_usage(data, searched),
        latency_s=latency_s,
        searched_urls_known=sources_listed,
        response_id=data.get("id"),
    )


def _usage(data: dict[str, Any], searches: int) -> EngineUsage:
    usage = data.get("usage") or {}
    details = usage.get("input_tokens_details") or {}
    return EngineUsage(
        input_tokens=usage.get("input_tokens"),
        output_tokens=usage.get("output_tokens"),
        cached_tokens=int(details.get("cached_tokens") or 0),
        search_calls=searches,
    )
