"""``cap.fan_out_in_metric`` warns for a real fan-out only (tryout 10, item 114).

MetricFlow's tutorial metric ``cancellations_mx`` is ``SUM(CASE WHEN customers.country = 'MX'
THEN ... END)`` over ``transactions``: the country decides which transactions count, read once
per transaction through a many-to-one join (``id_customer`` is unique in ``customers``). That is
a lookup, not a fan-out, and its answer is shown. The same test through a join whose far key
repeats (one to many) takes each row of the metric's table once per match: still warned. A
one-side column summed as a value (OSI's ``SUM(store.s_number_employees)``) stays warned
(``tests/generators/test_fan_out_metric.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.catalog import Profiles
from assay.checks import CheckContext
from assay.checks._verify import fan_out_in_metric
from assay.cli import main
from assay.connectors import PooledConnector, connect
from assay.pipeline import Agent
from assay.semantic import JoinPath, Metric, SemanticLayer, load_semantic
from assay.types import Candidate
from tests.semantic.test_import_metricflow import TUTORIAL

# Mexico's cancellations per week, computed by hand from the seeds (transactions.ds is the
# measure's time; weeks start on Monday, as DuckDB's date_trunc).
MEXICO_BY_WEEK = (
    "SELECT date_trunc('week', t.ds)::DATE AS week, "
    "SUM(CASE WHEN t.transaction_type_name = 'cancellation' THEN t.transaction_amount_usd "
    "ELSE 0 END) AS usd FROM transactions t JOIN customers c ON t.id_customer = c.id_customer "
    "WHERE c.country = 'MX' GROUP BY 1 ORDER BY 1"
)


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if not TUTORIAL.exists():
        pytest.skip("the shared semantic models are absent")
    folder = tmp_path_factory.mktemp("mf")
    db, out = folder / "mf.duckdb", folder / "layer.yaml"
    con = duckdb.connect(str(db))
    for name in ("transactions", "customers", "countries"):
        seed = TUTORIAL / "seeds" / f"{name}_seed.csv"
        con.execute(f"CREATE TABLE {name}_seed AS SELECT * FROM read_csv_auto('{seed}')")
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM {name}_seed")
    con.close()
    args = ["semantic", "import", "--from", "metricflow", "--source"]
    args += [str(TUTORIAL / "sample_models"), "--db", str(db), "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return db, out


def test_cancellations_in_mexico_by_week_is_shown(tutorial: tuple[Path, Path]) -> None:
    db, out = tutorial
    con = duckdb.connect(str(db), read_only=True)
    expected = {str(w): round(float(v), 2) for w, v in con.execute(MEXICO_BY_WEEK).fetchall()}
    con.close()
    assert len(expected) >= 3 and max(expected.values()) > 0
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(out)).ask("cancellations in Mexico by week")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    got = {
        str(row[0])[:10]: round(float(row[-1] or 0), 2)
        for row in verdict.candidate.result.rows
        if str(row[0])[:10] in expected
    }
    assert got == expected
    assert "cap.fan_out_in_metric" not in {f.code for f in verdict.findings}
    assert verdict.action == "show", verdict.reasons


# A test on a column of another table, joined two ways.
BIG_SPENDERS = Metric(
    "vip_sales",
    "sales to vip customers",
    ("vip sales",),
    "sales",
    "SUM(CASE WHEN clients.tier = 'vip' THEN sales.amount END)",
)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """Three sales; clients keyed once each; visits with two rows for client 1."""
    path = tmp_path_factory.mktemp("lookup") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE clients AS SELECT * FROM (VALUES (1, 'vip'), (2, 'std')) t(client_id, tier)"
    )
    con.execute(
        "CREATE TABLE visits AS SELECT * FROM (VALUES (1, 'vip'), (1, 'vip'), (2, 'std')) "
        "t(client_id, tier)"
    )
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (1, 10.0), (1, 5.0), (2, 7.0)) "
        "t(client_id, amount)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _check(connector: PooledConnector, metric: Metric, sql: str, join: JoinPath) -> list[str]:
    layer = SemanticLayer(name="s", metrics=(metric,), joins=(join,), tables=join.tables)
    catalog = connector.catalog()
    result = connector.execute(sql, time_limit_ms=5_000, max_rows=10)
    ctx = CheckContext(
        "q", Candidate(sql, (), None, result), "duckdb", catalog, Profiles(connector, catalog)
    )
    ctx = replace(ctx, layer=layer, metric=metric)
    return [f.message for f in fan_out_in_metric(ctx).findings]


def test_a_lookup_on_a_unique_key_is_not_a_fan_out(shop: PooledConnector) -> None:
    sql = (
        "SELECT SUM(CASE WHEN c.tier = 'vip' THEN s.amount END) FROM sales s "
        "JOIN clients c ON s.client_id = c.client_id"
    )
    assert shop.execute(sql, time_limit_ms=5_000, max_rows=1).rows == ((15.0,),)
    join = JoinPath("sales.client_id", "clients.client_id")
    assert _check(shop, BIG_SPENDERS, sql, join) == []


def test_a_test_through_a_repeating_key_is_a_fan_out(shop: PooledConnector) -> None:
    """``visits.client_id`` repeats: each sale of client 1 is taken twice (30, not 15), even
    though the join is declared many to one."""
    metric = replace(
        BIG_SPENDERS, expression="SUM(CASE WHEN visits.tier = 'vip' THEN sales.amount END)"
    )
    sql = (
        "SELECT SUM(CASE WHEN v.tier = 'vip' THEN s.amount END) FROM sales s "
        "JOIN visits v ON s.client_id = v.client_id"
    )
    assert shop.execute(sql, time_limit_ms=5_000, max_rows=1).rows == ((30.0,),)
    messages = _check(shop, metric, sql, JoinPath("sales.client_id", "visits.client_id"))
    assert len(messages) == 1
    assert "each sales row is taken once per matching visits row" in messages[0]


def test_without_a_join_path_the_test_is_still_warned(shop: PooledConnector) -> None:
    """Fail closed: no declared join from sales to clients, so uniqueness is unknown."""
    sql = "SELECT SUM(amount) FROM sales"
    join = JoinPath("visits.client_id", "clients.client_id")
    assert len(_check(shop, BIG_SPENDERS, sql, join)) == 1


def test_a_one_side_value_summed_is_still_a_fan_out(shop: PooledConnector) -> None:
    metric = replace(BIG_SPENDERS, expression="SUM(clients.client_id)")
    sql = "SELECT SUM(c.client_id) FROM sales s JOIN clients c ON s.client_id = c.client_id"
    messages = _check(shop, metric, sql, JoinPath("sales.client_id", "clients.client_id"))
    assert len(messages) == 1 and "counted once per sales row" in messages[0]
