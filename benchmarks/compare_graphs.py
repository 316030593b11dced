"""Model graphs side by side on the same windows: CPU cost, and logits against a reference graph.

    python benchmarks/compare_graphs.py models:8:batched models:8:one build/per-token:2:batched \\
        --data ../shared/data/dev/presidio_synth_v2.en.jsonl --records 400 [--join 50] [--threads 1] \\
        [--reference build/fp32]

Each configuration is FOLDER:BATCH_SIZE:MODE, FOLDER holding model.onnx and its
tokenizer/labels; MODE `batched` packs windows as the engine does for a
batch-independent graph (`decode_windows`, BATCH_SIZE full windows of tokens a
call), `one` runs one window per call (what the engine does for the shipped
dynamic-int8 graph). The configurations run in turn, `--rounds` times, in this
one process, so a busy machine slows them alike: read the `cost` column (median
CPU seconds over the first configuration's), not the absolute figures.
`--join N` joins N records into one document (long texts, full windows).
With `--reference`, also prints how often each graph's arg-max tag matches the
reference graph's on every window of the first 40 texts, and the largest logit
difference (`python benchmarks/requantize.py fp32 models/model.onnx build/fp32/model.onnx`
gives the fp32 graph the shipped int8 weights come from).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics

import numpy as np

from alias_engine.detectors import model as M


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_all(det: M.ModelDetector, ids: list[np.ndarray], batch_size: int, mode: str) -> None:
    M.decode_windows(ids, det._run, size=det.window_size, overlap=det.window_overlap, bos=det.bos_id,
                     eos=det.eos_id, pad=det.pad_id, batch_size=batch_size,
                     windows_per_call=1 if mode == "one" else M.MAX_WINDOWS_PER_BATCH)


def agreement(det: M.ModelDetector, ref: M.ModelDetector, ids: list[np.ndarray]) -> tuple[float, float]:
    same = total = 0
    worst = 0.0
    for seq in ids:
        windows = M.plan_windows(len(seq), det.window_size, det.window_overlap)
        for w in windows:  # one window a call: the reference is not moved by batching
            x, m = M._pack([seq], [w], det.bos_id, det.eos_id, det.pad_id)
            a, b = det._run(x, m), ref._run(x, m)
            same += int((a.argmax(-1) == b.argmax(-1)).sum())
            total += a.shape[1]
            worst = max(worst, float(np.abs(a - b).max()))
    return same / total, worst


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("configs", nargs="+", help="FOLDER:BATCH_SIZE:batched|one")
    ap.add_argument("--data", required=True)
    ap.add_argument("--records", type=int, default=400)
    ap.add_argument("--join", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--reference")
    args = ap.parse_args(argv)
    configs = [(folder, int(bs), mode) for folder, bs, mode in (c.split(":") for c in args.configs)]
    with open(args.data, encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f][:args.records]
    texts = ["\n".join(texts[i:i + args.join]) for i in range(0, len(texts), args.join)]
    detectors = {folder: M.ModelDetector.load(folder, threads=args.threads, preload=True) for folder, _, _ in configs}
    first = next(iter(detectors.values()))
    ids = [M.tokenize(first.tokenizer, t)[0] for t in texts]
    tokens = sum(map(len, ids))
    seconds: dict[tuple, list[float]] = {c: [] for c in configs}
    for _ in range(args.rounds):
        for config in configs:
            start = cpu_seconds()
            run_all(detectors[config[0]], ids, config[1], config[2])
            seconds[config].append(cpu_seconds() - start)
    print(f"{len(texts)} texts, {tokens:,} tokens, threads {args.threads or M.available_cores()}, "
          f"{args.rounds} rounds")
    base = statistics.median(seconds[configs[0]])
    for config, values in seconds.items():
        med = statistics.median(values)
        print(f"  {config[0]:24s} batch_size {config[1]:2d} {config[2]:7s}: {tokens / med:7,.0f} tokens/CPU-s, "
              f"cost x{med / base:.2f}  (CPU s {[round(v, 2) for v in values]})")
    if args.reference:
        ref = M.ModelDetector.load(args.reference, threads=args.threads)
        for folder, det in detectors.items():
            share, worst = agreement(det, ref, ids[:40])
            print(f"  {folder:24s} arg-max tag = reference's on {100 * share:.2f} % of tokens, "
                  f"largest logit difference {worst:.2f}")


if __name__ == "__main__":
    main()
