"""The proxy is closed by construction: whatever field, query, path or escape a client uses,
no planted value reaches the upstream in clear; each request is masked or refused."""

from __future__ import annotations

import asyncio
import json
import logging
import threading

import httpx
import pytest
from _server_helpers import EMAIL, NAME, PHONE, PROMPT, leaked, running_fake, running_proxy, start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alias_engine import Engine
from alias_engine.pseudonymise import Session
from alias_engine.server import masking
from alias_engine.server.errors import ProxyError

MESSAGE = {"role": "user", "content": "Bonjour"}


@pytest.fixture(scope="module")
def fake():
    yield from running_fake()


@pytest.fixture(autouse=True)
def reset(fake):
    fake.received.clear()
    fake.headers.clear()
    fake.paths.clear()



@pytest.fixture(scope="module")
def proxy(fake):
    yield from running_proxy(fake)


def sent(fake) -> dict:
    return json.loads(fake.received[-1])


# --- fields the proxy has no collector for ----------------------------------------------------

CHAT_BODIES = {
    "metadata as a nested object": {"messages": [MESSAGE], "metadata": {"client": {"contact": f"mail {EMAIL}"}}},
    "metadata as a string": {"messages": [MESSAGE], "metadata": f"client {EMAIL}"},
    "metadata as a list": {"messages": [MESSAGE], "metadata": [f"tél {PHONE}", {"who": PROMPT}]},
    "an unknown top-level key": {"messages": [MESSAGE], "x_customer_note": PROMPT},
    "an unknown key on a message": {"messages": [{**MESSAGE, "x_note": PROMPT}]},
    "an unknown key on a text part": {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Bonjour", "x_note": PROMPT}]}]},
    "prediction as a string": {"messages": [MESSAGE], "prediction": PROMPT},
    "web_search_options.user_location": {"messages": [MESSAGE], "web_search_options": {
        "user_location": {"type": "approximate", "approximate": {"city": PROMPT}}}},
    "an Anthropic body on the chat route": {"system": PROMPT, "max_tokens": 10, "messages": [MESSAGE]},
    "a value as a key": {"messages": [MESSAGE], "metadata": {EMAIL: "client", f"Le client {NAME}": 1}},
}
RESPONSES_BODIES = {
    "prompt.variables": {"prompt": {"id": "pmpt_123", "version": "2", "variables": {"client": PROMPT}},
                         "input": "Bonjour"},
    "prompt_cache_key": {"input": "Bonjour", "prompt_cache_key": f"user-{EMAIL}"},
    "an extra key on a message item": {"input": [{"role": "user", "content": "Bonjour", "x_note": PROMPT}]},
    "an unknown key and no input": {"x_context": PROMPT},
}
MESSAGES_BODIES = {
    "metadata keys other than user_id": {"max_tokens": 10, "messages": [MESSAGE],
                                         "metadata": {"user_id": "u1", "contact": PROMPT}},
    "citations[].cited_text": {"max_tokens": 10, "messages": [{"role": "assistant", "content": [
        {"type": "text", "text": "Voir la source.", "citations": [{"type": "char_location", "cited_text": PROMPT,
                                                                  "document_index": 0}]}]}, MESSAGE]},
    "an unknown key on a block": {"max_tokens": 10, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "Bonjour", "x_note": PROMPT}]}]},
}
CASES = ([("/v1/chat/completions", name, body) for name, body in CHAT_BODIES.items()]
         + [("/v1/responses", name, body) for name, body in RESPONSES_BODIES.items()]
         + [("/v1/messages", name, body) for name, body in MESSAGES_BODIES.items()])


@pytest.mark.parametrize("path, name, body", CASES, ids=[f"{path} {name}" for path, name, _ in CASES])
def test_no_field_goes_upstream_in_clear(fake, proxy, path, name, body):
    resp = httpx.post(proxy + path, json={"model": "m", **body})
    assert resp.status_code == 200, resp.text
    assert len(fake.received) == 1 and leaked(fake.received) == []


def test_ids_and_the_model_pass_as_written_but_only_with_their_shape(fake, proxy):
    body = {"model": "gpt-4o-mini", "messages": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_Ab12", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_Ab12", "content": "ok"}]}
    assert httpx.post(proxy + "/v1/chat/completions", json=body).status_code == 200
    forwarded = sent(fake)
    assert forwarded["model"] == "gpt-4o-mini" and forwarded["messages"][1]["tool_call_id"] == "call_Ab12"
    assert forwarded["messages"][0]["tool_calls"][0]["function"]["name"] == "lookup"
    fake.received.clear()
    for where, bad in [("model", {**body, "model": EMAIL}),
                       ("tool_call_id", {**body, "messages": [body["messages"][0],
                                                              {**body["messages"][1], "tool_call_id": EMAIL}]})]:
        resp = httpx.post(proxy + "/v1/chat/completions", json=bad)
        assert resp.status_code == 400 and where in resp.json()["error"]["message"]
    assert fake.received == []


