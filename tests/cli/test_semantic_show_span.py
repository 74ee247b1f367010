"""`assay semantic show` gives each metric the span of its own rows.

Outside tryout 23 saw every metric of a drafted TPC-DS layer timed through ``date_dim.d_date``
shown with "data 1900-01-02 to 2100-01-01" (the calendar's span), while the layer file says the
sales run from 1998-01-02 to 2003-01-02. A metric's declared coverage is shown; a metric timed
across a join with none declared shows no span, never the calendar's.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
from click.testing import CliRunner

from assay.cli import main

LAYER = """\
name: star
clock: 2003-01-02
coverage: {start: 1998-01-02, end: 2003-01-02}
joins:
  - left: store_sales.ss_sold_date_sk
    right: date_dim.d_date_sk
metrics:
  - name: net_paid
    label: total store sales net paid
    table: store_sales
    expression: sum(store_sales.ss_net_paid)
    time_column: date_dim.d_date
    coverage: {start: 1998-01-02, end: 2003-01-02}
  - name: quantity
    label: total store sales quantity
    table: store_sales
    expression: sum(store_sales.ss_quantity)
    time_column: date_dim.d_date
  - name: days
    label: date_dim count
    table: date_dim
    expression: count(*)
    time_column: date_dim.d_date
"""


def test_show_gives_a_metric_its_rows_span_never_the_joined_calendars(tmp_path: Path) -> None:
    db = tmp_path / "star.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE date_dim (d_date_sk INTEGER, d_date DATE)")
        con.execute(
            "INSERT INTO date_dim VALUES (1, DATE '1900-01-02'), (2, DATE '1998-01-02'),"
            " (3, DATE '2003-01-02'), (4, DATE '2100-01-01')"
        )
        con.execute(
            "CREATE TABLE store_sales (ss_sold_date_sk INTEGER, ss_net_paid DOUBLE,"
            " ss_quantity INTEGER)"
        )
        con.execute("INSERT INTO store_sales VALUES (2, 10.0, 1), (3, 5.0, 2)")
    layer = tmp_path / "star.yaml"
    layer.write_text(LAYER, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["semantic", "show", "--db", str(db), "--semantic", str(layer)]
    )
    assert result.exit_code == 0, result.output
    lines = {line.split(";")[0].strip(): line for line in result.output.splitlines() if ";" in line}
    assert lines["total store sales net paid"].endswith("data 1998-01-02 to 2003-01-02")
    assert "1900" not in lines["total store sales quantity"]
    assert lines["total store sales quantity"].endswith(
        "timed by date_dim.d_date (its span not read)"
    )
    # the calendar's own count is timed on its own table: its span is the calendar's
    assert lines["date_dim count"].endswith("data 1900-01-02 to 2100-01-01")
