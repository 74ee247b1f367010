"""``assay serve`` on a port another process holds: a clear error, before anything starts."""

from __future__ import annotations

import socket

from click.testing import CliRunner

from assay.cli._main import main


def test_a_busy_port_fails_before_serving_is_said() -> None:
    # Outside tryout 36: a second server printed "Assay serving ... on http://..." and only
    # then failed with uvicorn's "[Errno 98] address already in use".
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--host", "127.0.0.1", "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert f"Error: Cannot listen on 127.0.0.1:{port}: the port is already in use." in (
        result.output
    )
    assert "--port" in result.output
    assert "Assay serving" not in result.output and "opening the databases" not in result.output
