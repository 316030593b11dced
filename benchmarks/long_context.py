"""Does the engine lose values in long texts? The same records detected one by one and joined.

    python benchmarks/long_context.py --model models \
        --records ../shared/data/dev/presidio_synth_v2.en.jsonl --limit 400 \
        --synthetic build/v2/data/heldout.jsonl --json build/long_context.json

1. `--records`: the first `--limit` records that hold a PERSON, joined with "\\n" into one
   document (how many names a long text loses), against the same records detected one by one.
2. `--synthetic`: documents of a generated split joined into long texts of 5k to 50k
   characters, one language a text (documents are taken in order until the length drawn for
   the text is reached),
   against the same documents one by one.

Scores are overlap recall (a gold span counts as found when a predicted span of its label
overlaps it), PERSON and all labels, with the engine's default settings on the model folder
given (its labels.json sets the window; `--window N` reads the same model in N-token windows).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from alias_engine import Engine
from alias_engine.evaluation.datasets import read_records


def joined(records, sep: str = "\n") -> tuple[str, list[tuple[int, int, str]]]:
    text, spans = "", []
    for r in records:
        if text:
            text += sep
        spans += [(a.start + len(text), a.end + len(text), a.label) for a in r.spans]
        text += r.text
    return text, spans


def overlap_found(gold: list[tuple[int, int, str]], pred: list[tuple[int, int, str]], label: str | None) -> tuple[int, int]:
    by_label: dict[str, list[tuple[int, int]]] = {}
    for s, e, lab in pred:
        by_label.setdefault(lab, []).append((s, e))
    found = total = 0
    for s, e, lab in gold:
        if label and lab != label:
            continue
        total += 1
        found += any(ps < e and s < pe for ps, pe in by_label.get(lab, ()))
    return found, total


def spans_of(engine: Engine, text: str) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label) for s in engine.detect(text)]


def compare(engine: Engine, groups: list[list]) -> dict:
    """Each group is detected joined and its records one by one."""
    sums = {k: [0, 0] for k in ("alone_person", "joined_person", "alone_all", "joined_all")}
    chars = 0
    t_alone = t_joined = 0.0
    for records in groups:
        text, gold = joined(records)
        chars += len(text)
        t = time.perf_counter()
        pred = spans_of(engine, text)
        t_joined += time.perf_counter() - t
        for label, key in ((None, "joined_all"), ("PERSON", "joined_person")):
            f, n = overlap_found(gold, pred, label)
            sums[key][0] += f
            sums[key][1] += n
        t = time.perf_counter()
        for r in records:
            g = [(a.start, a.end, a.label) for a in r.spans]
            p = spans_of(engine, r.text)
            for label, key in ((None, "alone_all"), ("PERSON", "alone_person")):
                f, n = overlap_found(g, p, label)
                sums[key][0] += f
                sums[key][1] += n
        t_alone += time.perf_counter() - t
    out = {k: round(100 * f / n, 1) if n else None for k, (f, n) in sums.items()}
    out.update(gold_person=sums["alone_person"][1], gold_all=sums["alone_all"][1], documents=len(groups),
               chars=chars, seconds_joined=round(t_joined, 1), seconds_alone=round(t_alone, 1))
    return out


def synthetic_groups(records, seed: int = 0, low: int = 5_000, high: int = 50_000) -> list[list]:
    """Records of one language at a time, in order, cut into texts of a length drawn in [low, high]."""
    rng = random.Random(seed)
    groups = []
    for lang in sorted({r.lang for r in records}):
        current, size, target = [], 0, rng.randint(low, high)
        for r in records:
            if r.lang != lang:
                continue
            current.append(r)
            size += len(r.text) + 1
            if size >= target:
                groups.append(current)
                current, size, target = [], 0, rng.randint(low, high)
    return groups


def write_long(path: Path, groups: list[list]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for k, records in enumerate(groups):
            text, spans = joined(records)
            f.write(json.dumps({"id": f"long-{k}", "lang": records[0].lang, "text": text,
                                "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans]},
                               ensure_ascii=False) + "\n")


def model_in_window(model: Path, window: int | None, tmp: Path) -> Path:
    if window is None:
        return model
    dest = tmp / "model"
    dest.mkdir()
    for name in ("model.onnx", "tokenizer.json"):
        (dest / name).symlink_to((model / name).resolve())
    labels = json.loads((model / "labels.json").read_text(encoding="utf-8"))
    labels["window_length"] = window
    (dest / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", type=Path, default=None, help="model folder (default: the shipped one)")
    ap.add_argument("--window", type=int, default=None, help="read the model in windows of this many tokens")
    ap.add_argument("--records", type=Path, help="JSONL records; the first --limit holding a PERSON are joined")
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--synthetic", type=Path, help="JSONL documents joined into 5k-50k-character texts")
    ap.add_argument("--synthetic-docs", type=int, default=1000)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--write-long", type=Path, metavar="FILE",
                    help="also write the long synthetic texts as JSONL records (a long-document set for other tools)")
    args = ap.parse_args(argv)
    report: dict = {"model": str(args.model or "shipped"), "window": args.window}
    with tempfile.TemporaryDirectory() as tmp:
        model = model_in_window(args.model, args.window, Path(tmp)) if args.model else None
        engine = Engine(model_dir=model) if model else Engine()
        engine.detect("warm up")
        report["window_length"] = engine.model.window_size + 2
        if args.records:
            recs = [r for r in read_records(args.records) if any(a.label == "PERSON" for a in r.spans)][: args.limit]
            report["records_joined"] = compare(engine, [recs])
            print("records:", report["records_joined"], flush=True)
        if args.synthetic:
            docs = read_records(args.synthetic)[: args.synthetic_docs]
            if args.write_long:
                write_long(args.write_long, synthetic_groups(docs))
            report["synthetic_long"] = compare(engine, synthetic_groups(docs))
            print("synthetic:", report["synthetic_long"], flush=True)
        shutil.rmtree(Path(tmp) / "model", ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
