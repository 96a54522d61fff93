"""Markdown (GFM) table rows read as text: which line is a table's rule, and a row's cells.

Both a report's tables (claims in their cells are verified) and a coverage review written as a
table (each row a topic line) are read through these two functions.

    >>> is_table_rule("| --- | :---: |")
    True
    >>> is_table_rule("| T1 | covered |")
    False
    >>> table_cells("| T1 | covered | S1.2 |")
    ['T1', 'covered', 'S1.2']
"""

from __future__ import annotations

import re

__all__ = ["is_table_rule", "table_cells"]

_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?")


def is_table_rule(line: str) -> bool:
    """Whether ``line`` is the rule under a table's header (``|---|:--:|``)."""
    return _RULE.fullmatch(line.strip()) is not None


def table_cells(line: str) -> list[str]:
    """The cells of a table row, stripped, without the outer pipes."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
