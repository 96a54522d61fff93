"""Reading a question file: one JSON object per line, ``{"id", "question", ...}``.

The evaluation question format works as is (extra keys such as ``required_subquestions`` or
``category`` are kept out of the way). A line that is not a JSON object, has no question, or repeats
an id fails alone: it becomes a failed batch line with its reason, and every other line runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from citewise.errors import InputError
from citewise.records.batch import BatchLine

__all__ = ["MAX_QUESTION_CHARS", "read_questions"]

MAX_QUESTION_CHARS = 4000
"""Longer questions are refused (a research question is a sentence or a paragraph, not a document)."""


def read_questions(path: Path) -> list[BatchLine]:
    """The lines of ``path``; blank lines are skipped, bad lines carry their error."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the question file {str(path)!r}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{str(path)!r} is not UTF-8 text; save it as UTF-8 (one JSON object per line)") from None
    lines: list[BatchLine] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            parsed = _line(number, line)
            if parsed.error is None and parsed.item_id in seen:
                parsed = BatchLine(
                    number, parsed.item_id, "", f"line {number}: id {parsed.item_id!r} repeats an earlier line"
                )
            seen.add(parsed.item_id)
            lines.append(parsed)
    if not lines:
        raise InputError(
            f'{str(path)!r} holds no questions; write one JSON object per line: {{"id": "q1", "question": "..."}}'
        )
    return lines


def _line(number: int, line: str) -> BatchLine:
    fallback = f"line-{number}"
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        return BatchLine(number, fallback, "", f"line {number}: not JSON ({reason})")
    if not isinstance(data, dict):
        return BatchLine(
            number, fallback, "", f'line {number}: expected a JSON object like {{"id": ..., "question": ...}}'
        )
    item_id = data.get("id", fallback)
    if not isinstance(item_id, str | int) or isinstance(item_id, bool) or not str(item_id).strip():
        return BatchLine(number, fallback, "", f'line {number}: "id" must be a non-empty string')
    item_id = str(item_id).strip()[:200]
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        return BatchLine(number, item_id, "", f'line {number}: no "question" (a non-empty string)')
    if len(question) > MAX_QUESTION_CHARS:
        return BatchLine(
            number, item_id, "", f"line {number}: the question is longer than {MAX_QUESTION_CHARS} characters"
        )
    if any(ord(ch) < 32 and ch not in "\t\n" for ch in question) or "\x00" in question:
        return BatchLine(number, item_id, "", f"line {number}: the question holds control characters")
    return BatchLine(number, item_id, question.strip())
