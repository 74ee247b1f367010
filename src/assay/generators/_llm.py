"""A client for any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp, LM Studio).

Only ``POST {base_url}/chat/completions`` is used. Every failure (down, timed out, an HTTP error,
a reply that is not the expected JSON) becomes ``LLMUnavailable`` with the endpoint named, so a
caller can fall back or record a system failure; nothing here decides anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from assay.errors import ConfigError, LLMUnavailable
from assay.settings import DEFAULTS, Settings

__all__ = ["ChatClient", "ChatEndpoint", "ChatReply"]


@dataclass(frozen=True)
class ChatEndpoint:
    base_url: str
    model: str
    api_key: str = ""
    timeout_s: float = DEFAULTS.llm_timeout_s

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatEndpoint:
        if not settings.llm_base_url or not settings.llm_model:
            raise ConfigError(
                "No model endpoint is configured.",
                hint="Set ASSAY_LLM_BASE_URL (e.g. http://localhost:8000/v1) and "
                "ASSAY_LLM_MODEL, and ASSAY_LLM_API_KEY if the endpoint needs one.",
            )
        return cls(
            settings.llm_base_url.rstrip("/"),
            settings.llm_model,
            settings.llm_api_key,
            float(settings.llm_timeout_s),
        )


@dataclass(frozen=True)
class ChatReply:
    """The texts of the choices, and the token usage as billed by the endpoint."""

    texts: tuple[str, ...]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    raw: dict[str, Any] = field(default_factory=dict, compare=False)


class ChatClient:
    """Synchronous chat completions; ``transport`` lets tests script the server."""

    def __init__(self, endpoint: ChatEndpoint, transport: Any = None):
        try:
            import httpx
        except ImportError as exc:  # optional: the [llm] extra
            raise ConfigError(
                "The model client needs httpx.", hint="Install it with: pip install 'assay[llm]'."
            ) from exc
        self.endpoint = endpoint
        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        self._http = httpx.Client(
            base_url=endpoint.base_url,
            headers=headers,
            timeout=endpoint.timeout_s,
            transport=transport,
        )
        self.log: list[dict[str, Any]] = []

    def close(self) -> None:
        self._http.close()

    def complete(
        self, messages: list[dict[str, str]], *, n: int = 1, temperature: float = 0.0
    ) -> ChatReply:
        """``n`` completions (asked for in one call; topped up one at a time if the server
        returns fewer, as some do)."""
        reply = self._call(messages, n, temperature)
        texts = list(reply.texts)
        prompt, completion = reply.prompt_tokens, reply.completion_tokens
        while len(texts) < n:
            more = self._call(messages, 1, temperature)
            texts.extend(more.texts)
            prompt += more.prompt_tokens
            completion += more.completion_tokens
        return ChatReply(tuple(texts[:n]), prompt, completion, reply.raw)

    def _call(self, messages: list[dict[str, str]], n: int, temperature: float) -> ChatReply:
        import httpx

        body = {
            "model": self.endpoint.model,
            "messages": messages,
            "n": n,
            "temperature": temperature,
        }
        self.log.append(body)
        where = f"{self.endpoint.base_url} (model {self.endpoint.model})"
        try:
            response = self._http.post("/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise LLMUnavailable(
                f"The model endpoint {where} timed out after {self.endpoint.timeout_s:g} s.",
                hint="Check the server, or raise its timeout.",
            ) from exc
        except httpx.HTTPError as exc:
            raise LLMUnavailable(
                f"The model endpoint {where} cannot be reached: {type(exc).__name__}.",
                hint="Check ASSAY_LLM_BASE_URL and that the server runs.",
            ) from exc
        if response.status_code != 200:
            raise LLMUnavailable(
                f"The model endpoint {where} answered HTTP {response.status_code}.",
                hint="Check the model name and the API key.",
            )
        try:
            raw = response.json()
            texts = tuple(str(c["message"]["content"] or "") for c in raw["choices"])
            usage = raw.get("usage") or {}
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise LLMUnavailable(
                f"The model endpoint {where} sent a reply that is not a chat completion.",
                hint="Check that it speaks the OpenAI chat API.",
            ) from exc
        if not texts:
            raise LLMUnavailable(
                f"The model endpoint {where} returned no choices.", hint="Check the server's logs."
            )
        return ChatReply(
            texts,
            int(usage.get("prompt_tokens", 0) or 0),
            int(usage.get("completion_tokens", 0) or 0),
            raw,
        )
