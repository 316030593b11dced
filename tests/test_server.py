"""The proxy over real HTTP: a fake upstream on 127.0.0.1, the openai and anthropic SDKs as clients."""

from __future__ import annotations

import json
import logging
import threading

import anthropic
import httpx
import openai
import pytest
from _server_helpers import EMAIL, IBAN, NAME, PHONE, PROMPT, leaked, running_fake, running_proxy, start
from _server_helpers import engine as _engine

from alias_engine.server import ServerConfig, create_app
from alias_engine.server.fake_upstream import ServerThread

TOOLS_OPENAI = [{"type": "function", "function": {"name": "echo", "parameters": {"type": "object"}}}]
TOOLS_ANTHROPIC = [{"name": "echo", "input_schema": {"type": "object"}}]


@pytest.fixture(scope="module")
def fake():
    yield from running_fake()


@pytest.fixture(autouse=True)
def reset(fake):
    fake.received.clear()
    fake.headers.clear()
    fake.delta_chars, fake.write_bytes, fake.cuts, fake.break_after = 3, 0, None, None



@pytest.fixture(scope="module")
def proxy(fake):
    yield from running_proxy(fake)


def oai(url: str, **headers) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="sk-client", default_headers=headers, max_retries=0)


def claude(url: str, **headers) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="sk-ant-client", default_headers=headers, max_retries=0)


def echoed(text: str) -> str:
    return f"Echo: {text}"


# --- OpenAI chat completions ---------------------------------------------------------------

def test_chat_masks_before_forwarding_and_restores_the_answer(fake, proxy):
    answer = oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
    assert answer.choices[0].message.content == echoed(PROMPT)
    sent = json.loads(fake.received[-1])["messages"][0]["content"]
    assert "[PERSON_1]" in sent and "[EMAIL_1]" in sent and "[IBAN_1]" in sent and "[PHONE_1]" in sent
    assert leaked(fake.received) == []
    assert fake.headers[-1]["authorization"] == "Bearer sk-client"


@pytest.mark.parametrize("write_bytes", [0, 1, 7, 13])
def test_chat_stream_restores_content_and_tool_arguments(fake, proxy, write_bytes):
    fake.write_bytes = write_bytes  # SSE events, placeholders and UTF-8 characters cut across reads
    stream = oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}],
                                                tools=TOOLS_OPENAI, stream=True)
    content, arguments, finish = "", "", None
    for chunk in stream:
        for choice in chunk.choices:
            content += choice.delta.content or ""
            for call in choice.delta.tool_calls or []:
                arguments += call.function.arguments or ""
            finish = choice.finish_reason or finish
    assert content == echoed(PROMPT)
    assert json.loads(arguments) == {"text": PROMPT}
    assert finish == "tool_calls"
    assert leaked(fake.received) == []


def test_chat_stream_helper_of_the_sdk_accumulates_the_restored_message(fake, proxy):
    with oai(proxy).chat.completions.stream(model="m", messages=[{"role": "user", "content": PROMPT}],
                                            tools=TOOLS_OPENAI) as stream:
        final = stream.get_final_completion()
    message = final.choices[0].message
    assert message.content == echoed(PROMPT)
    assert json.loads(message.tool_calls[0].function.arguments) == {"text": PROMPT}


