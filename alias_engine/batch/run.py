"""A batch run from start to end: find the inputs, cut shards, skip the finished ones, have a
runner mask the rest, write each shard as it comes back, report progress on stderr."""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from .. import __version__
from ..errors import InputError
from .local_runner import cores
from .output import ERRORS, MANIFEST, Manifest, write_shard
from .shards import find_inputs, plan_shards

EXIT_WITH_ERRORS = 4  # finished, but some records are in _errors.jsonl instead of the output
ENGINE_OPTIONS = ("labels", "threshold", "lang", "rules_only", "model", "rules", "recall_bias", "placeholder",
                  "max_chars", "backend")


def run_batch(args: argparse.Namespace) -> int:
    from ..engine_options import engine_from_args
    from ..records import _report_dropped

    out_dir = Path(args.out_dir)
    if args.shard_size % args.batch_size:
        # The model's output depends a little on the other texts of its batch (its int8 scales are
        # computed per batch), so a record must share its batch with the same records as in `mask --jsonl`.
        raise InputError(f"--shard-size ({args.shard_size}) must be a multiple of --batch-size ({args.batch_size}), "
                         "so that every record is masked in the same model batch as `mask --jsonl` puts it")
    engine = engine_from_args(args)  # checks the engine options before any work
    model_hash = _check_model(engine)
    key = _key(args)
    consistent_key, key_check = _run_keys(key)
    if args.format == "parquet":
        _need_pyarrow("--format parquet")
    inputs = find_inputs(args.inputs, out_dir)
    shards = plan_shards(inputs, args.shard_size)
    settings = {
        "alias_engine": __version__, "model_sha256": model_hash,
        "engine": {name: getattr(args, name) for name in ENGINE_OPTIONS},
        "shard_size": args.shard_size, "batch_size": args.batch_size, "format": args.format,
        "text_field": args.text_field, "keep_fields": sorted(args.keep_fields),
        "key_check": key_check, "consistent": args.consistent,
    }
    input_list = [{**item.to_dict(), "records": sum(s["records"] for s in shards if s["input"] == item.path)}
                  for item in inputs]
    manifest = Manifest.open(out_dir, settings, input_list, len(shards), args.format, args.resume)
    todo = [shard for shard in shards if not manifest.is_finished(shard)]
    done = sum(shard["records"] for shard in shards if manifest.is_finished(shard))
    if done:
        print(f"resuming: {len(shards) - len(todo)} of {len(shards)} shards already finished", file=sys.stderr)

    workers = args.workers or (cores() if args.runner == "local" else 0)
    if 0 < len(todo) < workers:
        print(f"note: {len(todo)} shards to mask for {workers} workers: a smaller --shard-size would use them all",
              file=sys.stderr)
    worker_settings = {
        "engine": {**{name: getattr(args, name) for name in ENGINE_OPTIONS}, "threads": args.threads},
        "text_field": args.text_field, "keep_fields": args.keep_fields, "batch_size": args.batch_size,
        "consistent_key": consistent_key if args.consistent else None,
    }
    results = _runner(args, todo, worker_settings)
    progress = Progress(sum(s["records"] for s in shards), done)
    dropped: set[str] = set()
    try:
        for result in results:
            write_shard(out_dir, result, args.format, key, args.text_field)
            manifest.add_errors(result.errors)
            manifest.add(result)
            dropped |= result.dropped
            progress.step(result.shard["records"], result.chars)
    except KeyboardInterrupt:
        progress.end()
        print(f"alias-engine: interrupted; {len(manifest.finished)} of {len(shards)} shards are finished and kept "
              f"(no shard is half-written): run the same command with --resume to finish", file=sys.stderr)
        return 130
    finally:
        results.close()
        manifest.save()
    progress.end()
    manifest.rewrite_errors()
    _report_dropped(dropped)
    total_errors = sum(entry["errors"] for entry in manifest.finished.values())
    print(f"{sum(e['records'] for e in manifest.finished.values()):,} records masked into {len(shards)} shards "
          f"in {out_dir}/ (manifest: {MANIFEST})", file=sys.stderr)
    if total_errors:
        print(f"alias-engine: warning: {total_errors:,} records could not be masked and were left out of the "
              f"output; see {out_dir / ERRORS}", file=sys.stderr)
        return EXIT_WITH_ERRORS
    return 0


def _runner(args: argparse.Namespace, todo: list[dict], settings: dict):
    if args.runner == "ray":
        from .ray_runner import run_ray

        return run_ray(todo, settings, workers=args.workers, cpus_per_worker=args.cpus_per_worker,
                       address=args.ray_address)
    from .local_runner import run_local

    return run_local(todo, settings, workers=args.workers)


def _check_model(engine) -> str | None:
    """The model's hash (for the manifest), after checking its files: fail before any work."""
    if not engine.use_model:
        return None
    from ..detectors.model import ModelDetector

    ModelDetector.load(engine.model_dir, backend=engine.backend)
    digest = hashlib.sha256()
    with open(engine.model_dir / "model.onnx", "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _key(args: argparse.Namespace) -> bytes | None:
    if args.consistent and not args.key_file:
        raise InputError("--consistent needs --key-file: the placeholder numbers are keyed by it")
    if not args.key_file:
        return None
    from ..pseudonymise.vault import check_new_key, key_from

    return check_new_key(key_from(args.key_file))  # a key too short to encrypt fails now, not at a shard


def _run_keys(key: bytes | None) -> tuple[bytes | None, str | None]:
    if key is None:
        return None, None
    from .consistent import run_keys

    return run_keys(key)


def _need_pyarrow(what: str) -> None:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise InputError(f"{what} needs pyarrow: pip install 'alias-engine[ray]'") from None


class Progress:
    """Records done, records/s, characters/s and time left, on stderr: one line redrawn on a
    terminal, a line every 10 s in a log."""

    def __init__(self, total: int, done_before: int, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.total, self.done_before = total, done_before
        self.done = self.chars = 0
        self.live = self.stream.isatty()
        self.start = self._last = time.monotonic()

    def step(self, records: int, chars: int) -> None:
        self.done += records
        self.chars += chars
        now = time.monotonic()
        if now - self._last >= (0.5 if self.live else 10.0):
            self._last = now
            self._write(self.line(now), "\r" if self.live else "")

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = self.total - self.done_before - self.done
        eta = _duration(left / rate) if rate > 0 else "?"
        return (f"batch: {self.done_before + self.done:,}/{self.total:,} records, {rate:,.1f} records/s, "
                f"{self.chars / elapsed:,.0f} chars/s, {eta} left")

    def end(self) -> None:
        if self.done:
            self._write(self.line(time.monotonic()), "\r" if self.live else "")
        if self.live and self.done:
            self.stream.write("\n")

    def _write(self, line: str, prefix: str) -> None:
        self.stream.write(prefix + line + ("" if self.live else "\n"))
        self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s"

