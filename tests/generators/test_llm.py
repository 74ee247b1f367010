"""The OpenAI-compatible client against scripted transports: replies, timeouts, garbage."""

from __future__ import annotations

import json

import httpx
import pytest

from assay.errors import ConfigError, LLMUnavailable
from assay.generators import ChatClient, ChatEndpoint
from assay.settings import load_settings

ENDPOINT = ChatEndpoint("http://model.test/v1", "tiny", "secret", timeout_s=2)


def completion(*texts: str) -> dict[str, object]:
    return {
        "choices": [{"message": {"role": "assistant", "content": t}} for t in texts],
        "usage": {"prompt_tokens": 10, "completion_tokens": 3},
    }


def test_reply_and_request_shape() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion("a", "b"))

    client = ChatClient(ENDPOINT, transport=httpx.MockTransport(handler))
    reply = client.complete([{"role": "user", "content": "hi"}], n=2)
    assert reply.texts == ("a", "b") and reply.prompt_tokens == 10
    assert seen[0].url.path == "/v1/chat/completions"
    assert seen[0].headers["authorization"] == "Bearer secret"
    body = json.loads(seen[0].content)
    assert body["model"] == "tiny" and body["n"] == 2


def test_tops_up_when_the_server_ignores_n() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(200, json=completion(f"t{len(calls)}"))

    reply = ChatClient(ENDPOINT, transport=httpx.MockTransport(handler)).complete(
        [{"role": "user", "content": "x"}], n=3
    )
    assert reply.texts == ("t1", "t2", "t3") and reply.completion_tokens == 9


@pytest.mark.parametrize(
    ("handler", "words"),
    [
        (lambda r: (_ for _ in ()).throw(httpx.ReadTimeout("slow", request=r)), "timed out"),
        (
            lambda r: (_ for _ in ()).throw(httpx.ConnectError("down", request=r)),
            "cannot be reached",
        ),
        (lambda r: httpx.Response(500, text="boom"), "HTTP 500"),
        (lambda r: httpx.Response(200, text="<html>not json</html>"), "not a chat completion"),
        (lambda r: httpx.Response(200, json={"choices": []}), "no choices"),
        (lambda r: httpx.Response(200, json={"weird": True}), "not a chat completion"),
    ],
    ids=["timeout", "down", "http-error", "not-json", "no-choices", "wrong-shape"],
)
def test_failures_are_llm_unavailable(handler: object, words: str) -> None:
    client = ChatClient(ENDPOINT, transport=httpx.MockTransport(handler))  # type: ignore[arg-type]
    with pytest.raises(LLMUnavailable, match=words) as info:
        client.complete([{"role": "user", "content": "x"}])
    assert "model.test" in str(info.value)
    assert info.value.code == "llm.unavailable"


def test_endpoint_needs_settings() -> None:
    with pytest.raises(ConfigError, match="ASSAY_LLM_BASE_URL"):
        ChatEndpoint.from_settings(load_settings({}))
    endpoint = ChatEndpoint.from_settings(
        load_settings({"ASSAY_LLM_BASE_URL": "http://x/v1/", "ASSAY_LLM_MODEL": "m"})
    )
    assert endpoint.base_url == "http://x/v1"
