"""The Spark adapter beside `alias-engine batch` on the same JSONL records (docs/spark.md).

    python benchmarks/spark_vs_batch.py ../shared/data/dev/presidio_synth_v2.en.jsonl --cores 2 [--rules-only]

Both mask the `text` field of every record with `cores` processes (batch: --workers;
Spark: local[cores], one task per core, one model thread per task) and write Parquet to a
temporary folder; the time is wall time from start to files written, engine loading
included. Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="a JSONL file with a text field")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--rules-only", action="store_true")
    parser.add_argument("--backend", default="auto")
    args = parser.parse_args()

    records = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8").splitlines() if line.strip()]
    chars = sum(len(r["text"]) for r in records)
    out = Path(tempfile.mkdtemp(prefix="spark-vs-batch-"))
    corpus = out / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": i, "text": r["text"]}, ensure_ascii=False) + "\n"
                              for i, r in enumerate(records)), encoding="utf-8")

    cmd = [str(Path(sys.executable).with_name("alias-engine")), "batch", str(corpus), "--out", str(out / "batch"),
           "--workers", str(args.cores), "--format", "parquet", "--backend", args.backend, "--threads", "1"]
    if args.rules_only:
        cmd.append("--rules-only")
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
    batch_s = time.perf_counter() - t0

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from alias_engine.adapters.spark import masked_and_mappings

    spark = (SparkSession.builder.master(f"local[{args.cores}]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", str(args.cores)).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.json(str(corpus)).repartition(args.cores * 4)
    df.count()  # read before the clock starts, as batch's planning reads its input
    t0 = time.perf_counter()
    options = {"use_model": False} if args.rules_only else {"backend": args.backend}
    masked_and_mappings(df, ["text"], id_column="id", engine=options).write.parquet(str(out / "spark"))
    spark_s = time.perf_counter() - t0
    spark.stop()

    for name, seconds in (("alias-engine batch", batch_s), ("Spark local", spark_s)):
        print(f"{name:<20} {len(records):>7,} records {chars:>10,} chars {seconds:7.1f} s "
              f"{len(records) / seconds:8,.0f} records/s {chars / seconds:10,.0f} chars/s")
    print(f"cores {args.cores}, {'rules only' if args.rules_only else 'model, backend ' + args.backend}; output in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
