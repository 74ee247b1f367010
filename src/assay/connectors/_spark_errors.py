"""Spark Connect and Databricks SQL driver exceptions mapped to Assay's ``ExecutionError`` codes.

Like ``_drivers``: a table per driver, resolved by the exception's MRO, refined by Spark's error
classes in the message (``OPERATION_CANCELED`` is a cancelled query, gRPC ``UNAVAILABLE`` a server
that is not there). A test enumerates every exception class each driver exports and proves each
resolves through a table entry.
"""

from __future__ import annotations

from assay.connectors._drivers import CONNECTION, FAILED, RESOURCE, TIMEOUT

__all__ = ["classify_spark", "databricks_errors", "spark_errors"]

# Spark error classes and gRPC statuses, found in a message, that decide the code first.
_MESSAGE_CODES: tuple[tuple[str, str], ...] = (
    ("OPERATION_CANCELED", TIMEOUT),
    ("OPERATION_ABANDONED", TIMEOUT),
    ("DEADLINE_EXCEEDED", TIMEOUT),
    ("SparkOutOfMemoryError", RESOURCE),
    ("java.lang.OutOfMemoryError", RESOURCE),
    ("UNABLE_TO_ACQUIRE_MEMORY", RESOURCE),
    ("StatusCode.UNAVAILABLE", CONNECTION),
    ("Connection refused", CONNECTION),
    ("failed to connect to all addresses", CONNECTION),
    ("INVALID_HANDLE.SESSION_CLOSED", CONNECTION),
    ("Socket closed", CONNECTION),
    ("stopped SparkContext", CONNECTION),  # the server is shutting down
    ("SparkContext was shut down", CONNECTION),
    ("SparkContext has been shutdown", CONNECTION),
)


def spark_errors() -> dict[type[BaseException], str]:
    """The table for ``pyspark`` (the Spark Connect client) and ``grpc``."""
    import grpc
    import pyspark.errors as base
    from pyspark.errors.exceptions import connect

    return {
        base.RetriesExceeded: CONNECTION,  # the client gave up reaching the server
        base.PySparkImportError: CONNECTION,  # a client dependency (pyarrow, grpc) is missing
        base.SessionNotSameException: CONNECTION,
        connect.SparkConnectGrpcException: FAILED,  # refined by its message
        connect.SparkConnectException: FAILED,
        base.ParseException: FAILED,
        base.AnalysisException: FAILED,
        base.ArithmeticException: FAILED,
        base.NumberFormatException: FAILED,
        base.DateTimeException: FAILED,
        base.ArrayIndexOutOfBoundsException: FAILED,
        base.IllegalArgumentException: FAILED,
        base.UnsupportedOperationException: FAILED,
        base.SparkRuntimeException: FAILED,
        base.UnknownException: FAILED,
        base.PySparkException: FAILED,
        grpc.FutureTimeoutError: TIMEOUT,
        grpc.RpcError: CONNECTION,
    }


def databricks_errors() -> dict[type[BaseException], str]:
    """The table for the Databricks SQL connector (PEP 249 names, plus its request errors)."""
    from databricks.sql import exc

    return {
        exc.RequestError: CONNECTION,
        exc.MaxRetryDurationError: CONNECTION,
        exc.SessionAlreadyClosedError: CONNECTION,
        exc.CursorAlreadyClosedError: CONNECTION,
        exc.InterfaceError: CONNECTION,
        exc.OperationalError: CONNECTION,
        exc.ServerOperationError: FAILED,
        exc.DatabaseError: FAILED,
        exc.Error: FAILED,
        exc.Warning: FAILED,
        # Raised by the connector's own usage telemetry, outside the exception tree.
        exc.TelemetryRateLimitError: CONNECTION,
        exc.TelemetryNonRateLimitError: CONNECTION,
    }


def classify_spark(exc: BaseException, tables: list[dict[type[BaseException], str]]) -> str:
    """The error code for a Spark or Databricks exception.

    Example:
        >>> classify_spark(RuntimeError("[OPERATION_CANCELED] Operation has been canceled."), [])
        'execution.timeout'
        >>> classify_spark(RuntimeError("[TABLE_OR_VIEW_NOT_FOUND] t"), [])
        'execution.error'
    """
    if isinstance(exc, MemoryError):
        return RESOURCE
    message = str(exc)
    for marker, code in _MESSAGE_CODES:
        if marker in message:
            return code
    for table in tables:
        for cls in type(exc).__mro__:
            if cls in table:
                return table[cls]
    return FAILED
