"""``assay serve``: the HTTP API, the web page and MCP over streamable HTTP, on one port."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path
from typing import Any

import click

from assay.cli._main import handle_errors, resolve_settings, settings_options
from assay.errors import ConfigError

__all__ = [
    "GIL_SWITCH_INTERVAL_S",
    "listen",
    "open_service",
    "serve_command",
    "tune_for_latency",
    "uvicorn_config",
]

# How long a thread may hold the GIL while another waits for it (CPython's default is 5 ms).
# The event loop wakes for every request and response and must take the GIL from the request
# threads running answers; at the default it waits up to 5 ms each time, several times a
# request. 0.5 ms cut the p50 of the asks settled by reading them (2-3 ms of work) under the
# 32-client load (benchmarks/bench_service.py); the request threads switch more often, at
# no throughput cost that the benchmark could measure.
GIL_SWITCH_INTERVAL_S = 0.0005


def open_service(config_path: Path | None, ledger: str | None, **kwargs: Any) -> Any:
    """The ``Service`` for a configuration file, or for the demo warehouse without one."""
    try:
        from assay.service import Service, demo_config, load_config
    except ImportError as exc:  # pragma: no cover - the extra is part of dev
        raise ConfigError(
            f"The service needs the [service] extra ({exc.name} is missing).",
            hint="pip install 'assay[service]'",
        ) from exc
    settings = resolve_settings(kwargs)
    if settings.llm_base_url or settings.llm_escalation_base_url:
        # The service answers from the semantic layer's planner alone; a model configured for
        # `assay ask` is said to be unused here, never silently dropped (outside tryout 38).
        click.echo(
            "Assay: the service answers without a model: ASSAY_LLM_BASE_URL and the other "
            "ASSAY_LLM_* settings are not used by `assay serve` or `assay mcp` (the model "
            "path is on `assay ask`; see docs/model.md).",
            err=True,
        )
    if config_path is None:
        from assay.cli._ask import demo_warehouse

        db, layer = demo_warehouse(settings)
        config = demo_config(db, layer, settings, ledger)
    else:
        config = load_config(config_path)
        if ledger is not None:
            config = config.model_copy(update={"ledger": ledger})
    processes = config.limits.answer_processes
    if processes is None:
        processes = settings.n_workers + 1
    readers = config.limits.reading_processes
    if readers is None:
        readers = min(4, os.cpu_count() or 1)
    return Service(config, settings, answer_processes=processes, reading_processes=readers)


@click.command("serve")
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Server configuration (YAML, docs/deploy.md); default: the demo warehouse.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--ledger", help="Ledger SQLAlchemy URL (overrides the configuration's).")
@click.option("--no-mcp", is_flag=True, help="Do not serve MCP (streamable HTTP) at /mcp.")
@settings_options("time_limit_ms", "max_rows", "cache_dir", "n_workers", "memory_limit_mb")
@handle_errors
def serve_command(
    config_path: Path | None, host: str, port: int, ledger: str | None, no_mcp: bool, **kwargs: Any
) -> None:
    """Serve the API, the web page and MCP over the configured databases (or the demo)."""
    import uvicorn

    from assay.service import create_app, mcp_http

    # The port first: a busy one fails at once, before a minute of opening databases, and never
    # after "Assay serving ..." was said (outside tryout 36: uvicorn's "[Errno 98] address
    # already in use" came after it).
    listening = listen(host, port)
    # Opening the databases and starting the reading and answer processes takes seconds (a
    # minute or more for a large layer on a busy machine): say so at once, at a terminal or in a
    # log, or the operator sees a silent command and a port that refuses (outside tryouts 9 and
    # 13). An error that follows is its own line beginning "Error: ".
    click.echo("Assay: opening the databases and starting the processes...", err=True)
    try:
        service = open_service(config_path, ledger, **kwargs)
    except BaseException:
        listening.close()
        raise
    try:
        routes, lifespan = ([], None) if no_mcp else mcp_http(service, host)
        app = create_app(service, extra_routes=routes, lifespan=lifespan)
        keys = ", ".join(sorted(service.databases))
        tune_for_latency()
        click.echo(
            f"Assay serving {keys}{' (demo warehouse)' if service.config.demo else ''} on "
            f"http://{host}:{port}/ (ledger {service.ledger.where}; "
            f"tokens {'on' if service.config.tokens else 'off'})",
            err=True,
        )
        uvicorn.Server(uvicorn_config(app, host, port)).run(sockets=[listening])
    finally:
        listening.close()
        service.close()


def listen(host: str, port: int) -> socket.socket:
    """A socket bound and listening on ``host:port`` (what uvicorn would bind), or a
    ``ConfigError`` naming the port and the fix."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(
            f"Cannot listen on {host}:{port}: the address does not resolve ({exc.strerror}).",
            hint="Give --host as an address of this machine, e.g. 127.0.0.1 or 0.0.0.0.",
        ) from exc
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        # As uvicorn binds: a port left in TIME_WAIT by a stopped server can be taken again,
        # a port another process listens on cannot.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        busy = exc.errno == errno.EADDRINUSE
        raise ConfigError(
            f"Cannot listen on {host}:{port}: "
            + ("the port is already in use." if busy else f"{exc.strerror}."),
            hint=(
                "Another process holds it (a second 'assay serve'?): stop that one, or choose "
                "another port with --port."
                if busy
                else "Choose another --host or --port (a port below 1024 needs privileges)."
            ),
            details={"host": host, "port": port},
        ) from exc
    return sock


def uvicorn_config(app: Any, host: str, port: int) -> Any:
    """How uvicorn serves the app: httptools and uvloop (its defaults where they are installed,
    as the [service] extra installs them), one process, no access log. The benchmark's no-op
    floor (benchmarks/_noop_server.py) is served by the same settings."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,  # no line per request (warnings and errors are logged)
        timeout_keep_alive=5,
        limit_concurrency=256,
        timeout_graceful_shutdown=5,
    )


def tune_for_latency() -> None:
    """Interpreter settings for a long-running server: a short GIL switch interval (see
    ``GIL_SWITCH_INTERVAL_S``), and everything loaded at start (the app, the semantic layers,
    the catalogs) moved out of the garbage collector's reach (``gc.freeze``): a full collection
    then walks only what requests left behind, not the few hundred thousand objects that live
    as long as the server (a full collection over them stopped every request for up to a
    second under load)."""
    import gc
    import sys

    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    gc.collect()
    gc.freeze()
