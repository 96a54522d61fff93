"""Statute text primitives: deleted provisions inside an article."""

from __future__ import annotations

import re

__all__ = ["strip_deleted_parts"]

_DELETED_LINE = re.compile(r"^\s*\S{1,8}\s*삭제\s*<[^>]*>\s*$", re.MULTILINE)


def strip_deleted_parts(text: str) -> str:
    """Remove lines that are only a deleted paragraph or item (``③ 삭제 <2020. 2. 4.>``).

    Deleted provisions exist but are never evidence, even inside a live article.

    >>> strip_deleted_parts("① 임대인은 ...\\n② 삭제 <2020. 2. 4.>\\n③ 임차인은 ...")
    '① 임대인은 ...\\n\\n③ 임차인은 ...'
    """
    return re.sub(r"\n{3,}", "\n\n", _DELETED_LINE.sub("", text)).strip()
