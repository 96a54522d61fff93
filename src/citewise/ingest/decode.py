"""Turning the bytes of an input into text, with clear errors for inputs that are not text.

UTF-8 (with or without BOM) and BOM-marked UTF-16/32 are read as they are, unless the bytes after a
UTF-16/32 mark contradict it (no NUL byte where ASCII-range UTF-16 has one in every pair, and valid
UTF-8): then the text is read as UTF-8 and a warning says so, instead of storing CJK mojibake. UTF-16/32 without a BOM
is recognised by where its NUL bytes fall (ASCII-range text) or by decoding cleanly where UTF-8 does
not (Hangul and other scripts), and refused with the ``--encoding`` to pass: guessing silently would
store text nobody checked. A NUL byte anywhere in the text refuses the file, naming its line.
"""

from __future__ import annotations

import codecs

from citewise.errors import ParseError
from citewise.ingest.limits import warn

__all__ = ["decode_text", "guess_wide_encoding"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_SAMPLE = 4096
_WIDE = ("utf-32-le", "utf-32-be", "utf-16-le", "utf-16-be")


def _decodes_as_text(sample: bytes, encoding: str) -> bool:
    try:
        text = codecs.getincrementaldecoder(encoding)().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\t\n\r")
    return bool(text) and printable / len(text) > 0.97 and any(ch in " \n\t" for ch in text)


def guess_wide_encoding(data: bytes) -> str | None:
    """``utf-32-le``/``-be`` or ``utf-16-le``/``-be`` when ``data`` (without a BOM) looks like
    text in one of them, else None.

    Such text has NUL bytes (spaces and line ends are ``20 00``/``0a 00`` in UTF-16-LE) and decodes
    to printable characters with spaces in it; UTF-8, legacy encodings and binary data do not both.
    """
    sample = data[:_SAMPLE]
    if b"\x00" not in sample:
        return None
    return next((name for name in _WIDE if _decodes_as_text(sample, name)), None)


def _reads_as_utf8(body: bytes) -> bool:
    """Whether ``body`` (what follows a UTF-16/32 mark) is UTF-8 text rather than wide text: wide
    text of ASCII-range characters has a NUL in every pair, and wide text of other scripts is almost
    never valid UTF-8 over more than a few bytes."""
    sample = body[:_SAMPLE]
    if len(sample) < 2 or b"\x00" in sample:
        return False
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    printable = sum(1 for ch in text if ch.isprintable() or ch in "\t\n\r")
    return bool(text) and printable / len(text) > 0.97


def _refuse_nul(text: str, path: str) -> None:
    at = text.find("\x00")
    if at < 0:
        return
    line = text.count("\n", 0, at) + 1
    raise ParseError(
        f"NUL byte at line {line}: a text document cannot hold one; remove it "
        "(a binary file needs its own format: PDFs need a .pdf name)",
        path=path,
    )


def _wide_text(encoding: str, path: str) -> ParseError:
    return ParseError(f"looks like {encoding.upper()} text without a BOM; pass --encoding {encoding}", path=path)


def decode_text(data: bytes, path: str, encoding: str | None = None) -> str:
    """Decode ``data`` as text.

    UTF-8 (with or without BOM) and BOM-marked UTF-16/32 are recognised; any other encoding must be
    named with ``encoding`` (UTF-16/32 without a BOM is recognised and the option to pass named).
    NUL bytes anywhere in the text and empty inputs are refused.
    """
    if not data.strip():
        raise ParseError("empty file: there is no text to ingest", path=path)
    if encoding is None:
        bom, encoding = next(((bom, name) for bom, name in _BOMS if data.startswith(bom)), (b"", None))
        if encoding in ("utf-16", "utf-32") and _reads_as_utf8(data[len(bom) :]):
            warn(
                f"starts with a {encoding.upper()} byte-order mark, but the bytes after it are UTF-8 text: "
                f"read as UTF-8 (remove the mark; pass --encoding {encoding} if it really is {encoding.upper()})"
            )
            data, encoding = data[len(bom) :], "utf-8"
    if encoding is None and b"\x00" in data[:8192]:
        wide = guess_wide_encoding(data)
        if wide:
            raise _wide_text(wide, path)
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise ParseError(
            f"binary file (NUL byte at line {line}): not a text document; PDFs need a .pdf name", path=path
        )
    name = encoding or "utf-8"
    try:
        text = data.decode(name)
    except LookupError:
        raise ParseError(f"unknown encoding {encoding!r}; name a Python codec such as cp949", path=path) from None
    except UnicodeDecodeError as exc:
        wide = guess_wide_encoding(data) if encoding is None else None
        if wide:
            raise _wide_text(wide, path) from None
        raise ParseError(
            f"not valid {name} (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert the file to UTF-8 or pass --encoding with its real encoding",
            path=path,
        ) from None
    _refuse_nul(text, path)
    if not text.strip():
        raise ParseError("empty file: there is no text to ingest", path=path)
    return text