def test_every_role_part_and_tool_call_is_masked(fake, proxy):
    messages = [
        {"role": "system", "content": f"Le client est {NAME}."},
        {"role": "developer", "content": [{"type": "text", "text": f"Son mail : {EMAIL}"}]},
        {"role": "user", "content": [{"type": "text", "text": f"Mon IBAN est {IBAN}."}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "lookup", "arguments": json.dumps({"phone": PHONE, "who": NAME})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": f"{NAME} rappelle au {PHONE}"},
        {"role": "assistant", "content": f"C'est noté pour {NAME}.", "refusal": None},
        {"role": "user", "content": "Merci"},
    ]
    oai(proxy).chat.completions.create(model="m", messages=messages, user=EMAIL, metadata={"client": EMAIL})
    assert leaked(fake.received) == []
    sent = json.loads(fake.received[-1])
    args = json.loads(sent["messages"][3]["tool_calls"][0]["function"]["arguments"])
    assert args == {"phone": "[PHONE_1]", "who": "[PERSON_1]"}  # the same placeholders in every message
    assert sent["messages"][4]["content"] == "[PERSON_1] rappelle au [PHONE_1]"
    assert sent["user"] == "[EMAIL_1]"


def test_resent_history_masks_to_the_same_placeholders(fake, proxy):
    client = oai(proxy)
    turn1 = [{"role": "user", "content": PROMPT}]
    reply = client.chat.completions.create(model="m", messages=turn1).choices[0].message.content
    turn2 = turn1 + [{"role": "assistant", "content": reply},
                     {"role": "user", "content": f"Et Marie Curie, marie.curie@example.org ? {NAME} aussi."}]
    answer = client.chat.completions.create(model="m", messages=turn2).choices[0].message.content
    first, second = (json.loads(body)["messages"] for body in fake.received)
    assert second[0] == first[0]
    assert "[PERSON_1]" in second[2]["content"] and "[EMAIL_2]" in second[2]["content"]
    assert answer == echoed(turn2[-1]["content"])
    assert leaked(fake.received) == []


# --- Anthropic messages ---------------------------------------------------------------------

def test_anthropic_blocks_are_masked_and_tool_use_restored(fake, proxy):
    messages = [
        {"role": "user", "content": [{"type": "text", "text": PROMPT}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup",
                                           "input": {"email": EMAIL, "nested": [{"iban": IBAN}]}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": [{"type": "text", "text": f"{NAME}: {PHONE}"}]},
                                     {"type": "text", "text": f"Écris à {EMAIL}"}]},
    ]
    message = claude(proxy).messages.create(model="m", max_tokens=10, system=f"Client : {NAME}",
                                            messages=messages, tools=TOOLS_ANTHROPIC)
    assert leaked(fake.received) == []
    sent = json.loads(fake.received[-1])
    assert sent["messages"][1]["content"][0]["input"] == {"email": "[EMAIL_1]", "nested": [{"iban": "[IBAN_1]"}]}
    assert sent["system"] == "Client : [PERSON_1]"
    assert message.content[0].text == echoed(f"{NAME}: {PHONE} Écris à {EMAIL}")
    assert message.content[1].input == {"text": f"{NAME}: {PHONE} Écris à {EMAIL}"}
    sent_key = fake.headers[-1].get("x-api-key") or fake.headers[-1]["authorization"].removeprefix("Bearer ")
    assert sent_key == "sk-ant-client"


@pytest.mark.parametrize("write_bytes", [0, 5, 11])
def test_anthropic_stream_restores_text_and_input_json(fake, proxy, write_bytes):
    fake.write_bytes = write_bytes
    with claude(proxy).messages.stream(model="m", max_tokens=10, tools=TOOLS_ANTHROPIC,
                                       messages=[{"role": "user", "content": PROMPT}]) as stream:
        texts = [event.text for event in stream if event.type == "text"]
        final = stream.get_final_message()
    assert "".join(texts) == echoed(PROMPT)
    assert final.content[0].text == echoed(PROMPT)
    assert final.content[1].input == {"text": PROMPT}
    assert leaked(fake.received) == []


# --- OpenAI responses -----------------------------------------------------------------------

def test_responses_masks_input_items_and_restores_output(fake, proxy):
    items = [{"role": "user", "content": [{"type": "input_text", "text": PROMPT}]},
             {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": json.dumps({"who": NAME})},
             {"type": "function_call_output", "call_id": "c1", "output": f"{NAME}, {PHONE}"}]
    response = oai(proxy).responses.create(model="m", input=items, instructions=f"Aide {NAME}.",
                                           tools=[{"type": "function", "name": "echo", "parameters": {}}])
    assert leaked(fake.received) == []
    assert response.output_text == echoed(f"{NAME}, {PHONE}")
    assert json.loads(response.output[1].arguments) == {"text": f"{NAME}, {PHONE}"}


@pytest.mark.parametrize("write_bytes", [0, 9])
def test_responses_stream(fake, proxy, write_bytes):
    fake.write_bytes = write_bytes
    with oai(proxy).responses.stream(model="m", input=PROMPT,
                                     tools=[{"type": "function", "name": "echo", "parameters": {}}]) as stream:
        deltas = "".join(e.delta for e in stream if e.type == "response.output_text.delta")
        final = stream.get_final_response()
    assert deltas == echoed(PROMPT)
    assert final.output_text == echoed(PROMPT)
    assert json.loads(final.output[1].arguments) == {"text": PROMPT}


def test_responses_local_shell_items_are_masked(fake, proxy):
    # "clients.csv", not "contacts.csv": the shipped model, run on that argument alone, calls
    # "contacts.csv" a URL (score 0.54, over-masking); it passed before only when the batch's
    # shared int8 scale happened to push it under the threshold (docs/benchmarks.md, "Batch dependence").
    items = [{"type": "local_shell_call", "call_id": "c1", "status": "completed", "id": "ls_1",
              "action": {"type": "exec", "command": ["grep", EMAIL, "clients.csv"],
                         "working_directory": "/srv/dossiers", "env": {"TO": EMAIL}}},
             {"type": "local_shell_call_output", "call_id": "c1", "output": f"{NAME};{PHONE}"}]
    response = oai(proxy).responses.create(model="m", input=items)
    assert leaked(fake.received) == []
    sent = json.loads(fake.received[-1])["input"][0]["action"]
    assert sent["command"] == ["grep", "[EMAIL_1]", "clients.csv"] and sent["env"] == {"TO": "[EMAIL_1]"}
    assert response.output_text == echoed(f"{NAME};{PHONE}")


def test_previous_response_id_needs_a_session(fake, proxy):
    with pytest.raises(openai.BadRequestError, match="X-Alias-Session"):
        oai(proxy).responses.create(model="m", input="hi", previous_response_id="resp_1")
    assert fake.received == []


# --- failing closed ---------------------------------------------------------------------------

class BrokenEngine:
    placeholder = "[{label}_{n}]"

    def detect_many(self, texts, lang=None):
        raise RuntimeError("boom")

    detect = detect_many


def test_detection_error_forwards_nothing(fake):
    server = start(fake, engine=BrokenEngine())
    try:
        with pytest.raises(openai.InternalServerError) as info:
            oai(server.url).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        assert info.value.status_code == 500 and "nothing was forwarded" in info.value.message
        with pytest.raises(anthropic.InternalServerError) as info:
            claude(server.url).messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "x"}])
        assert info.value.body["type"] == "error" and info.value.body["error"]["type"] == "api_error"
    finally:
        server.stop()
    assert fake.received == []


