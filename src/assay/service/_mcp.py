"""``build_mcp``: an MCP server (the official ``mcp`` SDK) over the same ``Service``.

Tools ``ask``, ``sql``, ``catalog`` and ``semantic``: an agent that calls Assay gets the same
guard, the same gate and the same ledger as a person on the page, and every verdict comes back
with its reasons. Errors come back as the service's JSON error shape, never as a traceback.
Served over stdio (``assay mcp``) and over streamable HTTP at ``/mcp`` by ``assay serve``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from assay.errors import AssayError
from assay.service._config import token_client
from assay.service._errors import ApiError, error_body, from_assay_error
from assay.service._service import Service

__all__ = ["TOOLS", "build_mcp", "mcp_http"]

TOOLS = ("ask", "catalog", "semantic", "sql")
# Each tool's arguments. One the tool does not take is refused (the SDK's argument models ignore
# it: an agent that sent ``databse`` would have been answered from the default database).
_ARGUMENTS = {
    "ask": ("question", "database", "follow_up_of"),
    "sql": ("sql", "database", "question"),
    "catalog": ("database",),
    "semantic": ("database",),
}
# Set by ``_Server.call_tool`` for the call being run: the tool and the arguments it does not take.
_UNKNOWN: ContextVar[tuple[str, list[str]] | None] = ContextVar("assay_mcp_unknown", default=None)


def _summary(payload: dict[str, Any]) -> dict[str, Any]:
    """The verdict with its reasons first, then the rest of the record."""
    verdict = payload["verdict"]
    # Fail closed: only an answer shown (show, or warn with its warning) carries its text and
    # rows; a withheld answer, an ask-back, an abstention or a refusal carries none.
    shown = verdict["behaviour"] == "answer" and verdict["action"] in ("show", "warn")
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
        "text": verdict.get("text") if shown else None,
        "sql": verdict.get("sql"),
        "result": verdict.get("result") if shown else None,
        "choices": payload["choices"],
        "policy": payload["policy"],
        "follow_up": payload.get("follow_up"),
    }


class _Server(MCPServer[Any]):
    """The SDK's server, with every call's argument names checked against the tool's."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], *args: Any, **kwargs: Any
    ) -> Any:
        known = _ARGUMENTS.get(name)
        extra = sorted(set(arguments) - set(known)) if known is not None else []
        token = _UNKNOWN.set((name, extra) if extra else None)
        try:
            return await super().call_tool(name, arguments, *args, **kwargs)
        finally:
            _UNKNOWN.reset(token)


async def _call(func: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    unknown = _UNKNOWN.get()
    if unknown is not None:
        name, extra = unknown
        return error_body(
            ApiError(
                "request.unknown_field",
                f"The {name!r} tool takes no argument {', '.join(repr(e) for e in extra[:10])}.",
                f"Its arguments are {list(_ARGUMENTS[name])}.",
                {"unknown": extra[:10]},
            ),
            "mcp",
        )
    try:
        return await anyio.to_thread.run_sync(func)
    except ApiError as exc:
        return error_body(exc, "mcp")
    except AssayError as exc:
        return error_body(from_assay_error(exc), "mcp")


def build_mcp(service: Service, client: str = "mcp") -> MCPServer[Any]:
    """The MCP server over ``service``."""
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

    @server.tool(
        name="ask",
        description=f"Ask a question in plain words of a configured database ({keys}); returns "
        "the verdict with its reasons, the reading, the answer, the SQL and the rows.",
    )
    async def ask(
        question: str, database: str | None = None, follow_up_of: str | None = None
    ) -> dict[str, Any]:
        return await _call(lambda: _summary(service.ask(question, database, follow_up_of, client)))

    @server.tool(
        name="sql",
        description="Run one read-only SQL query through Assay's guard, then check and gate "
        "its result; returns the verdict with its reasons (a refused query names each rule).",
    )
    async def sql(sql: str, database: str | None = None, question: str = "") -> dict[str, Any]:
        # ``sql``, as POST /api/sql names it (outside tryout 14 was refused for it as `query`).
        return await _call(lambda: _summary(service.sql(sql, database, question, client)))

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

    def __init__(self, app: ASGIApp, tokens: dict[str, str]) -> None:
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.tokens:
            raw = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
            scheme, _, token = raw.partition(" ")
            if scheme.lower() != "bearer" or token_client(self.tokens, token.strip()) is None:
                code = "auth.missing_token" if not raw else "auth.bad_token"
                body = json.dumps(
                    error_body(ApiError(code, "A valid bearer token is required.", ""), "mcp")
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


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
                    _TokenGate(route.app, service.config.tokens),
                    methods=sorted(route.methods or {"GET", "POST", "DELETE"}),
                )
            )

    @asynccontextmanager
    async def lifespan(_app: Any) -> Any:
        async with server.session_manager.run():
            yield

    return routes, lifespan
