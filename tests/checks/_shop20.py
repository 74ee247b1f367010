"""A small DuckDB shop shaped as agreed20's data sets, shared by its tests (``test_dev20*``):
TPC-H's regions, nations, customers and suppliers, TPC-DS's dates, items, store and catalog
sales, and the semantic-model-generator's one-row-per-customer summary (``SMG_DEMO``)."""

from __future__ import annotations

from pathlib import Path

import duckdb

_TABLES = (
    "CREATE TABLE region AS SELECT r AS r_regionkey, ['AFRICA','EUROPE','ASIA'][r + 1] AS r_name "
    "FROM range(3) t(r)",
    "CREATE TABLE nation AS SELECT n AS n_nationkey, 'N' || n AS n_name, n % 3 AS n_regionkey "
    "FROM range(9) t(n)",
    "CREATE TABLE customer AS SELECT c AS c_custkey, c % 9 AS c_nationkey, "
    "CAST(100 + 7 * c AS DOUBLE) AS c_acctbal FROM range(60) t(c)",
    "CREATE TABLE supplier AS SELECT s AS s_suppkey, s % 9 AS s_nationkey FROM range(30) t(s)",
    "CREATE TABLE date_dim AS SELECT d AS d_date_sk, DATE '1999-12-25' + CAST(d AS INTEGER) "
    "AS d_date, year(DATE '1999-12-25' + CAST(d AS INTEGER)) AS d_year, "
    "CASE WHEN d % 7 IN (0, 1) THEN 'Y' ELSE 'N' END AS d_weekend, "
    "CASE WHEN d % 11 = 0 THEN 'Y' ELSE 'N' END AS d_holiday FROM range(800) t(d)",
    "CREATE TABLE item AS SELECT i AS i_item_sk, ['Books','Music','Shoes','Sports','Home',"
    "'Jewelry'][i % 6 + 1] AS i_category FROM range(24) t(i)",
    "CREATE TABLE store AS SELECT s AS s_store_sk, 'Store ' || s AS s_store_name "
    "FROM range(4) t(s)",
    "CREATE TABLE store_sales AS SELECT s % 24 AS ss_item_sk, s % 800 AS ss_sold_date_sk, "
    "s % 4 AS ss_store_sk, "
    "s // 3 AS ss_ticket_number, 1 + s % 9 AS ss_quantity, "
    "CAST(5 + (s * 37) % 101 AS DOUBLE) AS ss_ext_sales_price FROM range(3000) t(s)",
    "CREATE TABLE catalog_sales AS SELECT s // 4 AS cs_order_number, (s * 13) % 800 "
    "AS cs_sold_date_sk, CAST((s * 29) % 57 - 20 AS DOUBLE) AS cs_net_profit "
    "FROM range(2000) t(s)",
)
_SUMMARY = (
    "CREATE TABLE SMG_DEMO AS SELECT 'cust' || c AS CUSTOMER_NAME, "
    "CASE WHEN c % 3 = 0 THEN 'new' ELSE 'returning' END AS CUSTOMER_TYPE, "
    "(c * 7) % 90 AS COUNT_LIFETIME_ORDERS, CAST((c * 11) % 40 AS DOUBLE) AS LIFETIME_TAX_PAID, "
    "CAST(200 + (c * 53) % 700 AS DOUBLE) AS LIFETIME_SPEND_PRETAX, "
    "LIFETIME_SPEND_PRETAX + LIFETIME_TAX_PAID AS LIFETIME_SPEND FROM range(50) t(c)",
)


def build_shop(folder: Path) -> tuple[Path, Path]:
    """Two databases, as agreed20 has: the TPC tables (3 regions of 3 nations each, 60
    customers and 30 suppliers over them; 800 days from 25 December 1999, about 2 in 7 weekend
    days; 24 items in 6 categories, 4 stores, 3,000 store sales lines on 1,000 tickets, 2,000
    catalog sales lines on 500 orders) and the customer summary alone (50 customers, a third
    'new'; the with-tax spend is the pretax spend plus the tax on every row)."""
    paths = folder / "tpc.duckdb", folder / "smg.duckdb"
    for path, tables in zip(paths, (_TABLES, _SUMMARY), strict=True):
        con = duckdb.connect(str(path))
        for sql in tables:
            con.execute(sql)
        con.close()
    return paths
