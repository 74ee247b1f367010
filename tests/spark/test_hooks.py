"""Spark through the front doors: ``connect`` takes ``sc://`` and ``databricks://``, the guard's
``validate`` takes dialect ``spark``, and ``assay sql --db sc://...`` runs a guarded query."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.connectors._spark import SparkConnector
from assay.errors import ConnectionFailed
from assay.guard import DIALECTS, validate


def test_validate_takes_the_spark_dialect() -> None:
    assert "spark" in DIALECTS
    assert validate("SELECT 1 AS x", catalog=None, dialect="spark").sql == "SELECT 1 AS x"
    refused = validate("SELECT * FROM parquet.`/etc`", catalog=None, dialect="spark")
    assert refused.codes == ("guard.file_access",)


def test_connect_routes_spark_urls(spark_tpch: str) -> None:
    with connect(spark_tpch) as connector:
        assert isinstance(connector, SparkConnector) and connector.dialect == "spark"


def test_connect_names_a_missing_server_and_a_bad_databricks_url() -> None:
    with pytest.raises(ConnectionFailed, match="cannot be reached"):
        connect("sc://127.0.0.1:9")
    with pytest.raises(ConnectionFailed, match="no access token"):
        connect("databricks://host.example/sql/1.0/warehouses/x")


def test_assay_sql_over_spark(spark_tpch: str) -> None:
    runner = CliRunner()
    ok = runner.invoke(
        main, ["sql", "--db", spark_tpch, "--json", "SELECT count(*) AS n FROM nation"]
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["result"]["rows"] == [[25]]
    refused = runner.invoke(main, ["sql", "--db", spark_tpch, "SELECT reflect('a', 'b')"])
    assert refused.exit_code != 0