@pytest.mark.parametrize("path, body, status, fragment", [
    ("/v1/chat/completions", b"{not json", 400, "not valid JSON"),
    ("/v1/chat/completions", b"\xff\xfe", 400, "UTF-8"),
    ("/v1/chat/completions", b"", 400, "empty"),
    ("/v1/chat/completions", b"[1, 2]", 400, "JSON object"),
    ("/v1/chat/completions", b'{"messages": [{"role": "user", "content": "\\ud800"}]}', 400, "surrogate"),
    ("/v1/chat/completions", b"[" * 100_000, 400, "nested"),
    ("/v1/chat/completions", b'{"messages": "hi"}', 400, "messages"),
    ("/v1/chat/completions", json.dumps({"messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:,"}}]}]}).encode(), 400, "image_url"),
    ("/v1/messages", json.dumps({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {}}]}]}).encode(), 400, "document"),
    ("/v1/responses", json.dumps({"input": [{"type": "input_file", "file_id": "f"}]}).encode(), 400, "input_file"),
])
def test_malformed_or_unmaskable_bodies_get_the_api_error_shape(fake, proxy, path, body, status, fragment):
    resp = httpx.post(proxy + path, content=body, headers={"content-type": "application/json"})
    assert resp.status_code == status
    error = resp.json()
    if path == "/v1/messages":
        assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error"
        assert fragment in error["error"]["message"]
    else:
        assert error["error"]["type"] == "invalid_request_error" and fragment in error["error"]["message"]
    assert fake.received == []


