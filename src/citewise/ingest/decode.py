"""Turning the bytes of an input into text, with clear errors for inputs that are not text."""

from __future__ import annotations

import codecs

from citewise.errors import ParseError

__all__ = ["decode_text"]

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(data: bytes, path: str, encoding: str | None = None) -> str:
    """Decode ``data`` as text.

    UTF-8 (with or without BOM) and BOM-marked UTF-16/32 are recognised; any other encoding must be
    named with ``encoding``. Binary data (NUL bytes) and empty inputs are refused.
    """
    if not data.strip():
        raise ParseError("empty file: there is no text to ingest", path=path)
    if encoding is None:
        for bom, name in _BOMS:
            if data.startswith(bom):
                encoding = name
                break
    if encoding is None and b"\x00" in data[:8192]:
        raise ParseError("binary file (NUL bytes found): not a text document; PDFs need a .pdf name", path=path)
    name = encoding or "utf-8"
    try:
        text = data.decode(name)
    except LookupError:
        raise ParseError(f"unknown encoding {encoding!r}; name a Python codec such as cp949", path=path) from None
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not valid {name} (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert the file to UTF-8 or pass --encoding with its real encoding",
            path=path,
        ) from None
    if not text.strip():
        raise ParseError("empty file: there is no text to ingest", path=path)
    return text
