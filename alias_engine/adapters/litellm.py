"""alias-engine as a LiteLLM guardrail (`pip install "alias-engine[litellm]"`): mask every request
LiteLLM forwards, restore every answer, streamed or not.

In the LiteLLM proxy's config.yaml (docs/litellm.md):

```yaml
guardrails:
  - guardrail_name: alias-engine
    litellm_params:
      guardrail: alias_engine.adapters.litellm.AliasEngineGuardrail
      mode: [pre_call, post_call]
      default_on: true
```

- `async_pre_call_hook` masks the request with the proxy's own request masking
  (`server/masking.py`: COLLECTORS + mask_slots, closed by construction: every string
  and key of the body is masked but the APIs' own words and field names, and the model,
  ids and opaque tokens, which must have their shape). Chat completions, /v1/responses
  and Anthropic /v1/messages bodies; any other call type is refused. The keys of the
  request that are LiteLLM's own parameters (`litellm.types.utils.all_litellm_params`:
  routing, credentials, logging) are not part of the body; those among them that LiteLLM
  writes into the prompt (`PROMPT_PARAMS`) are refused.
- One `Session` per request, or per conversation when the request names one
  (`litellm_session_id`, or `session_id` in its metadata), in the namespace of the API key.
- `async_post_call_success_hook` restores a whole answer and
  `async_post_call_streaming_iterator_hook` a stream (`server/restoring.py`: RESTORE_BODY,
  STREAMS), a placeholder split across chunks included.
- Fail closed: anything that goes wrong while masking raises GuardrailRaisedException
  (HTTP 400 from the proxy, or the exception from `litellm.acompletion`), so the call
  is never made with the request as written.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import threading
from collections import OrderedDict
from collections.abc import AsyncGenerator, Iterable
from typing import Any

from ..errors import AliasEngineError
from . import require

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # offline: no download of LiteLLM's price list
require("litellm.integrations.custom_guardrail", "litellm", "the LiteLLM guardrail")
from litellm.exceptions import GuardrailRaisedException  # noqa: E402
from litellm.integrations.custom_guardrail import CustomGuardrail  # noqa: E402
from litellm.types.guardrails import GuardrailEventHooks  # noqa: E402

from ..pseudonymise import Session  # noqa: E402
from ..resolve import DEFAULT_THRESHOLD  # noqa: E402
from ..server.errors import ProxyError  # noqa: E402
from ..server.masking import COLLECTORS, CachedDetector, mask_slots  # noqa: E402
from ..server.restoring import RESTORE_BODY, STREAMS, Restorers  # noqa: E402
from ..server.sse import Event, SSEParser  # noqa: E402

# LiteLLM call types -> the API whose body the proxy's collectors read
CALL_TYPES = {"completion": "chat", "acompletion": "chat", "responses": "responses", "aresponses": "responses",
              "anthropic_messages": "messages"}

# LiteLLM parameters whose text LiteLLM itself writes into the prompt: refused, not masked
PROMPT_PARAMS = frozenset({"user_continue_message", "assistant_continue_message", "litellm_system_prompt",
                           "initial_prompt_value", "final_prompt_value", "custom_prompt_dict", "prompt_variables",
                           "roles", "bos_token", "eos_token"})

# keys the proxy adds to a request that are LiteLLM's bookkeeping, not in all_litellm_params
_PROXY_KEYS = frozenset({"guardrail_to_apply", "litellm_parent_otel_span", "user_api_key_dict",
                         "standard_callback_dynamic_params", "litellm_request_debug", "mcp_tool_call_metadata"})


def _litellm_params() -> frozenset[str]:
    from litellm.types.utils import all_litellm_params

    return frozenset(all_litellm_params) | _PROXY_KEYS


class _LRU(OrderedDict):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class AliasEngineGuardrail(CustomGuardrail):
    """A LiteLLM CustomGuardrail that masks requests and restores answers with alias-engine.

    `engine`: an `alias_engine.Engine` (default: one built from `engine_options`:
    `rules_only`, `backend`, `lang`, `labels`, `threshold`, `threads`, `rules` (extra rules files)).
    `pseudonyms`: "placeholder" (default) or "surrogate". `max_sessions`: conversations kept.
    The other keyword arguments are LiteLLM's (`guardrail_name`, `event_hook`, `default_on`...).
    """

    def __init__(self, engine: Any = None, *, pseudonyms: str = "placeholder", rules_only: bool = False,
                 backend: str = "auto", lang: str = "auto", labels: Iterable[str] | str | None = None,
                 threshold: float = DEFAULT_THRESHOLD, threads: int | None = None, rules: Iterable[str] | str = (),
                 max_sessions: int = 10_000, **kwargs: Any) -> None:
        kwargs.setdefault("guardrail_name", "alias-engine")
        kwargs.setdefault("event_hook", [GuardrailEventHooks.pre_call, GuardrailEventHooks.post_call])
        kwargs.setdefault("supported_event_hooks", [GuardrailEventHooks.pre_call, GuardrailEventHooks.post_call])
        super().__init__(**kwargs)
        if pseudonyms not in ("placeholder", "surrogate"):
            raise AliasEngineError(f"pseudonyms must be placeholder or surrogate, not {pseudonyms!r}")
        if engine is None:
            from ..engine import Engine

            if isinstance(labels, str):
                labels = [x.strip().upper() for x in labels.split(",") if x.strip()]
            try:
                engine = Engine(use_model=False if rules_only else None, backend=backend, lang=lang, labels=labels,
                                threshold=threshold, threads=threads,
                                extra_rules=[rules] if isinstance(rules, str) else rules)
            except ValueError as exc:
                raise AliasEngineError(f"alias-engine guardrail: {exc}") from None
        self.engine = engine
        self.pseudonyms = pseudonyms
        self.detector = CachedDetector(engine)
        self._internal = _litellm_params()
        self._sessions: _LRU = _LRU(max_sessions)   # (key namespace, conversation id) -> Session
        self._calls: _LRU = _LRU(max_sessions)      # litellm_call_id -> (api, Session)
        self._lock = threading.Lock()

    # --- masking ---------------------------------------------------------------------

    def _blocked(self, message: str) -> Exception:
        return GuardrailRaisedException(guardrail_name=self.guardrail_name,
                                        message=f"the request was not sent: {message}")

    def _session(self, data: dict, user_api_key_dict: Any) -> tuple[Session, threading.Lock]:
        """The request's session and its lock: a new one, or its conversation's."""
        from litellm.integrations.custom_guardrail import get_session_id_from_request_data

        conversation = get_session_id_from_request_data(data)
        if conversation is None:
            return Session(self.detector, mode=self.pseudonyms), threading.Lock()
        key = (str(getattr(user_api_key_dict, "api_key", None) or ""), conversation)
        with self._lock:
            entry = self._sessions.get(key)
            if entry is None:
                entry = (Session(self.detector, mode=self.pseudonyms), threading.Lock())
            self._sessions.put(key, entry)
        return entry

    def mask_request(self, data: dict, call_type: str, session: Session, lock: threading.Lock | None = None
                     ) -> dict:
        """`data` with its body masked in place by `session` (the forwarded keys; LiteLLM's own stay)."""
        api = CALL_TYPES.get(str(getattr(call_type, "value", call_type)))
        if api is None:
            raise ProxyError(400, f"a {call_type} call cannot be masked (chat completions, responses and "
                                  "Anthropic messages can)")
        prompt = sorted(k for k in PROMPT_PARAMS if data.get(k) not in (None, "", [], {}))
        if prompt:
            raise ProxyError(400, f"{', '.join(prompt)}: LiteLLM writes these into the prompt unmasked")
        internal = self._internal if api == "chat" else self._internal - {"metadata"}  # an API field there
        names = [k for k in data if k not in internal]
        body = copy.deepcopy({k: data[k] for k in names})  # the caller's own objects stay as they were
        with lock or threading.Lock():  # a conversation's session masks one request at a time
            mask_slots(COLLECTORS[api](body), session, self.detector)
        for k in names:
            del data[k]
        data.update(body)
        return data

    async def async_pre_call_hook(self, user_api_key_dict: Any, cache: Any, data: dict, call_type: Any
                                  ) -> dict:
        try:
            session, lock = self._session(data, user_api_key_dict)
            call_id = data.get("litellm_call_id")
            if not isinstance(call_id, str) or not call_id:
                import uuid

                call_id = data["litellm_call_id"] = str(uuid.uuid4())
            await asyncio.to_thread(self.mask_request, data, call_type, session, lock)
            api = CALL_TYPES[str(getattr(call_type, "value", call_type))]
            with self._lock:
                self._calls.put(call_id, (api, session, lock))
            return data
        except ProxyError as exc:
            raise self._blocked(exc.message) from None
        except AliasEngineError as exc:
            raise self._blocked(str(exc)) from None
        except Exception as exc:  # fail closed: never forward what could not be masked
            raise self._blocked(f"masking failed ({type(exc).__name__})") from None

    # --- restoring -------------------------------------------------------------------

    def _call(self, data: dict) -> tuple[str, Restorers] | None:
        """The API and the restorers of a request this guardrail masked (forgotten once read)."""
        call_id = data.get("litellm_call_id") if isinstance(data, dict) else None
        with self._lock:
            call = self._calls.pop(call_id, None)
        if call is None:
            return None
        api, session, lock = call
        with lock:
            return api, Restorers(session.table())

    async def async_post_call_success_hook(self, data: dict, user_api_key_dict: Any, response: Any) -> Any:
        call = self._call(data)
        if call is None:
            return response  # this guardrail did not mask the request: nothing of ours to restore
        api, restorers = call
        if isinstance(response, dict):
            RESTORE_BODY[api](response, restorers)
            return response
        body = _as_dict(response)
        if body is None:
            return response
        RESTORE_BODY[api](body, restorers)
        _write_back(response, body)
        return response

    async def async_post_call_streaming_iterator_hook(self, user_api_key_dict: Any, response: Any,
                                                      request_data: dict) -> AsyncGenerator[Any, None]:
        call = self._call(request_data)
        if call is None:
            async for item in response:
                yield item
            return
        api, restorers = call
        stream = STREAMS[api](restorers)
        parser: SSEParser | None = None
        last: Any = None  # the last chunk object (its class builds the chunks a flush adds)
        classes: dict[str, type] = {}
        async for chunk in response:
            if isinstance(chunk, (bytes, str)):  # Anthropic's stream: SSE bytes
                parser = parser or SSEParser()
                events = parser.feed(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
                out = b"".join(e.encode() for event in events for e in stream.on_event(event))
                if out:
                    yield out if isinstance(chunk, bytes) else out.decode("utf-8")
                continue
            data = _as_dict(chunk)
            if data is None:
                yield chunk
                continue
            last = chunk
            if isinstance(data.get("type"), str):
                classes[data["type"]] = type(chunk)
            events = stream.on_event(Event(None, json.dumps(data, ensure_ascii=False)))
            # the chunk itself is the first event out (chat: a flushed rest follows it) or, for typed
            # events, the last of its type (responses: a flushed rest goes before a `.done`)
            mine = 0 if not isinstance(data.get("type"), str) else max(
                (i for i, e in enumerate(events) if _type_of(e) == data["type"]), default=-1)
            for i, event in enumerate(events):
                yield _chunk(chunk if i == mine else None, event, last, classes)
        if parser is not None:
            rest = [e for event in parser.close() for e in stream.on_event(event)] + stream.finish()
            if rest:
                yield b"".join(e.encode() for e in rest)
            return
        for event in stream.finish():
            yield _chunk(None, event, last, classes)


def _as_dict(obj: Any) -> dict | None:
    if isinstance(obj, dict):
        return obj
    dump = getattr(obj, "model_dump", None)
    if dump is None:
        return None
    data = dump()
    return data if isinstance(data, dict) else None


def _type_of(event: Event) -> str | None:
    try:
        data = json.loads(event.data) if event.data else None
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) else None


def _chunk(original: Any, event: Event, last: Any, classes: dict[str, type]) -> Any:
    """A stream event as a chunk object: the original chunk with its restored strings, or a
    new chunk of the class of its kind (a flushed rest)."""
    data = json.loads(event.data) if event.data else {}
    if original is not None:
        if isinstance(original, dict):
            original.clear()
            original.update(data)
        else:
            _write_back(original, data)
        return original
    kind = data.get("type")
    cls = classes.get(kind) if isinstance(kind, str) else type(last)
    cls = cls or type(last)
    if cls is dict or last is None:
        return data
    return cls(**data)


_MISSING = object()
_SCALARS = (str, int, float, bool, type(None))


def _write_back(obj: Any, new: Any) -> None:
    """Put what differs in `new` (a dump of `obj`, restored) back into `obj`: a dict is replaced
    whole, an object (LiteLLM's pydantic types) gets its changed fields set."""
    if isinstance(obj, dict) and isinstance(new, dict):
        obj.clear()
        obj.update(new)
    elif isinstance(obj, list) and isinstance(new, list):
        for i, value in enumerate(new):
            if i >= len(obj):
                obj.append(value)
            elif isinstance(value, (dict, list)) and not isinstance(obj[i], _SCALARS):
                _write_back(obj[i], value)
            elif obj[i] != value:
                obj[i] = value
    elif isinstance(new, dict):
        for key, value in new.items():
            current = getattr(obj, key, _MISSING)
            if current is _MISSING:
                continue  # a key of the dump only (no such attribute to write)
            if isinstance(value, (dict, list)) and not isinstance(current, _SCALARS):
                _write_back(current, value)
            elif current != value:
                setattr(obj, key, value)
