"""Export the trained tagger to ONNX, quantise, measure, and ship the chosen file.

    python -m training.export --model build/train/final --out build/export \
        --heldout build/data/heldout.jsonl --ship models

Writes OUT/model.fp32.onnx (opset 17, dynamic batch and sequence axes, inputs
`input_ids`/`attention_mask`, output `logits`), checks its logits against
torch, writes OUT/model.int8.onnx (dynamic int8, per-channel, MatMul only,
word embeddings stored as fp16), measures strict F1 and speed of both on the
held-out split, and copies the chosen one to SHIP/model.onnx with
tokenizer.json and labels.json. The figures go to OUT/report.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import numpy as np

from alias_engine.detectors.contract import labels_json
from training.train import WINDOW_FILE

MAX_BYTES = 80 * 1024 * 1024
OPSET = 17


def export_onnx(model_dir: Path, path: Path) -> None:
    import torch
    from transformers import BertForTokenClassification

    # Eager attention exports as MatMul/Add(mask)/Softmax: onnxruntime runs it about twice as fast
    # on 512-token windows as the SDPA export's masking path (IsNaN/Where), and its transformer
    # optimizer recognises it (CHANGELOG.md, "model v2 trials").
    model = BertForTokenClassification.from_pretrained(str(model_dir), attn_implementation="eager").eval()
    model.config.return_dict = True

    class Logits(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).logits

    ids = torch.tensor([[0, 5, 6, 7, 2, 1], [0, 8, 9, 10, 11, 2]], dtype=torch.long)
    mask = (ids != 1).long()
    axes = {0: "batch", 1: "seq"}
    torch.onnx.export(
        Logits(model),
        (ids, mask),
        str(path),
        input_names=["input_ids", "attention_mask"],
        output_names=["logits"],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "logits": axes},
        opset_version=OPSET,
        dynamo=False,
    )


def torch_logits(model_dir: Path, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    import torch
    from transformers import BertForTokenClassification

    model = BertForTokenClassification.from_pretrained(str(model_dir)).eval()
    with torch.no_grad():
        return model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask)).logits.numpy()


def onnx_logits(path: Path, ids: np.ndarray, mask: np.ndarray, threads: int = 2) -> np.ndarray:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    return sess.run(["logits"], {"input_ids": ids, "attention_mask": mask})[0]


def sample_batch(tokenizer_path: Path) -> tuple[np.ndarray, np.ndarray]:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer_path))
    texts = [
        "Bonjour, je suis Jean-Pierre Le Gall, né le 12/03/1985, 12 rue Victor Hugo, 75011 Paris.",
        "Call Mary O'Connor at (415) 555-0132 or mary.oconnor@example.com",
        "IBAN FR76 3000 6000 0112 3456 7890 189",
    ]
    encs = [tok.encode(t).ids for t in texts]
    n = max(map(len, encs))
    ids = np.ones((len(encs), n), dtype=np.int64)
    mask = np.zeros((len(encs), n), dtype=np.int64)
    for i, e in enumerate(encs):
        ids[i, : len(e)] = e
        mask[i, : len(e)] = 1
    return ids, mask


def embeddings_to_fp16(src: Path, dst: Path) -> None:
    """Store the word-embedding table (the Gather on input_ids) as fp16, cast back to fp32 after lookup."""
    import onnx
    from onnx import helper, numpy_helper

    m = onnx.load(str(src))
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    for node in g.node:
        if node.op_type != "Gather" or node.input[0] not in inits or "input_ids" not in node.input[1]:
            continue
        init = inits[node.input[0]]
        arr = numpy_helper.to_array(init)
        if arr.dtype != np.float32 or arr.ndim != 2:
            continue
        half_name = init.name + "_fp16"
        g.initializer.remove(init)
        g.initializer.append(numpy_helper.from_array(arr.astype(np.float16), half_name))
        gathered = node.output[0]
        node.input[0] = half_name
        node.output[0] = gathered + "_fp16"
        cast = helper.make_node("Cast", [node.output[0]], [gathered], to=onnx.TensorProto.FLOAT)
        idx = list(g.node).index(node)
        g.node.insert(idx + 1, cast)
        onnx.save(m, str(dst))
        return
    raise RuntimeError("word-embedding Gather not found")


def quantize(src: Path, dst: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = dst.with_suffix(".tmp.onnx")
    quantize_dynamic(str(src), str(tmp), weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"])
    embeddings_to_fp16(tmp, dst)
    tmp.unlink()


def speed(path: Path, tokens: int = 512, repeat: int = 5) -> float:
    """Median seconds of one 1 x `tokens` forward pass."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    ids = np.full((1, tokens), 5, dtype=np.int64)
    ids[0, 0], ids[0, -1] = 0, 2
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    sess.run(["logits"], feed)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        sess.run(["logits"], feed)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def run(args: argparse.Namespace) -> dict:
    from training.evaluate import EngineModelTagger, OnnxTagger, evaluate, read_eval

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    tok_path = args.model / "tokenizer.json"
    fp32, int8 = out / "model.fp32.onnx", out / "model.int8.onnx"
    export_onnx(args.model, fp32)
    ids, mask = sample_batch(tok_path)
    ref = torch_logits(args.model, ids, mask)
    got = onnx_logits(fp32, ids, mask)
    parity = float(np.abs(ref - got)[mask.astype(bool)].max())
    print(f"ONNX fp32 vs torch: max abs logit difference {parity:.2e}", flush=True)
    if parity > 1e-3:
        raise RuntimeError(f"export parity failed: {parity}")
    quantize(fp32, int8)
    report: dict = {"parity_fp32": parity, "variants": {}}
    docs = read_eval(args.heldout)[: args.limit] if args.heldout else []
    for name, path in (("fp32", fp32), ("int8", int8)):
        entry = {"bytes": path.stat().st_size, "seconds_1x512": speed(path)}
        ship(path, tok_path, out / name, args.window_length)
        if docs:
            try:
                tagger = EngineModelTagger(out / name)
            except ImportError:
                tagger = OnnxTagger(path, tok_path)
            scores, elapsed = evaluate(tagger, docs)
            entry["heldout"] = scores.as_dict()
            entry["heldout_seconds"] = elapsed
            print(f"== {name}: {entry['bytes'] / 1e6:.1f} MB, {entry['seconds_1x512'] * 1000:.0f} ms per 1x512")
            print(scores.table(), flush=True)
        report["variants"][name] = entry
    fits = {k: v for k, v in report["variants"].items() if v["bytes"] <= MAX_BYTES}
    if not fits:
        raise RuntimeError("no variant fits in 80 MB")
    if args.choose:
        chosen = args.choose
    elif "heldout" in next(iter(fits.values())):
        # the smaller, faster int8 unless it costs more than one F1 point
        best = max(v["heldout"]["micro"]["f1"] for v in fits.values())
        chosen = "int8" if "int8" in fits and fits["int8"]["heldout"]["micro"]["f1"] >= best - 0.01 else "fp32"
    else:
        chosen = "int8" if "int8" in fits else "fp32"
    report["chosen"] = chosen
    (out / "report.json").write_text(json.dumps(report, indent=1))
    if args.ship:
        ship(out / f"model.{chosen}.onnx", tok_path, args.ship, args.window_length)
        print(f"shipped {chosen} to {args.ship}")
    return report


