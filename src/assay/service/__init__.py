"""service: Assay over HTTP (``assay serve``: the API, its OpenAPI document, the web page) and
over MCP (``assay mcp``), on the configured databases, every verdict in the ledger.

Needs the ``[service]`` extra (``pip install 'assay[service]'``).
"""

from assay.service._app import CSRF_COOKIE, CSRF_HEADER, create_app
from assay.service._calibrate import LedgerCalibration, calibrate_from_ledger
from assay.service._config import (
    CalibrationConfig,
    DatabaseConfig,
    LimitsConfig,
    ServiceConfig,
    demo_config,
    load_config,
    token_client,
)
from assay.service._errors import ERROR_CODES, ApiError, error_body
from assay.service._mcp import TOOLS, build_mcp, mcp_http
from assay.service._openapi import openapi_document
from assay.service._service import Service, badge

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "ERROR_CODES",
    "TOOLS",
    "ApiError",
    "CalibrationConfig",
    "DatabaseConfig",
    "LedgerCalibration",
    "LimitsConfig",
    "Service",
    "ServiceConfig",
    "badge",
    "build_mcp",
    "calibrate_from_ledger",
    "create_app",
    "demo_config",
    "error_body",
    "load_config",
    "mcp_http",
    "openapi_document",
    "token_client",
]
