"""A native API's response body as the event stream the provider sends when asked to stream, with
the event names and order of the real recordings (``shared/wire``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

__all__ = ["anthropic_events", "gemini_events", "openai_events"]

_PIECE = 40  # characters per text delta


def _pieces(text: str) -> list[str]:
    return [text[i : i + _PIECE] for i in range(0, len(text), _PIECE)] or [""]


def _sse(event: str | None, data: dict[str, Any]) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n"


def openai_events(body: dict[str, Any]) -> Iterator[str]:
    """``response.created`` ... ``response.completed``, as the Responses API streams."""
    seq = iter(range(10_000))
    started = {**copy.deepcopy(body), "status": "in_progress", "output": [], "usage": None}
    yield _sse("response.created", {"type": "response.created", "sequence_number": next(seq), "response": started})
    for index, item in enumerate(body.get("output") or []):
        base = {"output_index": index, "item_id": item.get("id")}
        added = {**item, "status": "in_progress", **({"content": []} if item.get("type") == "message" else {})}
        yield _sse(
            "response.output_item.added",
            {"type": "response.output_item.added", "sequence_number": next(seq), "output_index": index, "item": added},
        )
        if item.get("type") == "web_search_call":
            for step in ("in_progress", "searching", "completed"):
                name = f"response.web_search_call.{step}"
                yield _sse(name, {"type": name, "sequence_number": next(seq), **base})
        for part_index, part in enumerate(item.get("content") or []):
            where = {**base, "content_index": part_index}
            empty = {**part, "text": "", "annotations": []}
            yield _sse(
                "response.content_part.added",
                {"type": "response.content_part.added", "sequence_number": next(seq), **where, "part": empty},
            )
            for piece in _pieces(part.get("text", "")):
                yield _sse(
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "sequence_number": next(seq),
                        **where,
                        "delta": piece,
                        "logprobs": [],
                    },
                )
            for n, note in enumerate(part.get("annotations") or []):
                yield _sse(
                    "response.output_text.annotation.added",
                    {
                        "type": "response.output_text.annotation.added",
                        "sequence_number": next(seq),
                        **where,
                        "annotation_index": n,
                        "annotation": note,
                    },
                )
            yield _sse(
                "response.output_text.done",
                {
                    "type": "response.output_text.done",
                    "sequence_number": next(seq),
                    **where,
                    "text": part.get("text", ""),
                    "logprobs": [],
                },
            )
            yield _sse(
                "response.content_part.done",
                {"type": "response.content_part.done", "sequence_number": next(seq), **where, "part": part},
            )
        yield _sse(
            "response.output_item.done",
            {"type": "response.output_item.done", "sequence_number": next(seq), "output_index": index, "item": item},
        )
    final = "response.incomplete" if body.get("status") == "incomplete" else "response.completed"
    yield _sse(final, {"type": final, "sequence_number": next(seq), "response": body})


def anthropic_events(body: dict[str, Any]) -> Iterator[str]:
    """``message_start`` ... ``message_stop``, as the Messages API streams (server tool blocks whole)."""
    usage = body.get("usage") or {}
    start = {**copy.deepcopy(body), "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    yield _sse("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(body.get("content") or []):
        kind = block.get("type")
        if kind == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
            if "citations" in block:
                opening["citations"] = None
        elif kind == "server_tool_use":
            opening = {**block, "input": {}}
        else:
            opening = block
        yield _sse("content_block_start", {"type": "content_block_start", "index": index, "content_block": opening})
        if kind == "text":
            for citation in block.get("citations") or []:
                yield _sse(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "citations_delta", "citation": citation},
                    },
                )
            for piece in _pieces(block.get("text", "")):
                yield _sse(
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}},
                )
        elif kind == "server_tool_use":
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(block.get("input") or {})},
                },
            )
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
    yield _sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": body.get("stop_reason"), "stop_sequence": None},
            "usage": usage,
        },
    )
    yield _sse("message_stop", {"type": "message_stop"})


def gemini_events(body: dict[str, Any]) -> Iterator[str]:
    """``data:`` chunks of ``streamGenerateContent?alt=sse``: the text in pieces, the grounding
    metadata and finish reason on the last one (offsets stay those of the whole answer)."""
    candidate = (body.get("candidates") or [{}])[0]
    text = "".join(p.get("text", "") for p in (candidate.get("content") or {}).get("parts") or [])
    pieces = _pieces(text)
    for n, piece in enumerate(pieces, 1):
        chunk_candidate: dict[str, Any] = {"content": {"parts": [{"text": piece}], "role": "model"}, "index": 0}
        if n == len(pieces):
            chunk_candidate["finishReason"] = candidate.get("finishReason", "STOP")
            chunk_candidate["groundingMetadata"] = candidate.get("groundingMetadata") or {}
        chunk = {
            "candidates": [chunk_candidate],
            "usageMetadata": body.get("usageMetadata") or {},
            "modelVersion": body.get("modelVersion"),
            "responseId": body.get("responseId"),
        }
        yield f"data: {json.dumps(chunk)}\r\n\r\n"
