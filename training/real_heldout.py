"""Real text the model was never trained on: the records of ../shared/data/train that training left out.

    python -m training.real_heldout --out build/data/real_heldout.jsonl
    alias-engine eval build/data/real_heldout.jsonl

Training mixes in `--real-docs` documents drawn from the train/ files with a
seed (`train.real_docs`); this draws `--per-file` other records from each file,
never one whose text was drawn for training (give the largest `--real-docs` of
the models compared: a larger draw contains a smaller one), and writes them unchanged (their
PERSON spans, and the other entities as `ignored_spans`). The labels are silver
(WikiANN) or OCR newspapers with merged adjacent names (Europeana): read the
figures as a check on real text, not as exact scores. Their text (not their
labels) did go into the vocabulary trimming of the base model (`base.py`).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from training.train import SHARED_TRAIN, real_docs


def heldout_records(paths: list[Path], per_file: int, real_limit: int, seed: int) -> list[dict]:
    used = {text for text, _ in real_docs(paths, real_limit, seed)}
    out = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        unseen = [r for r in records if r["text"] not in used and r["text"].strip()]
        random.Random(f"{seed}:{path.name}").shuffle(unseen)
        out += unseen[:per_file]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--real", type=Path, default=SHARED_TRAIN)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-file", type=int, default=1000)
    ap.add_argument("--real-docs", type=int, default=12000,
                    help="the largest --real-docs of the models to compare (a larger draw holds the smaller one)")
    ap.add_argument("--seed", type=int, default=13, help="as given to training")
    args = ap.parse_args(argv)
    paths = sorted(args.real.glob("*.jsonl"))
    if not paths:
        raise SystemExit(f"no .jsonl files in {args.real}")
    records = heldout_records(paths, args.per_file, args.real_docs, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{len(records)} unseen records from {len(paths)} files -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