def ship(model: Path, tokenizer: Path, dest: Path, window_length: int = 128) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(model, dest / "model.onnx")
    shutil.copyfile(tokenizer, dest / "tokenizer.json")
    # window_length: the longest chunks train.py trained on (--max-len, or --long-len with
    # --long-docs; specials included); the engine's windows use it: in longer windows than it
    # was trained on, the tagger finds far fewer names in long texts.
    (dest / "labels.json").write_text(json.dumps(labels_json(window_length), indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="export, quantise, measure and ship the tagger")
    ap.add_argument("--model", type=Path, default=Path("build/train/final"))
    ap.add_argument("--out", type=Path, default=Path("build/export"))
    ap.add_argument("--heldout", type=Path, default=None)
    ap.add_argument("--limit", type=int, default=400, help="held-out documents to score")
    ap.add_argument("--choose", choices=("fp32", "int8"), default=None)
    ap.add_argument("--ship", type=Path, default=None, help="folder to write model.onnx, tokenizer.json, labels.json")
    ap.add_argument("--window-length", type=int, default=None,
                    help="window the engine reads the model in (default: the longest chunk length it was trained"
                         " on, from MODEL/alias_engine_window.json, else 128)")
    args = ap.parse_args(argv)
    if args.window_length is None:
        args.window_length = trained_window(args.model)
    run(args)


def trained_window(model_dir: Path) -> int:
    path = model_dir / WINDOW_FILE
    return int(json.loads(path.read_text(encoding="utf-8"))["window_length"]) if path.exists() else 128


if __name__ == "__main__":
    main()
