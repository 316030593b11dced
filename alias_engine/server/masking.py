"""Find every text of a request body, detect in one batch, and mask it with the conversation's session.

Each API has a collector that walks the body and returns `Slot`s, the string
fields to mask: every message of every role, content parts, tool-call
arguments, tool results, Anthropic blocks, Responses input items. A part the
proxy cannot mask (an image, a file, audio, an unknown type) raises
ProxyError(400): it is never forwarded unread.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..spans import Span
from .errors import ProxyError

TEXT, JSON_TEXT, JSON_VALUE = "text", "json-text", "json-value"


@dataclass
class Slot:
    """`holder[key]` is a text to mask: plain text, JSON written as a string (tool-call
    arguments), or a JSON value (an Anthropic `tool_use` input object)."""

    holder: Any
    key: Any
    kind: str = TEXT

    def text(self) -> str:
        value = self.holder[self.key]
        return json.dumps(value, ensure_ascii=False) if self.kind == JSON_VALUE else value


def _bad(message: str) -> ProxyError:
    return ProxyError(400, message)


def _string_or_none(holder: dict, key: str, where: str, slots: list[Slot]) -> None:
    value = holder.get(key)
    if isinstance(value, str):
        slots.append(Slot(holder, key))
    elif value is not None:
        raise _bad(f"{where}.{key} must be a string")


def _text_or_parts(holder: dict, key: str, where: str, slots: list[Slot], walk, required: bool = True) -> None:
    """`holder[key]` is a string (a slot) or an array that `walk(array, where, slots)` collects."""
    value = holder.get(key)
    if isinstance(value, str):
        slots.append(Slot(holder, key))
    elif isinstance(value, list):
        walk(value, f"{where}.{key}", slots)
    elif value is not None or required:
        raise _bad(f"{where}.{key} must be a string or an array of parts")


def _free_text_fields(body: dict, slots: list[Slot]) -> None:
    """`user`, `safety_identifier` and `metadata` values often hold an e-mail or a name."""
    for key in ("user", "safety_identifier"):
        _string_or_none(body, key, "body", slots)
    metadata = body.get("metadata")
    if isinstance(metadata, dict):
        for key, value in metadata.items():
            if isinstance(value, str):
                slots.append(Slot(metadata, key))


# --- OpenAI chat completions -------------------------------------------------------------

_CHAT_TEXT_PARTS = {"text": "text", "refusal": "refusal"}


def chat_slots(body: dict) -> list[Slot]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _bad("messages must be a non-empty array")
    slots: list[Slot] = []
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise _bad(f"{where} must be an object with a role")
        _text_or_parts(message, "content", where, slots, _chat_parts, required=False)
        _string_or_none(message, "refusal", where, slots)
        _string_or_none(message, "name", where, slots)
        calls = message.get("tool_calls")
        if calls is not None:
            if not isinstance(calls, list):
                raise _bad(f"{where}.tool_calls must be an array")
            for j, call in enumerate(calls):
                _function_arguments(call.get("function") if isinstance(call, dict) else None,
                                    f"{where}.tool_calls[{j}]", slots)
        if message.get("function_call") is not None:
            _function_arguments(message["function_call"], f"{where}.function_call", slots, nested=False)
        if message.get("audio") is not None and message.get("role") != "assistant":
            raise _bad(f"{where}.audio cannot be masked")
    prediction = body.get("prediction")
    if isinstance(prediction, dict):
        _text_or_parts(prediction, "content", "prediction", slots, _chat_parts, required=False)
    _free_text_fields(body, slots)
    return slots


def _chat_parts(parts: list, where: str, slots: list[Slot]) -> None:
    _typed_parts(parts, where, slots, _CHAT_TEXT_PARTS)


def _typed_parts(parts: list, where: str, slots: list[Slot], fields: dict[str, str]) -> None:
    for j, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, dict) else None
        field = fields.get(kind)
        if field is None:
            raise _bad(f"{where}[{j}]: a part of type {kind!r} cannot be masked (only text parts are accepted)")
        _string_or_none(part, field, f"{where}[{j}]", slots)


def _function_arguments(function: object, where: str, slots: list[Slot], nested: bool = True) -> None:
    if not isinstance(function, dict):
        raise _bad(f"{where}{'.function' if nested else ''} must be an object")
    _string_or_none(function, "arguments", where, slots)
    if slots and slots[-1].holder is function:
        slots[-1].kind = JSON_TEXT


# --- Anthropic messages ------------------------------------------------------------------

def messages_slots(body: dict) -> list[Slot]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _bad("messages must be a non-empty array")
    slots: list[Slot] = []
    _text_or_parts(body, "system", "body", slots, _anthropic_blocks, required=False)
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise _bad(f"{where} must be an object with a role")
        _text_or_parts(message, "content", where, slots, _anthropic_blocks)
    metadata = body.get("metadata")
    if isinstance(metadata, dict):
        _string_or_none(metadata, "user_id", "metadata", slots)
    return slots


def _anthropic_blocks(blocks: list, where: str, slots: list[Slot]) -> None:
    for j, block in enumerate(blocks):
        kind = block.get("type") if isinstance(block, dict) else None
        here = f"{where}[{j}]"
        if kind == "text":
            _string_or_none(block, "text", here, slots)
        elif kind == "thinking":  # unchanged when it holds nothing to mask, so its signature stays valid
            _string_or_none(block, "thinking", here, slots)
        elif kind == "redacted_thinking":
            continue  # encrypted by the provider: nothing readable to mask
        elif kind == "tool_use":
            if not isinstance(block.get("input"), (dict, list)):
                raise _bad(f"{here}.input must be an object")
            slots.append(Slot(block, "input", JSON_VALUE))
        elif kind == "tool_result":
            _text_or_parts(block, "content", here, slots, _anthropic_blocks, required=False)
        else:
            raise _bad(f"{here}: a block of type {kind!r} cannot be masked "
                       "(text, tool_use, tool_result and thinking blocks are accepted)")


# --- OpenAI responses --------------------------------------------------------------------

_RESPONSES_TEXT_PARTS = {"input_text": "text", "output_text": "text", "text": "text", "refusal": "refusal",
                         "summary_text": "text", "reasoning_text": "text"}


def responses_slots(body: dict) -> list[Slot]:
    slots: list[Slot] = []
    _string_or_none(body, "instructions", "body", slots)
    items = body.get("input")
    if isinstance(items, str):
        slots.append(Slot(body, "input"))
    elif isinstance(items, list):
        for i, item in enumerate(items):
            _responses_item(item, f"input[{i}]", slots)
    elif items is not None:
        raise _bad("input must be a string or an array of items")
    _free_text_fields(body, slots)
    return slots


def _responses_item(item: object, where: str, slots: list[Slot]) -> None:
    if not isinstance(item, dict):
        raise _bad(f"{where} must be an object")
    kind = item.get("type", "message" if "role" in item else None)
    if kind == "message":
        _text_or_parts(item, "content", where, slots, _responses_parts)
    elif kind in ("function_call", "custom_tool_call"):
        field = "arguments" if kind == "function_call" else "input"
        _string_or_none(item, field, where, slots)
        if kind == "function_call" and slots and slots[-1].holder is item:
            slots[-1].kind = JSON_TEXT
    elif kind in ("function_call_output", "custom_tool_call_output"):
        _text_or_parts(item, "output", where, slots, _responses_parts)
    elif kind == "local_shell_call":
        _shell_action(item.get("action"), f"{where}.action", slots)
    elif kind == "local_shell_call_output":
        _string_or_none(item, "output", where, slots)
    elif kind == "reasoning":
        for key in ("summary", "content"):
            if isinstance(item.get(key), list):
                _responses_parts(item[key], f"{where}.{key}", slots)
    elif kind == "item_reference":
        return  # an item the provider stored: it was masked when it was sent
    else:
        raise _bad(f"{where}: an item of type {kind!r} cannot be masked")


def _shell_action(action: object, where: str, slots: list[Slot]) -> None:
    """A shell command (Codex's local shell tool): its words, working directory and environment."""
    if not isinstance(action, dict) or not isinstance(action.get("command"), list):
        raise _bad(f"{where} must be an object with a command array")
    for j, word in enumerate(action["command"]):
        if not isinstance(word, str):
            raise _bad(f"{where}.command[{j}] must be a string")
        slots.append(Slot(action["command"], j))
    _string_or_none(action, "working_directory", where, slots)
    _string_or_none(action, "user", where, slots)
    env = action.get("env")
    if isinstance(env, dict):
        slots.extend(Slot(env, key) for key, value in env.items() if isinstance(value, str))


def _responses_parts(parts: list, where: str, slots: list[Slot]) -> None:
    _typed_parts(parts, where, slots, _RESPONSES_TEXT_PARTS)


COLLECTORS = {"chat": chat_slots, "messages": messages_slots, "responses": responses_slots}


# --- detection and masking -----------------------------------------------------------

class CachedDetector:
    """`engine.detect` with a cache of spans by text digest (the resent history of a
    conversation is detected once) and `prepare`, which detects a request's texts in
    one model batch. The cache holds digests and spans, never text."""

    def __init__(self, engine, size: int = 16384) -> None:
        self.engine = engine
        self.placeholder = engine.placeholder
        self.rules = getattr(engine, "rules", None)  # a session reads its model_checks to lend earlier turns' values
        self._cache: OrderedDict[bytes, tuple[Span, ...]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    @staticmethod
    def _key(text: str, lang: str | None) -> bytes:
        return hashlib.blake2b(f"{lang or ''}\x00{text}".encode("utf-8", "surrogatepass"), digest_size=20).digest()

    def _get(self, key: bytes) -> tuple[Span, ...] | None:
        with self._lock:
            spans = self._cache.get(key)
            if spans is not None:
                self._cache.move_to_end(key)
            return spans

    def _put(self, key: bytes, spans: Sequence[Span]) -> None:
        with self._lock:
            self._cache[key] = tuple(spans)
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)

    def missing(self, texts: Sequence[str], lang: str | None = None) -> list[str]:
        """The texts (once each) not in the cache."""
        return list(dict.fromkeys(t for t in texts if t and self._get(self._key(t, lang)) is None))

    def store(self, texts: Sequence[str], spans: Sequence[Sequence[Span]], lang: str | None = None) -> None:
        for text, found in zip(texts, spans):
            self._put(self._key(text, lang), found)

    def prepare(self, texts: Sequence[str], lang: str | None = None) -> None:
        """Detect in one batch the texts not in the cache yet."""
        missing = self.missing(texts, lang)
        if missing:
            self.store(missing, self.engine.detect_many(missing, lang), lang)

    def detect(self, text: str, lang: str | None = None) -> list[Span]:
        key = self._key(text, lang)
        spans = self._get(key)
        if spans is None:
            spans = tuple(self.engine.detect(text, lang))
            self._put(key, spans)
        return list(spans)


def mask_slots(slots: Sequence[Slot], session, detector: CachedDetector) -> Counter:
    """Mask every slot in place with `session`; return the count of values masked per label."""
    texts = [slot.text() for slot in slots]
    detector.prepare(texts, session.lang)
    labels: Counter = Counter()
    for slot, text in zip(slots, texts):
        if not text:
            continue
        if slot.kind == TEXT:
            result = session.mask(text)
            slot.holder[slot.key] = result.text
        else:
            masked, result = _mask_json(session, text)
            slot.holder[slot.key] = json.loads(masked) if slot.kind == JSON_VALUE else masked
        labels.update(span.label for span in result.spans)
    return labels


def _mask_json(session, text: str):
    """JSON text masked as text (its keys give the context), or, when a value's span
    crossed the JSON syntax (a quote, an escape), string by string."""
    result = session.mask(text)
    try:
        json.loads(text)
    except ValueError:
        return result.text, result  # not JSON: text like any other
    try:
        json.loads(result.text)
        return result.text, result
    except ValueError:
        pass
    spans: list[Span] = []

    def walk(value):
        if isinstance(value, str):
            masked = session.mask(value)
            spans.extend(masked.spans)
            return masked.text
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    masked = json.dumps(walk(json.loads(text)), ensure_ascii=False)
    return masked, type(result)(masked, {}, tuple(spans))
