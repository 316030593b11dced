"""Server-sent events read from network chunks cut anywhere, and written back.

An event ends at a blank line; `\\r\\n`, `\\r` and `\\n` all end a line. The parser
holds only the bytes of the event not yet complete, so an event (or a UTF-8
character) split across reads waits for its end, and every complete event is
returned at once.

>>> p = SSEParser()
>>> p.feed(b'event: ping\\r\\ndata: {"a"')
[]
>>> p.feed(b': 1}\\r\\n\\r\\ndata: [DONE]\\n\\n')
[Event(event='ping', data='{"a": 1}', extra=()), Event(event=None, data='[DONE]', extra=())]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError


@dataclass(frozen=True)
class Event:
    """One event: its `event:` name (or None), its `data:` lines joined by `\\n`, and the
    other lines (`id:`, `retry:`, comments) as written, in order."""

    event: str | None
    data: str | None
    extra: tuple[str, ...] = ()

    def encode(self) -> bytes:
        lines = list(self.extra)
        if self.event is not None:
            lines.append(f"event: {self.event}")
        if self.data is not None:
            lines.extend(f"data: {line}" for line in self.data.split("\n"))
        return ("\n".join(lines) + "\n\n").encode("utf-8")


class SSEParser:
    """`events = parser.feed(chunk)` for every read, then `parser.close()` for what is left."""

    def __init__(self, max_event: int = 16 * 2 ** 20) -> None:
        self._buf = b""
        self._max = max_event

    def feed(self, chunk: bytes) -> list[Event]:
        buf = self._buf + chunk
        # a \r at the very end may be the first half of \r\n: keep it for the next read
        hold = buf.endswith(b"\r")
        if hold:
            buf = buf[:-1]
        buf = buf.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *complete, rest = buf.split(b"\n\n")
        self._buf = rest + (b"\r" if hold else b"")
        if len(self._buf) > self._max:
            raise InputError("an event of the upstream stream is too large")
        return [e for e in map(_parse, complete) if e is not None]

    def close(self) -> list[Event]:
        """The last event when the stream ended without its blank line."""
        rest, self._buf = self._buf.replace(b"\r\n", b"\n").replace(b"\r", b"\n"), b""
        event = _parse(rest.rstrip(b"\n")) if rest.strip() else None
        return [event] if event is not None else []


def _parse(block: bytes) -> Event | None:
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the upstream stream is not valid UTF-8") from None
    name, data, extra = None, [], []
    for line in text.split("\n"):
        if not line:
            continue
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        else:
            extra.append(line)
    if name is None and not data and not extra:
        return None
    return Event(name, "\n".join(data) if data else None, tuple(extra))
