"""Mask a corpus: many records, many processes or machines, one mapping per shard, resumable.

The data flow: inputs (shards.py: files and folders → shards of records) →
a runner (local_runner.py: a process pool; ray_runner.py: Ray Data actors),
each worker masking whole shards with one Engine (masking.py, the same code as
`mask --jsonl`) → the driver writing each shard and its mapping atomically and
keeping the manifest (output.py), all driven by run.py. `--consistent`:
consistent.py. See docs/batch.md.
"""
