"""``create_app``: the ASGI app (Starlette): the API, its OpenAPI document and the web page.

Every request gets an id (``X-Request-Id``). Every error is the one JSON shape. Before a handler
runs, in this order: the query string is refused on POST (parameters go in the body), tokens are
checked when configured, the client's rate is counted, cross-site and token-less page requests
are refused (CSRF), and the body is read within its size and time limits. The handler's work
runs in a worker thread under the per-request time limit, whose one ``Deadline`` the service
counts by too; the thread also encodes the answer as JSON, so that the event loop only writes
bytes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib import resources
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from assay.errors import AssayError
from assay.service._config import ServiceConfig
from assay.service._deadline import Deadline
from assay.service._errors import (
    ApiError,
    client_for,
    encode,
    error_body,
    forbidden_field,
    from_assay_error,
)
from assay.service._models import FORBIDDEN_FIELDS, AskBody, FeedbackBody, ScoreBody, SqlBody
from assay.service._openapi import openapi_document
from assay.service._service import Service

__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "create_app"]

CSRF_COOKIE = "assay_csrf"
CSRF_HEADER = "X-CSRF-Token"
_LOG = logging.getLogger("assay.service")
# Requests worked on at once (the rest wait for a thread); anyio's default, as before.
REQUEST_THREADS = 40
_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
_PAGE_HEADERS = {
    # Every asset comes from this app: the policy forbids any other origin.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}

# A handler checks what it can on the event loop and returns the work to run in a thread.
Work = Callable[[], dict[str, Any]]
# A handler returns the work to run in a thread, or (an ask settled without leaving the event
# loop, ``Service.ask_soon``) the response itself; the work runs within the request's deadline.
Handler = Callable[[Request, Any, str, Deadline], Awaitable[Work | dict[str, Any]]]


class _RateLimiter:
    """A sliding one-minute window of request times per client."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        if self.per_minute <= 0:
            return True
        now = time.monotonic()
        with self._lock:
            window = self._seen.setdefault(client, deque())
            while window and now - window[0] > 60.0:
                window.popleft()
            if len(window) >= self.per_minute:
                return False
            window.append(now)
            return True


