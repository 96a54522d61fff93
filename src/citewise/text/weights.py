"""How much a word tells about which sentence answers: its rarity among the sentences at hand.

A word most sentences hold (``address`` in a page about IP addresses, 임대인 in a lease statute) says
little about which one answers; a word few hold (``loopback``, 보증금) says more. The research
review's coverage of a topic and the ask's choice of the sentence to quote both weigh words so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["rarity_weights"]


def rarity_weights(held: Mapping[str, int], total: int) -> dict[str, float]:
    """Each word's weight from ``held`` (how many of ``total`` sentences hold it): BM25's inverse
    document frequency, always positive. A word no sentence holds (the asker's own word, 바뀌면,
    where the law says 양수인) weighs the mean of the others: that the text never uses it says nothing
    of how much it tells; with none held, every word weighs 1.

    >>> weights = rarity_weights({"address": 9, "loopback": 1, "tell": 0}, 10)
    >>> weights["loopback"] > weights["address"]
    True
    >>> round(weights["tell"], 6) == round((weights["address"] + weights["loopback"]) / 2, 6)
    True
    """
    weights = {w: math.log(1 + (total - n + 0.5) / (n + 0.5)) for w, n in held.items() if n}
    neutral = math.fsum(weights.values()) / len(weights) if weights else 1.0
    return {w: weights.get(w, neutral) for w in held}
