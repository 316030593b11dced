"""Real text the model was never trained on: the reserve of ../shared/data/train that training leaves out.

    python -m training.real_heldout --out build/data/real_heldout.jsonl
    alias-engine eval build/data/real_heldout.jsonl

Training mixes in `--real-docs` documents drawn from the train/ files with a seed
(`train.real_docs`), never one of the reserve (`train.in_real_reserve`: 15 % of the records,
chosen by a hash of their text). This writes the reserve's records, up to `--per-file` from each
file, less those the models trained before the reserve existed drew (the shipped model's
`--real-docs 8000`: `--legacy-real-docs`), unchanged (their PERSON spans, and the other
entities as `ignored_spans`). The labels are silver (WikiANN) or OCR newspapers with merged
adjacent names (Europeana): read the figures as a check on real text, not as exact scores. Their
text (not their labels) did go into the vocabulary trimming of the base model (`base.py`).

Before the reserve, this drew the records that one `--real-docs` draw had left; a larger draw
contains a smaller one, and a recipe drawing 12,000 left almost no record with a name.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from training.train import SHARED_TRAIN, in_real_reserve, real_docs


def heldout_records(paths: list[Path], per_file: int, legacy_limit: int, seed: int) -> list[dict]:
    used = {text for text, _ in real_docs(paths, legacy_limit, seed, reserve=False)} if legacy_limit else set()
    out = []
    for path in paths:
        with path.open(encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        unseen = [r for r in records if r["text"].strip() and in_real_reserve(r["text"]) and r["text"] not in used]
        random.Random(f"{seed}:{path.name}").shuffle(unseen)
        out += unseen[:per_file]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--real", type=Path, default=SHARED_TRAIN)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-file", type=int, default=3000)
    ap.add_argument("--legacy-real-docs", type=int, default=8000,
                    help="--real-docs of the models trained before the reserve (the shipped model: 8000; 0: none)")
    ap.add_argument("--seed", type=int, default=13, help="as given to training")
    args = ap.parse_args(argv)
    paths = sorted(args.real.glob("*.jsonl"))
    if not paths:
        raise SystemExit(f"no .jsonl files in {args.real}")
    records = heldout_records(paths, args.per_file, args.legacy_real_docs, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    names = sum(1 for r in records for s in r.get("spans", []) if s.get("label") == "PERSON")
    print(f"{len(records)} held-out records ({names} PERSON spans) from {len(paths)} files -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
