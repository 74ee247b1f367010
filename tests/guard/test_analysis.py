"""The one analysis of a query: tables by lexical scope, columns with lineage through CTEs and
stars, sqlglot's qualify against the catalogue, and what the checks read from it."""

from __future__ import annotations

import sqlglot

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks import equi_join_pairs, output_sources, referenced_tables
from assay.guard import analyse, validate

CATALOG = Catalog(
    (
        TableInfo("customers", (ColumnInfo("id", "INT"), ColumnInfo("email", "TEXT"))),
        TableInfo(
            "orders",
            (ColumnInfo("id", "INT"), ColumnInfo("customer_id", "INT"), ColumnInfo("x", "INT")),
        ),
    ),
    (),
    "duckdb",
    ("main",),
    "db",
)


def _analysis(sql: str, dialect: str = "duckdb"):  # type: ignore[no-untyped-def]
    return analyse(sqlglot.parse_one(sql, read=dialect), dialect, CATALOG)


def test_a_cte_hides_a_table_only_where_it_is_visible() -> None:
    a = _analysis("SELECT * FROM (WITH orders AS (SELECT 1 AS id) SELECT id FROM orders) s, orders")
    assert sorted((t.name, t.kind) for t in a.tables) == [("orders", "base"), ("orders", "cte")]
    assert a.base_tables == ["orders"]


def test_case_folding_follows_the_engine() -> None:
    duck = _analysis("WITH Orders AS (SELECT 1 AS id) SELECT id FROM ORDERS")
    assert [t.kind for t in duck.tables] == ["cte"]
    pg = _analysis('WITH "Orders" AS (SELECT 1 AS id) SELECT id FROM orders', "postgres")
    assert [t.kind for t in pg.tables] == ["base"]
    quoted = _analysis('WITH "Orders" AS (SELECT 1 AS id) SELECT id FROM "Orders"', "postgres")
    assert [t.kind for t in quoted.tables] == ["cte"]


def test_lineage_through_stars_ctes_and_renames() -> None:
    a = _analysis(
        "WITH a AS (SELECT * FROM customers), b AS (SELECT email AS e FROM a) SELECT e FROM b"
    )
    assert ("customers", "email") in a.base_reads
    outer = _analysis("SELECT * FROM (SELECT * FROM customers) t")
    assert outer.output_reads == [{("customers", "id")}, {("customers", "email")}]


def test_qualify_resolves_unqualified_columns_to_their_table() -> None:
    a = _analysis("SELECT email FROM customers JOIN orders ON orders.customer_id = customers.id")
    assert a.qualified_reads == {
        ("customers", "email"),
        ("customers", "id"),
        ("orders", "customer_id"),
    }


def test_a_clash_of_names_is_an_error_not_an_exception() -> None:
    a = _analysis("SELECT 1 FROM orders JOIN customers ON 1 = 1 JOIN customers ON 1 = 1")
    assert a.error is not None
    assert validate(
        "SELECT 1 FROM orders JOIN customers ON 1 = 1 JOIN customers ON 1 = 1",
        catalog=CATALOG,
        dialect="duckdb",
    ).codes == ("guard.unresolvable",)


def test_the_checks_read_the_same_resolution() -> None:
    tree = sqlglot.parse_one(
        "SELECT o.x FROM (WITH customers AS (SELECT 1 AS id) SELECT id FROM customers) s, "
        "orders o JOIN customers c ON o.customer_id = c.id",
        read="duckdb",
    )
    assert referenced_tables(tree) == ["customers", "orders"]
    assert equi_join_pairs(tree, CATALOG) == [(("customers", "id"), ("orders", "customer_id"))]
    assert output_sources(tree, CATALOG) == [("orders", "x")]
    shadowed = sqlglot.parse_one(
        "WITH customers AS (SELECT 1 AS id) SELECT c.id FROM customers c", read="duckdb"
    )
    assert referenced_tables(shadowed) == []
    assert output_sources(shadowed, CATALOG) == [None]
