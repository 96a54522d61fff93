"""The generic markup parsers in one place: Markdown, reStructuredText, HTML and plain text.

Each format has its own module (:mod:`~citewise.ingest.markdown`, :mod:`~citewise.ingest.rst`,
:mod:`~citewise.ingest.html`, :mod:`~citewise.ingest.text`) and the rules they share for cutting a
document into sections live in :mod:`citewise.ingest.sections`. This module re-exports them so
code written against the single ``markup`` module keeps working; importing it registers all four.
"""

from __future__ import annotations

from citewise.ingest.html import HtmlParser
from citewise.ingest.markdown import MarkdownParser
from citewise.ingest.rst import RstParser
from citewise.ingest.rst import _rst_headings as _rst_headings
from citewise.ingest.sections import as_date, doc_id_from_path, file_stem, slug
from citewise.ingest.text import PlainTextParser

__all__ = [
    "HtmlParser",
    "MarkdownParser",
    "PlainTextParser",
    "RstParser",
    "as_date",
    "doc_id_from_path",
    "file_stem",
    "slug",
]
