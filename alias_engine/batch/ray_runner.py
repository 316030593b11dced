"""`--runner ray`: Ray Data, with one Engine per actor, on a local Ray or a cluster.

The dataset is the list of shards (small dicts); `map_batches` sends each to an
actor of `ShardActor` (an Engine built once per actor, onnxruntime threads equal
to the actor's CPUs), which reads the shard's records from the input file,
masks them and returns the result; the driver writes each shard as it comes
back (output.py). So a shard is one unit from reading to writing: it is written
whole or not at all, one record that fails does not fail a block, and a resumed
run knows which shards are done. The inputs must be readable at the same path
on every node (a shared filesystem); the output is written by the driver only.
"""

from __future__ import annotations

import json
import logging
import pickle
from collections.abc import Iterator

from ..errors import AliasEngineError, InputError
from .masking import ShardMasker, ShardResult


def run_ray(shards: list[dict], settings: dict, *, workers: int | None = None, cpus_per_worker: int = 1,
            address: str | None = None) -> Iterator[ShardResult]:
    """Mask `shards` with `workers` actors of `cpus_per_worker` CPUs each (default: as many actors as the
    cluster has CPUs for); results in the order they finish. A local Ray is started when no Ray is running
    and no `address` is given, and stopped at the end."""
    try:
        import ray
        import ray.data
    except ImportError:
        raise InputError("--runner ray needs Ray: pip install 'alias-engine[ray]'") from None
    if not shards:
        return
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    try:
        logging.getLogger("ray.data").setLevel(logging.ERROR)
        ray.data.DataContext.get_current().enable_progress_bars = False  # ours is on stderr
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_worker)
        workers = min(workers, len(shards))
        actor_settings = {**settings, "engine": {**settings["engine"], "threads": cpus_per_worker}}
        dataset = ray.data.from_items([{"shard": json.dumps(s)} for s in shards], override_num_blocks=len(shards))
        masked = dataset.map_batches(ShardActor, fn_constructor_kwargs={"settings": actor_settings},
                                     batch_size=1, compute=ray.data.ActorPoolStrategy(size=workers),
                                     num_cpus=cpus_per_worker,
                                     batch_format="numpy")
        for row in masked.iter_rows():
            yield pickle.loads(row["result"])
    except Exception as exc:
        cause = _engine_error(exc)
        if cause is not None:
            raise cause from None
        raise AliasEngineError(f"the Ray job failed ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})") \
            from None
    finally:
        if started:
            ray.shutdown()


class ShardActor:
    """A Ray actor: one ShardMasker (one Engine) for its whole life."""

    def __init__(self, settings: dict) -> None:
        self.masker = ShardMasker(settings)

    def __call__(self, batch: dict) -> dict:
        import numpy as np

        results = [pickle.dumps(self.masker(json.loads(shard))) for shard in batch["shard"]]
        return {"result": np.array(results, dtype=object)}


def _engine_error(exc: BaseException | None) -> AliasEngineError | None:
    """The AliasEngineError (a broken model, say) that an actor raised, under Ray's wrappers."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, AliasEngineError):
            return exc
        cause = getattr(exc, "cause", None)
        exc = cause if isinstance(cause, BaseException) else (exc.__cause__ or exc.__context__)
    return None
