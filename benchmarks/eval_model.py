"""`alias-engine eval` with another model folder, to compare model graphs on the same files.

    python benchmarks/eval_model.py build/per-token ../shared/data/dev/handwritten.en.jsonl \
        ../shared/data/dev/handwritten.fr.jsonl ../shared/data/dev/presidio_synth_v2.en.jsonl --json build/e.json

The folder holds model.onnx, tokenizer.json and labels.json. Default engine
settings, records' own languages, 32 records a batch: the figures are those
`alias-engine eval` prints for the shipped model in models/.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from alias_engine import Engine
from alias_engine.evaluation.datasets import read_records
from alias_engine.evaluation.evaluate import combine, engine_predict, evaluate, format_report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir", type=Path)
    ap.add_argument("data", nargs="+")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--threads", type=int)
    args = ap.parse_args(argv)
    engine = Engine(model_dir=args.model_dir, threads=args.threads)
    predict = engine_predict(engine)
    evaluations = [evaluate(read_records(path), predict, labels=engine.labels, name=path,
                            placeholder=engine.placeholder) for path in args.data]
    if len(evaluations) > 1:
        evaluations.append(combine(evaluations))
    for evaluation in evaluations:
        print(format_report(evaluation))
    if args.json:
        args.json.write_text(json.dumps({"model_dir": str(args.model_dir),
                                         "evaluations": [e.to_dict() for e in evaluations]}, indent=1))


if __name__ == "__main__":
    main()