# --- JSON held in strings -------------------------------------------------------------------------

ACCENTED = ["Mme Renée Lefèvre", "M. Hélène Bérénger", "Mme Ségolène Châtelain", "M. Jérôme Pépin",
            "Mme Maëlle Kerbrat-Guéhenneuc"]


@pytest.mark.parametrize("who", ACCENTED)
def test_escaped_json_is_masked_on_its_decoded_text(fake, proxy, who):
    arguments = json.dumps({"destinataire": who, "mail": EMAIL})  # json.dumps' default: \u00e9 escapes
    result = json.dumps({"statut": "envoyé", "à": who})
    body = {"model": "m", "messages": [
        {"role": "user", "content": "Écris-lui."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "send", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "c1", "content": result}]}
    assert httpx.post(proxy + "/v1/chat/completions", json=body).status_code == 200
    forwarded = sent(fake)["messages"]
    args, tool = forwarded[1]["tool_calls"][0]["function"]["arguments"], forwarded[2]["content"]
    assert args.isascii() and tool.isascii()  # written back with their \\u escapes
    decoded = json.dumps([json.loads(args), json.loads(tool)], ensure_ascii=False)
    surname = who.split()[-1]
    assert surname not in decoded and surname.split("-")[0] not in decoded and EMAIL not in decoded


# --- query strings and paths ---------------------------------------------------------------------

def test_query_parameters_other_than_beta_are_refused(fake, proxy):
    resp = httpx.post(proxy + f"/v1/chat/completions?user={EMAIL}", json={"model": "m", "messages": [MESSAGE]})
    assert resp.status_code == 400 and "user" in resp.json()["error"]["message"]
    assert httpx.get(proxy + f"/v1/models?owner={EMAIL}").status_code == 400
    assert fake.paths == []
    resp = httpx.post(proxy + "/v1/messages?beta=true", json={"model": "m", "max_tokens": 5, "messages": [MESSAGE]})
    assert resp.status_code == 200 and fake.paths == ["/v1/messages?beta=true"]


@pytest.mark.parametrize("path", [
    "/v1/models/../files", "/v1/models/%2e%2e/files/file-1/content", "/v1/models/x/../../responses/resp_123",
    "/v1/models/..%2f..%2fv1/organization/users", "/v1/models/x%2f..%2f..%2ffiles", f"/v1/models/{EMAIL}",
    "/v1/models/.hidden", "/v1/chat/completions/../../files",
])
def test_no_route_reaches_another_upstream_path(fake, proxy, path):
    with httpx.Client() as client:  # the path sent as written: httpx would remove the dot segments
        request = client.build_request("GET", proxy + "/v1/models")
        request.url = request.url.copy_with(raw_path=path.encode())
        resp = client.send(request)
    assert resp.status_code in (400, 404, 405) and "error" in resp.json()
    assert fake.paths == []


def test_a_model_id_is_forwarded_under_the_models_route(fake, proxy):
    assert httpx.get(proxy + "/v1/models/gpt-4o-mini").status_code == 200
    assert httpx.get(proxy + "/v1/models/anthropic/claude-sonnet-4").status_code == 200
    assert fake.paths == ["/v1/models/gpt-4o-mini", "/v1/models/anthropic/claude-sonnet-4"]


# --- logs, keys and sessions ---------------------------------------------------------------------

def test_the_log_holds_no_value_at_any_level(fake, proxy, caplog):
    with caplog.at_level(logging.DEBUG):
        httpx.get(proxy + f"/v1/models/{EMAIL.replace('@', '-at-')}")
        httpx.get(proxy + f"/v1/models?owner={EMAIL}")
        httpx.post(proxy + "/v1/messages?beta=true", json={"model": "m", "max_tokens": 5, "messages": [
            {"role": "user", "content": PROMPT}]})
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "jean.dupont" not in logged and leaked([logged.encode()]) == []
    assert "beta=true" not in logged  # httpx's request lines, with the upstream URL, are off


