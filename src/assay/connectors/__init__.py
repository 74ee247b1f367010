"""Connectors: read-only execution in warm worker processes, and catalogue introspection."""

from assay.connectors._connector import (
    Connector,
    LoggedStatement,
    PooledConnector,
    QueryCache,
    StatementLog,
    connect,
    deadline,
    detect,
)
from assay.connectors._engines import EngineSpec
from assay.connectors._pgrole import ADVISORY_LOCK_FUNCTIONS, pg_role_sql
from assay.connectors._worker import KILL_GRACE_S

__all__ = [
    "ADVISORY_LOCK_FUNCTIONS",
    "KILL_GRACE_S",
    "Connector",
    "EngineSpec",
    "LoggedStatement",
    "PooledConnector",
    "QueryCache",
    "StatementLog",
    "connect",
    "deadline",
    "detect",
    "pg_role_sql",
]
