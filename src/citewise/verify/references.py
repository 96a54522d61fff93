"""References a claim makes that the cited page must bear out: its articles (제N조) and code names.

A claim may name an article or an API the page does not have at all (a wrong article, a name not in
the span), or name as its source ("제35조에 따르면") an article the page only refers to in its text,
when the page itself is another article.
"""

from __future__ import annotations

import re
import unicodedata

from citewise.text.articles import KOREAN_ARTICLE
from citewise.text.quotes import normalise_for_match

__all__ = ["CODE_NAME", "wrong_reference"]

CODE_NAME = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b[A-Z]+[a-z0-9]+[A-Z]\w*\b")

_ATTRIBUTED = re.compile(rf"(?P<ref>{KOREAN_ARTICLE.pattern})\s*(?:에\s*따르면|에\s*의하면|에서는|는|은)(?![가-힣])")
"""An article a claim names as its source: "제35조에 따르면", "제93조는 … 정하고 있다". "제N조에 따라"
is how a statute's own text refers to another article, and "제55조와 제60조가 적용되지 않는다" says
what applies: neither is an attribution."""
_HEADING = re.compile(rf"(?:^|\n|다\.\s)\s*(?P<ref>{KOREAN_ARTICLE.pattern})\s*\(")
"""An article's heading: its number and caption at the start of the text or of a line, or after the
end of the article before it ("… 못한다. 제8조 (폭행의 금지)")."""


def _found(pattern: re.Pattern[str], text: str, group: str | int = 0) -> set[str]:
    """The articles ``pattern`` finds in ``text``, written without spaces (제 3 조 → 제3조)."""
    return {re.sub(r"\s+", "", m.group(group)) for m in pattern.finditer(unicodedata.normalize("NFKC", text))}


def wrong_reference(text: str, page: str, context: str) -> tuple[str, str] | None:
    """An article (제N조) or a code name (``urllib.request``, ``KeyError``, ``SSLContext``) of the
    claim that the page does not have at all and the question does not give: (name, reason). A page
    names its subject once (a module's page at the top, an article in its heading), so the whole
    page counts."""
    given, on_page = _found(KOREAN_ARTICLE, context), _found(KOREAN_ARTICLE, page)
    if missing := sorted(_found(KOREAN_ARTICLE, text) - given - on_page):
        has = sorted(on_page)
        return missing[0], f"wrong article: {missing[0]}" + (f" (the page has {', '.join(has[:3])})" if has else "")
    headed = _found(_HEADING, page, "ref")
    for article in sorted(_found(_ATTRIBUTED, text, "ref") - given):
        if headed and article not in headed:
            page_is = ", ".join(sorted(headed))
            return article, f"wrong article: {article} (the page is {page_is}; it names {article} only in its text)"
    folded = normalise_for_match(page).lower()
    named = {m.group().lower() for m in CODE_NAME.finditer(context)}
    for match in CODE_NAME.finditer(text):
        name = match.group().rstrip(".")
        if name.lower() not in folded and name.lower() not in named:
            return name, f"name not in the span: {name}"
    return None
