"""Put the values back in an answer: whole (a JSON body) or streamed (SSE events).

Streamed, every field that grows by deltas (a choice's content, one tool call's
arguments, an Anthropic block, a Responses output part) gets its own streaming
restorer (`alias_engine.pseudonymise.StreamRestorer`, the one `session.restorer()`
returns), so a placeholder split across deltas is restored and text is passed on
as soon as no placeholder can be starting in it. A restorer is flushed where its
field ends (finish_reason, content_block_stop, `.done`) and before `[DONE]`.
"""

from __future__ import annotations

import json
from typing import Any

from ..pseudonymise.stream import StreamRestorer
from ..restore import RestoreTable, restore
from .sse import Event


class Restorers:
    """Batch restore of whole values, and one streaming restorer per open field."""

    def __init__(self, table: RestoreTable) -> None:
        self.table = table
        self.restored = 0
        self._open: dict[Any, StreamRestorer] = {}

    def text(self, text: str) -> str:
        report = restore(text, self.table)
        self.restored += report.restored
        return report.text

    def value(self, value: Any) -> Any:
        """Every string of a JSON value (keys too) restored."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        return value

    def field(self, holder: Any, key: str) -> None:
        if isinstance(holder, dict) and isinstance(holder.get(key), str):
            holder[key] = self.text(holder[key])

    def feed(self, key: Any, text: str) -> str:
        restorer = self._open.get(key)
        if restorer is None:
            restorer = self._open[key] = StreamRestorer(self.table)
        return restorer.feed(text)

    def flush(self, key: Any) -> str:
        restorer = self._open.pop(key, None)
        if restorer is None:
            return ""
        rest = restorer.flush()
        self.restored += restorer.restored
        return rest

    def open_keys(self) -> list:
        return list(self._open)


def _dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


# --- whole answers -----------------------------------------------------------------------

def restore_chat(body: dict, r: Restorers) -> None:
    for choice in _dicts(body.get("choices")):
        message = choice.get("message")
        if not isinstance(message, dict):
            continue
        r.field(message, "content")
        r.field(message, "refusal")
        for part in _dicts(message.get("content")):
            r.field(part, "text")
        for call in _dicts(message.get("tool_calls")):
            r.field(call.get("function"), "arguments")
        r.field(message.get("function_call"), "arguments")


def restore_message(body: dict, r: Restorers) -> None:
    for block in _dicts(body.get("content")):
        if block.get("type") == "text":
            r.field(block, "text")
        elif block.get("type") == "tool_use" and "input" in block:
            block["input"] = r.value(block["input"])


def restore_response(body: dict, r: Restorers) -> None:
    for item in _dicts(body.get("output")):
        restore_item(item, r)
    r.field(body, "output_text")


def restore_item(item: dict, r: Restorers) -> None:
    if item.get("type") == "function_call":
        r.field(item, "arguments")
    elif item.get("type") == "custom_tool_call":
        r.field(item, "input")
    elif item.get("type") == "local_shell_call" and isinstance(item.get("action"), dict):
        item["action"] = r.value(item["action"])  # the command the client is about to run
    for part in _dicts(item.get("content")):
        restore_part(part, r)


def restore_part(part: dict, r: Restorers) -> None:
    r.field(part, "text" if part.get("type") != "refusal" else "refusal")


RESTORE_BODY = {"chat": restore_chat, "messages": restore_message, "responses": restore_response}


# --- streams -----------------------------------------------------------------------------

def _json(event: Event) -> dict | None:
    if event.data is None:
        return None
    try:
        data = json.loads(event.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _event(name: str | None, data: dict, extra: tuple[str, ...] = ()) -> Event:
    return Event(name, json.dumps(data, ensure_ascii=False), extra)


class ChatStream:
    """`chat.completion.chunk` events: `delta.content`, `delta.refusal` and
    `delta.tool_calls[].function.arguments` restored per choice and per tool call."""

    def __init__(self, restorers: Restorers) -> None:
        self.r = restorers
        self._meta: dict = {}

    def on_event(self, event: Event) -> list[Event]:
        if event.data is not None and event.data.strip() == "[DONE]":
            return self._flush_all() + [event]
        chunk = _json(event)
        if chunk is None or not isinstance(chunk.get("choices"), list):
            return [event]
        self._meta = {k: chunk[k] for k in ("id", "object", "created", "model", "system_fingerprint") if k in chunk}
        finishing = []
        for choice in _dicts(chunk["choices"]):
            i = choice.get("index", 0)
            delta = choice.get("delta")
            if isinstance(delta, dict):
                for field in ("content", "refusal"):
                    if isinstance(delta.get(field), str):
                        delta[field] = self.r.feed((i, field), delta[field])
                for call in _dicts(delta.get("tool_calls")):
                    function = call.get("function")
                    if isinstance(function, dict) and isinstance(function.get("arguments"), str):
                        function["arguments"] = self.r.feed((i, "tool", call.get("index", 0)), function["arguments"])
            if choice.get("finish_reason") is not None and self._flush_choice(choice, i):
                finishing.append(choice)
        if not finishing:
            return [_event(event.event, chunk, event.extra)]
        # the rest of a field goes out in its own chunk, before the one that finishes the choice
        before = {**chunk, "choices": [{**c, "finish_reason": None} for c in chunk["choices"]]}
        before.pop("usage", None)
        after = {**chunk, "choices": [{**c, "delta": {}} for c in finishing]}
        return [_event(event.event, before, event.extra), _event(event.event, after)]

    def _flush_choice(self, choice: dict, i: int) -> bool:
        delta = choice.get("delta")
        if not isinstance(delta, dict):
            delta = choice["delta"] = {}
        wrote = False
        for key in self.r.open_keys():
            if key[0] != i:
                continue
            rest = self.r.flush(key)
            if not rest:
                continue
            wrote = True
            if key[1] in ("content", "refusal"):
                delta[key[1]] = (delta.get(key[1]) or "") + rest
                continue
            calls = delta.setdefault("tool_calls", [])
            call = next((c for c in _dicts(calls) if c.get("index", 0) == key[2]), None)
            if call is None:
                calls.append({"index": key[2], "function": {"arguments": rest}})
            else:
                function = call.setdefault("function", {})
                function["arguments"] = (function.get("arguments") or "") + rest
        return wrote

    def _flush_all(self) -> list[Event]:
        out = []
        for i in sorted({key[0] for key in self.r.open_keys()}, key=str):
            choice = {"index": i, "delta": {}, "finish_reason": None}
            if self._flush_choice(choice, i):
                out.append(_event(None, {**self._meta, "choices": [choice]}))
        return out

    def finish(self) -> list[Event]:
        return self._flush_all()


class MessagesStream:
    """Anthropic events: `text_delta` and `input_json_delta` restored per content block."""

    _FIELDS = {"text_delta": "text", "input_json_delta": "partial_json"}

    def __init__(self, restorers: Restorers) -> None:
        self.r = restorers
        self._kinds: dict[Any, str] = {}

    def on_event(self, event: Event) -> list[Event]:
        data = _json(event)
        if data is None:
            return [event]
        kind = data.get("type")
        out = []
        if kind == "message_start" and isinstance(data.get("message"), dict):
            restore_message(data["message"], self.r)
        elif kind == "content_block_start" and isinstance(data.get("content_block"), dict):
            block = data["content_block"]
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                block["text"] = self.r.feed(data.get("index"), block["text"])
                self._kinds[data.get("index")] = "text_delta"
            elif block.get("type") == "tool_use" and block.get("input"):
                block["input"] = self.r.value(block["input"])
        elif kind == "content_block_delta" and isinstance(data.get("delta"), dict):
            delta = data["delta"]
            field = self._FIELDS.get(delta.get("type"))
            if field and isinstance(delta.get(field), str):
                delta[field] = self.r.feed(data.get("index"), delta[field])
                self._kinds[data.get("index")] = delta["type"]
        elif kind == "content_block_stop":
            out = self._flush(data.get("index"))
        elif kind == "message_stop":
            out = self.finish()
        return out + [_event(event.event, data, event.extra)]

    def _flush(self, index: Any) -> list[Event]:
        rest = self.r.flush(index)
        if not rest:
            return []
        kind = self._kinds.get(index, "text_delta")
        delta = {"type": kind, self._FIELDS[kind]: rest}
        return [_event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})]

    def finish(self) -> list[Event]:
        return [e for index in self.r.open_keys() for e in self._flush(index)]


class ResponsesStream:
    """Responses events: `.delta` events restored per output part, `.done` events and
    the items and response objects restored whole; sequence numbers renumbered
    since a flushed rest is an event of its own."""

    _DELTAS = {"response.output_text.delta": "text", "response.refusal.delta": "refusal",
               "response.function_call_arguments.delta": "arguments",
               "response.custom_tool_call_input.delta": "input"}
    _DONE = {name.replace(".delta", ".done"): (name, field) for name, field in _DELTAS.items()}

    def __init__(self, restorers: Restorers) -> None:
        self.r = restorers
        self._seq = 0
        self._last: dict[Any, dict] = {}

    def _key(self, data: dict, kind: str) -> tuple:
        return kind, data.get("item_id"), data.get("output_index"), data.get("content_index")

    def on_event(self, event: Event) -> list[Event]:
        data = _json(event)
        if data is None:
            return [event]
        kind = data.get("type")
        out: list[tuple[str | None, dict]] = []
        if kind in self._DELTAS and isinstance(data.get("delta"), str):
            key = self._key(data, kind)
            data["delta"] = self.r.feed(key, data["delta"])
            self._last[key] = data
        elif kind in self._DONE:
            delta_kind, field = self._DONE[kind]
            out.extend(self._flush(self._key(data, delta_kind), delta_kind))
            self.r.field(data, field)
        elif kind in ("response.output_item.added", "response.output_item.done") and isinstance(data.get("item"), dict):
            restore_item(data["item"], self.r)
        elif kind in ("response.content_part.added", "response.content_part.done") and isinstance(data.get("part"), dict):
            restore_part(data["part"], self.r)
        elif isinstance(data.get("response"), dict):
            if kind in ("response.completed", "response.incomplete", "response.failed"):
                out.extend(self.finish_pairs())
            restore_response(data["response"], self.r)
        out.append((event.event, data))
        return [self._numbered(name, d, event.extra if d is data else ()) for name, d in out]

    def _flush(self, key: tuple, delta_kind: str) -> list[tuple[str | None, dict]]:
        rest = self.r.flush(key)
        if not rest:
            return []
        last = self._last.pop(key, {})
        data = {k: v for k, v in last.items() if k not in ("delta", "sequence_number", "logprobs")}
        data.update({"type": delta_kind, "delta": rest})
        return [(delta_kind, data)]

    def _numbered(self, name: str | None, data: dict, extra: tuple[str, ...]) -> Event:
        if "sequence_number" in data or self._seq:
            data["sequence_number"] = self._seq
            self._seq += 1
        return _event(name, data, extra)

    def finish_pairs(self) -> list[tuple[str | None, dict]]:
        return [pair for key in self.r.open_keys() for pair in self._flush(key, key[0])]

    def finish(self) -> list[Event]:
        return [self._numbered(name, data, ()) for name, data in self.finish_pairs()]


STREAMS: dict[str, type[ChatStream | MessagesStream | ResponsesStream]] = {
    "chat": ChatStream, "messages": MessagesStream, "responses": ResponsesStream}
