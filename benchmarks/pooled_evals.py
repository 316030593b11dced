"""Strict F1 and values readable pooled over several sets, one column per model, from the files
`benchmarks/eval_every_set.sh TAG BACKEND` writes (build/evals/TAG/SET.json).

    python benchmarks/pooled_evals.py "hw_en hw_fr probe_v5 probe_v6 probe_v8 probe_v9" v15_ship v17_ship
    python benchmarks/pooled_evals.py "heldout_v10 heldout_v11" v15_h10+v15_h11 v17_ho --per-label
    python benchmarks/pooled_evals.py "hw_en hw_fr" v25z_ship c26_ship --per-set

A column named `A+B` reads each set from the first of A, B that has it (a model scored under several
tags). Prints, per column, micro strict F1 / values readable in full (true positives, false positives,
values readable); with --per-label a Markdown table of the labels too, with --per-set one of the sets
(F1 / % readable (true positives, false positives, values readable), the table of docs/benchmarks.md). Counts are summed before F1 is
taken, so a large set weighs more than a small one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_evals import COUNTS, figures  # noqa: E402


def _path(root: Path, column: str, name: str) -> Path:
    for tag in column.split("+"):
        if (root / tag / f"{name}.json").exists():
            return root / tag / f"{name}.json"
    raise FileNotFoundError(f"no {name}.json under {', '.join(str(root / t) for t in column.split('+'))}")


def pooled(root: Path, column: str, names: list[str]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Summed counts over the sets `names` of one column: (micro, {label: counts})."""
    summed: dict[str, dict[str, int]] = {}
    for name in names:
        for key, counts in figures(str(_path(root, column, name))).items():
            row = summed.setdefault(key, dict.fromkeys(COUNTS, 0))
            for count in COUNTS:
                row[count] += counts[count]
    micro = summed.pop("micro", dict.fromkeys(COUNTS, 0))
    return micro, {key: row for key, row in summed.items() if not key.startswith("lang=")}


def f1(counts: dict[str, int]) -> float:
    """Strict F1 in % from summed counts (0 where there is nothing to score).

    >>> round(f1({"gold": 10, "tp": 8, "fp": 2, "leak_full": 1}), 2)
    80.0
    """
    denominator = counts["tp"] + counts["fp"] + counts["gold"]
    return 200 * counts["tp"] / denominator if denominator else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", help="space-separated set names, e.g. \"hw_en hw_fr\"")
    parser.add_argument("columns", nargs="+", help="tags under --root (A+B: the first that has the set)")
    parser.add_argument("--root", default="build/evals")
    parser.add_argument("--per-label", action="store_true")
    parser.add_argument("--per-set", action="store_true")
    args = parser.parse_args(argv)
    names = args.sets.split()
    try:
        results = {column: pooled(Path(args.root), column, names) for column in args.columns}
    except (FileNotFoundError, KeyError, ValueError) as error:
        sys.exit(f"pooled_evals: {error}")
    for column, (micro, _) in results.items():
        print(f"{column}: {f1(micro):.2f} / {micro['leak_full']} readable of {micro['gold']} "
              f"(tp {micro['tp']}, fp {micro['fp']})")
    if args.per_label:
        gold = {label: counts["gold"] for label, counts in results[args.columns[0]][1].items()}
        print("\n| label | gold | " + " | ".join(args.columns) + " |")
        print("|---|---:|" + "---|" * len(args.columns))
        for label in sorted(gold, key=lambda name: -gold[name]):
            cells = []
            for column in args.columns:
                counts = results[column][1].get(label, dict.fromkeys(COUNTS, 0))
                cells.append(f"{f1(counts):.1f} / {counts['leak_full']} ({counts['fp']})")
            print(f"| {label} | {gold[label]} | " + " | ".join(cells) + " |")
    if args.per_set:
        print("\n| set | " + " | ".join(args.columns) + " |")
        print("|---|" + "---|" * len(args.columns))
        for name in names:
            cells = []
            for column in args.columns:
                micro, _ = pooled(Path(args.root), column, [name])
                share = 100 * micro["leak_full"] / micro["gold"] if micro["gold"] else 0.0
                cells.append(f"{f1(micro):.1f} / {share:.2f} ({micro['tp']}, {micro['fp']}, {micro['leak_full']})")
            print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
