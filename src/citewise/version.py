"""The citewise version: one place that the package root, the fetcher's User-Agent and the CLI read
(it must match ``version`` in pyproject.toml; a test holds them together)."""

__version__ = "0.1.0"
