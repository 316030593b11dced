"""Score evaluation sets with the model's spans read from a cache: a change to the rules or to resolve
is measured in a minute, not in the quarter of an hour the model takes on two cores.

    python benchmarks/cached_model_eval.py TAG onnxruntime|openvino [SET ...]

writes build/evals/TAG/SET.{json,pred.jsonl} as `benchmarks/eval_every_set.sh` does (every set but the
unscored ones without SETs; `benchmarks/pooled_evals.py` reads both alike). The model's spans of each text
are those of benchmarks/rule_ablation.py's cache (build/model_cache_BACKEND_DIGEST.pkl, DIGEST that of
models/model.onnx, or of $MODEL/model.onnx): the first run fills it at the model's speed, later runs read
it. This is exact, not an approximation: a text gets the same model spans whatever else is in its batch
(`ModelDetector.detect`), and the engine hands the model the same normalised text whatever the rules say.
Compare a rule change against a baseline scored here too, and score the baseline's rules from a worktree
of their commit (`PYTHONPATH=WORKTREE`, its build/ linked to this one's).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluation_sets import selected  # noqa: E402
from rule_ablation import CachedModel, cache_path, load_cache, save_cache  # noqa: E402

from alias_engine.engine import Engine  # noqa: E402
from alias_engine.evaluation.datasets import read_records  # noqa: E402
from alias_engine.evaluation.evaluate import combine, engine_predict, evaluate, write_predictions  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tag")
    parser.add_argument("backend", choices=("onnxruntime", "openvino"))
    parser.add_argument("sets", nargs="*")
    parser.add_argument("--dev", default=os.environ.get("DEV", "../shared/data/dev"))
    args = parser.parse_args(argv)
    try:
        sets = selected(Path(args.dev), args.sets)
    except ValueError as error:
        sys.exit(f"cached_model_eval: {error}")
    model_dir = os.environ.get("MODEL", "models")
    cache_file = cache_path(args.backend, model_dir)
    cache = load_cache(cache_file)
    engine = Engine(backend=args.backend, model_dir=model_dir)
    engine._model = CachedModel(Engine(backend=args.backend, model_dir=model_dir), cache, [None])
    out = Path("build/evals") / args.tag
    out.mkdir(parents=True, exist_ok=True)
    for name, files in sets.items():
        if not all(Path(f).exists() for f in files):
            print(f"skipped {name} (missing files)")
            continue
        cached = len(cache)
        evaluations = [evaluate(read_records(str(f)), engine_predict(engine), labels=engine.labels, name=str(f),
                                placeholder=engine.placeholder) for f in files]
        if len(evaluations) > 1:
            evaluations.append(combine(evaluations))
        write_predictions(combine(evaluations[:len(files)]), out / f"{name}.pred.jsonl")
        (out / f"{name}.json").write_text(json.dumps(
            {"engine": {"backend": args.backend, "model_dir": model_dir, "model_spans": str(cache_file)},
             "evaluations": [e.to_dict() for e in evaluations]}, indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8")
        if len(cache) > cached:
            save_cache(cache_file, cache)
        print(f"{name}: {len(cache) - cached} texts run by the model", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
