"""The ``assay`` command. Commands parse arguments, call the library and print; no logic here.

Expected errors print ``Error: ...`` and exit 1; usage errors exit 2; tracebacks only with
``--debug``.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from assay.errors import AssayError
from assay.settings import SETTINGS, Settings, load_settings

__all__ = ["COMMAND_PATHS", "LazyGroup", "main", "settings_options"]

F = TypeVar("F", bound=Callable[..., Any])


def settings_options(*names: str) -> Callable[[F], F]:
    """Add one flag per named setting, with its help, unit and env var from the table."""

    def decorate(func: F) -> F:
        for setting in reversed([s for s in SETTINGS if s.name in names]):
            func = click.option(
                setting.flag,
                setting.name,
                type=setting.type,
                default=None,
                help=f"{setting.help} [{setting.unit}; env {setting.env_var}; "
                f"default {setting.default!r}]",
            )(func)
        return func

    return decorate


def resolve_settings(kwargs: dict[str, Any]) -> Settings:
    """Flags over environment over defaults; pops the setting flags from ``kwargs``."""
    overrides = {s.name: kwargs.pop(s.name) for s in SETTINGS if s.name in kwargs}
    return load_settings(**overrides)


def handle_errors(func: F) -> F:
    """Turn an ``AssayError`` into ``Error: ...`` on stderr and exit 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        try:
            return func(*args, **kwargs)
        except AssayError as exc:
            if (ctx.find_root().obj or {}).get("debug"):
                raise
            click.echo(f"Error: {exc.message}", err=True)
            if exc.hint:
                click.echo(f"Hint: {exc.hint}", err=True)
            ctx.exit(1)

    return wrapper  # type: ignore[return-value]


# Commands load on first use, so that `assay ask` does not import the benchmark machinery.
COMMAND_PATHS: dict[str, str] = {
    "sql": "assay.cli._commands:sql_command",
    "catalog": "assay.cli._catalog:catalog_group",
    "pg-role": "assay.cli._commands:pg_role_command",
    "ask": "assay.cli._ask:ask_command",
    "demo": "assay.cli._ask:demo_command",
    "score": "assay.cli._score:score_command",
    "calibrate": "assay.cli._score:calibrate_command",
    "report": "assay.cli._report:report_command",
    "prereg": "assay.cli._report:prereg_group",
    "faults": "assay.cli._report:faults_command",
    "bench": "assay.cli._bench:bench_group",
    "monitor": "assay.cli._monitor:monitor_group",
    "semantic": "assay.cli._semantic_draft:semantic_group",
    "serve": "assay.cli._serve:serve_command",
    "mcp": "assay.cli._mcp:mcp_command",
    "ledger": "assay.cli._ledger:ledger_group",
}


# Commands that open a database through a connector worker.
OPENS_A_DATABASE = frozenset({"ask", "sql", "catalog", "semantic", "serve", "mcp"})


class LazyGroup(click.Group):
    """A group whose subcommands are imported when named (click's documented pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_PATHS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        path = COMMAND_PATHS.get(cmd_name)
        if path is None:
            return None
        module, attr = path.split(":")
        if cmd_name in OPENS_A_DATABASE:
            # The connector's fork server imports the engines in its own process while this
            # one imports the command: on a cold start the two overlap.
            from assay.connectors._worker import start_fork_server

            start_fork_server()
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup)
@click.option("--debug", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(package_name="assay")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Assay: a verdict for every machine-written answer to a question about a database."""
    ctx.obj = {"debug": debug}


def echo_json(record: Any) -> None:
    click.echo(json.dumps(record, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
