"""PDF parser: one section per page with text, read with pypdf.

Choices, so that citations stay meaningful:

- Section ids are the physical page numbers (``p1``, ``p2`` ...), kind ``PAGE``. A page without
  any extractable text (a blank page, a full-page image) gets no section, and the ids of the other
  pages do not shift: ``p3`` is always the third page of the file.
- A PDF where no page has text (a scan without a text layer) is refused: it needs OCR first, and
  ingesting it empty would give a document that can never be evidence.
- Encrypted PDFs are read when they open with an empty password (owner-password-only files are
  common and readable); otherwise they are refused with a hint to decrypt them.
- pypdf reports what it repaired in broken files through ``warnings`` and the ``pypdf`` logger.
  Those diagnostics are caught while parsing: they go into ``metadata["pdf_warnings"]`` on success
  and into the error message on failure, instead of leaking onto the user's terminal.
"""

from __future__ import annotations

import io
import logging
import warnings
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PyPdfError

from citewise.errors import ParseError
from citewise.ingest.base import ParsedDocument, ParsedSection, Parser
from citewise.ingest.limits import checkpoint
from citewise.ingest.sections import doc_id_from_path, file_stem
from citewise.records import SectionKind

__all__ = ["PdfParser"]

# pypdf raises its own errors for most broken files, but a damaged object graph can surface as
# any of these while it walks it; all of them mean "this file is corrupt", never a citewise bug.
_CORRUPTION_ERRORS = (
    PyPdfError,
    ValueError,
    LookupError,
    TypeError,
    AttributeError,
    RecursionError,
    OSError,
    zlib.error,
)
_MAX_TITLE_CHARS = 200


class _Diagnostics(logging.Handler):
    """Collects pypdf's warnings (both ``warnings`` and log records) while a file is read."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[str] = []
        self.warned: list[warnings.WarningMessage] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())

    @property
    def messages(self) -> list[str]:
        """Every diagnostic so far, each once, in order."""
        return list(dict.fromkeys([*self.records, *(str(w.message) for w in self.warned)]))


@contextmanager
def _captured_diagnostics() -> Iterator[_Diagnostics]:
    """Route pypdf diagnostics into a :class:`_Diagnostics` for the duration of a parse."""
    logger = logging.getLogger("pypdf")
    diagnostics = _Diagnostics()
    previous_propagate = logger.propagate
    logger.addHandler(diagnostics)
    logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            diagnostics.warned = caught
            yield diagnostics
    finally:
        logger.removeHandler(diagnostics)
        logger.propagate = previous_propagate


def _open(data: bytes, source: str) -> PdfReader:
    """Open a PDF, decrypting it with the empty password when that is enough."""
    if not data.strip():
        raise ParseError("empty file: there is no text to ingest", path=source)
    if not data.lstrip()[:5] == b"%PDF-":
        raise ParseError("not a PDF: the file does not start with '%PDF-'", path=source)
    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")
        except DependencyError as exc:
            raise ParseError(f"encrypted PDF: cannot decrypt it here ({exc})", path=source) from exc
        if not opened:
            raise ParseError("encrypted PDF: it needs a password; decrypt it first (e.g. qpdf --decrypt)", path=source)
    return reader


def _page_texts(reader: PdfReader) -> list[str]:
    """Extracted text of every page, trailing spaces and blank edges removed."""
    texts = []
    for page in reader.pages:
        checkpoint()
        lines = [line.rstrip() for line in page.extract_text().split("\n")]
        texts.append("\n".join(lines).strip())
    return texts


def _metadata_title(reader: PdfReader) -> str | None:
    info = reader.metadata
    title = info.title if info is not None else None
    return title.strip() if isinstance(title, str) and title.strip() else None


def _language(reader: PdfReader) -> str | None:
    lang = reader.root_object.get("/Lang")
    if lang is None:
        return None
    return str(lang).strip() or None


def _read(path: Path, data: bytes, diagnostics: _Diagnostics) -> ParsedDocument:
    """Parse a PDF whose diagnostics are being captured."""
    source = str(path)
    reader = _open(data, source)
    texts = _page_texts(reader)
    if not texts:
        raise ParseError("PDF has no pages", path=source)
    sections = tuple(
        ParsedSection(f"p{number}", f"Page {number}", text, kind=SectionKind.PAGE)
        for number, text in enumerate(texts, start=1)
        if text
    )
    if not sections:
        raise ParseError(
            f"no extractable text in any of its {len(texts)} page(s): probably a scan; run OCR first",
            path=source,
        )
    first_line = sections[0].text.split("\n", 1)[0].strip()[:_MAX_TITLE_CHARS]
    metadata = {"pages": str(len(texts))}
    if diagnostics.messages:
        metadata["pdf_warnings"] = "; ".join(diagnostics.messages)
    return ParsedDocument(
        doc_id=doc_id_from_path(path),
        id_declared=False,
        title=_metadata_title(reader) or first_line or file_stem(path),
        format="pdf",
        text="\n\n".join(section.text for section in sections),
        sections=sections,
        language=_language(reader),
        metadata=metadata,
        source=source,
    )


class PdfParser(Parser):
    """PDF with a text layer; one ``PAGE`` section per page that has text."""

    name = "pdf"
    suffixes = (".pdf",)

    def sniff(self, path: Path, head: str) -> bool:
        """Claim ``.pdf`` files and anything that starts like a PDF."""
        return path.suffix.lower() in self.suffixes or head.lstrip().startswith("%PDF-")

    def parse(self, path: Path, data: bytes) -> Iterator[ParsedDocument]:
        """Yield the one document in a PDF file."""
        with _captured_diagnostics() as diagnostics:
            try:
                document = _read(path, data, diagnostics)
            except FileNotDecryptedError as exc:
                raise ParseError(f"encrypted PDF: {exc}", path=str(path)) from exc
            except _CORRUPTION_ERRORS as exc:
                detail = "; ".join(dict.fromkeys([str(exc) or type(exc).__name__, *diagnostics.messages]))
                raise ParseError(f"corrupt PDF: pypdf cannot read it ({detail})", path=str(path)) from exc
        yield document