def create_app(
    service: Service,
    *,
    extra_routes: list[BaseRoute] | None = None,
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
) -> Starlette:
    """The app over ``service``; ``extra_routes`` mounts more (the MCP endpoint)."""
    config = service.config
    limits = config.limits
    limiter = _RateLimiter(limits.rate_per_minute)
    page_token = secrets.token_urlsafe(32)
    threads = ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="assay-request")

    def client_of(request: Request) -> str:
        if not config.tokens:
            return f"ip:{request.client.host if request.client else 'unknown'}"
        found = client_for(config.tokens, request.headers.get("authorization", ""))
        return f"token:{found}"

    def check_origin(request: Request) -> None:
        """A request of any method whose ``Origin`` is neither the server's own nor listed in
        ``cors_origins`` is refused, as docs/deploy.md says (outside tryout 41, F7: a GET was
        answered). The page's own requests carry its own origin, or none."""
        origin = request.headers.get("origin")
        if (
            origin is not None
            and origin != f"{request.url.scheme}://{request.url.netloc}"
            and origin not in config.cors_origins
        ):
            raise ApiError(
                "csrf.failed",
                f"A request from origin {origin[:100]!r} is not allowed.",
                "Call the API from this server's page, or have the operator list the origin "
                "in cors_origins.",
            )

    def check_csrf(request: Request) -> None:
        check_origin(request)
        if (
            request.headers.get("sec-fetch-site") == "cross-site"
            and request.headers.get("origin") is None
        ):
            raise ApiError(
                "csrf.failed",
                "A cross-site request is not allowed.",
                "Call the API from this server's page or from a program (not another site's "
                "page); the operator lists origins that may call it in cors_origins.",
            )
        cookie = request.cookies.get(CSRF_COOKIE)
        if cookie is not None and not secrets.compare_digest(
            cookie.encode(), request.headers.get(CSRF_HEADER, "").encode()
        ):
            raise ApiError(
                "csrf.failed",
                "The page's request did not carry its CSRF token.",
                "Reload the page.",
            )

    async def read_json(request: Request) -> Any:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise ApiError(
                "request.unsupported_media_type",
                f"The body must be application/json, not {kind[:60] or 'missing'!r}.",
                "Send 'Content-Type: application/json'.",
            )
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limits.max_body_bytes:
            raise _too_large(int(declared), limits.max_body_bytes)
        body = bytearray()
        try:
            async with asyncio.timeout(limits.body_read_timeout_s):
                async for chunk in request.stream():
                    body.extend(chunk)
                    if len(body) > limits.max_body_bytes:
                        # Sent without a length (chunked): how much arrived before reading
                        # stopped, not the body's size (outside tryout 25 read "98,286 bytes"
                        # for a body of 200,017).
                        raise _too_large(len(body), limits.max_body_bytes, whole=False)
        except TimeoutError as exc:
            raise ApiError(
                "request.body_timeout",
                f"The body did not arrive within {limits.body_read_timeout_s:g} s.",
                "Send the whole body at once.",
            ) from exc
        try:
            return json.loads(body, object_pairs_hook=_one_of_each)
        except json.JSONDecodeError as exc:
            raise ApiError(
                "request.malformed_json",
                f"The body is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}.",
                "Send one JSON object.",
            ) from exc
        except UnicodeDecodeError as exc:
            raise ApiError(
                "request.malformed_json", "The body is not UTF-8 text.", "Send UTF-8 JSON."
            ) from exc
        except RecursionError as exc:  # outside tryout 14: 30,000 nested arrays, a 500
            raise ApiError(
                "request.malformed_json",
                "The body nests arrays or objects too deeply to read.",
                "Send one JSON object of plain fields.",
            ) from exc

    def api(model: type[BaseModel] | None, handler: Handler, *, post: bool) -> Any:
        async def endpoint(request: Request) -> Response:
            request_id = uuid.uuid4().hex[:16]
            try:
                if post and request.scope.get("query_string"):
                    raise ApiError(
                        "request.query_string",
                        "Parameters go in the JSON body, not in the URL.",
                        'POST {"question": "..."} as application/json.',
                        {
                            "parameters": sorted(
                                {k for k, _ in request.query_params.multi_items()}
                            )[:10]
                        },
                    )
                client = client_of(request)
                if not limiter.allow(client):
                    raise ApiError(
                        "rate.limited",
                        f"More than {limits.rate_per_minute} requests in a minute.",
                        "Wait a minute and retry; the operator sets limits.rate_per_minute.",
                    )
                body: Any = None
                check_origin(request)
                if post:
                    check_csrf(request)
                    body = _validated(model, await read_json(request)) if model else None
                encoded = await answered(handler, request, body, client, request_id)
                return Response(
                    encoded, media_type="application/json", headers={"X-Request-Id": request_id}
                )
            except TimeoutError:
                return _error(
                    ApiError(
                        "request.timeout",
                        f"No answer within {limits.request_time_limit_s:g} s.",
                        "Ask a narrower question; the operator sets limits.request_time_limit_s.",
                    ),
                    request_id,
                )
            except ApiError as exc:
                return _error(exc, request_id)
            except AssayError as exc:
                _LOG.warning("request %s: %s: %s", request_id, exc.code, exc.message)
                return _error(from_assay_error(exc), request_id)
            except Exception:
                _LOG.exception("request %s failed", request_id)
                return _error(
                    ApiError(
                        "server.internal",
                        "The server failed to answer this request.",
                        f"Retry; the operator can find request {request_id} in the log.",
                    ),
                    request_id,
                )

        return endpoint

    async def answered(
        handler: Handler, request: Request, body: Any, client: str, request_id: str
    ) -> bytes:
        """The handler's answer, encoded, within the request's time limit (``TimeoutError``
        past it), whose deadline starts now and is handed to the work. At the limit, work that
        has claimed the request (its verdict is being recorded) is waited for and sent; other
        work is abandoned, and stops at the deadline (its queries cut, nothing recorded)."""
        deadline = Deadline(limits.request_time_limit_s)
        running: asyncio.Future[bytes] | None = None
        try:
            async with asyncio.timeout(deadline.left_s()):
                work = await handler(request, body, client, deadline)
                if isinstance(work, dict):
                    work["request_id"] = request_id
                    return encode(work)
                running = in_thread(work, request_id)
                # Shielded: at the limit the work may have claimed the request (below).
                return await asyncio.shield(running)
        except TimeoutError:
            if deadline.expire():
                raise
            assert running is not None  # only work in a thread claims a request at its limit
            return await running
        finally:
            if running is not None and not running.done():
                running.cancel()  # the request stopped waiting: its answer is dropped

    def in_thread(work: Work, request_id: str) -> asyncio.Future[bytes]:
        """Run ``work`` in the app's own thread pool and encode its answer there (one hop each
        way: the thread settles an asyncio future through the loop, with no concurrent future
        chained to it); the future, which the loop resolves."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bytes] = loop.create_future()

        def settle(body: bytes | None, error: Exception | None) -> None:
            if done.done():  # the request stopped waiting (its time limit, a disconnect)
                return
            if error is not None:
                done.set_exception(error)
            else:
                assert body is not None
                done.set_result(body)

        def run() -> None:
            try:
                payload = work()
                payload["request_id"] = request_id
                body = encode(payload)
            except Exception as exc:
                loop.call_soon_threadsafe(settle, None, exc)
            else:
                loop.call_soon_threadsafe(settle, body, None)

        threads.submit(run)
        return done

    async def ask(
        request: Request, body: AskBody, client: str, deadline: Deadline
    ) -> Work | dict[str, Any]:
        if body.follow_up_of is None:
            return await service.ask_soon(body.question, body.database, client, deadline=deadline)
        return lambda: service.ask(
            body.question, body.database, body.follow_up_of, client, deadline=deadline
        )

    async def sql(request: Request, body: SqlBody, client: str, deadline: Deadline) -> Work:
        return lambda: service.sql(
            body.sql, body.database, body.question, client, deadline=deadline
        )

    async def score(request: Request, body: ScoreBody, client: str, deadline: Deadline) -> Work:
        for n, record in enumerate(body.records):
            bad = sorted(FORBIDDEN_FIELDS & set(record))
            if bad:
                raise forbidden_field(bad, f"records[{n}]")
        return lambda: service.score(
            body.records, body.database, body.rule, client, deadline=deadline
        )

    async def feedback(
        request: Request, body: FeedbackBody, client: str, deadline: Deadline
    ) -> Work:
        return lambda: service.feedback(body.verdict_id, body.label, body.comment, client)

    async def verdict(request: Request, body: None, client: str, deadline: Deadline) -> Work:
        ident = str(request.path_params["ident"])
        return lambda: service.verdict(ident)

    async def semantic(request: Request, body: None, client: str, deadline: Deadline) -> Work:
        extra = sorted(set(request.query_params) - {"database"})
        if extra:
            raise ApiError(
                "request.unknown_field",
                f"Unknown parameters {extra[:10]}.",
                "Only ?database=<key> is taken.",
            )
        key = request.query_params.get("database")
        return lambda: service.semantic(key)

    async def catalog(request: Request, body: None, client: str, deadline: Deadline) -> Work:
        key = request.query_params.get("database")
        return lambda: service.catalog(key)

    async def healthz(request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "databases": sorted(service.databases), "demo": config.demo}
        )

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    async def page(request: Request) -> Response:
        html = _asset("index.html").replace("{{csrf}}", page_token)
        html = html.replace("{{tokens}}", "required" if config.tokens else "off")
        response = Response(html, media_type="text/html; charset=utf-8", headers=_PAGE_HEADERS)
        response.set_cookie(CSRF_COOKIE, page_token, httponly=True, samesite="strict")
        return response

    async def static(request: Request) -> Response:
        name = str(request.path_params["name"])
        if name not in _STATIC:
            raise HTTPException(404)
        return Response(_asset(name), media_type=_STATIC[name], headers=_PAGE_HEADERS)

    routes: list[BaseRoute] = [
        Route("/", page, methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/api/ask", api(AskBody, ask, post=True), methods=["POST"]),
        Route("/api/sql", api(SqlBody, sql, post=True), methods=["POST"]),
        Route("/api/score", api(ScoreBody, score, post=True), methods=["POST"]),
        Route("/api/feedback", api(FeedbackBody, feedback, post=True), methods=["POST"]),
        Route("/api/verdicts/{ident}", api(None, verdict, post=False), methods=["GET"]),
        Route("/api/semantic", api(None, semantic, post=False), methods=["GET"]),
        Route("/api/catalog", api(None, catalog, post=False), methods=["GET"]),
        *(extra_routes or []),
    ]
    middleware = []
    if config.cors_origins:
        middleware.append(
            Middleware(
                _Cors,
                allow_origins=list(config.cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type", CSRF_HEADER],
            )
        )

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        request_id = uuid.uuid4().hex[:16]
        if status == 405:
            hint = _method_hint(request, getattr(exc, "headers", None) or {}, config)
            return _error(
                ApiError(
                    "request.method_not_allowed",
                    f"{request.method} is not allowed on {request.url.path[:100]}.",
                    hint,
                ),
                request_id,
            )
        return _error(
            ApiError(
                "request.not_found",
                f"No endpoint {request.url.path[:100]}.",
                "See /openapi.json for the endpoints.",
            ),
            request_id,
        )

    async def internal(request: Request, exc: Exception) -> Response:
        request_id = uuid.uuid4().hex[:16]
        _LOG.exception("request %s failed", request_id, exc_info=exc)
        return _error(
            ApiError("server.internal", "The server failed to answer this request.", ""),
            request_id,
        )

    @asynccontextmanager
    async def lifespan_with_threads(app: Starlette) -> AsyncIterator[None]:
        try:
            if lifespan is None:
                yield
            else:
                async with lifespan(app):
                    yield
        finally:
            threads.shutdown(wait=False, cancel_futures=True)

    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={404: not_found, 405: not_found, 500: internal},
        lifespan=lifespan_with_threads,
    )


def _json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words, not Python's.

    Example:
        >>> _json_kind([1]), _json_kind(None)
        ('a JSON array', 'JSON null')
    """
    if value is None:
        return "JSON null"
    if isinstance(value, bool):
        return "a JSON boolean"
    if isinstance(value, (int, float)):
        return "a JSON number"
    if isinstance(value, str):
        return "a JSON string"
    return "a JSON array" if isinstance(value, list) else "a JSON object"


