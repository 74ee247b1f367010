"""The least-privilege PostgreSQL role Assay should connect as.

A read-only transaction alone is not a security boundary: ``COMMIT; DROP ...`` escapes it, and
``COPY ... TO PROGRAM`` or ``pg_read_file`` need only a privileged role. Assay sends every query
through the extended protocol inside a read-only transaction, but the role it connects as is
what the server enforces. ``pg_role_sql`` writes the SQL that creates that role.
"""

from __future__ import annotations

import re

from assay.errors import InputError

__all__ = ["ADVISORY_LOCK_FUNCTIONS", "pg_role_sql"]

# Granted to PUBLIC by default; a session could otherwise hold locks other clients wait on.
ADVISORY_LOCK_FUNCTIONS: tuple[str, ...] = (
    "pg_advisory_lock(bigint)",
    "pg_advisory_lock(integer, integer)",
    "pg_advisory_lock_shared(bigint)",
    "pg_advisory_lock_shared(integer, integer)",
    "pg_advisory_xact_lock(bigint)",
    "pg_advisory_xact_lock(integer, integer)",
    "pg_advisory_xact_lock_shared(bigint)",
    "pg_advisory_xact_lock_shared(integer, integer)",
    "pg_try_advisory_lock(bigint)",
    "pg_try_advisory_lock(integer, integer)",
    "pg_try_advisory_lock_shared(bigint)",
    "pg_try_advisory_lock_shared(integer, integer)",
    "pg_try_advisory_xact_lock(bigint)",
    "pg_try_advisory_xact_lock(integer, integer)",
    "pg_try_advisory_xact_lock_shared(bigint)",
    "pg_try_advisory_xact_lock_shared(integer, integer)",
)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


def _ident(value: str, what: str) -> str:
    if not _NAME.match(value):
        raise InputError(
            f"{what} {value!r} is not a plain PostgreSQL identifier.",
            hint="Use letters, digits and underscores, starting with a letter (at most 63).",
        )
    return '"' + value + '"'


def pg_role_sql(
    role: str,
    *,
    database: str,
    tables: list[str],
    schema: str = "public",
    statement_timeout_ms: int = 10_000,
    work_mem_mb: int = 16,
    temp_file_limit_mb: int = 256,
) -> str:
    """SQL, run by a superuser, creating a SELECT-only login role for Assay.

    The role gets CONNECT on the database, USAGE on one schema and SELECT on the named tables;
    no CREATE, no TEMP, no membership in the server-file or program roles; the advisory-lock
    functions, the large-object functions (``lo_from_bytea`` writes inside a read-only
    transaction), the transaction-id functions (``pg_current_xact_id`` assigns one) and dblink
    are revoked from PUBLIC (which every role belongs to). Memory and spill are bounded for the
    role: ``work_mem`` per sort or hash (``hash_mem_multiplier`` 1), ``temp_file_limit`` for
    spilled files, no parallel workers (each would take its own ``work_mem``), so a memory bomb
    fails in the backend well before ``statement_timeout``.

    Example:
        >>> "GRANT SELECT ON \\"public\\".\\"orders\\"" in pg_role_sql(
        ...     "assay_reader", database="shop", tables=["orders"])
        True
    """
    if not tables:
        raise InputError(
            "No tables were named for the role to read.",
            hint="Pass --table once per table Assay may read (SELECT is granted on those only).",
        )
    r, db, sch = _ident(role, "Role"), _ident(database, "Database"), _ident(schema, "Schema")
    lines = [
        "-- Least-privilege role for Assay. Run as a superuser, then connect Assay as this role",
        "-- (set its password with \\password). Review each REVOKE FROM PUBLIC: it applies to",
        "-- every role that relies on PUBLIC's default grants.",
        f"CREATE ROLE {r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION"
        " NOBYPASSRLS CONNECTION LIMIT 8;",
        f"ALTER ROLE {r} SET default_transaction_read_only = on;",
        f"ALTER ROLE {r} SET statement_timeout = {int(statement_timeout_ms)};",
        f"ALTER ROLE {r} SET idle_in_transaction_session_timeout = 60000;",
        "-- Memory and spill per query: a memory bomb fails in the backend, not the server.",
        f"ALTER ROLE {r} SET work_mem = '{int(work_mem_mb)}MB';",
        f"ALTER ROLE {r} SET maintenance_work_mem = '{int(work_mem_mb)}MB';",
        f"ALTER ROLE {r} SET hash_mem_multiplier = 1;",
        f"ALTER ROLE {r} SET temp_file_limit = '{int(temp_file_limit_mb)}MB';",
        f"ALTER ROLE {r} SET max_parallel_workers_per_gather = 0;",
        "-- No TEMP objects and no CREATE: PUBLIC holds TEMPORARY on every database by default.",
        f"REVOKE TEMPORARY, CREATE ON DATABASE {db} FROM PUBLIC;",
        f"REVOKE ALL ON DATABASE {db} FROM {r};",
        f"GRANT CONNECT ON DATABASE {db} TO {r};",
        f"REVOKE CREATE ON SCHEMA {sch} FROM PUBLIC;",
        f"REVOKE ALL ON SCHEMA {sch} FROM {r};",
        f"GRANT USAGE ON SCHEMA {sch} TO {r};",
        "-- No server files and no programs.",
        f"REVOKE pg_read_server_files, pg_write_server_files, pg_execute_server_program FROM {r};",
        "-- SELECT on the chosen relations only.",
    ]
    for table in sorted(set(tables)):
        lines.append(f"GRANT SELECT ON {sch}.{_ident(table, 'Table')} TO {r};")
    lines.append("-- Advisory locks: a session could hold locks other clients wait on.")
    for signature in ADVISORY_LOCK_FUNCTIONS:
        lines.append(f"REVOKE EXECUTE ON FUNCTION pg_catalog.{signature} FROM PUBLIC;")
    lines += [
        "-- dblink and file access functions, where those extensions are installed.",
        "DO $$ BEGIN",
        "  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'dblink') THEN",
        "    EXECUTE (SELECT string_agg(format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC',"
        " p.oid::regprocedure), '; ') FROM pg_proc p WHERE p.proname LIKE 'dblink%');",
        "  END IF;",
        "END $$;",
        "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_import(text) FROM PUBLIC;",
        "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_export(oid, text) FROM PUBLIC;",
        "-- Large objects (lo_from_bytea, lo_create, lo_put, ...) and transaction ids: both",
        "-- change server state even inside a read-only transaction.",
        "DO $$ BEGIN",
        "  EXECUTE (SELECT string_agg(format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC',"
        " p.oid::regprocedure), '; ') FROM pg_proc p"
        " WHERE p.pronamespace = 'pg_catalog'::regnamespace"
        " AND (p.proname LIKE 'lo\\_%' OR p.proname IN ('loread', 'lowrite',"
        " 'pg_current_xact_id', 'pg_current_xact_id_if_assigned', 'txid_current',"
        " 'txid_current_if_assigned')));",
        "END $$;",
    ]
    return "\n".join(lines) + "\n"
