"""The LiteLLM guardrail (alias_engine/adapters/litellm.py) run by LiteLLM's own machinery.

Requests go through the proxy's hook runner (`litellm.proxy.utils.ProxyLogging`: pre_call_hook,
post_call_success_hook, async_post_call_streaming_iterator_hook, as the proxy's routes call
them) and LiteLLM's SDK (`acompletion`, `aresponses`, `anthropic.messages.acreate`) to the
FakeUpstream; the upstream records every body it receives.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
litellm = pytest.importorskip("litellm", reason="the [litellm] extra is not installed")
pytest.importorskip("litellm.proxy.proxy_server",
                    reason="LiteLLM's proxy hook runner needs the packages the test extra lists (fastapi...)")
proxy_utils = pytest.importorskip("litellm.proxy.utils")

from litellm.caching import DualCache  # noqa: E402
from litellm.exceptions import GuardrailRaisedException  # noqa: E402
from litellm.proxy._types import UserAPIKeyAuth  # noqa: E402

from alias_engine import Engine  # noqa: E402
from alias_engine.adapters.litellm import AliasEngineGuardrail  # noqa: E402
from alias_engine.server.fake_upstream import FakeUpstream, ServerThread  # noqa: E402

EMAIL = "jean.dupont@example.fr"
IBAN = "FR76 3000 6000 0112 3456 7890 189"
PHONE = "06 12 34 56 78"
PLANTED = (EMAIL, IBAN, IBAN.replace(" ", ""), PHONE, "jean.dupont")
TEXT = f"Écrivez à {EMAIL}, IBAN {IBAN}, tél. {PHONE}"
ANTHROPIC_MODEL = "anthropic/claude-haiku-4-5"  # a model of LiteLLM's bundled price list (its stream needs one)


@pytest.fixture(scope="module")
def upstream():
    fake = FakeUpstream(delta_chars=3)
    server = ServerThread(fake.app)
    yield fake, server.url
    server.stop()


@pytest.fixture(scope="module")
def guardrail():
    guard = AliasEngineGuardrail(Engine(use_model=False), guardrail_name="alias-engine", default_on=True)
    saved = list(litellm.callbacks)
    litellm.callbacks = [guard]
    yield guard
    litellm.callbacks = saved


def _received(fake, since: int) -> str:
    return "\n".join(b.decode("utf-8") for b in fake.received[since:])


def _assert_masked(fake, since: int) -> str:
    sent = _received(fake, since)
    assert sent, "the upstream received nothing"
    for value in PLANTED:
        assert value not in sent, f"{value!r} reached the upstream"
        assert json.dumps(value)[1:-1] not in sent
    return sent


async def _call(url: str, data: dict, call_type: str):
    """What the proxy's route does: pre-call hooks, the LiteLLM call, post-call hooks."""
    logging = proxy_utils.ProxyLogging(user_api_key_cache=DualCache())
    key = UserAPIKeyAuth(api_key="hashed-key-of-the-client")
    data = await logging.pre_call_hook(user_api_key_dict=key, data=data, call_type=call_type)
    if call_type == "acompletion":
        response = await litellm.acompletion(api_base=url + "/v1", api_key="sk-upstream", **data)
    elif call_type == "aresponses":
        response = await litellm.aresponses(api_base=url + "/v1", api_key="sk-upstream", **data)
    else:
        response = await litellm.anthropic.messages.acreate(api_base=url, api_key="sk-upstream", **data)
    if data.get("stream"):
        return [c async for c in logging.async_post_call_streaming_iterator_hook(
            response=response, user_api_key_dict=key, request_data=data)]
    return await logging.post_call_success_hook(data=data, response=response, user_api_key_dict=key)


def run(coro):
    return asyncio.run(coro)


