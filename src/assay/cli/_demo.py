"""``assay demo``: guarded execution over a TPC-H warehouse built offline.

It builds TPC-H at scale factor 0.01 in the cache folder, runs official query 1 through the
guard and a worker, then sends a handful of dangerous statements and shows each refusal with
its reasons and the proof, from the statement log, that none reached the engine.
"""

from __future__ import annotations

import click

from assay.bench import build_tpc, tpc_queries
from assay.cli._main import echo_json
from assay.cli._render import render_result, render_violations
from assay.connectors import connect
from assay.pipeline import run_sql
from assay.settings import Settings

__all__ = ["DANGEROUS", "run_demo"]

DANGEROUS: tuple[tuple[str, str], ...] = (
    ("stacked write", "SELECT * FROM nation; DROP TABLE lineitem"),
    ("write hidden in a CTE", "WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone"),
    ("file read", "SELECT * FROM read_text('/etc/passwd')"),
    ("file export", "COPY lineitem TO '/tmp/stolen.csv'"),
    ("extension load", "LOAD httpfs"),
    ("configuration change", "SET enable_external_access = true"),
    ("memory bomb", "SELECT repeat('x', 2000000000) AS boom"),
    ("cross-join bomb", "SELECT count(*) FROM lineitem a, lineitem b, lineitem c"),
    ("fabricated table", "SELECT sum(amount) FROM revenue_2024"),
)


def run_demo(settings: Settings, *, as_json: bool = False) -> None:
    path = settings.cache_path / "tpch-sf0.01.duckdb"
    if not path.exists() and not as_json:
        click.echo(f"Building TPC-H (scale factor 0.01) in {path} ...")
    build_tpc("tpch", 0.01, path)
    query_1 = dict(tpc_queries("tpch"))[1]
    with connect(str(path), settings) as connector:
        run = run_sql(query_1, connector, settings)
        if as_json:
            echo_json(
                {
                    "step": "tpch_q1",
                    "guard": run.report.to_dict(),
                    "result": run.result.to_dict() if run.result else None,
                }
            )
        else:
            click.echo(click.style("\nTPC-H query 1, guarded and read-only:", bold=True))
            assert run.result is not None
            click.echo(render_result(run.result, limit=10))
        for title, statement in DANGEROUS:
            before = len(connector.statement_log)
            refused = run_sql(statement, connector, settings)
            reached = [s.sql for s in connector.statement_log[before:] if s.purpose == "query"]
            if as_json:
                echo_json(
                    {
                        "step": title,
                        "statement": statement,
                        "guard": refused.report.to_dict(),
                        "reached_engine": reached,
                    }
                )
                continue
            badge = click.style(" REFUSED ", bg="red", fg="white", bold=True)
            if refused.result is not None:
                badge = click.style(" RAN ", bg="yellow", fg="black", bold=True)
            click.echo(f"\n{badge} {title}: {statement}")
            click.echo(render_violations(refused.report))
            click.echo(f"  statements that reached the engine: {len(reached)}")
