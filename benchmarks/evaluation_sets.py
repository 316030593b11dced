"""The evaluation sets of docs/benchmarks.md by name, and the files of each: one listing for
benchmarks/eval_every_set.sh and benchmarks/rule_ablation.py. Paths are relative to the repository's
root (the shared sets under `dev`, ../shared/data/dev by default).

    python benchmarks/evaluation_sets.py [--dev DIR] [NAME...]

prints one line a set, its name then its files; without NAMEs every set but those held back in
benchmarks/data/UNSCORED (held-out sets written for a decision still to come), with NAMEs those sets,
held back or not (an unknown name is an error). A set's files may be missing (the shared sets without
../shared, the generated ones before their commands of "Data files" ran): the caller skips them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DATA = Path("benchmarks/data")
GENERATED = Path("build/data")


def every_set(dev: Path) -> dict[str, list[Path]]:
    """Every set in the order of docs/benchmarks.md's tables: the shared hand-written sets, every held-out
    then probe set of benchmarks/data by version, the shared public sets, the generated ones."""
    found = {"hw_en": [dev / "handwritten.en.jsonl"], "hw_fr": [dev / "handwritten.fr.jsonl"]}
    for kind in ("heldout", "probe"):
        names = [f.name.removesuffix(".en.jsonl") for f in DATA.glob(f"{kind}_v*.en.jsonl")]
        for name in sorted(names, key=lambda n: int(n.rsplit("_v", 1)[1])):
            found[name] = [DATA / f"{name}.en.jsonl", DATA / f"{name}.fr.jsonl"]
    found |= {"presidio": [dev / "presidio_synth_v2.en.jsonl"], "stdnum": [dev / "stdnum_vectors.jsonl"],
              "ho2": [GENERATED / "heldout_v2.jsonl"], "reserve": [GENERATED / "real_reserve.jsonl"]}
    found |= {f"v{n}k": [GENERATED / f"v{n}_kinds.jsonl"] for n in (3, 4, 5, 6)}
    return found


def unscored() -> set[str]:
    """The held-out sets kept for a decision still to come (benchmarks/data/UNSCORED)."""
    path = DATA / "UNSCORED"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def selected(dev: Path, names: list[str]) -> dict[str, list[Path]]:
    """The sets `names` (any of `every_set`), or every set but the unscored ones; ValueError for a name
    that is no set."""
    found = every_set(dev)
    if not names:
        held_back = unscored()
        strays = sorted(held_back - found.keys())
        if strays:
            raise ValueError(f"benchmarks/data/UNSCORED names no set: {', '.join(strays)} (a set's name, such as "
                             f"heldout_v15, not a file)")
        return {name: files for name, files in found.items() if name not in held_back}
    unknown = [name for name in names if name not in found]
    if unknown:
        raise ValueError(f"unknown sets: {', '.join(unknown)} (known: {', '.join(found)})")
    return {name: found[name] for name in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--dev", type=Path, default=Path("../shared/data/dev"))
    args = parser.parse_args(argv)
    try:
        sets = selected(args.dev, args.names)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    for name, files in sets.items():
        print(name, *files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
