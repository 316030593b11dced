"""Throughput of masking a corpus: one `mask --jsonl` process, `batch --runner local` and
`batch --runner ray`, on the same data in the same run (docs/benchmarks.md, "Batch").

    python benchmarks/batch_bench.py ../shared/data/dev/handwritten.fr.jsonl \
        ../shared/data/dev/handwritten.en.jsonl --workers 2 --json build/batch_bench.json

Each command runs as a user runs it (a subprocess of the installed `alias-engine`),
so the wall time includes start-up: interpreters, model loading, and for Ray the
local cluster. Start-up is measured apart on a one-record corpus, and chars/s is
given both end to end and without it. The outputs of the two batch runners are
checked byte for byte against `mask --jsonl`'s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def read_corpus(paths: list[str]) -> list[dict]:
    records = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                records.append({"id": record.get("id", len(records)), "lang": record.get("lang"),
                                "text": record["text"]})
    return records


def write_corpus(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def commands(corpus: Path, work: Path, workers: int, shard_size: int, extra: list[str]) -> dict[str, list[str]]:
    shards = ["--shard-size", str(shard_size)]
    return {
        "mask --jsonl (1 process)": ["mask", "--jsonl", str(corpus), "-o", str(work / "mask.jsonl"),
                                     "--mapping-out", str(work / "mask.map.jsonl"), *extra],
        f"batch --runner local ({workers} processes)": [
            "batch", str(corpus), "--out", str(work / "local"), "--workers", str(workers), *shards, *extra],
        f"batch --runner ray ({workers} actors)": [
            "batch", str(corpus), "--out", str(work / "ray"), "--runner", "ray", "--workers", str(workers), *shards, *extra],
    }


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "alias_engine.cli", *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"alias-engine {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return elapsed


def shards_of(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.glob("part-?????.jsonl")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="+", help="JSONL files with a \"text\" field")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shard-size", type=int, default=32,
                        help="records per shard (default 32: a small corpus still gives every worker shards)")
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--reverse", action="store_true",
                        help="run Ray first and mask --jsonl last (to see what the order does on a busy machine)")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    extra = ["--rules-only"] if args.rules_only else []
    records = read_corpus(args.data)
    chars = sum(len(r["text"]) for r in records)
    work = Path(tempfile.mkdtemp(prefix="batch-bench-"))
    try:
        corpus = write_corpus(work / "corpus.jsonl", records)
        tiny_dir = work / "tiny"
        tiny_dir.mkdir()
        tiny = write_corpus(tiny_dir / "corpus.jsonl", records[:1])
        rows = []
        runs = list(commands(corpus, work, args.workers, args.shard_size, extra).items())
        for name, argv in reversed(runs) if args.reverse else runs:
            startup = timed(commands(tiny, tiny_dir, args.workers, args.shard_size, extra)[name])
            wall = timed(argv)
            rows.append({"runner": name, "wall_s": round(wall, 1), "startup_s": round(startup, 1),
                         "chars_per_s": round(chars / wall),
                         "chars_per_s_after_startup": round(chars / max(wall - startup, 1e-9))})
            print(f"{name}: {wall:.1f} s", file=sys.stderr)
        reference = (work / "mask.jsonl").read_bytes()
        same = {"local": shards_of(work / "local") == reference, "ray": shards_of(work / "ray") == reference}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows.sort(key=lambda row: [name for name, _ in runs].index(row["runner"]))
    base = rows[0]["chars_per_s"]  # mask --jsonl
    print(f"{len(records)} records, {chars:,} characters{' (rules only)' if extra else ''}\n")
    print("| runner | wall s | chars/s | × mask --jsonl | start-up s | chars/s after start-up |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['runner']} | {row['wall_s']} | {row['chars_per_s']:,} | {row['chars_per_s'] / base:.2f}× | "
              f"{row['startup_s']} | {row['chars_per_s_after_startup']:,} |")
    print(f"\nshards byte-identical to mask --jsonl: local {'yes' if same['local'] else 'NO'}, "
          f"ray {'yes' if same['ray'] else 'NO'}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"records": len(records), "chars": chars, "rules_only": bool(extra),
                                               "runs": rows, "same_output": same}, indent=1) + "\n")
    return 0 if all(same.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