TOOLS = [{"type": "function", "function": {"name": "lookup", "description": "Find a customer",
                                           "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]


def _chat_body(stream: bool) -> dict:
    return {"model": "openai/gpt-4o-mini", "stream": stream, "tools": TOOLS, "user": EMAIL,
            "messages": [
                {"role": "system", "content": f"Le client appelle du {PHONE}."},
                {"role": "user", "content": f"Cherche {EMAIL}"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "lookup",
                                                                       "arguments": json.dumps({"q": EMAIL})}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": json.dumps({"iban": IBAN, "mail": EMAIL})},
                {"role": "user", "content": [{"type": "text", "text": TEXT}]}],
            "custom_field": {"note": f"rappeler au {PHONE}"}}  # an unknown key: LiteLLM forwards it


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_chat_completions_masked_upstream_restored_back(upstream, guardrail, stream):
    fake, url = upstream
    since = len(fake.received)
    out = run(_call(url, _chat_body(stream), "acompletion"))
    sent = _assert_masked(fake, since)
    assert "[EMAIL_1]" in sent and "[IBAN_1]" in sent
    if stream:
        content = "".join(c.choices[0].delta.content or "" for c in out if c.choices)
        args = "".join(t.function.arguments or "" for c in out if c.choices
                       for t in (c.choices[0].delta.tool_calls or []))
    else:
        content = out.choices[0].message.content
        args = out.choices[0].message.tool_calls[0].function.arguments
    assert content == f"Echo: {TEXT}"
    assert json.loads(args) == {"text": TEXT}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_responses_masked_upstream_restored_back(upstream, guardrail, stream):
    fake, url = upstream
    since = len(fake.received)
    body = {"model": "openai/gpt-4o-mini", "stream": stream, "instructions": f"Client: {EMAIL}",
            "metadata": {"client": EMAIL},
            "input": [{"role": "user", "content": [{"type": "input_text", "text": f"IBAN {IBAN}"}]},
                      {"type": "function_call", "call_id": "call_1", "name": "lookup",
                       "arguments": json.dumps({"q": PHONE})},
                      {"type": "function_call_output", "call_id": "call_1", "output": f"mail {EMAIL}"},
                      {"role": "user", "content": TEXT}]}
    out = run(_call(url, body, "aresponses"))
    _assert_masked(fake, since)
    if stream:
        text = "".join(c.delta for c in out if getattr(c, "type", "") == "response.output_text.delta")
        done = [c for c in out if getattr(c, "type", "") == "response.completed"][0].response
        assert text == f"Echo: {TEXT}"
    else:
        done = out
    assert done.output[0].content[0].text == f"Echo: {TEXT}"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_anthropic_messages_masked_upstream_restored_back(upstream, guardrail, stream):
    fake, url = upstream
    since = len(fake.received)
    body = {"model": ANTHROPIC_MODEL, "max_tokens": 64, "stream": stream, "system": f"Client {PHONE}",
            "tools": [{"name": "lookup", "description": "Find", "input_schema": {"type": "object"}}],
            "messages": [
                {"role": "user", "content": f"Cherche {EMAIL}"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup",
                                                   "input": {"q": EMAIL}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": f"IBAN {IBAN}"},
                                             {"type": "text", "text": TEXT}]}]}
    out = run(_call(url, body, "anthropic_messages"))
    _assert_masked(fake, since)
    echoed = f"IBAN {IBAN} {TEXT}"  # the fake upstream echoes the texts of the last message
    if stream:
        raw = b"".join(c if isinstance(c, bytes) else str(c).encode() for c in out).decode("utf-8")
        events = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
        text = "".join(e["delta"]["text"] for e in events if e.get("type") == "content_block_delta"
                       and e["delta"].get("type") == "text_delta")
        tool = "".join(e["delta"]["partial_json"] for e in events if e.get("type") == "content_block_delta"
                       and e["delta"].get("type") == "input_json_delta")
        assert text == f"Echo: {echoed}"
        assert json.loads(tool) == {"text": echoed}
    else:
        assert out["content"][0]["text"] == f"Echo: {echoed}"
        assert out["content"][1]["input"] == {"text": echoed}


def test_a_conversation_keeps_its_placeholders(upstream, guardrail):
    fake, url = upstream
    first = {"model": "openai/gpt-4o-mini", "litellm_session_id": "conv-1",
             "messages": [{"role": "user", "content": f"Mail {EMAIL}"}]}
    second = {"model": "openai/gpt-4o-mini", "litellm_session_id": "conv-1",
              "messages": [{"role": "user", "content": "Autre: paul.martin@example.org"},
                           {"role": "user", "content": f"Et {EMAIL}"}]}
    run(_call(url, first, "acompletion"))
    since = len(fake.received)
    out = run(_call(url, second, "acompletion"))
    sent = _assert_masked(fake, since)
    assert "Et [EMAIL_1]" in sent and "[EMAIL_2]" in sent  # the same value, the same placeholder
    assert out.choices[0].message.content == f"Echo: Et {EMAIL}"


@pytest.mark.parametrize("body, call_type, reason", [
    ({"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "https://example.org/jean.png"}}]}]}, "acompletion", "image_url"),
    ({"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
      "user_continue_message": {"role": "user", "content": EMAIL}}, "acompletion", "user_continue_message"),
    ({"model": f"gpt {EMAIL}", "messages": [{"role": "user", "content": "hi"}]}, "acompletion", "model"),
    ({"model": "text-embedding-3-small", "input": [EMAIL]}, "aembedding", "aembedding"),
], ids=["image part", "prompt param", "model with text", "embeddings"])
def test_what_cannot_be_masked_is_refused_and_never_sent(upstream, guardrail, body, call_type, reason):
    fake, url = upstream
    since = len(fake.received)
    with pytest.raises(GuardrailRaisedException, match=reason):
        run(_call(url, body, call_type))
    assert fake.received[since:] == []


def test_an_engine_that_fails_blocks_the_call(upstream):
    fake, url = upstream

    def broken(text):
        raise RuntimeError("detector down")

    guard = AliasEngineGuardrail(Engine(use_model=False, detectors=[broken]), guardrail_name="alias-engine",
                                 default_on=True)
    saved = list(litellm.callbacks)
    litellm.callbacks = [guard]
    try:
        since = len(fake.received)
        with pytest.raises(GuardrailRaisedException, match="detector"):
            run(_call(url, {"model": "openai/gpt-4o-mini",
                            "messages": [{"role": "user", "content": f"Mail {EMAIL}"}]}, "acompletion"))
        assert fake.received[since:] == []
    finally:
        litellm.callbacks = saved


def test_the_caller_objects_are_not_masked_in_place(upstream, guardrail):
    fake, url = upstream
    messages = [{"role": "user", "content": f"Mail {EMAIL}"}]
    run(_call(url, {"model": "openai/gpt-4o-mini", "messages": messages}, "acompletion"))
    assert messages == [{"role": "user", "content": f"Mail {EMAIL}"}]


def test_sdk_model_level_guardrail_masks_and_restores(upstream, guardrail):
    """Without the proxy: `guardrails=[name]` on an SDK call runs the same hooks (chat, not streamed)."""
    fake, url = upstream
    since = len(fake.received)
    out = run(litellm.acompletion(model="openai/gpt-4o-mini", api_base=url + "/v1", api_key="sk-upstream",
                                  messages=[{"role": "user", "content": TEXT}], guardrails=["alias-engine"]))
    _assert_masked(fake, since)
    assert out.choices[0].message.content == f"Echo: {TEXT}"


def test_bad_options_are_clear_errors():
    from alias_engine.errors import AliasEngineError

    with pytest.raises(AliasEngineError, match="pseudonyms"):
        AliasEngineGuardrail(Engine(use_model=False), pseudonyms="hash")
    with pytest.raises(AliasEngineError, match="threshold"):
        AliasEngineGuardrail(rules_only=True, threshold=2.0)


def test_built_as_the_proxy_builds_it_from_config_yaml():
    """guardrail_registry.initialize_custom_guardrail passes every set field of litellm_params."""
    from litellm.types.guardrails import LitellmParams

    params = LitellmParams(guardrail="alias_engine.adapters.litellm.AliasEngineGuardrail", mode=["pre_call", "post_call"],
                           default_on=True, pseudonyms="surrogate", rules_only=True, labels="PERSON,EMAIL")
    extra = {k: v for k, v in params.model_dump(exclude_none=True).items()
             if k not in ("guardrail", "mode", "default_on", "stream_scope")}
    guard = AliasEngineGuardrail(guardrail_name="alias-engine", event_hook=params.mode, default_on=True, **extra)
    assert guard.pseudonyms == "surrogate" and guard.engine.use_model is False
    assert set(guard.engine.labels) == {"PERSON", "EMAIL"}
