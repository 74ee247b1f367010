"""Commands of the foundation: ``sql`` and ``pg-role``."""

from __future__ import annotations

from typing import Any

import click

from assay.cli._main import echo_json, handle_errors, resolve_settings, settings_options
from assay.cli._render import render_result, render_violations
from assay.connectors import connect, pg_role_sql
from assay.pipeline import run_sql

__all__ = ["pg_role_command", "sql_command"]

_DB_HELP = "A DuckDB or SQLite file path, or an SQLAlchemy URL (postgresql://...)."


@click.command("sql")
@click.option("--db", required=True, help=_DB_HELP)
@click.argument("statement")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@settings_options("time_limit_ms", "max_rows", "memory_limit_mb", "max_sql_bytes")
@handle_errors
def sql_command(db: str, statement: str, as_json: bool, **kwargs: Any) -> None:
    """Run one guarded, read-only query and print its rows or every violation."""
    settings = resolve_settings(kwargs)
    with connect(db, settings) as connector:
        run = run_sql(statement, connector, settings)
    if as_json:
        record: dict[str, Any] = {"guard": run.report.to_dict()}
        record["result"] = run.result.to_dict() if run.result else None
        echo_json(record)
    elif run.result is not None:
        click.echo(render_result(run.result))
    else:
        click.echo(click.style("Refused", fg="red", bold=True) + " by the guard:")
        click.echo(render_violations(run.report))
    if run.result is None:
        raise click.exceptions.Exit(1)


@click.command("pg-role")
@click.option("--role", default="assay_reader", show_default=True, help="Role to create.")
@click.option("--database", required=True, help="Database the role may connect to.")
@click.option("--schema", default="public", show_default=True, help="Schema of the tables.")
@click.option("--table", "tables", multiple=True, help="A table the role may read (repeat).")
@handle_errors
def pg_role_command(role: str, database: str, schema: str, tables: tuple[str, ...]) -> None:
    """Print the SQL creating the least-privilege PostgreSQL role Assay should connect as.

    A read-only transaction is not a security boundary on its own; connect Assay as this role.
    """
    click.echo(pg_role_sql(role, database=database, tables=list(tables), schema=schema), nl=False)
