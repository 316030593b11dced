"""Rebuild the activation quantisation of the shipped int8 model, weights untouched
(a batch-independent graph may batch its windows again).

    python benchmarks/requantize.py per-token models/model.onnx build/model.per-token.onnx
    python benchmarks/requantize.py static models/model.onnx build/model.static.onnx [--s8s8] [--samples N]

The shipped graph is `quantize_dynamic` output: before each int8 MatMul a
`DynamicQuantizeLinear` computes one scale and zero point from the min and max
of the whole activation tensor, i.e. of every token of every window in the
batch, padding included. A text's logits therefore depend on what else is in
its batch. Two ways out that need no retraining:

- `per-token`: replace each `DynamicQuantizeLinear` by a symmetric per-token
  quantisation (scale = max |x| over the hidden axis / 127, zero point 128 in
  uint8). Each token's activations are quantised from its own values only, so
  batching and padding cannot change them. The int8 weights and everything
  else stay as shipped; the `[batch, seq, 1]` scale broadcasts through the
  existing `Mul` nodes that rescale the int32 product.
- `static`: dequantise the int8 weights back to fp32 (exact: they stay on the
  int8 grid), then `quantize_static` (QDQ, per-channel weights) with
  activation ranges calibrated on text from the synthetic generator (never on
  the dev sets). U8S8 by default, `--s8s8` for int8 activations.

Neither changes the weights' values, so accuracy changes come from the
activations alone. Measure a rebuilt graph with `alias-engine eval` on a model
folder holding it (CHANGELOG.md, "model graph and threads": the rebuilds measured and why none shipped).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import numpy as np


def per_token(src: Path, dst: Path) -> int:
    """Write `src` with every DynamicQuantizeLinear made per-token symmetric; return how many."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(src))
    graph = model.graph
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    init = {t.name: t for t in graph.initializer}
    constants = [numpy_helper.from_array(np.array(v, dtype=np.float32), f"per_token_{k}")
                 for k, v in (("tiny", 1e-12), ("levels", 127.0))]
    constants.append(numpy_helper.from_array(np.array([-1], dtype=np.int64), "per_token_vector"))
    graph.initializer.extend(constants)
    tiny, levels, vector = (c.name for c in constants)
    # 1.0 from the input's size: onnxruntime cannot fold it into a constant.
    unit = "per_token_unit"
    nodes = [
        helper.make_node("Size", [graph.input[0].name], ["per_token_size"], name="per_token_Size"),
        helper.make_node("Div", ["per_token_size", "per_token_size"], ["per_token_unit_int"], name="per_token_Div"),
        helper.make_node("Cast", ["per_token_unit_int"], [unit], name="per_token_Cast", to=TensorProto.FLOAT),
    ]
    rescale: dict[str, str] = {}  # output of a MatMulInteger chain's last Mul -> its per-token scale
    count = 0
    for node in graph.node:
        if node.op_type != "DynamicQuantizeLinear":
            nodes.append(node)
            continue
        count += 1
        x = node.input[0]
        quantized, scale, zero_point = node.output
        p = f"{node.name}_per_token"
        token_scale = f"{p}_scale"
        width = numpy_helper.to_array(init[consumers[quantized][0].input[1]]).shape[0]
        flat = numpy_helper.from_array(np.array([-1, width], dtype=np.int64), f"{p}_flat_shape")
        graph.initializer.append(flat)
        nodes += [
            # max |x| per token as max(max x, -min x): two reductions, no |x| tensor written.
            helper.make_node("ReduceMax", [x], [f"{p}_max"], name=f"{p}_ReduceMax", axes=[-1], keepdims=1),
            helper.make_node("ReduceMin", [x], [f"{p}_min"], name=f"{p}_ReduceMin", axes=[-1], keepdims=1),
            helper.make_node("Neg", [f"{p}_min"], [f"{p}_neg_min"], name=f"{p}_Neg"),
            helper.make_node("Max", [f"{p}_max", f"{p}_neg_min", tiny], [f"{p}_amax_pos"], name=f"{p}_Max"),
            helper.make_node("Div", [f"{p}_amax_pos", levels], [token_scale], name=f"{p}_Scale"),
            # One QuantizeLinear along the token axis of x seen as [tokens, width].
            helper.make_node("Reshape", [token_scale, vector], [f"{p}_scale_1d"], name=f"{p}_ScaleFlat"),
            helper.make_node("Reshape", [x, flat.name], [f"{p}_x_2d"], name=f"{p}_Flat"),
            helper.make_node("Shape", [f"{p}_scale_1d"], [f"{p}_tokens"], name=f"{p}_Tokens"),
            helper.make_node("ConstantOfShape", [f"{p}_tokens"], [f"{p}_zero_points"], name=f"{p}_ZeroPoints",
                             value=helper.make_tensor(f"{p}_zp128", TensorProto.UINT8, [1], [128])),
            helper.make_node("QuantizeLinear", [f"{p}_x_2d", f"{p}_scale_1d", f"{p}_zero_points"], [f"{p}_q_2d"],
                             name=f"{p}_Quantize", axis=0),
            helper.make_node("Shape", [x], [f"{p}_shape"], name=f"{p}_Shape"),
            helper.make_node("Reshape", [f"{p}_q_2d", f"{p}_shape"], [quantized], name=f"{p}_Unflat"),
            helper.make_node("Constant", [], [zero_point], name=f"{p}_ZeroPoint",
                             value=helper.make_tensor(f"{p}_zp", TensorProto.UINT8, [], [128])),
            # The old per-tensor scale becomes 1: the int32 product is rescaled per token after the
            # existing Mul. (Feeding the [batch, seq, 1] scale into that Mul instead gives wrong
            # logits in onnxruntime 1.32: its MatMulIntegerToFloat fusion takes the scale for a
            # scalar.) A 1 computed at run time, not a constant, keeps that fusion.
            helper.make_node("Identity", [unit], [scale], name=f"{p}_UnitScale"),
        ]
        for matmul in consumers[quantized]:
            (cast,) = consumers[matmul.output[0]]
            (mul,) = consumers[cast.output[0]]
            rescale[mul.output[0]] = token_scale
    out = []
    for node in nodes:
        out.append(node)
        if node.op_type == "Mul" and node.output[0] in rescale:
            final = node.output[0]
            node.output[0] = f"{final}_before_token_scale"
            out.append(helper.make_node("Mul", [node.output[0], rescale[final]], [final], name=f"{node.name}_per_token"))
    if not count:
        raise SystemExit(f"{src} has no DynamicQuantizeLinear node: not a dynamic int8 graph (already per-token?)")
    del graph.node[:]
    graph.node.extend(out)
    del graph.value_info[:]
    from alias_engine.detectors.backends import BATCH_INDEPENDENT_KEY

    onnx.helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props}, BATCH_INDEPENDENT_KEY: "true"})
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))
    return count


