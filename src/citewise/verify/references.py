"""References a claim makes that the cited page must bear out: its articles (제N조) and code names.

A claim may name an article or an API the page does not have at all (a wrong article, a name not in
the span), or name as its source ("제35조에 따르면") an article the page only refers to in its text,
when the page itself is another article.
"""

from __future__ import annotations

import re
import unicodedata

from citewise.text.quotes import normalise_for_match

__all__ = ["CODE_NAME", "wrong_reference"]

_ARTICLE = re.compile(r"제\s*\d+\s*조(?:\s*의\s*\d+)?")
CODE_NAME = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b[A-Z]+[a-z0-9]+[A-Z]\w*\b")


def _articles(text: str) -> set[str]:
    return {re.sub(r"\s+", "", m.group()) for m in _ARTICLE.finditer(unicodedata.normalize("NFKC", text))}


_ATTRIBUTED = re.compile(r"(제\s*\d+\s*조(?:\s*의\s*\d+)?)\s*(?:에\s*따르면|에\s*의하면|에서는|는|은)(?![가-힣])")
"""An article a claim names as its source: "제35조에 따르면", "제93조는 … 정하고 있다". "제N조에 따라"
is how a statute's own text refers to another article, and "제55조와 제60조가 적용되지 않는다" says
what applies: neither is an attribution."""
_HEADING = re.compile(r"(?:^|\n|다\.\s)\s*(제\s*\d+\s*조(?:\s*의\s*\d+)?)\s*\(")
"""An article's heading: its number and caption at the start of the text or of a line, or after the
end of the article before it ("… 못한다. 제8조 (폭행의 금지)")."""


def _attributed(text: str) -> set[str]:
    normalised = unicodedata.normalize("NFKC", text)
    return {re.sub(r"\s+", "", m.group(1)) for m in _ATTRIBUTED.finditer(normalised)}


def _headed_articles(page: str) -> set[str]:
    """The articles ``page`` is made of (their headings), not those its text refers to."""
    return {re.sub(r"\s+", "", m.group(1)) for m in _HEADING.finditer(unicodedata.normalize("NFKC", page))}


def wrong_reference(text: str, page: str, context: str) -> tuple[str, str] | None:
    """An article (제N조) or a code name (``urllib.request``, ``KeyError``, ``SSLContext``) of the
    claim that the page does not have at all and the question does not give: (name, reason). A page
    names its subject once (a module's page at the top, an article in its heading), so the whole
    page counts."""
    cited = _articles(text) - _articles(context)
    if missing := sorted(cited - _articles(page)):
        has = sorted(_articles(page))
        return missing[0], f"wrong article: {missing[0]}" + (f" (the page has {', '.join(has[:3])})" if has else "")
    headed = _headed_articles(page)
    for article in sorted(_attributed(text) - _articles(context)):
        if headed and article not in headed:
            page_is = ", ".join(sorted(headed))
            return article, f"wrong article: {article} (the page is {page_is}; it names {article} only in its text)"
    folded = normalise_for_match(page).lower()
    given = {m.group().lower() for m in CODE_NAME.finditer(context)}
    for match in CODE_NAME.finditer(text):
        name = match.group().rstrip(".")
        if name.lower() not in folded and name.lower() not in given:
            return name, f"name not in the span: {name}"
    return None
