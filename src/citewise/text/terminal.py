"""Untrusted text made safe to print on a terminal or keep in an export.

Titles, bodies and messages come from documents and web pages: an ``ESC ] 0 ;`` sequence in a
title sets the window title, ``ESC [ 2 J`` clears the screen, U+009B is an 8-bit CSI, U+202E turns
the rest of a line around. :func:`terminal_safe` shows every such character as a visible escape
(``\\x1b``, ``\\u202e``) so the reader sees what the text holds and the terminal obeys none of it;
ordinary letters of every script, spaces and emoji are kept. :func:`strip_controls` removes them
instead, for exports, where a reader wants the text and nothing is interpreted. Rich markup and
emoji shortcodes are a separate matter: :mod:`citewise.cli.common` prints data with both off.

Example::

    >>> terminal_safe("Report\\x1b]0;owned\\x07 ready")
    'Report\\\\x1b]0;owned\\\\x07 ready'
    >>> strip_controls("Report\\x1b[2J ready\\u202e")
    'Report ready'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["json_safe", "strip_controls", "terminal_safe"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Categories never shown as they are: controls (C0, DEL, C1), format characters (bidi overrides,
# zero-width ones), surrogates, private use, unassigned code points, line and paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# ANSI sequences: CSI (ESC [ or U+009B, parameters, one final byte), OSC / DCS / PM / APC / SOS
# strings (to BEL or ST), and two-character ESC sequences.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)


# Joiners shape Arabic, Persian and Indic words and emoji sequences; they move no cursor.
_JOINERS = frozenset({"\u200c", "\u200d"})


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES and ch not in _JOINERS


def _escaped(ch: str) -> str:
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal_safe(text: object, *, keep_newlines: bool = False) -> str:
    """``text`` with every control, format and separator character written as a visible escape.

    ``keep_newlines``: line feeds and tabs stay as they are (for a body printed over several
    lines); a carriage return is always escaped, since it lets a line overwrite itself. Spaces of
    any width are kept. Never raises: any object is shown through ``str``.
    """
    value = text if isinstance(text, str) else str(text)
    if value.isascii() and value.isprintable():
        return value  # the common case costs one scan
    kept = "\n\t" if keep_newlines else ""
    return "".join(_escaped(ch) if ch not in kept and _unsafe(ch) else ch for ch in value)


def strip_controls(text: str) -> str:
    """``text`` without escape sequences and control, format and separator characters (line feeds
    and tabs kept, CR LF read as LF), for exports."""
    if text.isascii() and text.isprintable():
        return text
    value = _SEQUENCE.sub("", text.replace("\r\n", "\n"))
    return "".join(ch for ch in value if ch in "\n\t" or not _unsafe(ch))


def json_safe(text: str) -> str:
    """Serialised JSON with every unsafe character inside its strings written as ``\\uXXXX``: the
    same value for a parser, nothing a terminal acts on (``json.dumps`` escapes only C0)."""
    if text.isascii():
        return text
    # A raw line feed is layout (json.dumps writes the one inside a string as \\n); keep it.
    return "".join(_json_escape(ch) if ch != "\n" and _unsafe(ch) else ch for ch in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
