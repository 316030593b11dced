"""Streamed answers restored event by event, whatever the network cuts: SSE parsing and the
per-API stream restorers of the proxy, without a network (so Hypothesis can try many cuts)."""

from __future__ import annotations

import doctest
import json

import pytest
from _session_helpers import DETECTOR, FR_TURNS
from hypothesis import given, settings
from hypothesis import strategies as st

from alias_engine import Session
from alias_engine.server import errors, masking, sessions, sse
from alias_engine.server.restoring import STREAMS, Restorers
from alias_engine.server.sse import Event, SSEParser


def _session() -> Session:
    session = Session(DETECTOR)
    for turn in FR_TURNS:
        session.mask(turn)
    return session


SESSION = _session()
ANSWER = ("Bonjour [PERSON_1] 😀 ! Le dossier d'[PERSON_1], l'IBAN {IBAN_1} et le [phone 1] ; "
          "écrivez à [EMAIL_1] — [PERSON_9] est inconnu. ") * 2 + "Signé : PERSON_1"  # held until the flush
ARGS = json.dumps({"to": "[PERSON_1]", "address": "[ADDRESS_2]", "note": "ça [IBAN_1]"}, ensure_ascii=False)


def test_doctests_of_the_server_modules():
    for module in (sse, sessions, errors, masking):
        assert doctest.testmod(module).failed == 0


def _pieces(text: str, sizes: list[int]) -> list[str]:
    out, i, k = [], 0, 0
    while i < len(text):
        n = sizes[k % len(sizes)] if sizes else 4
        out.append(text[i:i + n])
        i, k = i + n, k + 1
    return out


def _chat_blob(sizes: list[int]) -> bytes:
    def chunk(delta, finish=None):
        data = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(data, ensure_ascii=False)}\r\n\r\n"

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": p}) for p in _pieces(ANSWER, sizes)]
    events += [chunk({"tool_calls": [{"index": 0, "id": "t", "type": "function",
                                      "function": {"name": "f", "arguments": ""}}]})]
    events += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in _pieces(ARGS, sizes)]
    events += [chunk({}, "tool_calls"), "data: [DONE]\n\n"]
    return "".join(events).encode()


def _messages_blob(sizes: list[int]) -> bytes:
    def event(kind, **data):
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data}, ensure_ascii=False)}\n\n"

    events = [event("message_start", message={"id": "m", "content": []}),
              event("content_block_start", index=0, content_block={"type": "text", "text": ""}), ": comment\n\n"]
    events += [event("content_block_delta", index=0, delta={"type": "text_delta", "text": p})
               for p in _pieces(ANSWER, sizes)]
    events += [event("content_block_stop", index=0),
               event("content_block_start", index=1, content_block={"type": "tool_use", "id": "t", "input": {}})]
    events += [event("content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": p})
               for p in _pieces(ARGS, sizes)]
    events += [event("content_block_stop", index=1), event("message_stop")]
    return "".join(events).encode()


def _responses_blob(sizes: list[int]) -> bytes:
    seq = iter(range(10 ** 6))

    def event(kind, **data):
        return f"event: {kind}\ndata: {json.dumps({'type': kind, 'sequence_number': next(seq), **data})}\n\n"

    ids = {"item_id": "msg", "output_index": 0, "content_index": 0}
    events = [event("response.output_text.delta", delta=p, **ids) for p in _pieces(ANSWER, sizes)]
    events += [event("response.output_text.done", text=ANSWER, **ids)]
    events += [event("response.function_call_arguments.delta", item_id="fc", output_index=1, delta=p)
               for p in _pieces(ARGS, sizes)]
    events += [event("response.function_call_arguments.done", item_id="fc", output_index=1, arguments=ARGS),
               event("response.completed", response={"output": [
                   {"type": "message", "content": [{"type": "output_text", "text": ANSWER}]},
                   {"type": "function_call", "arguments": ARGS}]})]
    return "".join(events).encode()


def _relay(kind: str, blob: bytes, cuts: list[int]) -> list[Event]:
    """What the client receives: the blob read in pieces cut at `cuts`, parsed and restored."""
    stream, parser = STREAMS[kind](Restorers(SESSION.table())), SSEParser()
    bounds = sorted({c for c in cuts if 0 < c < len(blob)})
    out = []
    for a, b in zip([0] + bounds, bounds + [len(blob)]):
        for event in parser.feed(blob[a:b]):
            out.extend(stream.on_event(event))
    for event in parser.close():
        out.extend(stream.on_event(event))
    out.extend(stream.finish())
    # what the client reads back must itself be a valid stream
    return SSEParser().feed(b"".join(e.encode() for e in out))


