"""Native search engines: a provider's own model and search tool, through citewise's verification.

``citewise research QUESTION --engine openai|anthropic|gemini [--model ID]`` asks the engine, then
citewise reads every cited page itself, maps the citations to stored sources and verifies each
claim exactly as it does for its own loop (:mod:`citewise.engines.run`). Adapters:
:mod:`~citewise.engines.openai_web`, :mod:`~citewise.engines.anthropic_web`,
:mod:`~citewise.engines.gemini_web`; the shared records are in :mod:`~citewise.records.engines`.
"""
