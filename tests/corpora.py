"""The real documents, recordings and evaluation rows the tests read, shipped in ``tests/data``.

A clone of the repository has nothing beside it, so the suite carries its own copies (origins and
licences in ``tests/data/README.md`` and beside each folder). The corpus files are stored
gzip-compressed to keep the repository small -- the US CFR volume alone is 2 MB of XML -- and are
unpacked once per test process into a temporary folder that is removed at exit, so tests read
ordinary files under their original names (parsers sniff by name and content, and some tests compare
a document's text with the file's). Recordings and evaluation rows are read where they lie.
"""

from __future__ import annotations

import atexit
import gzip
import shutil
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
WIRE = DATA / "wire"
ARES_NQ_EXCERPT = DATA / "evalsets" / "ares-nq" / "nq_synthetic_queries_first40.zip"


def _unpack(packed: Path) -> Path:
    """A temporary copy of ``packed`` with every ``*.gz`` file decompressed (name without ``.gz``)."""
    root = Path(tempfile.mkdtemp(prefix="citewise-test-corpora-"))
    atexit.register(shutil.rmtree, root, True)
    for source in sorted(packed.rglob("*")):
        if not source.is_file():
            continue
        relative = source.relative_to(packed)
        target = root / (relative.with_suffix("") if source.suffix == ".gz" else relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".gz":
            target.write_bytes(gzip.decompress(source.read_bytes()))
        else:
            shutil.copyfile(source, target)
    return root


CORPORA = _unpack(DATA / "corpora")
KR_STATUTES = CORPORA / "kr-statutes"
US_CFR = CORPORA / "us-cfr"
PYTHON_DOCS = CORPORA / "python-docs"
