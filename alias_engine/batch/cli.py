"""`alias-engine batch`: its options. Nothing heavy is imported until the command runs."""

from __future__ import annotations

import argparse


def add_batch_command(commands) -> None:
    from ..engine_options import add_engine_options
    from ..options import positive_int
    from ..records import field_set

    help = "mask a corpus (JSONL or Parquet files or folders) into shards, each with its mapping; resumable"
    p = commands.add_parser("batch", help=help, description=help + " (see docs/batch.md)")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="JSONL or Parquet files, or folders of them")
    # dest out_dir: a folder, not the single output file that main() checks as "out"
    p.add_argument("--out", dest="out_dir", required=True, metavar="DIR",
                   help="output folder: part-NNNNN.{jsonl,parquet}, part-NNNNN.mapping.jsonl, _manifest.json, "
                        "_errors.jsonl")
    p.add_argument("--runner", choices=("local", "ray"), default="local",
                   help="local: worker processes on this machine (default); ray: Ray Data (extra [ray])")
    p.add_argument("--workers", type=positive_int,
                   help="worker processes or Ray actors (default: one a core, or a CPU of the Ray cluster)")
    p.add_argument("--ray-address", metavar="ADDR", help="Ray cluster to join (default: start a local Ray)")
    p.add_argument("--cpus-per-worker", type=positive_int, default=1,
                   help="--runner ray: CPUs of each actor, and its model threads (default 1)")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl", help="format of the shards")
    p.add_argument("--text-field", default="text", help="the field that holds the text (default: text)")
    p.add_argument("--keep-fields", type=field_set, default=frozenset({"id", "lang"}),
                   help="comma-separated fields copied as they are, unmasked (default: id,lang; other fields "
                        "are left out since they were not analysed)")
    p.add_argument("--key-file", metavar="FILE", help="encrypt every mapping with the key in this file (first line)")
    p.add_argument("--consistent", action="store_true",
                   help="with --key-file: one value, one placeholder across the whole corpus (long placeholders)")
    p.add_argument("--resume", action="store_true", help="finish the run that --out holds: skip finished shards")
    p.add_argument("--shard-size", type=positive_int, default=1024, help="records per shard (default 1024)")
    p.add_argument("--batch-size", type=positive_int, default=32, help="records per model batch (default 32)")
    p.add_argument("--max-chars", type=positive_int,
                   help="longest text of a record, in characters; longer ones go to _errors.jsonl "
                        "(default: the engine's, 20,000,000)")
    add_engine_options(p)
    p.set_defaults(handler=cmd_batch)


def cmd_batch(args: argparse.Namespace) -> int:
    from .run import run_batch

    return run_batch(args)
