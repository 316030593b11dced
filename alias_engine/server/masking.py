"""Find every text of a request body, detect in one batch, and mask it with the conversation's session.

Closed by construction: every string of a forwarded body, and every object key, is
masked as text, but for
- words the APIs read as values of their own (`_WORDS`: roles, part types, enums)
  and keys that are their field names (`_KEYS`);
- at the paths of `_FIXED`, the model, ids, tool names and the provider's opaque
  blobs, which masking would break: they pass when they have the shape of one, and
  the request is refused (400, naming the field) when they do not.
Each API has a collector that checks the body's known structure and names the
slots that need more than text: JSON written as a string (tool-call arguments), a
JSON value (an Anthropic `tool_use` input). A part the proxy cannot mask (an image,
a file, audio, an unknown type) raises ProxyError(400): it is never forwarded
unread. `sweep` then takes every other string and key of the body, known or not.
JSON held in a string is masked on its decoded text and written back with the
escapes it came with (`\u00e9` stays an escape).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import regex

from ..spans import Span
from .errors import ProxyError

TEXT, JSON_TEXT, JSON_VALUE, KEY = "text", "json-text", "json-value", "key"


@dataclass
class Slot:
    """`holder[key]` is a text to mask: plain text, JSON written as a string (tool-call
    arguments), or a JSON value (an Anthropic `tool_use` input object); or, of kind KEY,
    `key` itself is (an object key that is no field name of the API)."""

    holder: Any
    key: Any
    kind: str = TEXT

    def text(self) -> str:
        if self.kind == KEY:
            return self.key
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
    return slots


def _chat_parts(parts: list, where: str, slots: list[Slot]) -> None:
    _typed_parts(parts, where, slots, _CHAT_TEXT_PARTS)


def _typed_parts(parts: list, where: str, slots: list[Slot], fields: dict[str, str]) -> None:
    for j, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, dict) else None
        field = fields.get(kind) if isinstance(kind, str) else None
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


# --- every other string and key ------------------------------------------------------

# Values that are words of the APIs themselves: passed without detection.
_WORDS = frozenset("""
system developer user assistant tool function model text image_url input_text output_text input_image
input_file input_audio refusal message function_call function_call_output custom_tool_call
custom_tool_call_output local_shell_call local_shell_call_output reasoning item_reference summary_text
reasoning_text tool_use tool_result thinking redacted_thinking auto none required any json_object
json_schema object string number integer boolean array null low medium high minimal default flex
priority scale ephemeral enabled disabled approximate completed in_progress incomplete concise detailed
exec content_filter stop length tool_calls end_turn max_tokens stop_sequence disabled 5m 1h
""".split())

# Keys that are field names of the APIs (and of the JSON Schema of tools): kept as written.
_KEYS = frozenset("""
model messages role content type text name refusal tool_calls tool_call_id id function arguments
function_call functions audio tools tool_choice parallel_tool_calls response_format json_schema schema
strict description parameters temperature top_p top_k n max_tokens max_completion_tokens
max_output_tokens max_tool_calls stream stream_options include_usage include_obfuscation stop
stop_sequences presence_penalty frequency_penalty logit_bias logprobs top_logprobs seed user metadata
store service_tier reasoning_effort reasoning effort summary generate_summary modalities prediction
web_search_options search_context_size user_location approximate country region city timezone
verbosity safety_identifier prompt_cache_key prompt_cache_retention input instructions
previous_response_id conversation include truncation background format prompt variables version
call_id output status encrypted_content action command working_directory env timeout_ms system
cache_control ttl thinking budget_tokens signature data tool_use_id is_error input_schema citations
cited_text source media_type container mcp_servers url authorization_token disable_parallel_tool_use
image_url detail file file_id file_data filename input_audio annotations voice properties required
items enum additionalProperties $schema $defs $ref definitions minimum maximum exclusiveMinimum
exclusiveMaximum minLength maxLength minItems maxItems pattern anyOf oneOf allOf not const default
title examples nullable
""".split())

ID, MODEL, OPAQUE = "an id (letters, digits, '-' or '_')", "a model name", "an opaque token of the provider"
_SHAPES = {
    ID: regex.compile(r"[A-Za-z0-9_-]{1,256}"),
    # "gpt-4o", "ft:gpt-4o-mini:org::id", "anthropic/claude-sonnet-4", "claude-3-5-sonnet-v2@20241022"
    MODEL: regex.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}(?:@\d{8})?"),
    OPAQUE: regex.compile(r"[A-Za-z0-9+/=_-]*"),  # base64: a signature, an encrypted reasoning item
}
# Strings that cannot be masked without breaking the request, by path ("*": any index of an array).
_FIXED = {
    ("model",): MODEL,
    ("messages", "*", "tool_call_id"): ID,
    ("messages", "*", "tool_calls", "*", "id"): ID,
    ("messages", "*", "tool_calls", "*", "function", "name"): ID,
    ("messages", "*", "function_call", "name"): ID,
    ("messages", "*", "audio", "id"): ID,
    ("messages", "*", "content", "*", "id"): ID,  # an Anthropic tool_use block
    ("messages", "*", "content", "*", "name"): ID,
    ("messages", "*", "content", "*", "tool_use_id"): ID,
    ("messages", "*", "content", "*", "signature"): OPAQUE,  # a thinking block
    ("messages", "*", "content", "*", "data"): OPAQUE,  # a redacted_thinking block
    ("tools", "*", "function", "name"): ID,
    ("tools", "*", "name"): ID,
    ("functions", "*", "name"): ID,
    ("function_call", "name"): ID,
    ("tool_choice", "function", "name"): ID,
    ("tool_choice", "name"): ID,
    ("response_format", "json_schema", "name"): ID,
    ("text", "format", "name"): ID,
    ("previous_response_id",): ID,
    ("conversation",): ID,
    ("conversation", "id"): ID,
    ("prompt", "id"): ID,
    ("prompt", "version"): ID,
    ("container",): ID,
    ("input", "*", "id"): ID,
    ("input", "*", "call_id"): ID,
    ("input", "*", "name"): ID,
    ("input", "*", "encrypted_content"): OPAQUE,
}


def check_fixed(shape: str, value: str, where: str) -> None:
    """ProxyError(400) unless `value` has `shape` (ID, MODEL or OPAQUE): it goes upstream as written."""
    if not _SHAPES[shape].fullmatch(value):
        raise _bad(f"{where} must be {shape}: it is forwarded unmasked, so it cannot hold other text")


def sweep(body: dict, slots: list[Slot]) -> list[Slot]:
    """`slots` and a TEXT slot for every other string of `body` and a KEY slot for every
    other key, but for the words, field names and fixed paths above (checked here)."""
    claimed = {(id(slot.holder), slot.key) for slot in slots}
    found = list(slots)

    def walk(holder, path: tuple, where: str) -> None:
        if isinstance(holder, dict):
            children = [(key, path + (key,), f"{where}.{key}" if where else key) for key in holder]
        else:
            children = [(i, path + ("*",), f"{where}[{i}]") for i in range(len(holder))]
        for key, here, name in children:
            if (id(holder), key) in claimed:
                continue
            if isinstance(holder, dict) and key not in _KEYS:
                found.append(Slot(holder, key, KEY))
            value = holder[key]
            if isinstance(value, (dict, list)):
                walk(value, here, name)
            elif isinstance(value, str) and value:
                shape = _FIXED.get(here)
                if shape is not None:
                    check_fixed(shape, value, name)
                elif value not in _WORDS:
                    found.append(Slot(holder, key))

    walk(body, (), "")
    return found


def _collect(collector):
    return lambda body: sweep(body, collector(body))


COLLECTORS = {"chat": _collect(chat_slots), "messages": _collect(messages_slots),
              "responses": _collect(responses_slots)}


# --- detection and masking -----------------------------------------------------------

class CachedDetector:
    """`engine.detect` with a cache of spans by text digest (the resent history of a
    conversation is detected once) and `prepare`, which detects a request's texts in
    one model batch. The cache holds digests and spans, never text."""

    def __init__(self, engine, size: int = 16384) -> None:
        self.engine = engine
        self.placeholder = engine.placeholder
        self.rules = getattr(engine, "rules", None)  # a session reads its lexicon to lend earlier turns' values
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


def mask_slots(slots: Sequence[Slot], session, detector: CachedDetector,
               stop: threading.Event | None = None) -> Counter:
    """Mask every slot in place with `session`; return the count of values masked per label.
    Keys are renamed last, once every value slot has been written under its old key. When
    `stop` is set (the client went away), ProxyError(499) before the next slot."""
    texts = [slot.text() for slot in slots]
    detector.prepare(texts, session.lang)
    labels: Counter = Counter()
    renamed: dict[int, tuple[dict, dict]] = {}
    for slot, text in zip(slots, texts):
        if stop is not None and stop.is_set():
            raise ProxyError(499, "the client closed the connection")
        if not text:
            continue
        if slot.kind == KEY:
            result = session.mask(text)
            if result.text != text:
                renamed.setdefault(id(slot.holder), (slot.holder, {}))[1][text] = result.text
        elif slot.kind == TEXT and not _json_container(text):
            result = session.mask(text)
            slot.holder[slot.key] = result.text
        else:
            masked, result = _mask_json(session, text)
            slot.holder[slot.key] = json.loads(masked) if slot.kind == JSON_VALUE else masked
        labels.update(span.label for span in result.spans)
    for holder, names in renamed.values():
        items = [(names.get(key, key), value) for key, value in holder.items()]
        if len({key for key, _ in items}) < len(items):
            raise ProxyError(400, "two keys of one object mask to the same placeholder")
        holder.clear()
        holder.update(items)
    return labels


def _json_container(text: str) -> bool:
    """True for a JSON object or array written as a string (a tool result, a message that is JSON)."""
    if text.lstrip()[:1] not in ("{", "["):
        return False
    try:
        return isinstance(json.loads(text), (dict, list))
    except (ValueError, RecursionError):
        return False


def _mask_json(session, text: str):
    """JSON text masked as text (its keys give the context), or, when a value's span crossed
    the JSON syntax (a quote, an escape), string by string. JSON written with escapes
    (`json.dumps`' default `\\u00e9`) is masked on its decoded text, then written back
    with escapes (and compact separators if it had them)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        result = session.mask(text)
        return result.text, result  # not JSON: text like any other
    escaped = text.isascii() and not json.dumps(value, ensure_ascii=False).isascii()
    separators = (",", ":") if escaped and text == json.dumps(value, separators=(",", ":")) else None
    readable = json.dumps(value, ensure_ascii=False, separators=separators) if escaped else text
    result = session.mask(readable)
    try:
        masked = json.loads(result.text)
    except (ValueError, RecursionError):
        spans: list[Span] = []

        def walk(item):
            if isinstance(item, str):
                done = session.mask(item)
                spans.extend(done.spans)
                return done.text
            if isinstance(item, list):
                return [walk(v) for v in item]
            if isinstance(item, dict):
                return {walk(k): walk(v) for k, v in item.items()}
            return item

        masked, result = walk(value), type(result)("", {}, tuple(spans))
    else:
        if not escaped:
            return result.text, result
    return json.dumps(masked, ensure_ascii=escaped, separators=separators), result
