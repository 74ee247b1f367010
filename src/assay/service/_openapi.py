"""The OpenAPI 3.1 document of the API, built from the request models and the error table."""

from __future__ import annotations

from typing import Any

from assay.service._errors import ERROR_CODES
from assay.service._models import AskBody, FeedbackBody, ScoreBody, SqlBody

__all__ = ["openapi_document"]

_ERROR = {
    "type": "object",
    "required": ["ok", "error", "request_id"],
    "properties": {
        "ok": {"const": False},
        "error": {
            "type": "object",
            "required": ["code", "message", "hint", "details"],
            "properties": {
                "code": {"enum": sorted(ERROR_CODES)},
                "message": {"type": "string"},
                "hint": {"type": "string"},
                "details": {"type": "object"},
            },
        },
        "request_id": {"type": "string"},
    },
}


def _errors(*codes: str) -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(ERROR_CODES[code][0], []).append(code)
    return {
        str(status): {
            "description": "; ".join(f"{c}: {ERROR_CODES[c][1]}" for c in sorted(found)),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for status, found in sorted(by_status.items())
    }


_COMMON = (
    "auth.missing_token",
    "auth.bad_token",
    "rate.limited",
    "request.timeout",
    "server.internal",
)
_POST = (
    *_COMMON,
    "request.malformed_json",
    "request.invalid",
    "request.unknown_field",
    "request.forbidden_field",
    "request.query_string",
    "request.unsupported_media_type",
    "request.too_large",
    "request.body_timeout",
    "csrf.failed",
)


def _post(summary: str, model: str, *codes: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": f"#/components/schemas/{model}"}}
                },
            },
            "responses": {
                "200": {"description": "The verdict(s), with reasons, badge and reading."},
                **_errors(*_POST, *codes),
            },
        }
    }


def openapi_document() -> dict[str, Any]:
    """The document served at ``/openapi.json``."""
    schemas: dict[str, Any] = {"Error": _ERROR}
    for model in (AskBody, SqlBody, ScoreBody, FeedbackBody):
        schemas[model.__name__] = model.model_json_schema(
            ref_template="#/components/schemas/{model}"
        )
    database = {"name": "database", "in": "query", "required": False, "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Assay", "version": "1", "description": "A verdict for every answer."},
        "paths": {
            "/api/ask": _post(
                "Ask a question (or follow one up)",
                "AskBody",
                "database.unknown",
                "database.required",
                "verdict.not_found",
                "input.invalid",
                "ledger.unavailable",
                "answer.failed",
            ),
            "/api/sql": _post(
                "One guarded read-only query, checked and gated",
                "SqlBody",
                "database.unknown",
                "database.required",
                "input.invalid",
                "ledger.unavailable",
            ),
            "/api/score": _post(
                "Score sampled answers (the samples format, without db)",
                "ScoreBody",
                "database.unknown",
                "database.required",
                "ledger.unavailable",
            ),
            "/api/feedback": _post(
                "Thumbs up or down on a verdict", "FeedbackBody", "verdict.not_found"
            ),
            "/api/verdicts/{ident}": {
                "get": {
                    "summary": "A recorded verdict with its feedback",
                    "parameters": [
                        {
                            "name": "ident",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "The verdict, its badge and feedback; `answer` "
                            "holds the text and rows to show, null unless the badge is show "
                            "or warn (as an ask's)."
                        },
                        **_errors(*_COMMON, "verdict.not_found"),
                    },
                }
            },
            "/api/semantic": {
                "get": {
                    "summary": "What can be asked, per configured database",
                    "parameters": [database],
                    "responses": {
                        "200": {"description": "Metrics, dimensions, coverage."},
                        **_errors(*_COMMON, "database.unknown", "request.unknown_field"),
                    },
                }
            },
            "/api/catalog": {
                "get": {
                    "summary": "Tables and columns of a configured database",
                    "parameters": [database],
                    "responses": {
                        "200": {"description": "The catalogue."},
                        **_errors(*_COMMON, "database.unknown", "database.required"),
                    },
                }
            },
            "/healthz": {
                "get": {"summary": "Liveness", "responses": {"200": {"description": "ok"}}}
            },
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
