"""The templates shared by the web UI and the HTML export.

Jinja2 with autoescaping on for every template: page text, titles and URLs are attacker-controlled
and reach the page only escaped. Only two values are marked safe: the report body, which
markdown-it renders with raw HTML escaped and unsafe links dropped (:mod:`citewise.export.markdown`),
and the stylesheet the package ships. A standalone page (the export) carries its own
Content-Security-Policy: no script at all, and only its own stylesheet by hash.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from citewise.config import REDACTED, redact
from citewise.cost.money import money
from citewise.export.markdown import render_markdown
from citewise.export.view import CitationTip, RunView, run_view
from citewise.export.when import utc_time
from citewise.records.verify import Decision
from citewise.store.runs import RunRecord
from citewise.text.iri import readable_url

__all__ = ["DECISIONS", "environment", "export_csp", "render_page", "run_html", "stylesheet"]

DECISIONS = tuple(d.value for d in Decision)
"""What a reviewer may decide about a claim."""


@cache
def environment() -> Environment:
    """The Jinja environment over ``citewise/export/templates`` (autoescaped)."""
    env = Environment(
        loader=PackageLoader("citewise.export", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.filters["when"] = utc_time  # a page may be read anywhere: minutes, in UTC, saying so
    env.filters["money"] = money  # the terminal's rule: at most six decimals, trailing zeros dropped
    env.filters["readable_url"] = readable_url  # escaped letters shown decoded (display only)
    return env


@cache
def stylesheet() -> str:
    """The stylesheet the package ships."""
    return resources.files("citewise.export").joinpath("static/app.css").read_text(encoding="utf-8")


def export_csp() -> str:
    """The standalone page's policy: nothing loads or runs but its own stylesheet."""
    digest = base64.b64encode(hashlib.sha256(stylesheet().encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; style-src 'sha256-{digest}'; img-src 'none'; script-src 'none'; "
        "form-action 'none'; base-uri 'none'"
    )


def render_page(name: str, **context: Any) -> str:
    """Template ``name`` with ``context``; every known secret removed from the result."""
    context.setdefault("standalone", False)
    if context["standalone"]:
        context.setdefault("css", Markup(stylesheet()))
        context.setdefault("csp", export_csp())
    html = environment().get_template(name).render(**context)
    # Pages are made from redacted records; this is the last line should an older record hold a key.
    return redact(html).replace(REDACTED, "&lt;redacted&gt;")


def _cite(tip: CitationTip, anchor: str, n: int) -> str:
    return environment().get_template("_cite.html").render(tip=tip, anchor=anchor, n=n)


def report_html(view: RunView) -> Markup:
    """The run's report body as safe HTML with interactive citations."""
    return Markup(render_markdown(view.body, view, _cite))


def run_html(
    record: RunRecord, *, standalone: bool, interactive: bool = False, csrf: str = "", message: str | None = None
) -> str:
    """The run page: for the UI (``interactive``: the override forms) or as a standalone export."""
    view = run_view(record)
    return render_page(
        "run.html",
        view=view,
        body_html=report_html(view),
        standalone=standalone,
        interactive=interactive,
        csrf=csrf,
        decisions=DECISIONS,
        message=message,
    )
