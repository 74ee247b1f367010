"""``build_mcp``: an MCP server (the official ``mcp`` SDK) over the same ``Service``.

Tools ``ask``, ``sql``, ``catalog`` and ``semantic``: an agent that calls Assay gets the same
guard, the same gate and the same ledger as a person on the page, and every verdict comes back
with its reasons. Errors come back as the service's JSON error shape, never as a traceback.
Served over stdio (``assay mcp``) and over streamable HTTP at ``/mcp`` by ``assay serve``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from assay.errors import AssayError
from assay.service._errors import (
    ApiError,
    client_for,
    encode,
    error_body,
    forbidden_field,
    from_assay_error,
)
from assay.service._models import FORBIDDEN_FIELDS
from assay.service._service import Service

__all__ = ["TOOLS", "build_mcp", "mcp_http"]

TOOLS = ("ask", "catalog", "semantic", "sql")
# Each tool's arguments, all strings; the required ones first. One the tool does not take is
# refused (the SDK's argument models ignore it: an agent that sent ``databse`` would have been
# answered from the default database), and so is one of another type (the SDK's own message was
# pydantic's text with its URL, outside tryout 25).
_ARGUMENTS = {
    "ask": ("question", "database", "follow_up_of"),
    "sql": ("sql", "database", "question"),
    "catalog": ("database",),
    "semantic": ("database",),
}
_REQUIRED = {"ask": ("question",), "sql": ("sql",)}
# The client a call over HTTP is recorded as: its token's name, set by ``_TokenGate``.
_CLIENT: ContextVar[str | None] = ContextVar("assay_mcp_client", default=None)


def _argument_error(name: str, arguments: dict[str, Any]) -> ApiError | None:
    """Why a call's arguments are refused, as the HTTP API would say it; None when they pass.

    Example:
        >>> _argument_error("ask", {"question": 3}).message
        "The 'ask' tool's argument 'question' is a number, not a string."
    """
    known = _ARGUMENTS.get(name)
    if known is None:  # the SDK's own answer was plain text (outside tryout 41, F6)
        return ApiError(
            "request.invalid",
            f"No tool {name[:100]!r}.",
            f"Call one of the tools {', '.join(TOOLS)}.",
            {"tools": list(TOOLS)},
        )
    extra = sorted(set(arguments) - set(known))
    forbidden = sorted(FORBIDDEN_FIELDS & set(extra))
    if forbidden:
        return forbidden_field(forbidden, f"The {name!r} tool's call")
    if extra:
        return ApiError(
            "request.unknown_field",
            f"The {name!r} tool takes no argument {', '.join(repr(e) for e in extra[:10])}.",
            f"Its arguments are {list(known)}.",
            {"unknown": extra[:10]},
        )
    missing = [a for a in _REQUIRED.get(name, ()) if arguments.get(a) is None]
    if missing:
        return ApiError(
            "request.invalid",
            f"The {name!r} tool needs the argument {missing[0]!r}.",
            f"Give {missing[0]!r} as a string.",
            {"field": missing[0]},
        )
    for argument, value in arguments.items():
        if value is not None and not isinstance(value, str):
            return ApiError(
                "request.invalid",
                f"The {name!r} tool's argument {argument!r} is {_type_name(value)}, not a string.",
                f"Give {argument!r} as a string.",
                {"field": argument},
            )
    return None


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


def _request_id() -> str:
    """Each call's own id, as the HTTP API gives each request (outside tryout 36: every MCP
    call's was the constant "mcp", so a log line could not be told from another)."""
    return uuid.uuid4().hex[:16]


# The HTTP API's words in a hint, as an MCP client would act on them (outside tryout 36: an
# MCP error pointed to "GET /api/semantic").
_HTTP_TO_TOOLS = {
    "GET /api/semantic": "the MCP tool 'semantic'",
    "GET /api/catalog": "the MCP tool 'catalog'",
}


def _mcp_error(error: ApiError) -> dict[str, Any]:
    """The service's JSON error shape for an MCP call: its own request id, hints in MCP
    words."""
    hint = error.hint
    for http, tool in _HTTP_TO_TOOLS.items():
        hint = hint.replace(http, tool)
    return error_body(ApiError(error.code, error.message, hint, error.details), _request_id())


def _error_result(error: ApiError) -> CallToolResult:
    """A refused call in the service's JSON error shape, flagged as an error (``isError``)."""
    body = _mcp_error(error)
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(body, indent=2))],
        structured_content=body,
        is_error=True,
    )


def _summary(payload: dict[str, Any]) -> dict[str, Any]:
    """The verdict with its reasons first, then the rest of the record."""
    verdict = payload["verdict"]
    # Fail closed: only an answer shown (show, or warn with its warning) carries its text and
    # rows; a withheld answer, an ask-back, an abstention or a refusal carries none.
    shown = payload["answer"] or {}
    return {
        "ok": True,
        "database": payload["database"],
        "verdict_id": verdict["id"],
        "badge": payload["badge"],
        "behaviour": verdict["behaviour"],
        "action": verdict["action"],
        "reasons": verdict["reasons"],
        "findings": verdict["findings"],
        "reading": payload["reading"],
        "message": verdict["provenance"].get("message", ""),
        "text": shown.get("text"),
        "sql": verdict.get("sql"),
        "result": shown.get("result"),
        "choices": payload["choices"],
        "policy": payload["policy"],
        "follow_up": payload.get("follow_up"),
    }


