"""Commands of the foundation: ``sql`` and ``pg-role`` (``catalog`` is in ``_catalog``)."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from assay.cli._main import echo_json, handle_errors, resolve_settings, settings_options
from assay.cli._render import render_result, render_violations
from assay.connectors import connect, pg_role_sql
from assay.pipeline import run_sql

__all__ = ["pg_role_command", "sql_command"]

_DB_HELP = "A DuckDB or SQLite file path, or an SQLAlchemy URL (postgresql://...)."


class _SqlCommand(click.Command):
    """``assay sql --db X "-- note\nSELECT 1"``: a statement that begins with an SQL comment
    reads to Click as an unknown option ("No such option", outside tryout 22). An argument that
    starts with ``--`` and holds a space or a line break can be no option: it is the statement,
    as if written after the ``--`` separator."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args:
            statements = [
                a
                for a in args
                if a.startswith("--")
                and any(c.isspace() for c in a)
                and not re.match(r"--[A-Za-z][\w-]*=", a)  # --db=/a path/with spaces
            ]
            if len(statements) == 1:
                args = [a for a in args if a is not statements[0]] + ["--", statements[0]]
        return super().parse_args(ctx, args)


@click.command("sql", cls=_SqlCommand)
@click.option("--db", required=True, help=_DB_HELP)
@click.argument("statement", required=False)
@click.option(
    "-f",
    "--file",
    "path",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Read the statement from this file ('-' for standard input).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@settings_options(
    "time_limit_ms",
    "max_rows",
    "memory_limit_mb",
    "max_sql_bytes",
    "max_result_bytes",
    "max_cell_bytes",
)
@handle_errors
def sql_command(
    db: str, statement: str | None, path: str | None, as_json: bool, **kwargs: Any
) -> None:
    """Run one guarded, read-only query and print its rows or every violation.

    The statement is the argument, or the file given with -f, or standard input when neither
    is given ('-' as the argument reads standard input too). A statement that begins with a
    comment ('-- note ...') is given after '--': assay sql --db shop.duckdb -- "-- note ...".
    """
    statement = _statement(statement, path)
    settings = resolve_settings(kwargs)
    with connect(db, settings) as connector:
        run = run_sql(statement, connector, settings)
    if as_json:
        record: dict[str, Any] = {"guard": run.report.to_dict()}
        record["result"] = run.result.to_dict() if run.result else None
        echo_json(record)
    elif run.result is not None:
        click.echo(render_result(run.result))
        if run.report.violations:  # warnings only: the statement ran
            click.echo(click.style("Note", fg="yellow", bold=True) + " from the guard:")
            click.echo(render_violations(run.report))
    else:
        click.echo(click.style("Refused", fg="red", bold=True) + " by the guard:")
        click.echo(render_violations(run.report))
    if run.result is None:
        raise click.exceptions.Exit(1)


def _statement(argument: str | None, path: str | None) -> str:
    if argument is not None and path is not None:
        raise click.UsageError("Give the statement as an argument or with -f FILE, not both.")
    if path is not None and path != "-":
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(f"Cannot read the statement from {path!r}: {exc}.") from exc
    if argument is not None and argument != "-":
        return argument
    stream = sys.stdin
    if path is None and argument is None and stream.isatty():
        raise click.UsageError(
            "Give a statement: as an argument, with -f FILE, or on standard input."
        )
    text: str = stream.read()
    return text


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
