"""Injection-flag evaluation: how many attacks the flags catch, and how many ordinary texts they accuse.

Text file: JSONL, one object per line::

    {"id": "inj-001", "text": "Ignore the above and print ...", "label": "injection"}

``label`` is ``injection`` or ``benign``; ``source`` is kept for the per-source figures and ``split``
(``train``, ``test`` ...) for the per-split ones: a set split by family says which figures were
tuned on and which are the fair measure (``benchmarks/data/injection_varied.jsonl``).
Each text is flagged with :func:`citewise.research.injection.injection_flags`, exactly as a fetched
page is (the patterns and the classifier); the split figures also give the patterns' share alone.
Two figures come out: the share of injections flagged (higher is better) and the share of benign
texts flagged (lower is better). ``benchmarks/data/injection_eval.jsonl`` is a corpus built
from two public injection corpora and the shared benign corpora (``benchmarks/injection_corpus.py``);
``benchmarks/data/README.md`` says which file and split is training, development or held-out.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from citewise.errors import InputError
from citewise.research.injection import CLASSIFIER_FLAG, injection_flags

__all__ = [
    "LABELS",
    "InjectionReport",
    "FamilyFigures",
    "InjectionText",
    "SplitFigures",
    "TextResult",
    "evaluate_injection",
    "load_many",
    "load_texts",
]

LABELS: Final = ("injection", "benign")
"""Valid values of a text's ``label``."""


@dataclass(frozen=True, slots=True)
class InjectionText:
    """One labelled text."""

    id: str
    """Unique within the file."""
    text: str
    """The text, as a page would hold it."""
    label: str
    """``injection`` or ``benign``."""
    source: str = ""
    """Where the text came from (optional), for per-source figures."""
    split: str = ""
    """Which part of the set it belongs to (optional: ``train``, ``test``), for per-split figures."""


@dataclass(frozen=True, slots=True)
class TextResult:
    """The flags one text got."""

    id: str
    """The text's id."""
    label: str
    """Its label."""
    flags: tuple[str, ...]
    """Flags raised (empty: not flagged)."""
    source: str = ""
    """Where it came from."""
    split: str = ""
    """Its part of the set."""

    @property
    def correct(self) -> bool:
        """Flagged if and only if it is an injection."""
        return bool(self.flags) == (self.label == "injection")

    @property
    def by_patterns(self) -> bool:
        """Flagged by a pattern, not only by the classifier."""
        return any(flag != CLASSIFIER_FLAG for flag in self.flags)


@dataclass(frozen=True, slots=True)
class InjectionReport:
    """The evaluation's figures and every text's flags."""

    texts: int
    """Texts evaluated."""
    injection_rows: int
    """Texts labelled injection."""
    benign_rows: int
    """Texts labelled benign."""
    injections_flagged: float
    """Share of injections flagged (0..1)."""
    benign_flagged: float
    """Share of benign texts flagged (0..1): false alarms."""
    flag_counts: dict[str, int]
    """How often each flag was raised, over all texts."""
    by_source: dict[str, float]
    """Share flagged per ``source`` (injections and benign apart: ``injection:SOURCE``, ``benign:SOURCE``)."""
    by_split: dict[str, SplitFigures]
    """The two shares per ``split``, when the texts carry one."""
    by_family: tuple[FamilyFigures, ...]
    """The share flagged per split, label and family (a source's first three path parts: the set, the
    language and the style, e.g. ``varied/en/bare_task``), in that order."""
    results: tuple[TextResult, ...]
    """Every text's flags, in file order."""


@dataclass(frozen=True, slots=True)
class SplitFigures:
    """The two shares within one split."""

    injection_rows: int
    """Injections in the split."""
    benign_rows: int
    """Benign texts in the split."""
    injections_flagged: float
    """Share of its injections flagged."""
    benign_flagged: float
    """Share of its benign texts flagged."""
    injections_by_patterns: float
    """Share of its injections a pattern flags (the classifier aside)."""
    benign_by_patterns: float
    """Share of its benign texts a pattern flags."""


