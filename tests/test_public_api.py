"""The public API is pinned: adding or removing a name is a deliberate change to this list."""

from __future__ import annotations

import pytest

import citewise

pytestmark = pytest.mark.unit

EXPECTED = {
    "Budget",
    "ResearchResult",
    "ResearchSettings",
    "RunRecord",
    "RunStatus",
    "Verification",
    "AnswerPath",
    "AnswerProvenance",
    "AskOutcome",
    "AskResult",
    "AskSettings",
    "Citation",
    "Citewise",
    "Evidence",
    "RetrievalPlan",
    "CitewiseError",
    "ConfigError",
    "Document",
    "DocumentVersion",
    "IngestOptions",
    "IngestOutcome",
    "IngestResult",
    "InputError",
    "NotFoundError",
    "ParseError",
    "Provenance",
    "ReviewDecision",
    "ReviewError",
    "ReviewStatus",
    "RunError",
    "SearchHit",
    "Section",
    "SectionKind",
    "StoreError",
    "UserError",
    "__version__",
}


def test_public_names_are_pinned() -> None:
    assert set(citewise.__all__) == EXPECTED
    for name in citewise.__all__:
        assert getattr(citewise, name) is not None


def test_errors_form_the_documented_tree() -> None:
    assert issubclass(citewise.ParseError, citewise.InputError)
    assert issubclass(citewise.InputError, citewise.UserError)
    assert issubclass(citewise.StoreError, citewise.RunError)
    assert not issubclass(citewise.RunError, citewise.UserError)


def test_secrets_never_print() -> None:
    from citewise.config import Secret

    secret = Secret("sk-very-secret")
    assert "sk-very" not in repr(secret) and "sk-very" not in str(secret) and "sk-very" not in f"{secret}"
    assert secret.reveal() == "sk-very-secret"
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(secret)