def test_other_paths_are_404_and_never_forwarded(fake, proxy):
    for method, path in [("POST", "/v1/embeddings"), ("GET", "/v1/files"), ("POST", "/v2/chat/completions")]:
        resp = httpx.request(method, proxy + path, json={"input": PROMPT})
        assert resp.status_code == 404 and "error" in resp.json()
    assert httpx.get(proxy + "/v1/chat/completions").status_code == 405
    assert fake.received == [] and fake.headers == []


def test_body_over_the_limit_is_413(fake):
    server = start(fake, max_body=1000)
    try:
        resp = httpx.post(server.url + "/v1/messages", json={"messages": [{"role": "user", "content": "x" * 2000}]})
        assert resp.status_code == 413 and resp.json()["error"]["type"] == "request_too_large"
    finally:
        server.stop()
    assert fake.received == []


class SlowEngine:
    placeholder = "[{label}_{n}]"

    def __init__(self):
        self.entered, self.release = threading.Event(), threading.Event()

    def detect_many(self, texts, lang=None):
        self.entered.set()
        self.release.wait(10)
        return [[] for _ in texts]


def test_full_queue_is_503_with_retry_after(fake):
    slow = SlowEngine()
    server = start(fake, engine=slow, workers=1, queue=0)
    try:
        first = threading.Thread(target=lambda: httpx.post(server.url + "/v1/chat/completions", timeout=20, json={
            "model": "m", "messages": [{"role": "user", "content": "one"}]}))
        first.start()
        assert slow.entered.wait(10)
        resp = httpx.post(server.url + "/v1/chat/completions",
                          json={"model": "m", "messages": [{"role": "user", "content": "two"}]})
        assert resp.status_code == 503 and resp.headers["retry-after"] == "1"
        slow.release.set()
        first.join(20)
    finally:
        slow.release.set()
        server.stop()
    assert [json.loads(b)["messages"][0]["content"] for b in fake.received] == ["one"]


def test_upstream_errors_pass_through_with_their_status(fake, proxy):
    with pytest.raises(openai.RateLimitError) as info:
        oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": "FAKE_ERROR_429"}])
    assert info.value.status_code == 429 and info.value.response.headers["retry-after"] == "7"
    with pytest.raises(anthropic.RateLimitError):
        claude(proxy).messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "FAKE_ERROR_429"}])


def test_a_stream_that_breaks_off_ends_with_an_error_event(fake, proxy):
    fake.break_after = 5
    stream = oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}],
                                                stream=True)
    with pytest.raises(openai.APIError, match="broke off"):
        for _ in stream:
            pass
    with pytest.raises(anthropic.APIError, match="broke off"):
        with claude(proxy).messages.stream(model="m", max_tokens=5,
                                           messages=[{"role": "user", "content": "x"}]) as events:
            for _ in events:
                pass


def test_unreachable_upstream_is_502(fake):
    server = ServerThread(create_app(ServerConfig(upstream="http://127.0.0.1:9"), _engine()))
    try:
        with pytest.raises(openai.APIStatusError) as info:
            oai(server.url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert info.value.status_code == 502
    finally:
        server.stop()


def test_claude_code_routes_count_tokens_and_query(fake, proxy):
    resp = httpx.post(proxy + "/v1/messages/count_tokens?beta=true", headers={"anthropic-beta": "x-1"},
                      json={"model": "m", "messages": [{"role": "user", "content": PROMPT}]})
    assert resp.status_code == 200 and resp.json()["input_tokens"] > 0
    assert fake.headers[-1][":query"] == "beta=true" and fake.headers[-1]["anthropic-beta"] == "x-1"
    assert leaked(fake.received) == []


def test_surrogate_mode_restores_realistic_values(fake):
    server = start(fake, mode="surrogate")
    try:
        client = oai(server.url)
        answer = client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}],
                                                stream=True)
        streamed = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    finally:
        server.stop()
    sent = json.loads(fake.received[0])["messages"][0]["content"]
    assert "[PERSON" not in sent and "@" in sent and leaked(fake.received) == []
    assert json.loads(fake.received[1])["messages"][0]["content"] == sent  # the same surrogates in every request
    assert answer.choices[0].message.content == streamed == echoed(PROMPT)


