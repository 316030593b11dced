"""BIOES tagging from character spans, windowing and decoding (no torch needed)."""

from __future__ import annotations

import json

import pytest

from alias_engine.labels import BIOES_TAGS
from training.tags import IGNORE, TAG_ID, bioes_tags, encode_document, strip_offsets, windows


def names(ids):
    return [BIOES_TAGS[i] for i in ids]


# "Hello Jean Le Gall, tel (415) 555" tokenised the sentencepiece way: offsets include the leading space
TEXT = "Hello Jean Le Gall, tel (415) 555"
OFFSETS = [(0, 5), (5, 10), (10, 13), (13, 18), (18, 19), (19, 23), (23, 25), (25, 28), (28, 29), (29, 33)]


def test_strip_offsets_drops_leading_space():
    assert strip_offsets(TEXT, [(5, 10), (29, 30)]) == [(6, 10), (30, 30)]


def test_multi_token_span_gets_b_i_e_and_single_gets_s():
    spans = [(6, 18, "PERSON"), (30, 33, "PHONE")]
    tags = names(bioes_tags(TEXT, OFFSETS, spans))
    assert tags[:5] == ["O", "B-PERSON", "I-PERSON", "E-PERSON", "O"]
    # the last token " 555" overlaps (30, 33) only
    assert tags[-1] == "S-PHONE"
    assert tags[5:9] == ["O"] * 4


def test_space_only_token_inside_a_span_keeps_it_contiguous():
    text = "call (415) 555-0132 now"
    offsets = [(0, 4), (4, 6), (6, 10), (10, 11), (11, 14), (14, 19), (19, 23)]  # (10, 11) is a lone "▁"
    tags = names(bioes_tags(text, offsets, [(5, 19, "PHONE")]))
    assert tags == ["O", "B-PHONE", "I-PHONE", "I-PHONE", "I-PHONE", "E-PHONE", "O"]


def test_space_token_before_a_span_is_outside():
    text = "a  Bob"
    offsets = [(0, 1), (1, 2), (2, 6)]
    assert names(bioes_tags(text, offsets, [(3, 6, "PERSON")])) == ["O", "O", "S-PERSON"]


def test_unknown_label_is_an_error():
    with pytest.raises(ValueError):
        bioes_tags(TEXT, OFFSETS, [(6, 10, "ORG")])


def test_the_engine_decoder_reads_training_tags_back():
    import numpy as np

    from alias_engine.detectors.model import snap_to_words, token_spans

    spans = [(6, 18, "PERSON"), (30, 33, "PHONE")]
    tags = bioes_tags(TEXT, OFFSETS, spans)
    runs = token_spans(np.array(tags), np.zeros(len(tags)))
    got = [(*snap_to_words(TEXT, OFFSETS[first][0], OFFSETS[last][1], label), label)
           for first, last, label, _ in runs]
    assert got == spans


def test_windows_respect_size_and_close_cut_spans():
    ids = list(range(10, 40))
    tags = [0] * 30
    tags[5:25] = [TAG_ID["B-ADDRESS"]] + [TAG_ID["I-ADDRESS"]] * 18 + [TAG_ID["E-ADDRESS"]]
    chunks = windows(ids, tags, size=12, slack=4)
    assert all(len(c.ids) <= 12 and len(c.ids) == len(c.tags) for c in chunks)
    assert [i for c in chunks for i in c.ids[1:-1]] == ids
    for c in chunks:
        assert c.ids[0] == 0 and c.ids[-1] == 2
        assert c.tags[0] == IGNORE and c.tags[-1] == IGNORE
        inner = names(c.tags[1:-1])
        assert not inner[0].startswith(("I-", "E-"))
        assert not inner[-1].startswith(("B-", "I-"))


def test_windows_prefer_cutting_outside_spans():
    ids = list(range(20))
    tags = [0] * 20
    tags[7:10] = [TAG_ID["B-PERSON"], TAG_ID["I-PERSON"], TAG_ID["E-PERSON"]]
    chunks = windows(ids, tags, size=11, slack=5)
    first = names(chunks[0].tags[1:-1])
    assert "B-PERSON" not in first or "E-PERSON" in first


def _toy_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    vocab = [["<s>", 0.0], ["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0]]
    vocab += [[p, -1.0] for p in ["▁", "▁Jean", "▁Dupont", "▁est", "▁ici", "."]]
    vocab += [[c, -5.0] for c in "abcdefghijklmnopqrstuvwxyzJD"]
    spec = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        "post_processor": None,
        "decoder": None,
        "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False},
    }
    return tokenizers.Tokenizer.from_str(json.dumps(spec))


def test_encode_document_with_a_real_tokenizer():
    tok = _toy_tokenizer()
    text = "Jean Dupont est ici."
    chunks = encode_document(tok, text, [(0, 11, "PERSON")], size=64)
    assert len(chunks) == 1
    tags = names(chunks[0].tags[1:-1])
    assert tags[:2] == ["B-PERSON", "E-PERSON"]
    assert set(tags[2:]) == {"O"}
