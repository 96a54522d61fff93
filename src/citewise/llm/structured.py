"""JSON replies: requesting them, parsing them, validating them.

A model's JSON is untrusted input. :func:`parse_json_reply` accepts a bare JSON value, one
fenced ```json block (models add fences even when told not to), or one unfenced object or array
that fills its own lines between lines of framing prose ("Here is the plan:" before it, "Let me
know if ..." after it), and nothing looser: prose with braces inside a sentence, framing that
itself holds a brace or bracket, or two values are an invalid reply, not something to dig a
plausible object out of.
The ``expect_*`` helpers build validators that raise :class:`ValueError` with a message naming
the field; :meth:`ChatClient.complete_json <citewise.llm.client.ChatClient.complete_json>` turns
that into :class:`~citewise.llm.errors.ModelReplyInvalid`.

>>> parse_json_reply('```json\\n{"topics": ["a"]}\\n```')
{'topics': ['a']}
>>> expect_str_list(["a", "b"], field="topics", min_items=2, max_items=5)
('a', 'b')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from citewise.llm.errors import ModelReplyInvalid

__all__ = [
    "excerpt",
    "expect_object",
    "expect_str",
    "expect_str_list",
    "json_schema_format",
    "parse_json_reply",
    "schema_instruction",
]

EXCERPT_CHARS = 160

# One fenced block, with or without a language tag: ```json ... ``` or ``` ... ```.
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|json5)?[ \t]*\r?\n(.*?)\r?\n?[ \t]*```", re.DOTALL)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The start of ``text`` on one line, shortened to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def json_schema_format(name: str, schema: Mapping[str, Any], *, strict: bool = True) -> dict[str, Any]:
    """The ``response_format`` value that asks an endpoint for JSON matching ``schema``."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", name):
        raise ValueError(f"schema name must be 1-64 letters, digits, '_' or '-': {name!r}")
    return {"type": "json_schema", "json_schema": {"name": name, "schema": dict(schema), "strict": strict}}


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """The instruction that replaces structured output on endpoints without it."""
    return (
        "Reply with a single JSON value and nothing else (no prose, no Markdown fences). "
        "It must match this JSON schema:\n" + json.dumps(schema, ensure_ascii=False, sort_keys=True)
    )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def parse_json_reply(text: str, *, model: str | None = None) -> Any:
    """Decode a model's JSON reply: the whole text, or the one fenced block in it.

    Raises :class:`ModelReplyInvalid` (with a short excerpt) when neither is valid JSON.
    """
    stripped = text.strip()
    try:
        return _loads(stripped)
    except ValueError as exc:
        first_error: ValueError = exc
    blocks = _FENCE.findall(stripped)
    if len(blocks) == 1:
        try:
            return _loads(blocks[0].strip())
        except ValueError as exc:
            first_error = exc
    elif not blocks:
        framed = _framed(stripped)
        if framed is not None:
            return framed[0]
    reason = "more than one fenced block" if len(blocks) > 1 else _reason(first_error)
    shown = excerpt(stripped)
    raise ModelReplyInvalid(
        f"the model's reply is not valid JSON ({reason}): {shown!r}",
        excerpt=shown,
        text=text,
        model=model,
    ) from first_error


_VALUE_START = re.compile(r"^[ \t]*[{\[]", re.MULTILINE)
_NOT_FRAMING = re.compile(r"[{}\[\]`]")


def _framed(text: str) -> tuple[Any] | None:
    """The one JSON object or array of ``text`` that starts a line and ends one, when every other
    line is framing prose without braces, brackets or backticks; else None."""
    first = _VALUE_START.search(text)
    if first is None:
        return None
    start = first.end() - 1
    try:
        value, end = json.JSONDecoder(parse_constant=_reject_constant).raw_decode(text, start)
    except ValueError:
        return None
    after = text[end:]
    if not isinstance(value, dict | list) or after.split("\n", 1)[0].strip():
        return None
    if _NOT_FRAMING.search(text[:start]) or _NOT_FRAMING.search(after):
        return None
    return (value,)


def _reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    return str(exc)


# -- validators -------------------------------------------------------------------------------


def expect_object(value: object, *, field: str = "reply", keys: tuple[str, ...] = ()) -> dict[str, Any]:
    """``value`` as a JSON object that has every one of ``keys``."""
    if not isinstance(value, dict):
        raise ValueError(f"{field} must be a JSON object, got {_json_type(value)}")
    missing = [key for key in keys if key not in value]
    if missing:
        raise ValueError(f"{field} lacks {', '.join(missing)}")
    return value


def expect_str(value: object, *, field: str, max_chars: int | None = None) -> str:
    """``value`` as a non-empty string (stripped), at most ``max_chars`` long."""
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a string, got {_json_type(value)}")
    text = value.strip()
    if not text:
        raise ValueError(f"{field} must not be empty")
    if max_chars is not None and len(text) > max_chars:
        raise ValueError(f"{field} is longer than {max_chars} characters")
    return text


def expect_str_list(
    value: object,
    *,
    field: str,
    min_items: int = 0,
    max_items: int | None = None,
    unique: bool = True,
    max_chars: int | None = None,
) -> tuple[str, ...]:
    """``value`` as a list of non-empty strings, ``min_items`` to ``max_items`` long.

    With ``unique`` (the default), repeats — compared case-insensitively after stripping — are an
    error rather than silently dropped: a model that repeats itself has not given N items.
    """
    if not isinstance(value, list):
        raise ValueError(f"{field} must be a list, got {_json_type(value)}")
    items = tuple(expect_str(item, field=f"{field}[{i}]", max_chars=max_chars) for i, item in enumerate(value))
    if len(items) < min_items:
        raise ValueError(f"{field} needs at least {min_items} items, got {len(items)}")
    if max_items is not None and len(items) > max_items:
        raise ValueError(f"{field} allows at most {max_items} items, got {len(items)}")
    if unique:
        seen: set[str] = set()
        for item in items:
            key = item.casefold()
            if key in seen:
                raise ValueError(f"{field} repeats {excerpt(item, 60)!r}")
            seen.add(key)
    return items


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
