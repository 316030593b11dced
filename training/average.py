"""The weighted average of two fine-tuned models of the same shape (a "model soup"), as a
trainable folder that `training.export` accepts.

    python -m training.average build/warm build/train/final --weight 0.5 --out build/soup

`--weight` is the share of the second model: 0 gives the first, 1 the second. Two models
fine-tuned from the same start lie close enough for their average to work as a model; it
usually lands between the two on each figure, which is what makes it a way to trade one's
recall for the other's precision without training. The tokenizer and the window the model
should be read in (`train.WINDOW_FILE`) come from the second folder.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from training.train import WINDOW_FILE


def average(first: Path, second: Path, weight: float, out: Path) -> None:
    from transformers import AutoModelForTokenClassification

    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"--weight must be within 0 and 1, not {weight}")
    a = AutoModelForTokenClassification.from_pretrained(first)
    b = AutoModelForTokenClassification.from_pretrained(second)
    state_a, state_b = a.state_dict(), b.state_dict()
    if state_a.keys() != state_b.keys() or any(state_a[k].shape != state_b[k].shape for k in state_a):
        raise ValueError(f"{first} and {second} do not have the same parameters: no average")
    b.load_state_dict({k: (1 - weight) * state_a[k] + weight * state_b[k] if state_a[k].is_floating_point()
                       else state_b[k] for k in state_b})
    out.mkdir(parents=True, exist_ok=True)
    b.save_pretrained(out)
    for name in ("tokenizer.json", WINDOW_FILE):
        if (second / name).exists():
            shutil.copyfile(second / name, out / name)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="the weighted average of two fine-tuned models of the same shape")
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--weight", type=float, default=0.5, help="share of the second model (0-1)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    average(args.first, args.second, args.weight, args.out)


if __name__ == "__main__":
    main()
