"""The Cortex Analyst revenue tables in small, shaped as share36's tester had them
(``test_share36.py``, ``test_dropped36.py``): ``region`` stores a row per state under each
``Region_id`` (a region's name is held by every row of its key, a state is not); no key is
declared, so ``daily_revenue.Region_id`` names ``region`` by its name."""

from __future__ import annotations

from pathlib import Path

import duckdb

REGIONS = {
    1: ("North America", ("New York", "Texas")),
    2: ("Europe", ("France", "Spain", "Italy")),
    3: ("Asia", ("Japan", "India")),
}


def build_revenue(path: Path) -> Path:
    """90 days of revenue over three products and three regions (Europe is 2)."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE region (Region_id BIGINT, Region VARCHAR, State VARCHAR)")
    rows = [(k, name, s) for k, (name, states) in REGIONS.items() for s in states]
    con.executemany("INSERT INTO region VALUES (?, ?, ?)", rows)
    con.execute("CREATE TABLE product (Product_id BIGINT, Product_line VARCHAR)")
    con.executemany(
        "INSERT INTO product VALUES (?, ?)", [(1, "Electronics"), (2, "Clothing"), (3, "Toys")]
    )
    con.execute(
        "CREATE TABLE daily_revenue AS SELECT DATE '2024-01-01' + CAST(i AS INTEGER) AS DATE, "
        "100.0 + (i * 37) % 91 AS REVENUE, 1 + i % 3 AS Product_id, 1 + (i // 3) % 3 "
        "AS Region_id FROM range(90) t(i)"
    )
    con.close()
    return path