def test_models_pass_through_and_healthz(fake, proxy):
    assert [m.id for m in oai(proxy).models.list()] == ["fake-model"]
    assert httpx.get(proxy + "/healthz").json() == {"status": "ok"}


# --- conversations ---------------------------------------------------------------------------

def test_session_vault_keeps_placeholders_across_requests_and_restarts(fake, tmp_path):
    config = {"vault_dir": tmp_path, "vault_key": b"a long passphrase"}
    server = start(fake, **config)
    try:
        client = oai(server.url, **{"X-Alias-Session": "chat-1"})
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Et Marie Curie ?"}])
        sent = [json.loads(b)["messages"][0]["content"] for b in fake.received]
        assert "[PERSON_1]" in sent[0] and "[PERSON_2]" in sent[1]  # numbering goes on across requests
        for bad in ("../x", "a/b", "", "a.vault", "x" * 129):
            resp = httpx.post(server.url + "/v1/mask", json={"text": "x"}, headers={"X-Alias-Session": bad})
            assert resp.status_code == 400
    finally:
        server.stop()
    vault = (tmp_path / "chat-1.vault").read_bytes()
    assert vault.startswith(b"AEVAULT1") and b"Dupont" not in vault
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chat-1.vault", "chat-1.vault.lock"]
    server = start(fake, **config)  # a new process: the conversation comes back from the vault
    try:
        resp = httpx.post(server.url + "/v1/unmask", json={"text": "[PERSON_1] et [person_2]"},
                          headers={"X-Alias-Session": "chat-1"})
        assert resp.json()["text"] == f"{NAME} et Marie Curie"
        resp = httpx.post(server.url + "/v1/unmask", json={"text": "x"}, headers={"X-Alias-Session": "unknown"})
        assert resp.status_code == 404
    finally:
        server.stop()


def test_two_proxies_on_one_vault_dir_share_the_conversation(fake, tmp_path):
    config = {"vault_dir": tmp_path, "vault_key": b"a long passphrase"}
    a, b = start(fake, **config), start(fake, **config)
    headers = {"X-Alias-Session": "shared"}
    try:
        first = httpx.post(a.url + "/v1/mask", json={"text": f"Bonjour {NAME}"}, headers=headers).json()
        second = httpx.post(b.url + "/v1/mask", json={"text": "Bonjour Marie Curie"}, headers=headers).json()
        back = httpx.post(a.url + "/v1/unmask", json={"text": "[PERSON_1] et [PERSON_2]"}, headers=headers).json()
    finally:
        a.stop()
        b.stop()
    assert (first["text"], second["text"]) == ("Bonjour [PERSON_1]", "Bonjour [PERSON_2]")
    assert back["text"] == f"{NAME} et Marie Curie"  # a read again the vault b saved


# --- security ----------------------------------------------------------------------------------

def test_api_key_is_required_and_never_forwarded(fake):
    server = start(fake, api_keys=(b"proxy-secret",), upstream_api_key="sk-upstream")
    try:
        with pytest.raises(openai.AuthenticationError):
            oai(server.url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert httpx.get(server.url + "/v1/models").status_code == 401
        assert httpx.get(server.url + "/healthz").status_code == 200
        # the key in X-Alias-Key: the client's own credential goes upstream
        oai(server.url, **{"X-Alias-Key": "proxy-secret"}).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}])
        assert fake.headers[-1]["authorization"] == "Bearer sk-client" and "x-alias-key" not in fake.headers[-1]
        # the key as the client's credential: the upstream key replaces it
        openai.OpenAI(base_url=server.url + "/v1", api_key="proxy-secret").chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}])
        assert fake.headers[-1]["authorization"] == "Bearer sk-upstream"
        httpx.post(server.url + "/v1/messages", headers={"x-api-key": "proxy-secret"},
                   json={"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}]})
        assert fake.headers[-1]["x-api-key"] == "sk-upstream" and "authorization" not in fake.headers[-1]
    finally:
        server.stop()
    assert all("proxy-secret" not in json.dumps(h) for h in fake.headers)


def test_logs_hold_counts_and_timings_never_text(fake, proxy, caplog):
    with caplog.at_level(logging.INFO, logger="alias_engine.server"):
        oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        stream = oai(proxy).chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}],
                                                    stream=True)
        list(stream)
        httpx.post(proxy + "/v1/chat/completions", content=PROMPT.encode())
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "PERSON:1" in logged and "EMAIL:1" in logged and "total_ms=" in logged
    assert leaked([logged.encode()]) == [] and "Jean" not in logged


