"""A shipped model folder (int8 `model.onnx` + `tokenizer.json`) back into a trainable
`transformers` folder, so that a new model can start from the shipped one instead of from
the base encoder (`train --base` accepts the result).

    python -m training.warm_start --model models --out build/warm

The int8 weights are dequantised exactly (`(q - zero_point) * scale`, per channel); the word
embeddings come back from fp16. Each MatMul weight is named by the bias its output is added
to (`...query.bias` -> `...query.weight`), so nothing depends on the exporter's node order.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np

from alias_engine.labels import BIOES_TAGS

PREFIX = "inner."  # training/export.py wraps the classifier in a module whose attribute is `inner`


def dequantized_state(onnx_path: Path) -> dict[str, np.ndarray]:
    """Parameter name (transformers' BertForTokenClassification) -> fp32 array."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    init = {t.name: t for t in graph.initializer}
    for node in graph.node:  # the exporter writes equal tensors once and names the others through Identity
        if node.op_type == "Identity" and node.input[0] in init:
            init[node.output[0]] = init[node.input[0]]
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    state: dict[str, np.ndarray] = {}
    for name, tensor in init.items():
        if name.startswith(PREFIX) and tensor.data_type == onnx.TensorProto.FLOAT:
            state[name.removeprefix(PREFIX)] = numpy_helper.to_array(tensor).copy()
        elif name.startswith(PREFIX) and name.endswith(".weight_fp16"):
            state[name.removeprefix(PREFIX).removesuffix("_fp16")] = numpy_helper.to_array(tensor).astype(np.float32)
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        _, w_q, _, w_zp = node.input
        w_scale = w_q.removesuffix("_quantized") + "_scale"
        weight = ((numpy_helper.to_array(init[w_q]).astype(np.float32)
                   - numpy_helper.to_array(init[w_zp]).astype(np.float32)) * numpy_helper.to_array(init[w_scale]))
        bias = _bias_after(node.output[0], consumers, init)
        state[bias.removeprefix(PREFIX).removesuffix(".bias") + ".weight"] = weight.T.copy()
    return state


def _bias_after(output: str, consumers: dict[str, list], init: dict) -> str:
    """The bias initializer of the first Add downstream of `output` (Cast and Mul in between)."""
    frontier = [output]
    for _ in range(4):
        following = []
        for name in frontier:
            for node in consumers.get(name, []):
                if node.op_type == "Add":
                    bias = [i for i in node.input if i in init and i.endswith(".bias")]
                    if bias:
                        return bias[0]
                following += list(node.output)
        frontier = following
    raise ValueError(f"no bias Add after {output}: not a graph written by training/export.py")


def warm_start(model_dir: Path, out: Path) -> None:
    import onnx
    import torch
    from transformers import BertConfig, BertForTokenClassification

    state = dequantized_state(model_dir / "model.onnx")
    norm = next(n for n in onnx.load(str(model_dir / "model.onnx")).graph.node if n.op_type == "LayerNormalization")
    eps = next(a.f for a in norm.attribute if a.name == "epsilon")
    layers = 1 + max(int(k.split(".")[3]) for k in state if k.startswith("bert.encoder.layer."))
    vocab, hidden = state["bert.embeddings.word_embeddings.weight"].shape
    tags = list(BIOES_TAGS)
    config = BertConfig(
        vocab_size=vocab, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=hidden // 32,
        intermediate_size=state["bert.encoder.layer.0.intermediate.dense.weight"].shape[0],
        max_position_embeddings=state["bert.embeddings.position_embeddings.weight"].shape[0],
        type_vocab_size=state["bert.embeddings.token_type_embeddings.weight"].shape[0],
        pad_token_id=1, layer_norm_eps=eps, num_labels=len(tags),
        id2label=dict(enumerate(tags)), label2id={t: i for i, t in enumerate(tags)},
    )
    model = BertForTokenClassification(config)
    missing, unexpected = model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()}, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise ValueError(f"shipped graph does not match the encoder: missing {missing}, unexpected {unexpected}")
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    shutil.copyfile(model_dir / "tokenizer.json", out / "tokenizer.json")
    (out / "warm_start.json").write_text(json.dumps({"from": str(model_dir / "model.onnx"), "layers": layers}) + "\n",
                                         encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="a shipped int8 model back into a trainable transformers folder")
    ap.add_argument("--model", type=Path, default=Path("models"))
    ap.add_argument("--out", type=Path, default=Path("build/warm"))
    args = ap.parse_args(argv)
    warm_start(args.model, args.out)


if __name__ == "__main__":
    main()
