"""Response bodies of the three native search APIs, in the shapes of the real recordings
(``shared/wire``): OpenAI Responses with ``web_search_call`` items and ``url_citation`` annotations,
Anthropic Messages with ``server_tool_use`` / ``web_search_tool_result`` blocks and
``web_search_result_location`` citations, Gemini ``generateContent`` with ``groundingMetadata``
(byte offsets, ``startIndex`` left out when 0, redirect ``uri`` chunks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["anthropic_web_answer", "gemini_grounded_answer", "openai_web_answer"]

Search = tuple[str, Sequence[str]]
"""(query, URLs the search returned)."""


def openai_web_answer(
    text: str,
    citations: Sequence[tuple[int, int, str, str]] = (),
    *,
    searches: Sequence[Search] = (),
    model: str = "gpt-5-mini-2025-08-07",
    usage: Mapping[str, int] | None = None,
    status: str = "completed",
) -> dict[str, Any]:
    """A Responses body: one ``web_search_call`` per search (with ``action.sources``), then the
    message; ``citations`` are ``(start, end, url, title)`` in characters of ``text``."""
    output: list[dict[str, Any]] = [
        {
            "id": f"ws_{i}",
            "type": "web_search_call",
            "status": "completed",
            "action": {"type": "search", "query": query, "sources": [{"type": "url", "url": u} for u in urls]},
        }
        for i, (query, urls) in enumerate(searches, 1)
    ]
    annotations = [
        {"type": "url_citation", "start_index": s, "end_index": e, "url": url, "title": title}
        for s, e, url, title in citations
    ]
    output.append(
        {
            "id": "msg_1",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "annotations": annotations, "logprobs": [], "text": text}],
        }
    )
    counts = dict(usage or {})
    return {
        "id": "resp_fake1",
        "object": "response",
        "created_at": 1753727118,
        "status": status,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [{"type": "web_search"}],
        "usage": {
            "input_tokens": counts.get("input_tokens", 1200),
            "input_tokens_details": {"cached_tokens": counts.get("cached_tokens", 0)},
            "output_tokens": counts.get("output_tokens", max(1, len(text) // 4)),
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": counts.get("input_tokens", 1200) + counts.get("output_tokens", max(1, len(text) // 4)),
        },
    }


def anthropic_web_answer(
    segments: Sequence[tuple[str, Sequence[tuple[str, str, str]]]],
    *,
    searches: Sequence[tuple[str, Sequence[tuple[str, str]] | str]] = (),
    model: str = "claude-sonnet-4-5-20250929",
    usage: Mapping[str, int] | None = None,
    stop_reason: str = "end_turn",
) -> dict[str, Any]:
    """A Messages body: each search as ``server_tool_use`` + ``web_search_tool_result`` (results
    ``(url, title)``, or an ``error_code`` string for a failed one), then the text ``segments`` as
    text blocks with their citations ``(url, title, cited_text)``."""
    content: list[dict[str, Any]] = []
    for i, (query, results) in enumerate(searches, 1):
        tool_id = f"srvtoolu_{i:02d}"
        content.append({"type": "server_tool_use", "id": tool_id, "name": "web_search", "input": {"query": query}})
        if isinstance(results, str):
            body: Any = {"type": "web_search_tool_result_error", "error_code": results}
        else:
            body = [
                {"type": "web_search_result", "title": t, "url": u, "encrypted_content": "Eq0e", "page_age": None}
                for u, t in results
            ]
        content.append({"type": "web_search_tool_result", "tool_use_id": tool_id, "content": body})
    for text, cites in segments:
        block: dict[str, Any] = {"type": "text", "text": text}
        if cites:
            block["citations"] = [
                {"type": "web_search_result_location", "cited_text": c, "url": u, "title": t, "encrypted_index": "Ep"}
                for u, t, c in cites
            ]
        content.append(block)
    counts = dict(usage or {})
    done = sum(1 for _, r in searches if not isinstance(r, str))
    return {
        "id": "msg_fake1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": counts.get("input_tokens", 3200),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": counts.get("cached_tokens", 0),
            "output_tokens": counts.get("output_tokens", 300),
            "server_tool_use": {
                "web_search_requests": counts.get("web_search_requests", done),
                "web_fetch_requests": 0,
            },
        },
    }


def gemini_grounded_answer(
    text: str,
    supports: Sequence[tuple[int, int, Sequence[int]]],
    chunks: Sequence[tuple[str, str]],
    *,
    queries: Sequence[str] = (),
    model: str = "gemini-2.5-flash",
    usage: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """A ``generateContent`` body. ``supports`` are ``(start, end, chunk indices)`` in **characters**
    of ``text``; they are written as UTF-8 byte offsets, as Gemini does, with ``startIndex`` left out
    when it is 0. ``chunks`` are ``(uri, title)``."""
    grounding_supports = []
    for start, end, indices in supports:
        segment: dict[str, Any] = {"endIndex": len(text[:end].encode()), "text": text[start:end]}
        byte_start = len(text[:start].encode())
        if byte_start:
            segment["startIndex"] = byte_start
        grounding_supports.append({"segment": segment, "groundingChunkIndices": list(indices)})
    counts = dict(usage or {})
    return {
        "candidates": [
            {
                "content": {"parts": [{"text": text}], "role": "model"},
                "finishReason": "STOP",
                "index": 0,
                "groundingMetadata": {
                    "groundingChunks": [{"web": {"uri": u, "title": t}} for u, t in chunks],
                    "groundingSupports": grounding_supports,
                    "webSearchQueries": list(queries),
                    "searchEntryPoint": {"renderedContent": '<div class="container"></div>'},
                },
            }
        ],
        "usageMetadata": {
            "promptTokenCount": counts.get("prompt_tokens", 17),
            "candidatesTokenCount": counts.get("output_tokens", max(1, len(text) // 4)),
            "toolUsePromptTokenCount": counts.get("tool_tokens", 102),
            "thoughtsTokenCount": counts.get("thoughts_tokens", 0),
            "totalTokenCount": 0,
        },
        "modelVersion": model,
        "responseId": "fake-response-1",
    }