# --- REST ----------------------------------------------------------------------------------------

def test_rest_detect_mask_unmask(fake, proxy):
    spans = httpx.post(proxy + "/v1/detect", json={"text": PROMPT}).json()["spans"]
    assert {s["label"] for s in spans} == {"PERSON", "EMAIL", "IBAN", "PHONE"}
    assert PROMPT[spans[0]["start"]:spans[0]["end"]] == NAME
    masked = httpx.post(proxy + "/v1/mask", json={"text": PROMPT}).json()
    assert leaked([masked["text"].encode()]) == [] and masked["labels"]["PERSON"] == 1
    assert masked["mapping"]["[PERSON_1]"] == NAME and masked["spans"] == spans
    back = httpx.post(proxy + "/v1/unmask", json={"text": masked["text"], "mapping": masked["mapping"]}).json()
    assert back["text"] == PROMPT
    assert httpx.post(proxy + "/v1/unmask", json={"text": "[PERSON_1] !", "mapping": {"[PERSON_1]": NAME}}).json() \
        == {"text": f"{NAME} !", "restored": 1, "unknown": []}
    headers = {"X-Alias-Session": "rest-1"}
    masked = httpx.post(proxy + "/v1/mask", json={"text": PROMPT}, headers=headers).json()["text"]
    assert httpx.post(proxy + "/v1/unmask", json={"text": masked}, headers=headers).json()["text"] == PROMPT
    for body in ({"text": 3}, {"text": "x", "mapping": [1]}, {"text": "x"}):
        assert httpx.post(proxy + "/v1/unmask", json=body).status_code == 400
    assert fake.received == []


# --- the command -----------------------------------------------------------------------------------

def test_serve_without_the_server_extra_says_what_to_install(monkeypatch, capsys):
    import sys

    from alias_engine.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the [server] extra were not installed
    assert main(["serve", "--upstream", "http://127.0.0.1:9"]) == 1
    assert "pip install 'alias-engine[server]'" in capsys.readouterr().err


def test_serve_checks_its_options(monkeypatch, tmp_path, capsys):
    from alias_engine.cli import main

    monkeypatch.delenv("ALIAS_ENGINE_KEY", raising=False)
    assert main(["serve", "--upstream", "http://x", "--vault-dir", str(tmp_path)]) == 1
    assert "ALIAS_ENGINE_KEY" in capsys.readouterr().err
    assert main(["serve", "--upstream", "ftp://x"]) == 1
    assert "http" in capsys.readouterr().err
    (tmp_path / "keys").write_text("\n")
    assert main(["serve", "--upstream", "http://x", "--api-key-file", str(tmp_path / "keys")]) == 1
    assert "empty" in capsys.readouterr().err


def test_the_serve_command_runs_the_proxy(fake, tmp_path):
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    keys = tmp_path / "keys"
    keys.write_text("proxy-secret\n")
    proc = subprocess.Popen([sys.executable, "-m", "alias_engine.cli", "serve", "--upstream", fake.url,
                             "--port", str(port), "--rules-only", "--api-key-file", str(keys)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                httpx.get(url + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        answer = oai(url, **{"X-Alias-Key": "proxy-secret"}).chat.completions.create(
            model="m", messages=[{"role": "user", "content": f"Mail {EMAIL}"}])
        assert answer.choices[0].message.content == echoed(f"Mail {EMAIL}")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "POST /v1/chat/completions 200" in err and "EMAIL:1" in err and EMAIL not in err
    assert leaked(fake.received) == []
