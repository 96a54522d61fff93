"""URLs as people read them: percent-escaped letters shown as the letters they are.

``citewise://kr-law-001248@2/%EC%A0%9C3%EC%A1%B0`` is what a store section's URL is on the wire;
a reader should see ``citewise://kr-law-001248@2/제3조``. :func:`readable_url` decodes the escapes
that spell non-ASCII letters, as a browser's address bar does (RFC 3987, section 3.2), and keeps
every other escape: an escaped ASCII character (``%2F``, ``%20``, ``%23``) would change what the
URL means if decoded, and an escaped control, format (bidi), space or invalid UTF-8 sequence could
make one URL look like another. The stored URL is never changed; this is for display only.

>>> readable_url("citewise://kr-law-001248@2/%EC%A0%9C3%EC%A1%B0%EC%9D%982")
'citewise://kr-law-001248@2/제3조의2'
>>> readable_url("https://example.org/a%2Fb%20c/%E2%80%AEtxt.exe")
'https://example.org/a%2Fb%20c/%E2%80%AEtxt.exe'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["readable_url"]

_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _shown(char: str) -> bool:
    # Letters, marks, digits, symbols and punctuation beyond ASCII; never C* (controls, format
    # characters such as bidi overrides, lone surrogates from invalid UTF-8) nor Z* (spaces).
    return ord(char) > 0x7F and unicodedata.category(char)[0] not in "CZ"


def _decode(match: re.Match[str]) -> str:
    text = bytes.fromhex(match.group(0).replace("%", "")).decode("utf-8", errors="surrogateescape")
    return "".join(
        char if _shown(char) else "".join(f"%{b:02X}" for b in char.encode("utf-8", errors="surrogateescape"))
        for char in text
    )


def readable_url(url: str) -> str:
    """``url`` with the percent-escapes of printable non-ASCII characters decoded (see the module)."""
    return _ESCAPES.sub(_decode, url)
