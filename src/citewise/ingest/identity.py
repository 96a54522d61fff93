"""What a document id may be.

A document id is 1 to 200 characters: letters and digits of any script, and ``_ . - : + ~ #``,
starting with a letter, digit or ``_``; never ``..``, a path separator, whitespace or ``@`` (which
separates an id from a version, ``kr-law-001248@2``). Ids come from what a document says about
itself (front matter ``id:``, a law's id, a JSONL ``_id``), from a manifest entry or ``--doc-id``,
or, failing those, from the file name (see :mod:`citewise.store.versions` for how two files with
the same name are kept apart).

>>> check_doc_id("kr-law-001248", "--doc-id")
'kr-law-001248'
"""

from __future__ import annotations

import re

from citewise.errors import InputError

__all__ = ["DOC_ID_RULE", "MAX_DOC_ID_CHARS", "check_doc_id"]

MAX_DOC_ID_CHARS = 200
_DOC_ID = re.compile(r"\w[\w.:+~#-]*")
DOC_ID_RULE = (
    f"1-{MAX_DOC_ID_CHARS} letters, digits and _ . - : + ~ #, starting with a letter, digit or _ "
    "(no '/', '\\', '..', '@' or spaces)"
)


def check_doc_id(doc_id: str, where: str) -> str:
    """``doc_id`` if it is a valid document id; otherwise InputError saying, from ``where``, why."""
    if len(doc_id) <= MAX_DOC_ID_CHARS and _DOC_ID.fullmatch(doc_id) and ".." not in doc_id:
        return doc_id
    shown = doc_id if len(doc_id) <= 80 else doc_id[:77] + "..."
    raise InputError(f"{where}: bad doc_id {shown!r}: a doc_id is {DOC_ID_RULE}")