def _method_hint(request: Request, headers: Any, config: ServiceConfig) -> str:
    """What to do instead of a method an endpoint does not take: the methods it takes, and for
    a preflight (OPTIONS) that CORS is off (outside tryout 25: DELETE on a verdict and OPTIONS
    on /api/ask were told to "POST the question in a JSON body")."""
    allowed = sorted({m.strip() for m in str(headers.get("Allow", "")).split(",") if m.strip()})
    path = request.url.path
    if request.method == "OPTIONS" and path.startswith("/api/") and not config.cors_origins:
        return (
            "CORS is off on this server: the operator lists the origins whose pages may call "
            "the API in cors_origins."
        )
    if path.startswith("/api/verdicts/") and request.method != "GET":
        return "GET a verdict by its id; the ledger keeps every verdict (none is deleted)."
    if path == "/api/ask" and "POST" in allowed:
        return 'POST the question in a JSON body: {"question": "..."}.'
    if allowed:
        return f"{path[:100]} takes {' and '.join(allowed)}; see /openapi.json."
    return "See /openapi.json for the methods each endpoint takes."


def _validated(model: type[BaseModel], raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ApiError(
            "request.invalid",
            f"The body is {_json_kind(raw)}, not an object.",
            "Send one JSON object.",
        )
    bad = sorted(FORBIDDEN_FIELDS & set(raw))
    if bad:
        raise forbidden_field(bad, "The body")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems = [
            {"field": ".".join(str(p) for p in e["loc"]), "problem": e["msg"], "type": e["type"]}
            for e in exc.errors()
        ]
        unknown = [p["field"] for p in problems if p["type"] == "extra_forbidden"]
        if unknown:
            raise ApiError(
                "request.unknown_field",
                f"Unknown fields {unknown[:10]}.",
                f"Take them out; this endpoint takes {sorted(model.model_fields)}.",
                {"problems": problems[:20]},
            ) from exc
        raise ApiError(
            "request.invalid",
            "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:10]) + ".",
            f"See /openapi.json for the {model.__name__} schema.",
            {"problems": problems[:20]},
        ) from exc


def _too_large(size: int, limit: int, *, whole: bool = True) -> ApiError:
    """``size``: the declared length (``whole``), or what arrived before reading stopped.

    Example:
        >>> _too_large(98_286, 65_536, whole=False).message.split(" (")[0]
        'The body is larger than the limit of 65,536 bytes'
    """
    message = (
        f"The body is {size:,} bytes; the limit is {limit:,}."
        if whole
        else f"The body is larger than the limit of {limit:,} bytes ({size:,} bytes arrived "
        "before reading stopped)."
    )
    return ApiError(
        "request.too_large",
        message,
        "Send less (the operator sets limits.max_body_bytes).",
    )


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each said once: a key said twice is refused (outside
    tryout 41, F8: the last one won silently, so a proxy or a log reading the first saw
    another database than the one asked)."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ApiError(
                "request.invalid",
                f"The body gives the field {key[:100]!r} more than once.",
                f"Give {key[:100]!r} once.",
                {"field": key[:100]},
            )
        seen[key] = value
    return seen


