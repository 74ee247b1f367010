"""A small DuckDB shop shaped as agreed19's datasets, shared by its tests (``test_dev19*``):
the MetricFlow tutorial's seeds (a date column ``ds``, customers keyed by ``id_customer``) and
the Snowflake Intelligence tables (several rows a day per platform)."""

from __future__ import annotations

from pathlib import Path

import duckdb


def build_shop(path: Path) -> Path:
    """4 customers (2 in Europe), signed up on 7-10 March 2022; 40 transactions on 1 March to 9
    April, each customer making several; clicks one row a day per campaign; mentions one row a
    day per platform (two platforms); sales of products in two categories."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE countries_seed (country VARCHAR, region VARCHAR)")
    con.execute("INSERT INTO countries_seed VALUES ('FR','EU'),('GR','EU'),('US','NA'),('CA','NA')")
    con.execute(
        "CREATE TABLE customers_seed AS SELECT 'c' || c AS id_customer, "
        "['FR','GR','US','CA'][c + 1] AS country, "
        "DATE '2022-03-07' + CAST(c AS INTEGER) AS ds FROM range(4) t(c)"
    )
    con.execute(
        "CREATE TABLE transactions_seed AS SELECT 't' || t AS id_transaction, "
        "'c' || (t % 4) AS id_customer, CAST(10 + t AS DOUBLE) AS transaction_amount_usd, "
        "CASE WHEN t % 3 = 0 THEN 'sell' ELSE 'buy' END AS transaction_type_name, "
        "DATE '2022-03-01' + CAST(t AS INTEGER) AS ds FROM range(40) r(t)"
    )
    con.execute(
        "CREATE TABLE campaign_metrics AS SELECT DATE '2024-06-01' + CAST(d AS INTEGER) AS date, "
        "'Summer' AS campaign_name, 100 + d AS clicks FROM range(10) r(d)"
    )
    con.execute(
        "CREATE TABLE mentions AS SELECT DATE '2024-06-01' + CAST(d AS INTEGER) AS date, "
        "p AS platform, d + length(p) AS mentions "
        "FROM range(12) r(d), (VALUES ('Instagram'), ('X')) v(p)"
    )
    con.execute(
        "CREATE TABLE products AS SELECT p AS product_id, "
        "CASE WHEN p % 2 = 0 THEN 'Footwear' ELSE 'Apparel' END AS category FROM range(6) r(p)"
    )
    con.execute(
        "CREATE TABLE sales AS SELECT p AS product_id, "
        "CAST(100 * (5 * p + d) AS DOUBLE) AS sales_amount FROM range(6) r(p), range(3) s(d)"
    )
    con.close()
    return path
