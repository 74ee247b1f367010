"""The one JSON error shape and its stable codes.

Every error the service returns is
``{"ok": false, "error": {"code", "message", "hint", "details"}, "request_id"}``. A 5xx never
carries the exception's text (it is logged with the request id instead).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from assay.errors import AssayError

__all__ = [
    "ERROR_CODES",
    "ApiError",
    "client_for",
    "encode",
    "error_body",
    "forbidden_field",
    "from_assay_error",
]

# code -> (HTTP status, when it happens). Tests enumerate this table.
ERROR_CODES: dict[str, tuple[int, str]] = {
    "request.malformed_json": (400, "the body is not JSON"),
    "request.invalid": (422, "a field is missing or has the wrong type"),
    "request.unknown_field": (422, "the body has a field the endpoint does not take"),
    "request.forbidden_field": (
        422,
        "the body tries to name a URL, a file path or a layer (only configured keys are allowed)",
    ),
    "request.query_string": (400, "parameters were sent in the URL instead of the JSON body"),
    "request.unsupported_media_type": (415, "a POST body that is not application/json"),
    "request.too_large": (413, "the body is larger than limits.max_body_bytes"),
    "request.body_timeout": (408, "the client did not send its body in time"),
    "request.not_found": (404, "no such endpoint"),
    "request.method_not_allowed": (405, "the endpoint does not take this method"),
    "auth.missing_token": (401, "tokens are configured and none was sent"),
    "auth.bad_token": (401, "the bearer token is not a configured one"),
    "csrf.failed": (403, "a cross-site request, or a page request without its CSRF token"),
    "rate.limited": (429, "the client sent more than limits.rate_per_minute requests"),
    "database.unknown": (404, "the request names a database that is not configured"),
    "database.required": (422, "several databases are configured and the request names none"),
    "verdict.not_found": (404, "no verdict with this id in the ledger"),
    "input.invalid": (422, "the question or query cannot be taken (empty, too long)"),
    "request.timeout": (
        504,
        "the answer took longer than limits.request_time_limit_s, or its query longer than the "
        "engine's time limit",
    ),
    "ledger.unavailable": (503, "the ledger could not be written; nothing was acknowledged"),
    "answer.failed": (503, "the process answering the question failed or ended; nothing shown"),
    "server.unavailable": (503, "a configured database could not be opened"),
    "server.internal": (500, "an unexpected failure (named in the server log by request id)"),
}


@dataclass
class ApiError(Exception):
    """An error answered with the JSON shape; ``code`` is a key of ``ERROR_CODES``."""

    code: str
    message: str
    hint: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        assert self.code in ERROR_CODES, self.code
        super().__init__(self.message)

    @property
    def status(self) -> int:
        return ERROR_CODES[self.code][0]


def error_body(error: ApiError, request_id: str) -> dict[str, Any]:
    """The JSON error shape.

    Example:
        >>> error_body(ApiError("verdict.not_found", "No verdict 'x'."), "r1")["error"]["code"]
        'verdict.not_found'
    """
    return {
        "ok": False,
        "error": {
            "code": error.code,
            "message": error.message,
            "hint": error.hint,
            "details": error.details,
        },
        "request_id": request_id,
    }


def from_assay_error(exc: AssayError) -> ApiError:
    """An expected library error as an API error: input problems are the caller's (4xx),
    anything else a named 503 without the library's text (it may hold paths)."""
    if exc.code == "input.invalid":
        return ApiError("input.invalid", exc.message, exc.hint)
    if exc.code == "execution.timeout":
        # The caller's query is too slow: retrying repeats it (outside tryout 10 got a 503
        # "retry later" for a three-way self-join on /api/sql).
        return ApiError(
            "request.timeout",
            "The query did not finish within the engine's time limit; nothing was shown.",
            "Narrow it (a filter, fewer joins, an aggregate); retrying runs the same query. "
            "The operator sets the limit (time_limit_ms).",
        )
    if exc.code.startswith("ledger"):
        return ApiError(
            "ledger.unavailable",
            "The ledger could not be written; the verdict was not acknowledged.",
            "Retry; if it persists, the operator should check the ledger URL.",
        )
    return ApiError(
        "server.unavailable",
        f"The service could not complete the request ({exc.code}).",
        "Retry later; the operator can find the cause in the server log.",
    )


def encode(payload: dict[str, Any]) -> bytes:
    """The answer as JSON, encoded as Starlette's ``JSONResponse`` does (no NaN: a value JSON
    cannot carry fails the request rather than reaching a client as something else).

    Example:
        >>> encode({"ok": True, "text": "café"})
        b'{"ok":true,"text":"caf\\xc3\\xa9"}'
    """
    return json.dumps(
        payload, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


def forbidden_field(fields: list[str], where: str) -> ApiError:
    """A request that names a connection, a path or a layer (``where``: "The body",
    "records[0]").

    Example:
        >>> forbidden_field(["db"], "records[0]").message.split(":")[0]
        "records[0] names the field 'db'"
    """
    named = ", ".join(repr(f) for f in fields)
    return ApiError(
        "request.forbidden_field",
        f"{where} names the field{'s' if len(fields) > 1 else ''} {named}: a request can "
        "never supply a connection, a path or a layer.",
        'Name a configured database by its key: {"database": "shop"}.',
        {"fields": fields},
    )


def client_for(tokens: dict[str, str], header: str) -> str:
    """The name of the client whose bearer token an ``Authorization`` header carries.

    Raises:
        ApiError: no header, a header without the ``Bearer`` scheme, or an unknown token.

    Example:
        >>> client_for({"ci": "a" * 16}, "Bearer " + "a" * 16)
        'ci'
        >>> client_for({"ci": "a" * 16}, "Bearer " + "b" * 16)
        Traceback (most recent call last):
        ...
        assay.service._errors.ApiError: The bearer token is not one this server knows.
    """
    from assay.service._config import token_client

    scheme, _, token = header.strip().partition(" ")
    if not header.strip():
        raise ApiError(
            "auth.missing_token",
            "This server requires a bearer token.",
            "Send 'Authorization: Bearer <token>' with a token the operator gave you.",
        )
    if not token.strip() and scheme.lower() == "bearer":
        raise ApiError(
            "auth.missing_token",
            "The Authorization header names the Bearer scheme but no token after it.",
            "Send 'Authorization: Bearer <token>' with a token the operator gave you.",
        )
    if not token.strip():
        raise ApiError(
            "auth.bad_token",
            "The Authorization header has no scheme: it must begin with 'Bearer ' before the "
            "token.",
            "Send 'Authorization: Bearer <token>'.",
        )
    if scheme.lower() != "bearer":
        raise ApiError(
            "auth.bad_token",
            f"The Authorization header's scheme is {scheme[:20]!r}; this server takes 'Bearer'.",
            "Send 'Authorization: Bearer <token>'.",
        )
    found = token_client(tokens, token.strip())
    if found is None:
        raise ApiError(
            "auth.bad_token",
            "The bearer token is not one this server knows.",
            "Check the token; the operator can issue a new one.",
        )
    return found
