"""Engine throughput with onnxruntime's thread spinning on and off, with and without a busy neighbour.

    python benchmarks/thread_contention.py ../shared/data/dev/presidio_synth_v2.en.jsonl --records 300 --rounds 3

Runs `Engine.detect_many` (32 records a call) over the same records with
two ONNX Runtime sessions of the shipped model that differ only in
`session.intra_op.allow_spinning` (intra-op threads = available cores in both),
alternately, first alone and then beside one busy process that this script
starts (a Python loop that never sleeps, as a neighbour doing its own work
would be). Prints chars/s per setting (median of the rounds) and the ratios
that matter on a shared machine: each setting with a neighbour over the same
setting alone, and spinning off over spinning on.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from alias_engine import Engine
from alias_engine.detectors.model import available_cores


def session(model_path: str, spinning: bool, threads: int):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    return ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])


def throughput(engine: Engine, texts: list[str]) -> float:
    start = time.perf_counter()
    for i in range(0, len(texts), 32):
        engine.detect_many(texts[i:i + 32], "en")
    return sum(map(len, texts)) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--records", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=available_cores())
    args = ap.parse_args(argv)
    with open(args.data, encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f][:args.records]
    engine = Engine()
    model = engine.model
    sessions = {spin: session(str(model.model_path), spin, args.threads) for spin in (True, False)}
    results: dict[tuple[bool, bool], list[float]] = {}
    for neighbour in (False, True):
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if neighbour else None
        try:
            for _ in range(args.rounds):
                for spin, sess in sessions.items():
                    model._session = sess
                    throughput(engine, texts[:32])  # warm-up
                    results.setdefault((neighbour, spin), []).append(throughput(engine, texts))
        finally:
            if busy is not None:
                busy.kill()
                busy.wait()
    median = {k: statistics.median(v) for k, v in results.items()}
    print(f"{len(texts)} records, {sum(map(len, texts)):,} chars, intra-op threads {args.threads}, "
          f"{args.rounds} rounds (chars/s, median; all rounds in brackets)")
    for (neighbour, spin), v in results.items():
        print(f"  neighbour={'busy' if neighbour else 'none':4s} spinning={'on ' if spin else 'off'}: "
              f"{median[neighbour, spin]:8,.0f}  {[round(x) for x in v]}")
    for spin in (True, False):
        print(f"  spinning {'on ' if spin else 'off'}: with a busy neighbour / alone = "
              f"{median[True, spin] / median[False, spin]:.2f}")
    for neighbour in (False, True):
        print(f"  {'with a busy neighbour' if neighbour else 'alone':21s}: spinning off / on = "
              f"{median[neighbour, False] / median[neighbour, True]:.2f}")


if __name__ == "__main__":
    main()
