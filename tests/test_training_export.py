"""Strict scoring, word snapping, and ONNX export/quantisation of a tiny random tagger."""

from __future__ import annotations

import json

import numpy as np
import pytest

from alias_engine.labels import BIOES_TAGS
from training.evaluate import score


def test_strict_score_counts_exact_matches_only():
    gold = [[(0, 5, "PERSON"), (10, 20, "ADDRESS")]]
    pred = [[(0, 5, "PERSON"), (10, 19, "ADDRESS"), (30, 35, "EMAIL")]]
    s = score(gold, pred, [[]])
    assert s.prf("PERSON") == (1.0, 1.0, 1.0)
    assert s.prf("ADDRESS") == (0.0, 0.0, 0.0)
    p, r, _ = s.prf()
    assert p == pytest.approx(1 / 3) and r == pytest.approx(1 / 2)


def test_predictions_on_ignored_or_unknown_gold_are_not_counted():
    gold = [[(0, 5, "PERSON"), (20, 30, "DATE")]]
    pred = [[(0, 5, "PERSON"), (8, 12, "PERSON"), (21, 30, "BIRTH_DATE")]]
    s = score(gold, pred, [[(7, 15)]])
    assert s.prf() == (1.0, 1.0, 1.0)


def test_shipped_labels_json_is_what_the_engine_reads(tmp_path):
    from alias_engine.detectors.contract import read_labels_json
    from training.export import ship

    (tmp_path / "m.onnx").write_bytes(b"x")
    (tmp_path / "t.json").write_text("{}")
    ship(tmp_path / "m.onnx", tmp_path / "t.json", tmp_path / "out", window_length=200)
    assert read_labels_json(tmp_path / "out" / "labels.json") == 200


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("onnxruntime")
    torch.manual_seed(0)
    cfg = transformers.BertConfig(
        vocab_size=64,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        pad_token_id=1,
        num_labels=len(BIOES_TAGS),
    )
    model = transformers.BertForTokenClassification(cfg).eval()
    path = tmp_path_factory.mktemp("tiny")
    model.save_pretrained(path)
    return path


def test_export_matches_torch_and_quantised_model_runs(tiny_model, tmp_path):
    from training.export import export_onnx, onnx_logits, quantize, ship, torch_logits

    fp32, int8 = tmp_path / "m.onnx", tmp_path / "m8.onnx"
    export_onnx(tiny_model, fp32)
    ids = np.array([[0, 5, 6, 7, 2, 1, 1], [0, 8, 9, 10, 11, 12, 2]], dtype=np.int64)
    mask = (ids != 1).astype(np.int64)
    ref = torch_logits(tiny_model, ids, mask)
    got = onnx_logits(fp32, ids, mask)
    assert got.shape == (2, 7, len(BIOES_TAGS))
    np.testing.assert_allclose(got[mask.astype(bool)], ref[mask.astype(bool)], atol=1e-4)
    # other batch and sequence sizes: the axes are dynamic
    assert onnx_logits(fp32, ids[:1, :4], mask[:1, :4]).shape == (1, 4, len(BIOES_TAGS))

    quantize(fp32, int8)
    q = onnx_logits(int8, ids, mask)
    assert q.shape == got.shape and np.isfinite(q).all()

    import onnx

    graph = onnx.load(str(int8)).graph
    assert any(n.op_type == "Cast" for n in graph.node)
    assert any(n.op_type in ("MatMulInteger", "DynamicQuantizeLinear") for n in graph.node)

    (tiny_model / "tokenizer.json").write_text("{}")
    ship(int8, tiny_model / "tokenizer.json", tmp_path / "ship")
    labels = json.loads((tmp_path / "ship" / "labels.json").read_text())
    assert labels == {"scheme": "BIOES", "tags": list(BIOES_TAGS), "max_length": 512, "window_length": 128}
    ship(int8, tiny_model / "tokenizer.json", tmp_path / "ship512", window_length=512)
    assert json.loads((tmp_path / "ship512" / "labels.json").read_text())["window_length"] == 512


def test_warm_start_turns_the_shipped_int8_graph_back_into_the_same_tagger(tiny_model, tmp_path):
    from training.export import export_onnx, onnx_logits, quantize, torch_logits
    from training.warm_start import dequantized_state, warm_start

    fp32, int8 = tmp_path / "m.onnx", tmp_path / "ship" / "model.onnx"
    int8.parent.mkdir()
    export_onnx(tiny_model, fp32)
    quantize(fp32, int8)
    (int8.parent / "tokenizer.json").write_text("{}")
    state = dequantized_state(int8)
    # every weight of the encoder and the head comes back, named as transformers names it
    import transformers

    names = {k for k in transformers.BertForTokenClassification.from_pretrained(tiny_model).state_dict()
             if not k.endswith("position_ids")}
    assert set(state) == names
    warm_start(int8.parent, tmp_path / "warm")
    ids = np.array([[0, 5, 6, 7, 2, 1, 1], [0, 8, 9, 10, 11, 12, 2]], dtype=np.int64)
    mask = (ids != 1).astype(np.int64)
    ref = torch_logits(tiny_model, ids, mask)
    got = torch_logits(tmp_path / "warm", ids, mask)
    # int8 weights: close to the original, and the same as what the int8 graph computes in fp32
    assert np.abs(got - ref)[mask.astype(bool)].max() < 0.05
    assert np.abs(got - ref)[mask.astype(bool)].max() > 0  # really the dequantised weights, not a copy
    q = onnx_logits(int8, ids, mask)
    assert (q.argmax(-1) == got.argmax(-1))[mask.astype(bool)].mean() > 0.9


def test_average_of_two_models_is_their_weighted_mean(tiny_model, tmp_path):
    import torch
    import transformers

    from training.average import average

    other = transformers.BertForTokenClassification.from_pretrained(tiny_model)
    with torch.no_grad():
        for p in other.parameters():
            p.add_(1.0)
    other.save_pretrained(tmp_path / "other")
    average(tiny_model, tmp_path / "other", 0.25, tmp_path / "soup")
    a = transformers.BertForTokenClassification.from_pretrained(tiny_model).state_dict()
    soup = transformers.BertForTokenClassification.from_pretrained(tmp_path / "soup").state_dict()
    for name, value in a.items():
        if value.is_floating_point():
            assert torch.allclose(soup[name], value + 0.25, atol=1e-6), name
    with pytest.raises(ValueError):
        average(tiny_model, tmp_path / "other", 1.5, tmp_path / "bad")