def _collect(kind: str, events: list[Event]) -> tuple[str, str, list]:
    """The restored text and tool arguments the client reads, and the closing events; a piece
    that arrives after its field was closed (finish_reason, content_block_stop, .done) fails."""
    text, args, done, closed = "", "", [], set()

    def add(field: str, piece: str) -> None:
        nonlocal text, args
        assert field not in closed or not piece, f"{field} received text after it was closed"
        if field == "text":
            text += piece
        else:
            args += piece

    for event in events:
        if event.data == "[DONE]":
            done.append(event.data)
            continue
        data = json.loads(event.data) if event.data and event.data.startswith("{") else {}
        if kind == "chat":
            for choice in data.get("choices", []):
                add("text", choice["delta"].get("content") or "")
                for call in choice["delta"].get("tool_calls") or []:
                    add("args", call["function"].get("arguments") or "")
                if choice.get("finish_reason"):
                    closed.update(("text", "args"))
        elif kind == "messages" and data.get("type") == "content_block_delta":
            add("text", data["delta"].get("text", ""))
            add("args", data["delta"].get("partial_json", ""))
        elif kind == "messages" and data.get("type") == "content_block_stop":
            closed.add(("text", "args")[data["index"]])
        elif kind == "responses":
            if data["type"] == "response.output_text.delta":
                add("text", data["delta"])
            elif data["type"] == "response.function_call_arguments.delta":
                add("args", data["delta"])
            elif data["type"].endswith(".done") or data["type"] == "response.completed":
                closed.add("args" if "arguments" in data["type"] else "text")
                done.append(data)
    return text, args, done


BLOBS = {"chat": _chat_blob, "messages": _messages_blob, "responses": _responses_blob}
EXPECTED_TEXT = SESSION.unmask(ANSWER)
EXPECTED_ARGS = SESSION.unmask(ARGS)


def test_the_expected_answer_is_restored_and_still_json():
    assert "Jean Dupont" in EXPECTED_TEXT and "[PERSON_9]" in EXPECTED_TEXT and "[PERSON_1]" not in EXPECTED_TEXT
    assert json.loads(EXPECTED_ARGS)["address"] == "8 avenue Jean Jaurès\n69007 Lyon"  # escaped in the JSON


@pytest.mark.parametrize("kind", sorted(BLOBS))
@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 12), min_size=1, max_size=6),
       cuts=st.lists(st.integers(0, 20_000), max_size=60))
def test_any_deltas_and_network_cuts_restore_exactly(kind, sizes, cuts):
    blob = BLOBS[kind](sizes)
    text, args, done = _collect(kind, _relay(kind, blob, cuts))
    assert text == EXPECTED_TEXT
    assert args == EXPECTED_ARGS
    if kind == "chat":
        assert done == ["[DONE]"]
    if kind == "responses":
        assert done[0]["text"] == EXPECTED_TEXT and done[1]["arguments"] == EXPECTED_ARGS
        assert done[2]["response"]["output"][0]["content"][0]["text"] == EXPECTED_TEXT


@pytest.mark.parametrize("kind", sorted(BLOBS))
def test_every_single_cut_point(kind):
    blob = BLOBS[kind]([3])
    # chat: every byte of the events that carry the first placeholder and the emoji; then every 61st byte
    for cut in sorted(set(range(0, 800, 1 if kind == "chat" else 4)) | set(range(0, len(blob), 61))):
        text, args, _ = _collect(kind, _relay(kind, blob, [cut]))
        assert (text, args) == (EXPECTED_TEXT, EXPECTED_ARGS), cut