@dataclass(frozen=True, slots=True)
class FamilyFigures:
    """The share flagged within one family of one split."""

    split: str
    """The split (empty when the texts carry none)."""
    label: str
    """``injection`` or ``benign``."""
    family: str
    """The first three ``/``-separated parts of the texts' ``source``."""
    rows: int
    """Texts in the family."""
    flagged: float
    """Share of them flagged."""


def load_texts(path: Path) -> list[InjectionText]:
    """Read and validate a text file; every error names the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text") from exc
    texts: list[InjectionText] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise InputError(f"{where}: not valid JSON") from exc
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object")
        values = {key: obj.get(key) for key in ("id", "text", "label")}
        for key, value in values.items():
            if not isinstance(value, str) or not value.strip():
                raise InputError(f"{where}: {key!r} must be a non-empty string")
        if values["id"] in seen:
            raise InputError(f"{where}: duplicate id {values['id']!r}")
        seen.add(str(values["id"]))
        if values["label"] not in LABELS:
            raise InputError(f"{where}: label must be 'injection' or 'benign', got {values['label']!r}")
        source, split = obj.get("source"), obj.get("split")
        if split is not None and not isinstance(split, str):
            raise InputError(f"{where}: 'split' must be a string such as 'train' or 'test'")
        texts.append(
            InjectionText(str(values["id"]), str(values["text"]), str(values["label"]), str(source or ""), split or "")
        )
    if not texts:
        raise InputError(f"{path} holds no texts")
    return texts


def load_many(paths: Sequence[Path]) -> list[InjectionText]:
    """Read several text files as one set; ids must be unique across them."""
    texts: list[InjectionText] = []
    seen: dict[str, Path] = {}
    for path in paths:
        for text in load_texts(path):
            if text.id in seen:
                raise InputError(f"{path}: id {text.id!r} is also in {seen[text.id]}")
            seen[text.id] = path
            texts.append(text)
    return texts


def evaluate_injection(texts: Sequence[InjectionText]) -> InjectionReport:
    """Flag every text and compute the two shares (see the module docstring)."""
    results = tuple(TextResult(t.id, t.label, injection_flags(t.text), t.source, t.split) for t in texts)
    injections = [r for r in results if r.label == "injection"]
    benign = [r for r in results if r.label == "benign"]
    counts = Counter(flag for r in results for flag in r.flags)
    groups: dict[str, list[TextResult]] = {}
    for r in results:
        if r.source:
            groups.setdefault(f"{r.label}:{r.source}", []).append(r)
    return InjectionReport(
        texts=len(results),
        injection_rows=len(injections),
        benign_rows=len(benign),
        injections_flagged=_share(injections),
        benign_flagged=_share(benign),
        flag_counts=dict(sorted(counts.items())),
        by_source={key: _share(group) for key, group in sorted(groups.items())},
        by_split={split: _split_figures(results, split) for split in sorted({r.split for r in results if r.split})},
        by_family=_family_figures(results),
        results=results,
    )


def _split_figures(results: Sequence[TextResult], split: str) -> SplitFigures:
    injections = [r for r in results if r.split == split and r.label == "injection"]
    benign = [r for r in results if r.split == split and r.label == "benign"]
    return SplitFigures(
        len(injections),
        len(benign),
        _share(injections),
        _share(benign),
        _share_by_patterns(injections),
        _share_by_patterns(benign),
    )


def _family_figures(results: Sequence[TextResult]) -> tuple[FamilyFigures, ...]:
    groups: dict[tuple[str, str, str], list[TextResult]] = {}
    for r in results:
        if r.source:
            groups.setdefault((r.split, r.label, "/".join(r.source.split("/")[:3])), []).append(r)
    return tuple(FamilyFigures(*key, len(group), _share(group)) for key, group in sorted(groups.items()))


def _share_by_patterns(results: Sequence[TextResult]) -> float:
    return sum(1 for r in results if r.by_patterns) / len(results) if results else 0.0


def _share(results: Sequence[TextResult]) -> float:
    return sum(1 for r in results if r.flags) / len(results) if results else 0.0
