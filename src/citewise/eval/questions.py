"""Evaluation question sets: one JSON object per line.

``{"id", "question", "required_subquestions": [...], "category", "rubric" (optional)}`` with a
category of ``technical``, ``current``, ``market``, ``science`` or ``conflicting``. A bad line is an
error naming the line and the fix: an evaluation over a silently shortened set would not compare.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import InputError

__all__ = ["CATEGORIES", "EvalQuestion", "QuestionSet", "load_question_set"]

CATEGORIES = ("technical", "current", "market", "science", "conflicting")


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    """One question of a set."""

    id: str
    question: str
    required_subquestions: tuple[str, ...]
    """What a good report must answer."""
    category: str
    rubric: str | None = None


@dataclass(frozen=True, slots=True)
class QuestionSet:
    """A question file, read, and the hash that names it in evaluation history."""

    path: str
    questions: tuple[EvalQuestion, ...]
    digest: str
    """``sha256:`` of the file's bytes: results over the same set are compared over time."""


def load_question_set(path: Path) -> QuestionSet:
    """Read and check a question set."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the question set {str(path)!r}: {exc.strerror or exc}") from None
    questions: list[EvalQuestion] = []
    seen: set[str] = set()
    for number, line in enumerate(raw.decode("utf-8-sig", errors="replace").splitlines(), 1):
        if line.strip():
            question = _question(line, number, path)
            if question.id in seen:
                raise InputError(f"{path}:{number}: id {question.id!r} repeats an earlier line")
            seen.add(question.id)
            questions.append(question)
    if not questions:
        raise InputError(f"{str(path)!r} holds no questions")
    return QuestionSet(str(path), tuple(questions), "sha256:" + hashlib.sha256(raw).hexdigest())


def _question(line: str, number: int, path: Path) -> EvalQuestion:
    where = f"{path}:{number}"
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        raise InputError(f"{where}: not a JSON object") from None
    if not isinstance(data, dict):
        raise InputError(f"{where}: not a JSON object")
    qid, question = data.get("id"), data.get("question")
    if not isinstance(qid, str) or not qid.strip():
        raise InputError(f'{where}: "id" must be a non-empty string')
    if not isinstance(question, str) or not question.strip():
        raise InputError(f'{where}: "question" must be a non-empty string')
    subs = data.get("required_subquestions", [])
    if not isinstance(subs, list) or not all(isinstance(s, str) and s.strip() for s in subs):
        raise InputError(f'{where}: "required_subquestions" must be a list of non-empty strings')
    category = data.get("category", "technical")
    if category not in CATEGORIES:
        raise InputError(f'{where}: "category" must be one of {", ".join(CATEGORIES)} (got {category!r})')
    rubric = data.get("rubric")
    if rubric is not None and not isinstance(rubric, str):
        raise InputError(f'{where}: "rubric" must be a string')
    return EvalQuestion(qid.strip(), question.strip(), tuple(s.strip() for s in subs), category, rubric)
