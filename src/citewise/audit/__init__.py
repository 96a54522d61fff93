"""Exports of recorded runs (Markdown, JSON, HTML)."""
