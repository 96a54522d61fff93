"""English words as the index holds them: stop words dropped, Snowball stems (:mod:`citewise.text.analyze`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["STOPWORDS", "english_stems"]

#: English words the index and the queries leave out.
STOPWORDS = frozenset(
    """
    a an and are as at be been but by can could did do does for from had has have how i if in into
    is it its may might must no not of on or shall should so such than that the their them then
    there these they this those to was were what when where which who whom why will with would you
    your
    """.split()
)


@lru_cache(maxsize=1)
def _stemmer():  # noqa: ANN202 - PyStemmer has no type hints
    import Stemmer

    return Stemmer.Stemmer("english")


_stemmer_lock = threading.Lock()  # a PyStemmer object is not documented as thread-safe


def english_stems(words: Sequence[str]) -> list[str]:
    """The Snowball English stems of ``words`` (lower-case), by the one stemmer every analysis uses.

    >>> english_stems(["deposits", "protected"])
    ['deposit', 'protect']
    """
    with _stemmer_lock:
        return list(_stemmer().stemWords(list(words)))