def dequantize_weights(src: Path, dst: Path) -> None:
    """The shipped graph with each MatMulInteger chain turned back into an fp32 MatMul."""
    import onnx

    from alias_engine.detectors.fp32_graph import dequantize

    model = dequantize(onnx.load(str(src)))
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))


def calibration_texts(samples: int, seed: int) -> list[str]:
    """Generator text (fr and en, records and long documents), never dev data."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # training/ is at the top of the repository
    from training.generate import generate

    return [r["text"] for r in generate(samples, seed=seed, split="train")]


def static(src: Path, dst: Path, *, s8s8: bool, samples: int, seed: int, model_dir: Path) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    from alias_engine.detectors.model import ModelDetector, _pack, tokenize
    from alias_engine.detectors.windows import plan_windows

    detector = ModelDetector.load(model_dir)
    batches = []
    for text in calibration_texts(samples, seed):
        ids, _ = tokenize(detector.tokenizer, text)
        windows = plan_windows(len(ids), detector.window_size, detector.window_overlap)
        for w in windows:
            input_ids, mask = _pack([ids], [w], detector.bos_id, detector.eos_id, detector.pad_id)
            batches.append({"input_ids": input_ids, "attention_mask": mask})

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.items = iter(batches)

        def get_next(self):
            return next(self.items, None)

    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model.fp32.onnx"
        dequantize_weights(src, fp32)
        import onnx

        graph = onnx.load(str(fp32)).graph
        weights = {t.name for t in graph.initializer}
        # The MatMuls of the shipped int8 graph (weights), not attention's activation x activation ones.
        nodes = [n.name for n in graph.node if n.op_type == "MatMul" and n.input[1] in weights]
        quantize_static(str(fp32), str(dst), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        op_types_to_quantize=["MatMul"], nodes_to_quantize=nodes,
                        activation_type=QuantType.QInt8 if s8s8 else QuantType.QUInt8,
                        weight_type=QuantType.QInt8,
                        extra_options={"ActivationSymmetric": s8s8, "WeightSymmetric": True})


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["per-token", "static", "fp32"])
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--s8s8", action="store_true", help="static: int8 activations (default uint8)")
    ap.add_argument("--samples", type=int, default=400, help="static: generated records to calibrate on")
    ap.add_argument("--seed", type=int, default=15)
    args = ap.parse_args(argv)
    args.dst.parent.mkdir(parents=True, exist_ok=True)
    if args.mode == "per-token":
        print(f"{per_token(args.src, args.dst)} DynamicQuantizeLinear nodes made per-token")
    elif args.mode == "fp32":
        dequantize_weights(args.src, args.dst)
    else:
        static(args.src, args.dst, s8s8=args.s8s8, samples=args.samples, seed=args.seed,
               model_dir=args.src.parent)
    for name in ("tokenizer.json", "labels.json"):
        if (args.src.parent / name).exists():
            shutil.copy(args.src.parent / name, args.dst.parent / name)
    print(f"wrote {args.dst} ({args.dst.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
