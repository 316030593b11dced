"""Detection off the event loop: a thread pool sized to the cores behind a bounded queue."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

from .errors import ProxyError


class DetectionPool:
    """`await pool.run(fn, *args)` runs `fn` in a worker thread.

    At most `workers + queue` jobs are running or waiting; one more is refused
    with ProxyError(503, retry_after=1): the request is not forwarded.
    """

    def __init__(self, workers: int | None = None, queue: int = 64) -> None:
        self.workers = workers or os.cpu_count() or 1
        self.capacity = self.workers + max(0, queue)
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="alias-detect")
        self.pending = 0

    async def run(self, fn, *args):
        if self.pending >= self.capacity:
            raise ProxyError(503, "alias-engine is busy: too many requests are waiting for detection; retry shortly",
                             retry_after=1)
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
