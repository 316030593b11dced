"""The E5S1 reader, Q4_0 dequantisation and vocabulary trimming, on tiny hand-built inputs."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from training.base import _dequant_q4, read_e5, trim_tokenizer

H, LAYERS, HEADS, FFN, VOCAB, MAXP, TVS = 32, 1, 2, 64, 6, 16, 2
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁a", "b"]


def q4_block(values: np.ndarray) -> bytes:
    """Quantise 32 values the Q4_0 way: fp16 scale, low nibbles first."""
    scale = np.float16(np.abs(values).max() / 7 or 1.0)
    q = np.clip(np.round(values / np.float32(scale)), -8, 7).astype(np.int8) + 8
    packed = (q[:16] | (q[16:] << 4)).astype(np.uint8)
    return np.array([scale], dtype=np.float16).tobytes() + packed.tobytes()


def q4(arr: np.ndarray) -> bytes:
    flat = arr.reshape(-1, 32)
    return b"".join(q4_block(row) for row in flat)


def tiny_e5(rng: np.random.Generator) -> tuple[bytes, dict[str, np.ndarray]]:
    shapes = {
        "emb.word": (VOCAB, H),
        "emb.pos": (MAXP, H),
        "emb.type": (TVS, H),
        "emb.ln.w": (H,),
        "emb.ln.b": (H,),
    }
    for short, shape in {"q": (H, H), "k": (H, H), "v": (H, H), "ao": (H, H), "fi": (FFN, H), "fo": (H, FFN)}.items():
        shapes[f"l0.{short}.w"] = shape
        shapes[f"l0.{short}.b"] = (shape[0],)
    for ln in ("aln", "oln"):
        shapes[f"l0.{ln}.w"] = (H,)
        shapes[f"l0.{ln}.b"] = (H,)
    values = {k: rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}
    quantised = {k for k in shapes if k == "emb.word" or (k.endswith(".w") and len(shapes[k]) == 2)}

    head = b"E5S1" + struct.pack("<I", 1) + struct.pack("<7i", H, LAYERS, HEADS, FFN, VOCAB, MAXP, TVS)
    head += struct.pack("<fi", 1e-12, 32)
    blob = b"".join(p.encode() for p in PIECES)
    offs = np.cumsum([0] + [len(p.encode()) for p in PIECES]).astype("<u4")
    head += struct.pack("<5i", len(PIECES), 0, 2, 1, 3) + struct.pack("<Q", len(blob))
    head += offs.tobytes() + np.zeros(len(PIECES), dtype="<f4").tobytes() + blob
    head += struct.pack("<iI", 0, 0)  # empty normalisation map
    payloads = {k: (q4(v) if k in quantised else v.astype("<f4").tobytes()) for k, v in values.items()}
    dir_size = 4 + sum(2 + len(k) + 1 + 4 + 16 for k in payloads)
    off = len(head) + dir_size
    directory = struct.pack("<i", len(payloads))
    body = b""
    for k, data in payloads.items():
        directory += struct.pack("<H", len(k)) + k.encode() + bytes([1 if k in quantised else 0])
        directory += struct.pack("<IQQ", values[k].size, off + len(body), len(data))
        body += data
    return head + directory + body, values


def test_dequant_q4_low_nibbles_first():
    scale = np.array([0.5], dtype=np.float16).tobytes()
    packed = bytes([(8 + 1) | ((8 - 2) << 4)] + [0x88] * 15)  # value0 = +1, value16 = -2, rest 0
    out = _dequant_q4(scale + packed, 32)
    assert out[0] == 0.5 and out[16] == -1.0
    assert np.count_nonzero(out) == 2


def test_read_e5_round_trips_tiny_file():
    rng = np.random.default_rng(0)
    image, values = tiny_e5(rng)
    e5 = read_e5(image)
    assert e5.config["hidden"] == H and e5.config["layers"] == LAYERS and e5.config["vocab"] == VOCAB
    assert e5.pieces == PIECES
    np.testing.assert_array_equal(e5.tensors["emb.pos"], values["emb.pos"].reshape(-1))
    # 4-bit: error at most half a quantisation step (scale = max/7)
    word = values["emb.word"].reshape(-1, 32)
    err = np.abs(e5.tensors["emb.word"].reshape(-1, 32) - word)
    assert np.all(err <= np.abs(word).max(axis=1, keepdims=True) / 7 * 0.51 + 1e-3)


def test_read_e5_rejects_other_files():
    with pytest.raises(ValueError):
        read_e5(b"GGUF" + b"\0" * 64)


def test_trimmed_tokenizer_keeps_ids_in_order_and_specials():
    tokenizers = pytest.importorskip("tokenizers")
    vocab = [["<s>", 0.0], ["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0], ["▁x", -2.0], ["▁a", -1.0], ["b", -3.0]]
    vocab += [["▁", -4.0], ["a", -5.0]]
    spec = {
        "version": "1.0",
        "added_tokens": [
            {
                "id": i,
                "content": c,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for i, c in enumerate(["<s>", "<pad>", "</s>", "<unk>"])
        ],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "<s>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
            ],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 0}}],
            "special_tokens": {
                "<s>": {"id": "<s>", "ids": [0], "tokens": ["<s>"]},
                "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]},
            },
        },
        "decoder": None,
        "model": {"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": False},
    }
    keep = [0, 1, 2, 3, 5, 6, 7, 8]  # drop "▁x"
    trimmed = trim_tokenizer(spec, keep)
    full = tokenizers.Tokenizer.from_str(json.dumps(spec))
    small = tokenizers.Tokenizer.from_str(json.dumps(trimmed))
    a, b = full.encode("ab a"), small.encode("ab a")
    assert a.tokens == b.tokens
    assert [keep[i] for i in b.ids] == a.ids
    assert b.ids[0] == 0 and b.ids[-1] == 2
    assert small.token_to_id("<unk>") == 3


def test_dequantised_weights_load_into_bert():
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from training.base import to_bert

    image, _ = tiny_e5(np.random.default_rng(1))
    e5 = read_e5(image)
    model = to_bert(e5)
    assert model.config.pad_token_id == 1
    np.testing.assert_allclose(
        model.encoder.layer[0].intermediate.dense.weight.detach().numpy(),
        e5.tensors["l0.fi.w"].reshape(FFN, H),
    )
    with torch.no_grad():
        h = model(input_ids=torch.tensor([[0, 4, 5, 2]])).last_hidden_state
    assert h.shape == (1, 4, H) and torch.isfinite(h).all()
