"""Score evaluation sets with the model's spans read from a cache: a change to the rules or to resolve
is measured in minutes, not in the half hour the model takes on two cores.

    python benchmarks/cached_model_eval.py TAG onnxruntime|openvino [SET ...]

writes build/evals/TAG/SET.{json,pred.jsonl} as `benchmarks/eval_every_set.sh` does (every set but the
unscored ones without SETs; `benchmarks/pooled_evals.py` reads both alike). The model's spans of each text
are kept in build/model_cache/BACKEND-MODEL.jsonl, MODEL the first 12 hex digits of the sha256 of
models/model.onnx (or $MODEL/model.onnx): the first run fills it at the model's speed, later runs read it.
This is exact, not an approximation: a text gets the same model spans whatever else is in its batch
(`ModelDetector.detect`), and the engine hands the model the same normalised text whatever the rules say.
Compare a rule change against a baseline scored here too, then confirm once with eval_every_set.sh.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluation_sets import selected  # noqa: E402

from alias_engine.detectors.model import ModelDetector  # noqa: E402
from alias_engine.engine import Engine  # noqa: E402
from alias_engine.evaluation.datasets import read_records  # noqa: E402
from alias_engine.evaluation.evaluate import combine, engine_predict, evaluate, write_predictions  # noqa: E402
from alias_engine.spans import Span  # noqa: E402


class CachedModel:
    """The engine's model detector behind a cache of its spans, one line a text: the model loads on the
    first text the cache lacks."""

    role = "model"

    def __init__(self, engine: Engine, path: Path) -> None:
        self.engine, self.path = engine, path
        self.spans: dict[str, list[Span]] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                self.spans[entry["key"]] = [Span(*s, source="model") for s in entry["spans"]]
        self.misses = 0
        self.model: ModelDetector | None = None

    @staticmethod
    def key(text: str, lang: str) -> str:
        return hashlib.sha256(f"{lang}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    def detect(self, texts: Sequence[str], langs: Sequence[str]) -> list[list[Span]]:
        keys = [self.key(text, lang) for text, lang in zip(texts, langs)]
        missing = [i for i, key in enumerate(keys) if key not in self.spans]
        if missing:
            if self.model is None:
                self.model = ModelDetector.load(self.engine.model_dir, threads=self.engine.threads,
                                                recall_bias=self.engine.recall_bias, backend=self.engine.backend)
            found = self.model.detect([texts[i] for i in missing], [langs[i] for i in missing])
            with self.path.open("a", encoding="utf-8") as out:
                for i, spans in zip(missing, found):
                    self.spans[keys[i]] = spans
                    out.write(json.dumps({"key": keys[i], "spans": [[s.start, s.end, s.label, s.score]
                                                                    for s in spans]}) + "\n")
            self.misses += len(missing)
        return [list(self.spans[key]) for key in keys]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tag")
    parser.add_argument("backend", choices=("onnxruntime", "openvino"))
    parser.add_argument("sets", nargs="*")
    parser.add_argument("--dev", default=os.environ.get("DEV", "../shared/data/dev"))
    args = parser.parse_args(argv)
    model_dir = Path(os.environ.get("MODEL", "models"))
    digest = hashlib.sha256((model_dir / "model.onnx").read_bytes()).hexdigest()[:12]
    cache_dir = Path("build/model_cache")
    cache_dir.mkdir(parents=True, exist_ok=True)
    engine = Engine(backend=args.backend, model_dir=model_dir)
    cached = CachedModel(engine, cache_dir / f"{args.backend}-{digest}.jsonl")
    engine._model = cached
    out = Path("build/evals") / args.tag
    out.mkdir(parents=True, exist_ok=True)
    for name, files in selected(Path(args.dev), args.sets).items():
        if not all(Path(f).exists() for f in files):
            print(f"skipped {name} (missing files)")
            continue
        evaluations = [evaluate(read_records(f), engine_predict(engine), labels=engine.labels, name=str(f),
                                placeholder=engine.placeholder) for f in files]
        if len(evaluations) > 1:
            evaluations.append(combine(evaluations))
        write_predictions(combine(evaluations[:len(files)]), out / f"{name}.pred.jsonl")
        (out / f"{name}.json").write_text(json.dumps(
            {"engine": {"backend": args.backend, "model_dir": str(model_dir), "model_spans": str(cached.path)},
             "evaluations": [e.to_dict() for e in evaluations]}, indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8")
        print(f"{name}: {cached.misses} texts run by the model so far", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
