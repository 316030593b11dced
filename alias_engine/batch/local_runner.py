"""`--runner local`: a pool of worker processes on this machine, one Engine in each.

Processes, not threads: the rules and the decoding are Python, so threads would
share one interpreter lock. Model threads times processes equals the cores
(unless --threads says otherwise). Workers start by "spawn" (a fresh
interpreter: no state copied from the driver), ignore Ctrl-C (the driver
handles it and stops them), and build their Engine on their first shard, so a
broken model is an error of that shard, not a pool that restarts forever.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from ..errors import AliasEngineError
from .masking import ShardMasker, ShardResult

_masker: ShardMasker | None = None


def run_local(shards: list[dict], settings: dict, workers: int | None = None) -> Iterator[ShardResult]:
    """Mask `shards` in `workers` processes (default: one a core); results in the order they finish."""
    if not shards:
        return
    workers = min(workers or cores(), len(shards))
    engine = dict(settings["engine"])
    engine["threads"] = engine.get("threads") or max(1, cores() // workers)
    settings = {**settings, "engine": engine}
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_ignore_ctrl_c)
    try:
        waiting = iter(shards)
        pending: set[Future[ShardResult]] = set()
        while True:
            # at most two shards a worker in flight: memory stays bounded on a large corpus
            while len(pending) < 2 * workers and (shard := next(waiting, None)) is not None:
                pending.add(executor.submit(_mask_shard, settings, shard))
            if not pending:
                return
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    yield future.result()
                except BrokenProcessPool:
                    raise AliasEngineError("a worker process died (out of memory?); the finished shards are "
                                           "kept: run again with --resume, perhaps with fewer --workers") from None
    finally:
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()  # they ignore Ctrl-C, and a shard can take minutes
        executor.shutdown(wait=True, cancel_futures=True)


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _mask_shard(settings: dict, shard: dict) -> ShardResult:
    global _masker
    if _masker is None:
        _masker = ShardMasker(settings)
    return _masker(shard)


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
