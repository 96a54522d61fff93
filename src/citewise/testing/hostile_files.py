"""Hostile input files, generated on demand: the cases ``citewise ingest`` must survive.

Each :class:`HostileCase` is a few files written into a folder next to a good Markdown file. A
case either *fails* (its hostile file is reported failed with one line containing ``expect``) or is
*ingested* (the file is awkward, not wrong: a heading of 200,000 spaces, 20,000 equal headings, a
name full of Rich markup). Either way the good file of the same command must be stored. The test
suite (``tests/test_hostile_files.py``) and the benchmark (``benchmarks/hostile_files.py``) share
these cases, so the figures measure exactly what the tests check::

    for case in hostile_cases():
        folder = case.write(tmp_path / case.name)
        results = ingest_paths(store, [folder], IngestOptions(limits=case.limits))
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from citewise.ingest.limits import ParseLimits

__all__ = ["GOOD_FILE", "HostileCase", "hostile_cases", "many_attributes_html", "pdf_bomb"]

GOOD_FILE = "good.md"
_GOOD = "# Good\n\nA good file of the same command is ingested whatever its neighbours are.\n"


@dataclass(frozen=True, slots=True)
class HostileCase:
    """Files that must fail alone (or be ingested), with the error line expected."""

    name: str
    """Short name of the case (a folder name)."""
    files: dict[str, bytes]
    """File name (relative to the case folder) -> content."""
    expect: str | None
    """Text every failure line of the case contains; None when every file must be ingested."""
    failures: int = 1
    """How many failed results the case produces (JSONL: the bad lines)."""
    limits: ParseLimits = field(default_factory=ParseLimits)
    """The limits the case runs under (tighter ones show a bound without a huge file)."""

    def write(self, folder: Path) -> Path:
        """Write the case and the good file into ``folder``; return it."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / GOOD_FILE).write_text(_GOOD, encoding="utf-8")
        for name, data in self.files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return folder


def _alias_bomb(levels: int = 9) -> str:
    """The "billion laughs": each level repeats the previous one nine times (363 bytes, 9**9 values)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, name = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _jsonl(*rows: str) -> bytes:
    return ("\n".join(rows) + "\n").encode("utf-8")


def _row(doc_id: str, text: str) -> str:
    return json.dumps({"_id": doc_id, "text": text})


_USLM = "http://xml.house.gov/schemas/uslm/1.0"


def _uslm(main: str, doctype: str = "") -> bytes:
    return f'<?xml version="1.0"?>\n{doctype}<lawDoc xmlns="{_USLM}"><main>{main}</main></lawDoc>\n'.encode()


def _entity_bomb() -> bytes:
    """XML's billion laughs: nine entities, each ten of the one before."""
    entities = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    return _uslm(
        "<section><num>1</num><content>&lol9;</content></section>", f"<!DOCTYPE lawDoc [{''.join(entities)}]>\n"
    )


def many_attributes_html(count: int = 200_000) -> bytes:
    """An HTML page whose one element has ``count`` attributes (libxml2 spends minutes on it)."""
    attributes = " ".join(f'a{i}="v"' for i in range(count))
    return (
        f"<html><head><title>Attributes</title></head><body><div {attributes}>Text of the page.</div>"
        "<p>More text of the page.</p></body></html>"
    ).encode()


