"""The local web UI (``citewise serve``) and the templates the HTML export shares with it.

:mod:`~citewise.web.view`, :mod:`~citewise.web.markdown` and :mod:`~citewise.web.render` need only
Jinja2 and markdown-it-py (the export uses them); :mod:`~citewise.web.app` needs the ``serve`` extra
(Starlette, uvicorn).
"""
