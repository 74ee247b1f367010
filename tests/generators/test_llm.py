"""The OpenAI-compatible client against scripted transports: replies, timeouts, garbage."""

from __future__ import annotations

import json

import httpx
import pytest

from assay.errors import ConfigError, LLMUnavailable
from assay.generators import ChatClient, ChatEndpoint, model_path_from_settings
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


@pytest.mark.parametrize(
    "url",
    ["not-a-url", "localhost:8000/v1", "ftp://x/v1", "http://"],
    ids=["word", "no-scheme", "ftp", "no-host"],
)
def test_a_base_url_that_is_not_a_url_is_an_error_at_start(url: str) -> None:
    # tryout 38: a typo'd URL silently disabled the model check on every answer.
    settings = load_settings({"ASSAY_LLM_BASE_URL": url, "ASSAY_LLM_MODEL": "m"})
    with pytest.raises(ConfigError, match="is not an http\\(s\\) URL") as info:
        model_path_from_settings(settings)
    assert repr(url) in info.value.message and "ASSAY_LLM_BASE_URL" in (info.value.hint or "")
    with pytest.raises(ConfigError, match="is not an http\\(s\\) URL"):
        ChatEndpoint.from_settings(settings)


def test_an_empty_model_name_is_one_error_on_both_paths() -> None:
    settings = load_settings({"ASSAY_LLM_BASE_URL": "http://x/v1"})
    messages = []
    for start in (model_path_from_settings, ChatEndpoint.from_settings):
        with pytest.raises(ConfigError, match="no model name is given") as info:
            start(settings)  # type: ignore[operator]
        messages.append((info.value.message, info.value.hint))
    assert messages[0] == messages[1] and "ASSAY_LLM_MODEL" in (messages[0][1] or "")


def test_an_escalation_endpoint_is_checked_too() -> None:
    base = {"ASSAY_LLM_BASE_URL": "http://x/v1", "ASSAY_LLM_MODEL": "m"}
    with pytest.raises(ConfigError, match="ASSAY_LLM_ESCALATION_BASE_URL"):
        model_path_from_settings(load_settings(base | {"ASSAY_LLM_ESCALATION_BASE_URL": "big"}))
    with pytest.raises(ConfigError, match="without a primary one"):
        model_path_from_settings(load_settings({"ASSAY_LLM_ESCALATION_BASE_URL": "http://y/v1"}))


@pytest.mark.parametrize(
    ("status", "blames"),
    [(500, "server"), (503, "server"), (429, "rate-limiting"), (401, "API key"), (404, "base URL")],
    ids=["500", "503", "429", "401", "404"],
)
def test_the_hint_fits_the_status(status: int, blames: str) -> None:
    client = ChatClient(ENDPOINT, transport=httpx.MockTransport(lambda r: httpx.Response(status)))
    with pytest.raises(LLMUnavailable) as info:
        client.complete([{"role": "user", "content": "x"}])
    assert blames in (info.value.hint or "")
    if status >= 500:
        assert "API key" not in (info.value.hint or "")


def test_a_base_url_error_names_the_flag_and_the_variable() -> None:
    # The value may have come from --llm-base-url: the error named only the variable (outside
    # recheck 38), while the matching error names both.
    settings = load_settings({}, llm_base_url="not-a-url", llm_model="m")
    with pytest.raises(ConfigError, match="is not an http\\(s\\) URL") as info:
        ChatEndpoint.from_settings(settings)
    said = f"{info.value.message} {info.value.hint}"
    assert "--llm-base-url" in said and "ASSAY_LLM_BASE_URL" in said
    escalation = load_settings(
        {}, llm_base_url="http://x/v1", llm_model="m", llm_escalation_base_url="big"
    )
    with pytest.raises(ConfigError) as info:
        model_path_from_settings(escalation)
    said = f"{info.value.message} {info.value.hint}"
    assert "--llm-escalation-base-url" in said and "ASSAY_LLM_ESCALATION_BASE_URL" in said
    nameless = load_settings({}, llm_base_url="http://x/v1")
    with pytest.raises(ConfigError, match="no model name is given") as info:
        ChatEndpoint.from_settings(nameless)
    assert "--llm-model" in (info.value.hint or "")


def test_a_base_url_error_names_the_flag_on_the_command_line() -> None:
    from click.testing import CliRunner

    from assay.cli._main import main

    args = ["ask", "--llm-base-url", "not-a-url", "--llm-model", "m", "How many orders?"]
    result = CliRunner().invoke(main, args, env={"ASSAY_LLM_BASE_URL": ""})
    assert result.exit_code == 1 and "'not-a-url'" in result.output
    assert "--llm-base-url" in result.output


@pytest.mark.parametrize(
    "url", [" http://x/v1", "http://x/v1 ", "\thttp://x/v1/\n"], ids=["leading", "trailing", "tab"]
)
def test_a_base_url_with_spaces_around_it_is_used_without_them(url: str) -> None:
    # " http://..." passed the start check and failed on every call as UnsupportedProtocol
    # (outside recheck 38): the spaces are not part of the URL.
    settings = load_settings({"ASSAY_LLM_BASE_URL": url, "ASSAY_LLM_MODEL": "m"})
    endpoint = ChatEndpoint.from_settings(settings)
    assert endpoint.base_url == "http://x/v1"
    path = model_path_from_settings(settings)
    assert path is not None and path.primary.endpoint.base_url == "http://x/v1"
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"choices": [{"message": {"content": "ok"}}]})

    client = ChatClient(endpoint, transport=httpx.MockTransport(handler))
    assert client.complete([{"role": "user", "content": "x"}]).texts == ("ok",)
    assert seen == ["http://x/v1/chat/completions"]
