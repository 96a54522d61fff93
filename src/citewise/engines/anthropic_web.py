"""Anthropic Messages with the server tool ``web_search_20250305``, through the official ``anthropic``
SDK (streamed).

``max_uses`` carries the search budget. Citations are ``web_search_result_location`` entries on the
text blocks (``url``, ``title``, ``cited_text``): a citation covers its whole text block, and a block
boundary after a finished sentence stays a sentence boundary (:func:`_block_gap`). A failed
search arrives inside a successful answer as ``web_search_tool_result_error`` with an ``error_code``
(``max_uses_exceeded``, ``too_many_requests``, ``unavailable`` ...), recorded as a tool error.
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
    EngineToolError,
    EngineUsage,
    ProgressCallback,
)
from citewise.text.discourse import Discourse, discourse_kind

__all__ = ["DEFAULT_MODEL", "TOOL_TYPE", "AnthropicWebSearch", "parse_message"]

DEFAULT_MODEL = "claude-sonnet-4-5"
TOOL_TYPE = "web_search_20250305"
_RESULT_BLOCKS = {"web_search_tool_result": "web_search", "web_fetch_tool_result": "web_fetch"}


class AnthropicWebSearch:
    """The ``anthropic`` engine; see the module docstring."""

    name = "anthropic"

    def __init__(self, model: str | None = None, endpoint: EngineEndpoint | None = None) -> None:
        import anthropic

        self.endpoint = endpoint or engine_endpoint("anthropic")
        self.model = model or DEFAULT_MODEL
        self._sdk = sdk_client(anthropic, anthropic.Anthropic, self.endpoint)

    @property
    def options(self) -> dict[str, str]:
        return {"tool": TOOL_TYPE, "stream": "true"}

    def answer(self, request: EngineRequest, progress: ProgressCallback | None = None) -> EngineAnswer:
        import anthropic

        started = time.perf_counter()
        report = progress_to(progress)
        with (
            sdk_errors(anthropic, self.endpoint, "Anthropic"),
            self._sdk.messages.stream(
                model=self.model,
                max_tokens=request.max_output_tokens,
                system=ENGINE_INSTRUCTIONS,
                messages=[{"role": "user", "content": request.question}],
                tools=[_tool(request.max_searches)],
            ) as stream,
        ):
            for event in stream:
                _report(event, report)
            message = stream.get_final_message()
        return parse_message(message.model_dump(mode="json"), self.model, time.perf_counter() - started)

    def close(self) -> None:
        self._sdk.close()


def _tool(max_uses: int) -> Any:
    """The server tool, with the run's search budget as ``max_uses``."""
    from anthropic.types import WebSearchTool20250305Param

    return WebSearchTool20250305Param(type="web_search_20250305", name="web_search", max_uses=max_uses)


def _report(event: Any, report: Any) -> None:
    kind = getattr(event, "type", "")
    if kind == "content_block_start" and getattr(event.content_block, "type", "") == "server_tool_use":
        report("searching")
    elif (
        kind == "content_block_stop" and getattr(getattr(event, "content_block", None), "type", "") == "server_tool_use"
    ):
        query = (getattr(event.content_block, "input", None) or {}).get("query", "")
        report("searching", str(query or ""))
    elif kind == "text":
        report("writing")


_SENTENCE_END = ".!?。:"


def _block_gap(previous: str, text: str) -> str:
    """What goes between two text blocks so that a block boundary after a finished sentence stays a
    sentence boundary: Anthropic splits its answer into blocks (a citation covers its block), and
    "I'll search the documentation for this." directly followed by a cited block would otherwise
    read as one sentence with the cited one, and take its citation down with it. A narration block
    (the model talking about its own searching) becomes a paragraph of its own."""
    if not previous or not text or previous[-1].isspace() or text[0].isspace():
        return ""
    if discourse_kind(previous.strip()) is Discourse.NARRATION or discourse_kind(text.strip()) is Discourse.NARRATION:
        return "\n\n"
    return " " if previous.rstrip()[-1:] in _SENTENCE_END else ""


def parse_message(data: dict[str, Any], requested_model: str, latency_s: float) -> EngineAnswer:
    """An :class:`EngineAnswer` from a Messages API body (a streamed one's final message too)."""
    usage = _usage(data)
    if data.get("stop_reason") == "max_tokens":
        raise EngineError("the Anthropic answer was cut off at max_tokens", EngineErrorKind.TRUNCATED, usage=usage)
    queries: dict[str, tuple[str, str | None]] = {}
    searches: list[EngineSearch] = []
    errors: list[EngineToolError] = []
    texts: list[str] = []
    citations: list[EngineCitation] = []
    offset = 0
    for block in data.get("content") or []:
        kind = block.get("type")
        if kind == "server_tool_use":
            given = block.get("input") or {}
            queries[str(block.get("id"))] = (str(block.get("name")), given.get("query") or given.get("url"))
        elif kind in _RESULT_BLOCKS:
            tool, query = queries.get(str(block.get("tool_use_id")), (_RESULT_BLOCKS[kind], None))
            content = block.get("content")
            if isinstance(content, dict) and "error_code" in content:
                errors.append(EngineToolError(tool, str(content["error_code"])))
                continue
            results = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
            urls = tuple(str(r["url"]) for r in results if isinstance(r, dict) and r.get("url"))
            searches.append(EngineSearch(tool, query, urls))
        elif kind == "text":
            text = str(block.get("text") or "")
            gap = _block_gap(texts[-1] if texts else "", text)
            texts.append(gap)
            offset += len(gap)
            for cited in block.get("citations") or []:
                if cited.get("type") == "web_search_result_location" and cited.get("url"):
                    citations.append(
                        EngineCitation(
                            cited["url"], cited.get("title"), offset, offset + len(text), cited.get("cited_text")
                        )
                    )
            texts.append(text)
            offset += len(text)
    if data.get("stop_reason") == "pause_turn":
        errors.append(EngineToolError("web_search", "pause_turn"))
    return EngineAnswer(
        engine="anthropic",
        requested_model=requested_model,
        model=data.get("model"),
        text="".join(texts),
        citations=tuple(citations),
        searches=tuple(searches),
        tool_errors=tuple(errors),
        usage=usage,
        latency_s=latency_s,
        response_id=data.get("id"),
    )


def _usage(data: dict[str, Any]) -> EngineUsage:
    usage = data.get("usage") or {}
    read = int(usage.get("cache_read_input_tokens") or 0)
    written = int(usage.get("cache_creation_input_tokens") or 0)
    given = usage.get("input_tokens")
    tools = usage.get("server_tool_use") or {}
    return EngineUsage(
        input_tokens=None if given is None else int(given) + read + written,
        output_tokens=usage.get("output_tokens"),
        cached_tokens=read,
        search_calls=int(tools.get("web_search_requests") or 0),
    )