def pdf_bomb(inflated_bytes: int = 1400 * 2**20) -> bytes:
    """A PDF whose content streams inflate to ``inflated_bytes`` in all (the default, 1.4 GB, is about
    1.4 MB on disk): a compression bomb for the PDF reader. Each page's stream stays under the 75 MB
    a reader such as pypdf allows one stream, so only a bound on the whole parse stops it."""
    per_page = 64 * 2**20
    block = b"0" * 2**20
    pages: list[bytes] = []
    left = inflated_bytes
    while left > 0:
        size = min(per_page, left)
        compressor = zlib.compressobj(9)
        parts = [compressor.compress(block) for _ in range(size // len(block))]
        pages.append(b"".join(parts) + compressor.compress(b"0" * (size % len(block))) + compressor.flush())
        left -= size
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count)).encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count]
    font = b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
    for i, stream in enumerate(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R " % (4 + 2 * i) + font + b" >>"
        )
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def hostile_cases() -> list[HostileCase]:
    """Every case, in a fixed order."""
    bomb = _alias_bomb()
    statute_head = "---\n제목: 시험법\n법령ID: '009999'\n법령MST: 1\n"
    long_md = "".join(f"## Part {i}\n\nText of part {i}.\n\n" for i in range(20_000)).encode()
    return [
        HostileCase(
            "yaml-alias-bomb", {"bomb.md": f"---\n{bomb}---\n# Bomb\n\ntext\n".encode()}, "YAML expands to more than"
        ),
        HostileCase(
            "yaml-alias-bomb-statute",
            {"law.md": f"{statute_head}{bomb}---\n\n제1조(목적) 이 법은 시험한다.\n".encode()},
            "YAML expands to more than",
        ),
        HostileCase(
            "yaml-recursive-anchor", {"loop.md": b"---\na: &a [*a]\n---\n# Loop\n\ntext\n"}, "recursive anchor"
        ),
        HostileCase(
            "yaml-deep-nesting", {"deep.md": b"---\na: " + b"[" * 100_000 + b"\n---\n# Deep\n\nx\n"}, "nested deeper"
        ),
        HostileCase(
            "json-deep-nesting",
            {"deep.jsonl": _jsonl(_row("j1", "one"), "[" * 100_000, _row("j2", "two"))},
            "JSON nested deeper than",
        ),
        HostileCase(
            "jsonl-nul-byte",
            {"nul.jsonl": _jsonl(_row("n1", "one"), '{"_id": "n2", "text": "t\x00wo"}', _row("n3", "three"))},
            "NUL byte at column",
        ),
        HostileCase(
            "jsonl-escaped-nul",
            {"esc.jsonl": _jsonl(_row("e1", "one"), _row("e2", "t\x00wo"), _row("e3", "three"))},
            "NUL character",
        ),
        HostileCase("xml-entity-bomb", {"bomb.xml": _entity_bomb()}, "entity amplification"),
        HostileCase("xml-deep-nesting", {"deep.xml": _uslm("<level>" * 100_000 + "</level>" * 100_000)}, "depth"),
        HostileCase(
            "html-deep-nesting",
            {"deep.html": b"<html><body>" + b"<div>" * 100_000 + b"x" + b"</div>" * 100_000 + b"</body></html>"},
            "depth",
        ),
        # One element with 200,000 attributes: minutes inside libxml2, where no checkpoint runs.
        HostileCase(
            "html-many-attributes",
            {"attrs.html": many_attributes_html()},
            "parsing took longer than",
            limits=ParseLimits(max_seconds=2.0),
        ),
        # 200 KB on disk inflating to 200 MB, under a 64 MB bound: stopped by memory, not by luck.
        HostileCase(
            "pdf-compression-bomb",
            {"bomb.pdf": pdf_bomb(200 * 2**20)},
            "more than 64 MB of memory",
            limits=ParseLimits(max_memory_bytes=64 * 2**20),
        ),
        HostileCase("nul-after-8kb", {"late.md": b"# Late\n\n" + b"word " * 3000 + b"\x00\n"}, "NUL byte at line 3"),
        HostileCase("nul-in-text", {"mid.txt": b"Title\n\nbody\x00more\n"}, "NUL byte at line 3"),
        HostileCase("nul-at-start", {"bin.md": b"\x00\x01\x02\x03 binary"}, "binary file"),
        HostileCase(
            "utf16-le-no-bom", {"wide.md": "# Wide\n\nSome text.\n".encode("utf-16-le")}, "--encoding utf-16-le"
        ),
        HostileCase(
            "utf16-be-no-bom-korean",
            {"kr.txt": "제1조 목적\n이 법은 주택 임대차에 관한 특례를 정한다.\n".encode("utf-16-be")},
            "--encoding utf-16-be",
        ),
        HostileCase(
            "utf32-le-no-bom", {"w32.rst": "Title\n=====\n\nText.\n".encode("utf-32-le")}, "--encoding utf-32-le"
        ),
        HostileCase(
            "utf16-jsonl",
            {"wide.jsonl": _jsonl(_row("w1", "one")).decode().encode("utf-16-le")},
            "--encoding utf-16-le",
        ),
        HostileCase(
            "over-size-limit",
            {"big.md": b"# Big\n\n" + b"x" * 300_000},
            "over the limit",
            limits=ParseLimits(max_file_bytes=200_000),
        ),
        HostileCase(
            "over-time-limit", {"slow.md": long_md}, "parsing took longer than", limits=ParseLimits(max_seconds=0.05)
        ),
        HostileCase("bad-declared-id", {"escape.md": b"---\nid: ../../outside/x\n---\n# Escape\n\nx\n"}, "bad doc_id"),
        HostileCase("heading-of-spaces", {"spaces.md": b"# a" + b" " * 200_000 + b"x\n\nbody\n"}, None),
        HostileCase("equal-headings", {"same.md": b"# a\n\nx\n\n" * 20_000}, None),
        HostileCase(
            "markup-and-control-names", {"[bold]x[/bold].md": b"# M\n\nx\n", "new\nline\u202e.md": b"# C\n\nx\n"}, None
        ),
        HostileCase(
            "same-stem-pair", {"a/notes.md": b"# Notes A\n\nalpha\n", "b/notes.md": b"# Notes B\n\nbeta\n"}, None
        ),
    ]
