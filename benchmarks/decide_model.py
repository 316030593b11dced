"""Apply a model decision rule written before training (models/MODEL_CARD.md, "Model v16 candidates",
"Model v19 candidates" and, with two guards, "Model v24 candidates") to the files
`benchmarks/eval_every_set.sh TAG BACKEND` writes.

    python benchmarks/decide_model.py v17 v19 v20 v21 \\
        --sets "heldout_v3 heldout_v4 heldout_v5 heldout_v6 heldout_v7 heldout_v8 heldout_v9 heldout_v10 heldout_v11" \\
        --tags "{m}_ho {m}_ho_ov" --tie 20 --price 0.006 \\
        --guard-sets "hw_en hw_fr probe_v5 probe_v6 probe_v8 probe_v9" --guard-tags "{m}_ship {m}_ship_ov"

The first model is the one shipped; each other is a candidate. `--tags` names one tag a backend,
`{m}` standing for the model. Counts are pooled over `--sets` (benchmarks/pooled_evals.py). A
candidate passes when
1. the values readable, summed over the backends, are at least `--tie` fewer than the shipped
   model's, and under no backend more;
2. under each backend strict F1 is at most `--price` x (values fewer) below the shipped model's,
   and never more than `--max-cost`;
3. with `--guard-sets`: there, the summed readable values are at most `--guard-tie` more and F1
   under each backend at most `--guard-max-cost` below (a candidate not scored there cannot ship).
   Repeat `--guard-sets`, `--guard-tags` and `--guard-tie` together for more guards, each on its own
   sets (`--guard-max-cost` holds for all).
Among those that pass, the fewest readable values summed ships, then the higher summed F1; if none
passes, the shipped model stays.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pooled_evals import f1, pooled  # noqa: E402


@dataclass(frozen=True)
class Scores:
    """Pooled strict F1 (%) and values readable, one entry a backend."""

    f1: tuple[float, ...]
    readable: tuple[int, ...]

    @property
    def summed(self) -> int:
        return sum(self.readable)


def scores(root: Path, model: str, tags: list[str], names: list[str]) -> Scores:
    micros = [pooled(root, tag.format(m=model), names)[0] for tag in tags]
    return Scores(tuple(f1(micro) for micro in micros), tuple(micro["leak_full"] for micro in micros))


def passes_pool(shipped: Scores, candidate: Scores, tie: int, price: float, max_cost: float) -> tuple[bool, str]:
    """Conditions 1 and 2.

    >>> passes_pool(Scores((90.0, 90.0), (100, 100)), Scores((89.9, 90.1), (90, 90)), 20, 0.006, 0.25)
    (True, '20 fewer readable; F1 -0.10, +0.10 (allowed -0.12)')
    >>> passes_pool(Scores((90.0, 90.0), (100, 100)), Scores((90.5, 90.5), (90, 91)), 20, 0.006, 0.25)[0]
    False
    """
    fewer = shipped.summed - candidate.summed
    allowed = min(price * max(fewer, 0), max_cost)
    beyond_tie = fewer >= tie and all(c <= s for c, s in zip(candidate.readable, shipped.readable))
    within = all(c >= s - allowed for c, s in zip(candidate.f1, shipped.f1))
    return beyond_tie and within, f"{fewer} fewer readable; F1 {_f1_deltas(shipped, candidate)} (allowed -{allowed:.2f})"


def passes_guard(shipped: Scores, candidate: Scores, tie: int, max_cost: float) -> tuple[bool, str]:
    """Condition 3.

    >>> passes_guard(Scores((94.0, 94.0), (120, 120)), Scores((93.8, 94.1), (125, 128)), 13, 0.25)
    (True, '13 more readable; F1 -0.20, +0.10')
    """
    more = candidate.summed - shipped.summed
    ok = more <= tie and all(c >= s - max_cost for c, s in zip(candidate.f1, shipped.f1))
    return ok, f"{more} more readable; F1 {_f1_deltas(shipped, candidate)}"


def _f1_deltas(shipped: Scores, candidate: Scores) -> str:
    """The candidate's F1 minus the shipped model's, a backend each: "-0.10, +0.10"."""
    return ", ".join(f"{c - s:+.2f}" for c, s in zip(candidate.f1, shipped.f1))


def _line(model: str, s: Scores) -> str:
    return f"{model}: " + ", ".join(f"{f:.2f} / {r}" for f, r in zip(s.f1, s.readable)) + f" (readable summed {s.summed})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", help="the shipped model, then the candidates")
    parser.add_argument("--sets", required=True, help="space-separated set names the rule decides on")
    parser.add_argument("--tags", required=True, help='one tag a backend, {m} for the model: "{m}_ho {m}_ho_ov"')
    parser.add_argument("--tie", type=int, required=True, help="values readable summed a candidate must save")
    parser.add_argument("--price", type=float, required=True, help="F1 points a value fewer readable may cost")
    parser.add_argument("--max-cost", type=float, default=0.25)
    parser.add_argument("--guard-sets", action="append", default=[], help="one guard's sets; repeat for more guards")
    parser.add_argument("--guard-tags", action="append", default=[], help="one guard's tags, as --tags")
    parser.add_argument("--guard-tie", type=int, action="append", default=[],
                        help="one guard's readable values allowed more (13 when not given)")
    parser.add_argument("--guard-max-cost", type=float, default=0.25)
    parser.add_argument("--root", default="build/evals")
    args = parser.parse_args(argv)
    if len(args.models) < 2:
        parser.error("name the shipped model and at least one candidate")
    root, names, tags = Path(args.root), args.sets.split(), args.tags.split()
    if len(args.guard_sets) != len(args.guard_tags):
        parser.error("--guard-sets and --guard-tags go together, once a guard")
    if args.guard_tie and len(args.guard_tie) != len(args.guard_sets):
        parser.error("give --guard-tie once a guard, or not at all")
    guard_ties = args.guard_tie or [13] * len(args.guard_sets)
    guards = [(guard_sets.split(), guard_tags.split(), tie)
              for guard_sets, guard_tags, tie in zip(args.guard_sets, args.guard_tags, guard_ties)]
    shipped_model, candidates = args.models[0], args.models[1:]
    try:
        shipped = scores(root, shipped_model, tags, names)
        shipped_guards = [scores(root, shipped_model, guard_tags, guard_names) for guard_names, guard_tags, _ in guards]
        print(_line(shipped_model, shipped))
        passing: list[tuple[int, float, str]] = []
        for model in candidates:
            candidate = scores(root, model, tags, names)
            ok, why = passes_pool(shipped, candidate, args.tie, args.price, args.max_cost)
            verdict = "passes 1-2" if ok else "fails 1-2"
            for number, ((guard_names, guard_tags, tie), shipped_guard) in enumerate(zip(guards, shipped_guards), 1):
                if not ok:
                    break
                try:
                    ok, guard_why = passes_guard(
                        shipped_guard, scores(root, model, guard_tags, guard_names), tie, args.guard_max_cost)
                except FileNotFoundError:
                    ok, guard_why = False, "not scored on the guard sets"
                verdict += f", {'passes' if ok else 'fails'} guard {number} ({guard_why})"
            print(f"{_line(model, candidate)}: {why} -> {verdict}")
            if ok:
                passing.append((candidate.summed, -sum(candidate.f1), model))
    except (FileNotFoundError, KeyError, ValueError) as error:
        sys.exit(f"decide_model: {error}")
    print(f"ships: {min(passing)[2]}" if passing else f"ships: {shipped_model} (no candidate passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
