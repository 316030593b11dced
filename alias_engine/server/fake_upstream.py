"""A fake LLM API for tests, the benchmark and trying the proxy without an account.

It answers OpenAI chat completions, Responses and Anthropic messages, streamed
or not, by echoing the last user text (so a masked prompt comes back with its
placeholders), plus a tool call whose arguments hold the same text when the
request offers tools. It records every body it receives (`received`), cuts
its streams into deltas of `delta_chars` characters and its SSE bytes into
network writes of `write_bytes` bytes (or at `cuts`), so events, placeholders
and UTF-8 characters are split.

    python -m alias_engine.server.fake_upstream --port 9999
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route


class FakeUpstream:
    def __init__(self, delta_chars: int = 4, write_bytes: int = 0, delay: float = 0.0) -> None:
        self.delta_chars = delta_chars
        self.write_bytes = write_bytes      # 0: one write per event
        self.cuts: list[int] | None = None  # byte offsets of the writes (overrides write_bytes)
        self.delay = delay                  # seconds between writes
        self.break_after: int | None = None # drop the connection after this many writes
        self.record = True                  # keep what was received (off for long benchmarks)
        self.received: list[bytes] = []
        self.headers: list[dict] = []
        self.paths: list[str] = []           # every path reached, with its query
        self.app = Starlette(routes=[
            Route("/v1/chat/completions", self.chat, methods=["POST"]),
            Route("/v1/responses", self.responses, methods=["POST"]),
            Route("/v1/messages", self.messages, methods=["POST"]),
            Route("/v1/messages/count_tokens", self.count_tokens, methods=["POST"]),
            Route("/v1/models", self.models, methods=["GET"]),
            Route("/v1/models/{model}", self.models, methods=["GET"]),
            Route("/{path:path}", self.elsewhere, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        ])

    # --- helpers -----------------------------------------------------------------------

    async def _body(self, request: Request) -> dict:
        raw = await request.body()
        if self.record:
            self.received.append(raw)
            self.headers.append({**request.headers, ":query": request.url.query})
            self.paths.append(str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""))
        return json.loads(raw)

    def _pieces(self, text: str) -> list[str]:
        n = max(1, self.delta_chars)
        return [text[i:i + n] for i in range(0, len(text), n)] or [""]

    def _stream(self, events: list[bytes]) -> StreamingResponse:
        blob = b"".join(events)
        if self.cuts is not None:
            bounds = sorted({c for c in self.cuts if 0 < c < len(blob)})
            writes = [blob[a:b] for a, b in zip([0] + bounds, bounds + [len(blob)])]
        elif self.write_bytes:
            writes = [blob[i:i + self.write_bytes] for i in range(0, len(blob), self.write_bytes)]
        else:
            writes = events
        delay, break_after = self.delay, self.break_after

        async def gen():
            for n, piece in enumerate(writes):
                if break_after is not None and n >= break_after:
                    raise ConnectionAbortedError("the fake upstream drops the stream")
                yield piece
                await asyncio.sleep(delay)  # a yield to the loop at least: one network write each

        return StreamingResponse(gen(), media_type="text/event-stream")

    @staticmethod
    def _error(text: str, api: str) -> Response | None:
        if "FAKE_ERROR_429" in text:
            body = ({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
                    if api == "anthropic" else {"error": {"message": "slow down", "type": "rate_limit"}})
            return JSONResponse(body, status_code=429, headers={"retry-after": "7"})
        return None

    # --- OpenAI chat -------------------------------------------------------------------

    async def chat(self, request: Request) -> Response:
        body = await self._body(request)
        text = _last_text(body.get("messages", []))
        error = self._error(text, "openai")
        if error is not None:
            return error
        answer = f"Echo: {text}"
        args = json.dumps({"text": text}, ensure_ascii=False) if body.get("tools") else None
        base = {"id": "chatcmpl-fake", "created": int(time.time()), "model": body.get("model", "fake")}
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": answer}
            if args is not None:
                message["tool_calls"] = [{"id": "call_1", "type": "function",
                                          "function": {"name": "echo", "arguments": args}}]
            return JSONResponse({**base, "object": "chat.completion", "choices": [
                {"index": 0, "message": message, "finish_reason": "tool_calls" if args else "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

        def chunk(delta: dict, finish: str | None = None) -> bytes:
            data = {**base, "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()

        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": piece}) for piece in self._pieces(answer)]
        if args is not None:
            events.append(chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                 "function": {"name": "echo", "arguments": ""}}]}))
            events += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in self._pieces(args)]
        events.append(chunk({}, "tool_calls" if args else "stop"))
        events.append(b"data: [DONE]\n\n")
        return self._stream(events)

    # --- OpenAI responses --------------------------------------------------------------

    async def responses(self, request: Request) -> Response:
        body = await self._body(request)
        items = body.get("input")
        text = items if isinstance(items, str) else _last_text(items or [])
        error = self._error(text, "openai")
        if error is not None:
            return error
        answer = f"Echo: {text}"
        args = json.dumps({"text": text}, ensure_ascii=False) if body.get("tools") else None
        message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": answer, "annotations": []}]}
        call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "echo",
                "arguments": args, "status": "completed"}
        output = [message] + ([call] if args is not None else [])
        response = {"id": "resp_1", "object": "response", "created_at": int(time.time()), "status": "completed",
                    "model": body.get("model", "fake"), "output": output, "parallel_tool_calls": True,
                    "tool_choice": "auto", "tools": []}
        if not body.get("stream"):
            return JSONResponse(response)
        seq = iter(range(10 ** 6))

        def event(kind: str, **data) -> bytes:
            payload = {"type": kind, "sequence_number": next(seq), **data}
            return f"event: {kind}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()

        start = {**response, "status": "in_progress", "output": []}
        events = [event("response.created", response=start),
                  event("response.output_item.added", output_index=0, item={**message, "content": [],
                                                                             "status": "in_progress"}),
                  event("response.content_part.added", item_id="msg_1", output_index=0, content_index=0,
                        part={"type": "output_text", "text": "", "annotations": []})]
        events += [event("response.output_text.delta", item_id="msg_1", output_index=0, content_index=0,
                         delta=piece, logprobs=[]) for piece in self._pieces(answer)]
        events += [event("response.output_text.done", item_id="msg_1", output_index=0, content_index=0,
                         text=answer, logprobs=[]),
                   event("response.content_part.done", item_id="msg_1", output_index=0, content_index=0,
                         part=message["content"][0]),
                   event("response.output_item.done", output_index=0, item=message)]
        if args is not None:
            events.append(event("response.output_item.added", output_index=1, item={**call, "arguments": ""}))
            events += [event("response.function_call_arguments.delta", item_id="fc_1", output_index=1, delta=p)
                       for p in self._pieces(args)]
            events += [event("response.function_call_arguments.done", item_id="fc_1", output_index=1,
                             arguments=args),
                       event("response.output_item.done", output_index=1, item=call)]
        events.append(event("response.completed", response=response))
        return self._stream(events)

    # --- Anthropic messages ------------------------------------------------------------

    async def messages(self, request: Request) -> Response:
        body = await self._body(request)
        text = _last_text(body.get("messages", []))
        error = self._error(text, "anthropic")
        if error is not None:
            return error
        answer = f"Echo: {text}"
        tool_input = {"text": text} if body.get("tools") else None
        content: list[dict[str, Any]] = [{"type": "text", "text": answer}]
        if tool_input is not None:
            content.append({"type": "tool_use", "id": "toolu_1", "name": "echo", "input": tool_input})
        message = {"id": "msg_fake", "type": "message", "role": "assistant", "model": body.get("model", "fake"),
                   "content": content, "stop_reason": "tool_use" if tool_input else "end_turn",
                   "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
        if not body.get("stream"):
            return JSONResponse(message)

        def event(kind: str, **data) -> bytes:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data}, ensure_ascii=False)}\n\n".encode()

        events = [event("message_start", message={**message, "content": [], "stop_reason": None}),
                  event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
                  event("ping")]
        events += [event("content_block_delta", index=0, delta={"type": "text_delta", "text": p})
                   for p in self._pieces(answer)]
        events.append(event("content_block_stop", index=0))
        if tool_input is not None:
            raw = json.dumps(tool_input, ensure_ascii=False)
            events.append(event("content_block_start", index=1, content_block={
                "type": "tool_use", "id": "toolu_1", "name": "echo", "input": {}}))
            events += [event("content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": p})
                       for p in self._pieces(raw)]
            events.append(event("content_block_stop", index=1))
        events += [event("message_delta", delta={"stop_reason": message["stop_reason"], "stop_sequence": None},
                         usage={"output_tokens": 1}),
                   event("message_stop")]
        return self._stream(events)

    async def count_tokens(self, request: Request) -> Response:
        body = await self._body(request)
        return JSONResponse({"input_tokens": len(json.dumps(body.get("messages", []))) // 4})

    async def models(self, request: Request) -> Response:
        self.headers.append(dict(request.headers))
        self.paths.append(str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""))
        return JSONResponse({"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0,
                                                          "owned_by": "alias-engine"}]})


    async def elsewhere(self, request: Request) -> Response:
        """Any other endpoint of the account: a proxy must never reach one."""
        self.headers.append(dict(request.headers))
        self.paths.append(str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""))
        return JSONResponse({"reached": request.url.path})


def _last_text(items: list) -> str:
    """The text of the last message or input item (string content, text parts, tool results)."""
    for item in reversed(items):
        if not isinstance(item, dict):
            continue
        content = item.get("content", item.get("output"))
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return _texts(content)
    return ""


def _texts(parts: list) -> str:
    texts = []
    for part in parts:
        if isinstance(part, dict):
            inner = part.get("content")
            texts.append(part.get("text") or (inner if isinstance(inner, str) else
                                              _texts(inner) if isinstance(inner, list) else ""))
    return " ".join(t for t in texts if t)


class ServerThread:
    """An ASGI app served by uvicorn on 127.0.0.1 in a background thread (`.url`, `.stop()`)."""

    def __init__(self, app, port: int = 0) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def main() -> None:
    import argparse

    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=9999)
    parser.add_argument("--delta-chars", type=int, default=4)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between stream writes")
    parser.add_argument("--no-record", action="store_true", help="do not keep the bodies received (long runs)")
    args = parser.parse_args()
    fake = FakeUpstream(delta_chars=args.delta_chars, delay=args.delay)
    fake.record = not args.no_record
    uvicorn.run(fake.app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
