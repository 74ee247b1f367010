"""Loading a DuckDB database into Spark as Parquet tables (tests and benchmarks).

Each table is written by DuckDB as one Parquet file and registered in the Spark server's
catalog with ``CREATE TABLE ... USING parquet LOCATION``, through an administrative session
that is not the read-only connector's. The server must see the same file system (a local
server, or a folder both mount).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["load_duckdb_into_spark"]


def load_duckdb_into_spark(url: str, database: Path, folder: Path) -> list[str]:
    """Write every table of ``database`` under ``folder`` as Parquet and register it in Spark.

    Returns the table names, sorted. Existing tables of the same names are replaced.
    """
    import duckdb
    from pyspark.sql.connect.session import SparkSession

    from assay.connectors._spark import close_channel

    folder.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(database), read_only=True)
    try:
        names = sorted(
            str(r[0])
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
            ).fetchall()
        )
        for name in names:
            target = folder / name
            if not (target / "data.parquet").exists():
                target.mkdir(parents=True, exist_ok=True)
                path = str(target / "data.parquet").replace("'", "''")
                con.execute(f"COPY (SELECT * FROM \"{name}\") TO '{path}' (FORMAT parquet)")
    finally:
        con.close()
    admin = SparkSession.builder.remote(url).create()
    try:
        for name in names:
            location = str(folder / name).replace("'", "\\'")
            admin.sql(f"DROP TABLE IF EXISTS `{name}`").collect()
            admin.sql(f"CREATE TABLE `{name}` USING parquet LOCATION '{location}'").collect()
    finally:
        admin.client.release_session()
        close_channel(admin)
    return names