def test_text_is_forwarded_as_soon_as_it_is_safe():
    stream = STREAMS["chat"](Restorers(SESSION.table()))
    outputs = []
    for piece in ["Bonjour ", "[PERS", "ON_1] et ", "merci beaucoup pour tout"]:
        data = {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        (event,) = stream.on_event(Event(None, json.dumps(data)))
        outputs.append(json.loads(event.data)["choices"][0]["delta"]["content"])
    assert outputs[0] == "Bonjour " and outputs[1] == ""  # a placeholder may be starting: held
    assert outputs[2].startswith("Jean Dupont et")
    assert outputs[3] != ""                               # never the whole answer held back


def test_responses_sequence_numbers_stay_in_order():
    events = _relay("responses", _responses_blob([5]), [])
    numbers = [json.loads(e.data)["sequence_number"] for e in events]
    assert numbers == list(range(len(numbers)))


def test_a_stream_ending_without_done_is_flushed():
    blob = _chat_blob([4]).replace(b"data: [DONE]\n\n", b"")
    blob = blob.rsplit(b"data: ", 1)[0]  # no finish_reason either
    text, _, done = _collect("chat", _relay("chat", blob, [17]))
    assert text == EXPECTED_TEXT and done == []


def test_sse_parser_line_endings_and_tail():
    blob = b"event: a\r\ndata: 1\r\ndata: 2\r\rid: 7\ndata: x\n\n: keep-alive\n\ndata: tail"
    for cut in range(len(blob) + 1):
        parser = SSEParser()
        events = parser.feed(blob[:cut]) + parser.feed(blob[cut:]) + parser.close()
        assert events == [Event("a", "1\n2"), Event(None, "x", ("id: 7",)), Event(None, None, (": keep-alive",)),
                          Event(None, "tail")], cut


def test_sse_parser_refuses_invalid_utf8():
    with pytest.raises(Exception, match="UTF-8"):
        SSEParser().feed(b"data: \xff\n\n")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                    | st.sampled_from(["text", "tool_use", "tool_result", "message", "function_call", "user"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["messages", "role", "content", "type", "text", "input", "tool_calls",
                                         "function", "arguments", "system", "output", "metadata", "user",
                                         "prediction", "refusal", "name", "summary", "instructions"]),
                        inner, max_size=4), max_leaves=25)


@pytest.mark.parametrize("kind", sorted(masking.COLLECTORS))
@settings(max_examples=80, deadline=None)
@given(body=st.dictionaries(st.sampled_from(["messages", "input", "system", "instructions", "user", "metadata",
                                             "prediction"]), JSON, max_size=4))
def test_collectors_take_any_json_or_refuse_it_with_a_400(kind, body):
    """Malformed bodies are refused with ProxyError(400), never a crash; what is collected is a string."""
    try:
        slots = masking.COLLECTORS[kind](body)
    except errors.ProxyError as exc:
        assert exc.status == 400
        return
    for slot in slots:
        assert isinstance(slot.text(), str)


def test_a_local_shell_call_is_restored_before_the_client_runs_it():
    from alias_engine.server.restoring import restore_item

    item = {"type": "local_shell_call", "action": {"type": "exec", "command": ["mail", "[EMAIL_1]"],
                                                    "env": {"WHO": "[PERSON_1]"}, "timeout_ms": 5}}
    restore_item(item, Restorers(SESSION.table()))
    assert item["action"] == {"type": "exec", "command": ["mail", "jean.dupont@gmail.com"],
                              "env": {"WHO": "Jean Dupont"}, "timeout_ms": 5}


def test_the_batcher_gives_waiting_texts_to_the_model_together():
    import asyncio
    import threading

    from alias_engine.server.pool import Batcher, DetectionPool

    release, batches = threading.Event(), []

    def detect_many(texts, lang=None):
        batches.append(list(texts))
        if len(batches) == 1:
            release.wait(10)  # the only worker is busy: the next requests' texts queue up
        if "boom" in texts:
            raise RuntimeError("model failure")
        return [[len(t)] for t in texts]

    async def main():
        pool = DetectionPool(workers=1, queue=8)
        batcher = Batcher(pool, detect_many)
        first = asyncio.ensure_future(batcher.detect(["a"]))
        await asyncio.sleep(0.05)
        later = [asyncio.ensure_future(batcher.detect([f"t{i}", f"u{i}"])) for i in range(3)]
        await asyncio.sleep(0.05)
        release.set()
        results = await asyncio.gather(first, *later)
        failing = asyncio.ensure_future(batcher.detect(["boom"]))
        other = asyncio.ensure_future(batcher.detect(["fine"]))
        outcomes = await asyncio.gather(failing, other, return_exceptions=True)
        pool.close()
        return results, outcomes

    results, outcomes = asyncio.run(main())
    assert batches[:2] == [["a"], ["t0", "u0", "t1", "u1", "t2", "u2"]]
    assert results == [[[1]], [[2], [2]], [[2], [2]], [[2], [2]]]
    assert isinstance(outcomes[0], RuntimeError) and outcomes[1] == [[4]]  # an error reaches its own batch