class _Cors(CORSMiddleware):
    """Starlette's CORS, with a refused preflight in the API's JSON error shape (outside
    tryout 41, F6: it was 400 text/plain 'Disallowed CORS origin')."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        origin = request_headers.get("origin", "")
        if not self.is_allowed_origin(origin=origin):
            refused = ApiError(
                "csrf.failed",
                f"A request from origin {origin[:100]!r} is not allowed.",
                "Call the API from this server's page, or have the operator list the origin "
                "in cors_origins.",
            )
        else:
            refused = ApiError(
                "csrf.failed",
                "The preflight asks for a method or headers the API does not take "
                f"({request_headers.get('access-control-request-method', '')[:20]!r}, "
                f"{request_headers.get('access-control-request-headers', '')[:100]!r}).",
                "Send GET or POST with only Authorization, Content-Type and X-CSRF-Token.",
            )
        return _error(refused, uuid.uuid4().hex[:16])


def _error(error: ApiError, request_id: str) -> JSONResponse:
    headers = {"X-Request-Id": request_id}
    if error.code == "rate.limited":
        headers["Retry-After"] = "60"
    return JSONResponse(error_body(error, request_id), status_code=error.status, headers=headers)


def _asset(name: str) -> str:
    return resources.files("assay.service").joinpath("static", name).read_text(encoding="utf-8")
