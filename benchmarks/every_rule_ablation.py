"""Switch off every keyword rule, label pattern and suppress pattern of rules/ in turn, the model's spans
computed once (`rule_ablation.py`'s cache): one line per rule with what it moves, summed over the development
sets (the shared hand-written set and every probe) and over the held-out sets (heldout_*: summed, never shown
set by set), and the development sets it moves.

    python benchmarks/every_rule_ablation.py [--backend onnxruntime|openvino] [--sets a,b] [--only PREFIX] \
        > build/every_rule.log

Each line: the rule, `dev (dTP, dFP, dReadable)`, `heldout (…)`, the number of sets moved, the development
sets moved. A rule's differences are the base's minus the rule's: negative dTP means the rule finds values.
Takes about 30 s a rule on 2 cores (169 rules: 1 h 30 min).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rule_ablation  # noqa: E402


def _dropping(file: str, section: str, i: int):
    """A variant that deletes item `i` of `section` from `file` of the copy of rules/."""
    def drop(rules_dir):
        path = Path(rules_dir) / file
        data = json.loads(path.read_text())
        del data[section][i]
        path.write_text(json.dumps(data))
    return drop


def switches() -> list[tuple[str, object]]:
    """(description, variant) for each rule: the variant deletes that one rule from the copy of rules/."""
    out: list[tuple[str, object]] = []
    rules = {}
    for file, tag in (("common.json", "common"), ("en/keywords.json", "en"), ("fr/keywords.json", "fr")):
        rules[file] = json.loads((Path("rules") / file).read_text())
        for i, rule in enumerate(rules[file]["keyword_rules"]):
            what = rule.get("label") or "suppress " + ",".join(rule.get("suppress", []))
            out.append((f"keyword_rules {tag} #{i} {what} {rule.get('keywords', [])[:3]}",
                        _dropping(file, "keyword_rules", i)))
    for section in ("label_patterns", "suppress_patterns"):
        for i, pattern in enumerate(rules["common.json"][section]):
            out.append((f"{section} {pattern.get('name')} {pattern.get('label', '')}",
                        _dropping("common.json", section, i)))
    return out


def _total(moved: dict[str, tuple[int, ...]], held_out: bool) -> tuple[int, ...]:
    return tuple(sum(d[k] for name, d in moved.items() if name.startswith("heldout") == held_out) for k in range(3))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="onnxruntime", choices=["onnxruntime", "openvino"])
    parser.add_argument("--dev", default=os.environ.get("DEV", "../shared/data/dev"))
    parser.add_argument("--sets", help="comma-separated set names (default: all found)")
    parser.add_argument("--only", default="", help="only the rules whose description starts with this")
    args = parser.parse_args()
    data, cache_file, cache, model_engine = rule_ablation.setup(args.dev, args.sets, args.backend)
    base = rule_ablation.run(None, data, args.backend, cache, model_engine)
    rule_ablation.save_cache(cache_file, cache)
    for description, variant in switches():
        if not description.startswith(args.only):
            continue
        result = rule_ablation.run(variant, data, args.backend, cache, model_engine)
        moved = {name: tuple(a - b for a, b in zip(result[name], base[name])) for name in data
                 if result[name] != base[name]}
        shown = {name: d for name, d in moved.items() if not name.startswith("heldout")}
        print(f"{description}\tdev {_total(moved, False)}\theldout {_total(moved, True)}\tsets {len(moved)}\t{shown}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
