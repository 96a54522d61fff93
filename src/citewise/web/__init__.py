"""The local web UI (``citewise serve``) and the templates the HTML export shares with it.

:mod:`~citewise.export.view`, :mod:`~citewise.export.markdown` and :mod:`~citewise.export.html` need only
Jinja2 and markdown-it-py (the export uses them); :mod:`~citewise.web.app` needs the ``serve`` extra
(Starlette, uvicorn).
"""
