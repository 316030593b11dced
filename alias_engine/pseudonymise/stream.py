"""Streaming restore: feed an LLM answer chunk by chunk, get restored text as early as possible.

The restorer runs the batch scan (`alias_engine.restore.Scan`) on what it has
and holds back only from the first position where a pseudonym could still be
starting (a partial match of the restore pattern reaching the end of the
buffer), so the held text is never longer than one pseudonym (plus an elided
`d'`). The output, joined, is exactly what the batch restore gives.
"""

from __future__ import annotations

import codecs

from ..errors import InputError
from ..restore import RestoreReport, RestoreTable, Scan

_CONTEXT = 4  # characters of emitted text kept for the pattern's look-behinds


class StreamRestorer:
    """`out = r.feed(chunk)` for each chunk, then `out = r.flush()` once.

    `feed` takes `str`; `feed_bytes` takes UTF-8 bytes split anywhere (inside a
    multi-byte character too). Do not mix the two within one stream.
    """

    def __init__(self, table: RestoreTable) -> None:
        self._scan = Scan(table)
        self._context = ""
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._closed = False

    def feed(self, chunk: str) -> str:
        """Restore what `chunk` settles; return it (possibly "")."""
        if not isinstance(chunk, str):
            raise InputError(f"feed takes str chunks, not {type(chunk).__name__} (use feed_bytes)")
        if self._closed:
            raise InputError("this restorer was flushed; start a new one with session.restorer()")
        if not chunk:
            return ""
        buf = self._context + self._pending + chunk
        start = len(self._context)
        out, pos = self._scan.run(buf, start, final=False)
        self._pending = buf[pos:]
        self._context = buf[max(0, pos - _CONTEXT):pos]
        return out

    def feed_bytes(self, chunk: bytes) -> str:
        """`feed` for UTF-8 bytes; a character split between chunks waits for its end."""
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise InputError(f"feed_bytes takes bytes, not {type(chunk).__name__}")
        try:
            text = self._decoder.decode(bytes(chunk))
        except UnicodeDecodeError:
            raise InputError("the streamed answer is not valid UTF-8") from None
        return self.feed(text)

    def flush(self) -> str:
        """Restore and return everything still held; the stream is over."""
        if self._closed:
            return ""
        try:
            tail = self._decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise InputError("the streamed answer ends inside a UTF-8 character") from None
        buf = self._context + self._pending + tail
        out, _ = self._scan.run(buf, len(self._context), final=True)
        self._pending = ""
        self._closed = True
        return out

    @property
    def pending(self) -> int:
        """How many characters are held back right now."""
        return len(self._pending)

    @property
    def restored(self) -> int:
        """How many pseudonyms were restored so far."""
        return self._scan.restored

    @property
    def unknown(self) -> tuple[str, ...]:
        """Placeholder-shaped strings left as written because the session does not know them."""
        return tuple(self._scan.unknown)

    def report(self, text: str = "") -> RestoreReport:
        """Counts so far, as a RestoreReport (`text` is whatever the caller collected)."""
        return RestoreReport(text, self.restored, self.unknown)