class _Server(MCPServer[Any]):
    """The SDK's server, with every call's arguments checked against the tool's, and a tool's
    error (``ok: false``) flagged as one (``isError``: it came back false, outside tryout 25)."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], *args: Any, **kwargs: Any
    ) -> Any:
        refused = _argument_error(name, arguments)
        if refused is not None:
            return _error_result(refused)
        result = await super().call_tool(name, arguments, *args, **kwargs)
        if isinstance(result, CallToolResult) and not result.is_error:
            content = result.structured_content
            if isinstance(content, dict) and content.get("ok") is False:
                return result.model_copy(update={"is_error": True})
        return result


async def _call(func: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    try:
        return {**await anyio.to_thread.run_sync(func), "request_id": _request_id()}
    except ApiError as exc:
        return _mcp_error(exc)
    except AssayError as exc:
        return _mcp_error(from_assay_error(exc))


def build_mcp(service: Service, client: str = "mcp") -> MCPServer[Any]:
    """The MCP server over ``service``; its calls are recorded as ``client``, or over HTTP
    with tokens on as the token's name (``token:NAME``, as the HTTP API records it)."""
    server: MCPServer[Any] = _Server(
        name="assay",
        instructions=(
            "Assay answers questions about the configured databases and gives every answer a "
            "verdict: show, warn or withhold, or ask back, abstain or refuse, with reasons. "
            "Only show an answer to a person when its action is 'show' (or 'warn', with the "
            "warning). Call 'semantic' first to see what can be asked."
        ),
    )
    keys = ", ".join(sorted(service.databases))

    def caller() -> str:
        return _CLIENT.get() or client

    @server.tool(
        name="ask",
        description=f"Ask a question in plain words of a configured database ({keys}); returns "
        "the verdict with its reasons, the reading, the answer, the SQL and the rows.",
    )
    async def ask(
        question: str, database: str | None = None, follow_up_of: str | None = None
    ) -> dict[str, Any]:
        who = caller()
        return await _call(lambda: _summary(service.ask(question, database, follow_up_of, who)))

    @server.tool(
        name="sql",
        description="Run one read-only SQL query through Assay's guard, then check and gate "
        "its result; returns the verdict with its reasons (a refused query names each rule).",
    )
    async def sql(sql: str, database: str | None = None, question: str = "") -> dict[str, Any]:
        # ``sql``, as POST /api/sql names it (outside tryout 14 was refused for it as `query`).
        who = caller()
        return await _call(lambda: _summary(service.sql(sql, database, question, who)))

    @server.tool(
        name="catalog",
        description="The tables and columns of a configured database.",
    )
    async def catalog(database: str | None = None) -> dict[str, Any]:
        return await _call(lambda: service.catalog(database))

    @server.tool(
        name="semantic",
        description="What can be asked: each configured database's metrics, dimensions, "
        "coverage and the policy that decides.",
    )
    async def semantic(database: str | None = None) -> dict[str, Any]:
        return await _call(lambda: service.semantic(database))

    return server


class _TokenGate:
    """Bearer tokens on the MCP endpoint, as on the API."""

    def __init__(self, app: ASGIApp, tokens: dict[str, str], origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.tokens = tokens
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = _foreign_origin(scope, self.origins) if scope["type"] == "http" else None
        if refused is not None:  # the SDK's own refusal was plain text (outside tryout 41, F6)
            await _send_json(send, refused.status, _mcp_error(refused))
            return
        if scope["type"] == "http" and self.tokens:
            raw = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
            try:
                name = client_for(self.tokens, raw)
            except ApiError as exc:
                await _send_json(send, exc.status, _mcp_error(exc))
                return
            token = _CLIENT.set(f"token:{name}")
            try:
                await self.app(scope, receive, send)
            finally:
                _CLIENT.reset(token)
            return
        await self.app(scope, receive, send)


def _foreign_origin(scope: Scope, origins: tuple[str, ...]) -> ApiError | None:
    """A request whose ``Origin`` is neither the server's own nor one of ``origins``, refused
    as the API refuses it (``csrf.failed``); ``None`` for any other."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1")
    own = f"{scope.get('scheme', 'http')}://{headers.get(b'host', b'').decode('latin-1')}"
    if not origin or origin in (own, *origins):
        return None
    return ApiError(
        "csrf.failed",
        f"A request from origin {origin[:100]!r} is not allowed.",
        "Call the MCP endpoint from a program (not another site's page), or have the operator "
        "list the origin in cors_origins.",
    )


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    """A JSON response as the API writes it (compact, as ``_encode`` does)."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": encode(body)})


def mcp_http(service: Service, host: str) -> tuple[list[BaseRoute], Any]:
    """Routes serving MCP over streamable HTTP at ``/mcp``, and the lifespan that runs it."""
    server = build_mcp(service, client="mcp-http")
    app = server.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, host=host
    )
    routes: list[BaseRoute] = []
    for route in app.routes:
        if isinstance(route, Route) and route.path == "/mcp":
            routes.append(
                Route(
                    "/mcp",
                    _TokenGate(
                        route.app, service.config.tokens, tuple(service.config.cors_origins)
                    ),
                    methods=sorted(route.methods or {"GET", "POST", "DELETE"}),
                )
            )

    @asynccontextmanager
    async def lifespan(_app: Any) -> Any:
        async with server.session_manager.run():
            yield

    return routes, lifespan
