"""Switch rules off one at a time over the hand-written, held-out and probe sets, the model's spans
computed once: what each rule moves, set by set.

    python benchmarks/rule_ablation.py VARIANTS.py NAME... [--backend onnxruntime|openvino] [--sets a,b]

VARIANTS.py defines each NAME as a function `name(rules_dir)` that edits the copy of rules/ in
`rules_dir` (a JSON file: drop a label pattern, remove words) and may return a context manager that is
active while that variant's engine runs (`unittest.mock.patch` of a resolve function or a regex);
`name(rules_dir, model_filter)` may also set `model_filter[0]` to a function spans -> spans applied to the
model's cached output. Prints, per set, the base's (true positives, false positives, values readable) and
each variant's differences from it. Held-out sets (heldout_*) are counted, never shown: their errors are not
read. The model's spans are cached in build/model_cache_BACKEND_DIGEST.pkl by text, DIGEST that of
models/model.onnx (a new model gets a new cache).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path

from alias_engine.engine import Engine
from alias_engine.evaluation.datasets import read_records
from alias_engine.evaluation.evaluate import engine_predict, evaluate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evaluation_sets  # noqa: E402

# The sets whose documents rules are read against and weighed on: the hand-written, held-out and probe sets
ABLATED = ("hw_", "heldout_", "probe_")


def selected_sets(dev: str, names: str | None) -> dict[str, list[Path]]:
    """The hand-written, held-out and probe sets (evaluation_sets.py) found under `dev` and
    benchmarks/data but the unscored ones, or the comma-separated `names` among every set."""
    try:
        chosen = evaluation_sets.selected(Path(dev), names.split(",") if names else [])
    except ValueError as error:
        sys.exit(str(error))
    if names:
        missing = [name for name, files in chosen.items() if not all(f.exists() for f in files)]
        if missing:
            sys.exit(f"missing files for: {', '.join(missing)}")
        return chosen
    return {name: files for name, files in chosen.items()
            if name.startswith(ABLATED) and all(f.exists() for f in files)}


class CachedModel:
    """The engine's model detector, its spans kept by text and language."""

    role = "model"
    name = "model"

    def __init__(self, engine: Engine, cache: dict, model_filter: list) -> None:
        self.engine, self.cache, self.model_filter = engine, cache, model_filter

    def detect(self, texts, langs=None):
        langs = list(langs) if langs else [None] * len(texts)
        keys = [hashlib.sha1((t + "\0" + (lang or "")).encode()).hexdigest() for t, lang in zip(texts, langs)]
        todo = [i for i, key in enumerate(keys) if key not in self.cache]
        if todo:
            spans = self.engine.model.detect([texts[i] for i in todo], [langs[i] for i in todo])
            self.cache.update({keys[i]: found for i, found in zip(todo, spans)})
        out = [self.cache[key] for key in keys]
        return [self.model_filter[0](spans) for spans in out] if self.model_filter[0] else out


def cache_path(backend: str, model_dir: str | Path = "models") -> Path:
    """The model's cached spans for a model file (the shipped one by default): a new model gets a new cache."""
    digest = hashlib.sha1((Path(model_dir) / "model.onnx").read_bytes()).hexdigest()[:12]
    return Path(f"build/model_cache_{backend}_{digest}.pkl")


def load_cache(path: Path) -> dict:
    return pickle.loads(path.read_bytes()) if path.exists() else {}


def save_cache(path: Path, cache: dict) -> None:
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(pickle.dumps(cache))


def setup(dev: str, names: str | None, backend: str) -> tuple[dict[str, list[Path]], Path, dict, Engine]:
    """The selected sets, the model cache's path and contents, and the engine whose model fills the cache."""
    cache_file = cache_path(backend)  # hashes the model file once
    return selected_sets(dev, names), cache_file, load_cache(cache_file), Engine(backend=backend)


def run(variant, data: dict[str, list[Path]], backend: str, cache: dict, model_engine: Engine
        ) -> dict[str, tuple[int, int, int]]:
    model_filter: list = [None]
    with tempfile.TemporaryDirectory() as tmp:
        rules_dir = Path(tmp) / "rules"
        shutil.copytree("rules", rules_dir)
        if variant is None:
            manager = None
        elif variant.__code__.co_argcount == 2:
            manager = variant(str(rules_dir), model_filter)
        else:
            manager = variant(str(rules_dir))
        with manager or contextlib.nullcontext():
            engine = Engine(backend=backend, rules_dir=rules_dir)
            engine._model = CachedModel(model_engine, cache, model_filter)
            out = {}
            for name, files in data.items():
                records = [r for f in files for r in read_records(str(f))]
                micro = evaluate(records, engine_predict(engine), labels=engine.labels, name=name).to_dict()["micro"]
                out[name] = (micro["tp"], micro["fp"], micro["leak_full"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", help="a Python file defining the variants")
    parser.add_argument("names", nargs="+")
    parser.add_argument("--backend", default="onnxruntime", choices=["onnxruntime", "openvino"])
    parser.add_argument("--sets", help="comma-separated set names (default: all found)")
    parser.add_argument("--dev", default=os.environ.get("DEV", "../shared/data/dev"))
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("variants", args.variants)
    if not Path(args.variants).is_file() or spec is None or spec.loader is None:
        sys.exit(f"{args.variants}: not a Python file of variants")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data, cache_file, cache, model_engine = setup(args.dev, args.sets, args.backend)
    base = run(None, data, args.backend, cache, model_engine)
    results = {name: run(getattr(module, name), data, args.backend, cache, model_engine) for name in args.names}
    save_cache(cache_file, cache)
    print("set".ljust(12), "base (tp, fp, readable)".ljust(24), "  ".join(n[:24].ljust(24) for n in args.names))
    for name in data:
        row = [name.ljust(12), str(base[name]).ljust(24)]
        for variant in args.names:
            d = tuple(a - b for a, b in zip(results[variant][name], base[name]))
            row.append(("." if d == (0, 0, 0) else f"dTP{d[0]:+d} dFP{d[1]:+d} dR{d[2]:+d}").ljust(24))
        print("  ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
