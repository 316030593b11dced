"""A before/after Markdown table from two `alias-engine eval --json` files of the same data.

    python benchmarks/compare_evals.py build/before/hw.json build/after/hw.json

Per label (LABELS.md order), the micro average and each language: gold count, strict P/R/F1 and the full
leak rate, before and after. When a file holds several data files and their combination ("all"), the
combination is used.
"""

from __future__ import annotations

import argparse
import json
import sys

from alias_engine.labels import LABELS

COUNTS = ("tp", "fp", "gold", "leak_full")


def figures(path: str) -> dict[str, dict]:
    """{label | "micro" | "lang=xx": {tp, fp, gold, leak_full, P, R, F1, leak}} of one eval JSON."""
    evaluations = json.load(open(path, encoding="utf-8"))["evaluations"]
    evaluations = [e for e in evaluations if e["name"] == "all"] or evaluations
    out: dict[str, dict] = {}
    for e in evaluations:
        rows = [*e["per_label"].items(), ("micro", e["micro"]),
                *((f"lang={lang}", m) for lang, m in e.get("per_lang", {}).items())]
        for key, m in rows:
            row = out.setdefault(key, dict.fromkeys(COUNTS, 0))
            for k in COUNTS:
                row[k] += m.get(k, 0)
    for row in out.values():
        predicted = row["tp"] + row["fp"]
        p = row["tp"] / predicted if predicted else None
        r = row["tp"] / row["gold"] if row["gold"] else None
        row["P"], row["R"] = p, r
        row["F1"] = 2 * p * r / (p + r) if p and r else (0.0 if predicted and row["gold"] else None)
        row["leak"] = row["leak_full"] / row["gold"] if row["gold"] else None
    return out


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def table(before: dict[str, dict], after: dict[str, dict]) -> str:
    lines = ["| label | gold | P before | after | R before | after | F1 before | after | leak before | after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    keys = [*LABELS, "micro", *sorted(k for k in after if k.startswith("lang="))]
    for key in keys:
        a, b = before.get(key, {}), after.get(key)
        if b is None or not (b["gold"] or b["tp"] + b["fp"] or a.get("fp")):
            continue
        name = "**micro**" if key == "micro" else key
        cells = [f"{_pct(a.get(k))} | {_pct(b[k])}" for k in ("P", "R", "F1", "leak")]
        lines.append(f"| {name} | {b['gold']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", help="eval JSON before the change")
    parser.add_argument("after", help="eval JSON after the change")
    args = parser.parse_args(argv)
    try:
        print(table(figures(args.before), figures(args.after)))
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
