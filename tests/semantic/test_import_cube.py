"""``assay semantic import --from cube``: what maps, what is reported, and clear refusals."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.errors import SemanticError
from assay.semantic import load_semantic
from assay.semantic._import_cube import import_cube

MODEL = """
cubes:
  - name: orders
    sql_table: shop.orders
    pre_aggregations:
      - name: by_day
        measures: [CUBE.count]
    measures:
      - name: count
        type: count
      - name: revenue
        type: sum
        sql: "{CUBE}.amount"
      - name: big_revenue
        type: sum
        sql: amount
        filters:
          - sql: "{CUBE}.amount > 100"
      - name: average_order
        type: number
        sql: "{CUBE.revenue} / {count}"
      - name: approx_customers
        type: count_distinct_approx
        sql: customer_id
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: "{CUBE}.status"
        type: string
      - name: created
        sql: created_at::DATE
        type: time
      - name: is_big
        sql: "CASE WHEN amount > 100 THEN 'yes' ELSE 'no' END"
        type: string
    segments:
      - name: completed
        sql: "{CUBE}.status = 'completed'"
    joins:
      - name: customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {customers}.id"
  - name: customers
    sql_table: shop.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: country
        sql: country
        type: string
    joins:
      - name: orders
        relationship: one_to_many
        sql: "{CUBE}.id = {orders}.customer_id"
  - name: buyers
    extends: customers
"""


def _write(tmp_path: Path, text: str, name: str = "model.yml") -> Path:
    folder = tmp_path / "cubes"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_mapping_and_report(tmp_path: Path) -> None:
    result = import_cube(_write(tmp_path, MODEL))
    metrics = {m["name"]: m for m in result.layer["metrics"]}
    assert sorted(metrics) == ["orders_average_order", "orders_count", "orders_revenue"]
    assert metrics["orders_revenue"]["expression"] == "sum(orders.amount)"
    assert metrics["orders_average_order"]["expression"] == "(SUM(orders.amount)) / (COUNT(*))"
    assert {m["time_column"] for m in metrics.values()} == {"orders.created_at"}
    assert {d["name"]: d["column"] for d in result.layer["dimensions"]} == {
        "customers_country": "customers.country",
        "customers_id": "customers.id",
        "orders_id": "orders.id",
        "orders_status": "orders.status",
    }
    # The join is written once, in its many-to-one direction, from either side's declaration.
    assert result.layer["joins"] == [{"left": "orders.customer_id", "right": "customers.id"}]
    # The schema sql_table names is kept, for the import to check against the database.
    assert result.schemas == (("customers", "shop"), ("orders", "shop"))
    report = "\n".join(result.unmapped)
    for line in (
        "cubes.orders.pre_aggregations: ignored (a cache, not a definition)",
        "cubes.orders.segments.completed: segments are not mapped",
        "cubes.orders.measures.big_revenue: a filtered or rolling measure is not mapped",
        "cubes.orders.measures.approx_customers: measure type 'count_distinct_approx'",
        "cubes.orders.dimensions.is_big: not one column of the cube's table",
        "cubes.buyers: a second role of table 'customers' (mapped as cube 'customers')",
    ):
        assert line in report, line
    assert {"orders_big_revenue", "orders_is_big", "orders_completed", "buyers_country"} <= set(
        result.undefined
    )


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"model.yml": "cubes: [\n  - name: x\n"}, "as YAML"),
        ({"model.yml": "tables:\n  - name: daily_revenue\n"}, "not a Cube data model in YAML"),
        ({"orders.js": "cube(`orders`, {sql_table: `orders`})\n"}, "only JavaScript files"),
        ({"model.yml": "cubes:\n  - sql_table: orders\n"}, "has a cube without a name"),
        ({"model.yml": "cubes:\n  - name: a\n    extends: b\n"}, "extends 'b', which is not in"),
        (
            {"model.yml": "cubes:\n  - name: a\n    extends: b\n  - name: b\n    extends: a\n"},
            "part of a cycle",
        ),
    ],
    ids=["malformed", "foreign", "javascript", "nameless", "unknown-parent", "cycle"],
)
def test_bad_models_are_clear_errors(tmp_path: Path, files: dict[str, str], message: str) -> None:
    folder = tmp_path / "cubes"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    with pytest.raises(SemanticError, match=message):
        import_cube(folder)


def _db(path: Path, with_customers: bool = True) -> None:
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE orders AS SELECT * FROM (VALUES (1, 10, 50.0, 'completed', "
        "DATE '2024-01-05'), (2, 11, 150.0, 'open', DATE '2024-02-07'), (3, 10, 20.0, "
        "'completed', DATE '2024-02-09')) t(id, customer_id, amount, status, created_at)"
    )
    if with_customers:
        con.execute(
            "CREATE TABLE customers AS SELECT * FROM (VALUES (10, 'FR'), (11, 'DE')) t(id, country)"
        )
    con.close()


def _import(source: Path, db: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "cube",
            "--source",
            str(source),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    return result.exit_code, result.output


def test_cli_imports_and_a_failed_import_leaves_no_file(tmp_path: Path) -> None:
    source = _write(tmp_path, MODEL)
    db = tmp_path / "shop.duckdb"
    _db(db)
    out = tmp_path / "layer.yaml"
    code, output = _import(source, db, out)
    assert code == 0, output
    assert "not mapped: cubes.orders.segments.completed" in output
    layer = load_semantic(out)
    assert layer.coverage == (
        __import__("datetime").date(2024, 1, 5),
        __import__("datetime").date(2024, 2, 9),
    )
    assert "orders big revenue" in layer.undefined_concepts
    # The same model over a database that lacks a table: refused, nothing written.
    bare = tmp_path / "bare.duckdb"
    _db(bare, with_customers=False)
    missing = tmp_path / "missing.yaml"
    code, output = _import(source, bare, missing)
    assert code == 1 and "table 'customers' does not exist" in output
    assert not missing.exists() and not list(tmp_path.glob(".*partial"))
