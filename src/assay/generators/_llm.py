"""A client for any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp, LM Studio).

Only ``POST {base_url}/chat/completions`` is used. Every failure (down, timed out, an HTTP error,
a reply that is not the expected JSON) becomes ``LLMUnavailable`` with the endpoint named, so a
caller can fall back or record a system failure; nothing here decides anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from assay.errors import ConfigError, LLMUnavailable
from assay.settings import DEFAULTS, SETTINGS, Settings

__all__ = ["ChatClient", "ChatEndpoint", "ChatReply", "checked_endpoint", "status_hint"]


@dataclass(frozen=True)
class ChatEndpoint:
    base_url: str
    model: str
    api_key: str = ""
    timeout_s: float = DEFAULTS.llm_timeout_s

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatEndpoint:
        """The primary endpoint the settings name, checked (see ``checked_endpoint``)."""
        if not settings.llm_base_url:
            raise ConfigError(
                "No model endpoint is configured.",
                hint="Set ASSAY_LLM_BASE_URL (e.g. http://localhost:8000/v1) and "
                "ASSAY_LLM_MODEL, and ASSAY_LLM_API_KEY if the endpoint needs one.",
            )
        return checked_endpoint(settings, settings.llm_base_url, settings.llm_model, "LLM")


def checked_endpoint(settings: Settings, base_url: str, model: str, which: str) -> ChatEndpoint:
    """An endpoint whose base URL is an http(s) URL and whose model is named, else a
    ``ConfigError`` naming the value and the setting to fix (a typo'd URL or a missing model
    name is said at start, never found out as a failed check on every answer).

    ``which`` is the settings' infix: ``LLM`` or ``LLM_ESCALATION``.

    Example:
        >>> checked_endpoint(Settings(), "http://localhost:8000/v1/", "m", "LLM").base_url
        'http://localhost:8000/v1'
    """
    prefix = which.lower()
    url_setting = next(s for s in SETTINGS if s.name == f"{prefix}_base_url")
    model_setting = next(s for s in SETTINGS if s.name == f"{prefix}_model")
    # The flag and the variable, as the matching error names them: the value may have come
    # from either (the flag went unnamed, outside recheck 38).
    where = f"{url_setting.flag} or {url_setting.env_var}"
    # Spaces around a pasted URL are not part of it: " http://..." passed this check and failed
    # on every call as an unsupported protocol (outside recheck 38).
    base_url = base_url.strip()
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"The model endpoint {base_url!r} ({where}) is not an http(s) URL.",
            hint=f"Set {where} to the endpoint's base URL, e.g. http://localhost:8000/v1.",
        )
    if not model.strip():
        raise ConfigError(
            f"The model endpoint {base_url!r} ({where}) is set, but no model name is given.",
            hint=f"Set {model_setting.flag} or {model_setting.env_var} to the name of a model "
            "the endpoint serves.",
        )
    return ChatEndpoint(
        base_url.rstrip("/"), model, settings.llm_api_key, float(settings.llm_timeout_s)
    )


def status_hint(status: int) -> str:
    """What to check for an HTTP status from the endpoint (a server error is not a bad key).

    Example:
        >>> status_hint(500)
        "The endpoint's server failed; check its logs, or try again later."
    """
    if status in (401, 403):
        return "Check the API key (ASSAY_LLM_API_KEY)."
    if status == 404:
        return "Check the base URL (it usually ends in /v1) and the model name."
    if status == 429:
        return "The endpoint is rate-limiting; wait, or lower --n-samples."
    if status >= 500:
        return "The endpoint's server failed; check its logs, or try again later."
    return "Check the model name, the API key and the request the server expects."


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
                hint=status_hint(response.status_code),
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
