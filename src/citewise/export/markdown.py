"""Markdown to HTML with markdown-it-py, for report text that quotes attacker-controlled pages.

Raw HTML in the Markdown is escaped (``html=False``), only ``http``/``https`` links survive
(``javascript:``, ``data:``, ``vbscript:``, relative and ``file:`` links stay text), and every
citation (``[S1]``, ``[S1.3]``, ``[E2]``) in the text becomes an interactive element: a link to its
source entry that shows the quote, the source and the claim's ledger decision on hover or focus.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from citewise.export.view import CitationTip, RunView, safe_href
from citewise.text.citations import CITATION, source_of

__all__ = ["render_markdown"]

CiteRenderer = Callable[[CitationTip, str, int], str]
"""``(tip, anchor id, n) -> HTML`` of one citation (a template of the run page)."""


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


@lru_cache(maxsize=8192)  # each claim is compared with every citation of its source
def _norm(text: str) -> str:
    """Comparable text: Markdown escapes undone, Unicode and whitespace normalised."""
    return " ".join(unicodedata.normalize("NFC", _ESCAPED.sub(r"\1", text)).split()).casefold()


def _claim_for(view: RunView, block: str, ident: str, used: set[str]) -> str | None:
    """The claim of ``block`` (a paragraph or list item) that cites ``ident``: the first one not yet
    shown when the report repeats a sentence (claims are numbered in report order)."""
    text = _norm(CITATION.sub("", block))
    source = source_of(ident)
    citing = [(c, t) for c, t, cited in view.claim_texts if source in cited or ident in cited]
    found = [c for c, t in citing if _claim_norm(t) in text]
    found = found or [c for c, _ in citing]  # the claim splitter may have reworded an odd sentence
    chosen = next((c for c in found if c not in used), found[0] if found else None)
    if chosen is not None:
        used.add(chosen)
    return chosen


@lru_cache(maxsize=8192)
def _claim_norm(claim_text: str) -> str:
    return _norm(CITATION.sub("", claim_text)).strip(' "“”')


def _citations(render_cite: CiteRenderer) -> Callable[[StateCore], None]:
    def rule(state: StateCore) -> None:
        view: RunView | None = state.env.get("view")
        counter = state.env.setdefault("cite_count", [0])
        used: set[str] = state.env.setdefault("claims_shown", set())
        for block in state.tokens:
            if block.type != "inline" or not block.children:
                continue
            children: list[Token] = []
            for child in block.children:
                if child.type != "text" or not CITATION.search(child.content):
                    children.append(child)
                    continue
                children.extend(_split(child.content, block.content, view, (counter, used), render_cite))
            block.children = children

    return rule


def _split(
    text: str, block: str, view: RunView | None, shown: tuple[list[int], set[str]], render_cite: CiteRenderer
) -> list[Token]:
    counter, used = shown
    out: list[Token] = []
    at = 0
    for match in CITATION.finditer(text):
        if match.start() > at:
            out.append(_text(text[at : match.start()]))
        ident = match.group(1)
        cited = ident + (match.group(2) or "")
        tip = _tip(view, block, ident, cited, used)
        counter[0] += 1
        html = Token("html_inline", "", 0)
        html.content = render_cite(tip, ident, counter[0])
        out.append(html)
        at = match.end()
    if at < len(text):
        out.append(_text(text[at:]))
    return out


def _tip(view: RunView | None, block: str, ident: str, cited: str, used: set[str]) -> CitationTip:
    if view is None:
        return CitationTip(cited, None, None, None, None)
    claim = _claim_for(view, block, cited, used)
    if claim is not None and f"{claim}:{cited}" in view.tips:
        return view.tips[f"{claim}:{cited}"]
    return view.tips.get(cited) or view.tips.get(ident) or CitationTip(cited, None, None, None, None)


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


@cache
def _parser(render_cite: CiteRenderer) -> MarkdownIt:
    """One parser per citation renderer (building one compiles every rule: ~10 ms)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.validateLink = lambda url: safe_href(url) is not None  # type: ignore[method-assign]
    md.core.ruler.push("citewise_citations", _citations(render_cite))
    md.add_render_rule("link_open", _link_open)
    return md


def _link_open(self: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    # Links in a report lead to pages nobody vetted: no referrer, no opener, no endorsement.
    token = tokens[idx]
    token.attrSet("rel", "nofollow noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)  # type: ignore[attr-defined,no-any-return]


def render_markdown(text: str, view: RunView | None, render_cite: CiteRenderer) -> str:
    """``text`` (Markdown) as safe HTML, its citations made interactive from ``view``."""
    return _parser(render_cite).render(text, {"view": view})