def test_sessions_are_bound_to_the_key_that_made_them(fake):
    server = start(fake, api_keys=(b"key-a", b"key-b"))
    try:
        a, b = {"X-Alias-Key": "key-a", "X-Alias-Session": "sessA"}, {"X-Alias-Key": "key-b",
                                                                        "X-Alias-Session": "sessA"}
        masked = httpx.post(server.url + "/v1/mask", headers=a, json={"text": PROMPT}).json()["text"]
        assert EMAIL not in masked
        theirs = httpx.post(server.url + "/v1/unmask", headers=b, json={"text": masked})
        assert theirs.status_code == 404 and EMAIL not in theirs.text
        # key b's own "sessA" is another conversation: its placeholders restore nothing of key a's
        httpx.post(server.url + "/v1/mask", headers=b, json={"text": "Rien à signaler."})
        assert EMAIL not in httpx.post(server.url + "/v1/unmask", headers=b, json={"text": masked}).text
        mine = httpx.post(server.url + "/v1/unmask", headers=a, json={"text": masked}).json()
        assert mine["text"] == PROMPT
    finally:
        server.stop()


def test_the_proxy_key_never_goes_upstream_even_sent_twice(fake):
    server = start(fake, api_keys=(b"proxy-secret",))
    try:
        resp = httpx.post(server.url + "/v1/chat/completions", json={"model": "m", "messages": [MESSAGE]},
                          headers={"X-Alias-Key": "proxy-secret", "Authorization": "Bearer proxy-secret",
                                   "x-api-key": "proxy-secret"})
        assert resp.status_code == 200
    finally:
        server.stop()
    assert fake.headers and all("proxy-secret" not in json.dumps(h) for h in fake.headers)


# --- cost and limits -------------------------------------------------------------------------------

def test_a_request_over_the_text_limit_is_413(fake):
    server = start(fake, max_texts=50)
    try:
        messages = [{"role": "user", "content": f"message {i}"} for i in range(60)]
        resp = httpx.post(server.url + "/v1/chat/completions", json={"model": "m", "messages": messages})
    finally:
        server.stop()
    assert resp.status_code == 413 and fake.received == []


RULES = Engine(use_model=False)


def test_masking_stops_when_the_client_is_gone():
    body = {"messages": [{"role": "user", "content": PROMPT}]}
    stop = threading.Event()
    stop.set()
    with pytest.raises(ProxyError) as caught:
        masking.mask_slots(masking.COLLECTORS["chat"](body), Session(RULES), masking.CachedDetector(RULES), stop)
    assert caught.value.status == 499 and body["messages"][0]["content"] == PROMPT


def test_a_part_whose_type_is_not_a_string_is_refused():
    body = {"messages": [{"role": "user", "content": [{"type": ["text"], "text": PROMPT}]}]}
    with pytest.raises(ProxyError) as caught:  # was a TypeError (unhashable list): a 500, not a 400
        masking.COLLECTORS["chat"](body)
    assert caught.value.status == 400


def test_a_cancelled_request_leaves_nothing_waiting_in_the_batcher():
    from alias_engine.server.pool import Batcher, DetectionPool

    release = threading.Event()

    def detect_many(texts, lang=None):
        release.wait(10)
        return [[] for _ in texts]

    async def scenario():
        pool = DetectionPool(workers=1, queue=4)
        batcher = Batcher(pool, detect_many, max_texts=2)
        first = asyncio.ensure_future(batcher.detect(["a", "b"]))
        second = asyncio.ensure_future(batcher.detect(["c", "d", "e"]))
        await asyncio.sleep(0.05)
        second.cancel()
        await asyncio.sleep(0)
        release.set()
        assert await first == [[], []]
        waiting = len(batcher._waiting)
        pool.close()
        return waiting

    assert asyncio.run(scenario()) == 0


# --- the property: a value anywhere in any body is masked or refused ---------------------------------

KEYS = st.sampled_from(["messages", "role", "content", "type", "text", "input", "tool_calls", "function",
                        "arguments", "system", "metadata", "user", "prediction", "name", "id", "model",
                        "tool_call_id", "prompt", "variables", "x_note", "citations", "cited_text"])
WORDS = st.sampled_from(["user", "assistant", "text", "tool_use", "message", "function_call", "auto", "hi"])
PLANT = "planted.value@example.org"


def _json(leaf):
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS | leaf.filter(
        lambda v: isinstance(v, str)), inner, max_size=3), max_leaves=12)


BODIES = st.dictionaries(KEYS, _json(st.none() | st.integers() | WORDS | st.just(PLANT)
                                     | st.just(f"écrire à {PLANT}") | st.just(json.dumps({"to": PLANT}))),
                         max_size=4)


@pytest.mark.parametrize("kind", sorted(masking.COLLECTORS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=BODIES)
def test_a_value_anywhere_in_any_body_is_masked_or_the_body_refused(kind, body):
    detector = masking.CachedDetector(RULES)
    try:
        slots = masking.COLLECTORS[kind](body)
        masking.mask_slots(slots, Session(detector), detector)
    except ProxyError as exc:
        assert exc.status == 400
        return
    assert "planted.value" not in json.dumps(body, ensure_ascii=False)
