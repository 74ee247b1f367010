"""``assay mcp``: the MCP server over stdio (tools ask, sql, catalog, semantic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from assay.cli._main import handle_errors, settings_options
from assay.cli._serve import open_service

__all__ = ["mcp_command"]


@click.command("mcp")
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server configuration (YAML, docs/deploy.md); default: the demo warehouse.",
)
@click.option("--ledger", help="Ledger SQLAlchemy URL (overrides the configuration's).")
@settings_options("time_limit_ms", "max_rows", "cache_dir")
@handle_errors
def mcp_command(config_path: Path | None, ledger: str | None, **kwargs: Any) -> None:
    """Serve Assay's tools to an MCP client over stdio (ask, sql, catalog, semantic)."""
    from assay.service import build_mcp

    service = open_service(config_path, ledger, **kwargs)
    try:
        build_mcp(service, client="mcp-stdio").run("stdio")
    finally:
        service.close()
