"""How far strict scoring can go on a set whose ADDRESS gold is cut into pieces.

    python benchmarks/address_fragments.py ../shared/data/dev/presidio_synth_v2.en.jsonl

LABELS.md makes an address one span, from its first to its last element. Some
sets annotate an address as several spans (`28245` / `Puruntie 82` /
`Apt. 595` / `53650`) with the city and country between them left out. This
script groups gold ADDRESS spans that are separated only by spaces,
punctuation, ignored spans or a literal "nan", and prints the strict
micro-P/R/F1 of an oracle that follows LABELS.md: it predicts every other gold
span exactly and each group of fragments as the one span the contract asks
for. No detector that follows the contract can score above that.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from alias_engine.labels import LABELS

_GAP = re.compile(r"[\s,.;:\-]*(?:nan)?[\s,.;:\-]*")


def fragment_groups(record: dict) -> list[list[tuple[int, int]]]:
    """Gold ADDRESS spans of one record, grouped into the addresses they are part of."""
    text = record["text"]
    spans = sorted((s["start"], s["end"]) for s in record["spans"] if s["label"] == "ADDRESS")
    ignored = [(s["start"], s["end"]) for s in record.get("ignored_spans", [])]
    groups: list[list[tuple[int, int]]] = []
    for start, end in spans:
        if groups:
            gap_start = groups[-1][-1][1]
            gap = list(text[gap_start:start])
            for a, b in ignored:
                for k in range(max(a, gap_start), min(b, start)):
                    gap[k - gap_start] = " "
            if _GAP.fullmatch("".join(gap)):
                groups[-1].append((start, end))
                continue
        groups.append([(start, end)])
    return groups


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path)
    args = ap.parse_args(argv)
    gold = fragments = addresses = 0
    with args.data.open(encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            gold += sum(1 for s in record["spans"] if s["label"] in LABELS)  # others are ignored
            for group in fragment_groups(record):
                if len(group) > 1:
                    fragments += len(group)
                    addresses += 1
    exact = gold - fragments
    predicted = exact + addresses
    p, r = exact / predicted, exact / gold
    print(f"{gold} gold spans; {fragments} ADDRESS spans are fragments of {addresses} addresses")
    print(f"best strict micro P/R/F1 for a detector that follows LABELS.md: "
          f"{p * 100:.1f} / {r * 100:.1f} / {200 * exact / (gold + predicted):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
