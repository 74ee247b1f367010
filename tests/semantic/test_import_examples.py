"""Row-for-row checks of the shared semantic-layer examples (issue 12, item 5).

For each project under ``../shared/data/semantic-models``: import its layer with ``assay
semantic import``, load its data into DuckDB the way its README says, ask its documented
example questions through ``Agent`` and compare the rows shown with the rows of the source
project's own SQL (Cortex: the verified query, run as the README runs it; MetricFlow and Cube:
the SQL their query means, written here). An example Assay cannot map must not be shown: each
question's outcome is ``same rows`` or ``not shown``, never ``WRONG ROWS``, and the expected
outcome of every question is asserted, so a regression either way fails.

The MetricFlow and Cube examples are CLI commands, metric names or UI clicks; the English
questions here are their plain wording, written while looking at what the reader reads (tuned
on, not held out). The Cortex questions are the verified questions verbatim. The OSI metric
descriptions are asked verbatim, and two of them also as written here (tuned on). The readings
that made the verbatim OSI questions and the tutorial's "complicated query" answerable
(numeric comparisons, "across all <rows>", a parenthetical grouping by a dimension's column,
expression dimensions, metric filters through joins) are general, each with its own unit tests
in ``test_comparisons.py``; they were built while looking at these questions (tuned on).
"""

from __future__ import annotations

import csv
import datetime as dt
import decimal
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click
import duckdb
import pytest
import yaml
from click.testing import CliRunner

from assay.cli import main
from assay.cli._ask import render_answer
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.types import Verdict

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
pytestmark = [
    pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent"),
    pytest.mark.slow,  # five imports, two TPC warehouses: about a minute on a busy machine
]

MF_TUTORIAL = SHARED / "metricflow-tutorial" / "dbt-metricflow" / "dbt_metricflow" / "cli"
MF_MANIFEST = SHARED / "metricflow-simple-manifest"
CORTEX = SHARED / "sfguide-cortex-analyst"
INTELLIGENCE = SHARED / "sfguide-snowflake-intelligence"
OSI = SHARED / "osi" / "examples" / "tpcds_semantic_model.yaml"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"


def _cell(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return round(float(value), 6)
    return str(value)


def _rows(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    return sorted((tuple(_cell(v) for v in row) for row in rows), key=repr)


def outcome(
    verdict: Verdict, expected: Sequence[Sequence[Any]] | None, *, warned_apart: bool = False
) -> str:
    """``same rows``, ``not shown`` or ``WRONG ROWS`` (shown rows that differ); with
    ``warned_apart``, rows shown only under a warning are ``warned, same rows``."""
    candidate = verdict.candidate
    if verdict.action == "withhold" or candidate is None or candidate.result is None:
        return "not shown"
    if expected is None:
        return "WRONG ROWS"  # nothing may be shown for an example Assay cannot map
    if _rows(candidate.result.rows) != _rows(expected):
        return "WRONG ROWS"
    return "warned, same rows" if warned_apart and verdict.action == "warn" else "same rows"


def _import(kind: str, source: Path, db: Path, out: Path) -> str:
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            kind,
            "--source",
            str(source),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return result.output


def _ask_all(
    db: Path, layer_path: Path, questions: dict[str, tuple[str, Any]]
) -> Iterator[tuple[str, Verdict, Any]]:
    with connect(str(db)) as connector:
        agent = Agent(connector, load_semantic(layer_path))
        for key, (question, expected) in questions.items():
            yield key, agent.ask(question), expected


def _outcomes(db: Path, layer: Path, questions: dict[str, tuple[str, Any]]) -> dict[str, str]:
    return {key: outcome(v, expected) for key, v, expected in _ask_all(db, layer, questions)}


def _why(verdicts: dict[str, tuple[Verdict, Any]]) -> str:
    """Each verdict's action, reasons and findings, for a failing assertion's message."""
    return "\n".join(
        f"{key}: {v.behaviour}/{v.action} reasons={list(v.reasons)} "
        + "; ".join(f"{f.code}: {f.message}" for f in v.findings)
        for key, (v, _) in verdicts.items()
    )


# --- dbt MetricFlow: the tutorial project ---------------------------------------------------


def test_metricflow_tutorial(tmp_path: Path) -> None:
    db = tmp_path / "mf.duckdb"
    con = duckdb.connect(str(db))
    seeds = MF_TUTORIAL / "sample_dbt_models" / "seeds"
    for name in ("transactions", "customers", "countries"):
        seed = seeds / f"{name}_seed.csv"
        con.execute(f"CREATE TABLE {name}_seed AS SELECT * FROM read_csv_auto('{seed}')")
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM {name}_seed")
    con.execute(
        "CREATE TABLE all_days AS SELECT range::DATE AS date_day "
        "FROM range(DATE '2022-01-01', DATE '2023-01-01', INTERVAL 1 DAY)"
    )

    def q(sql: str) -> list[tuple[Any, ...]]:
        return con.execute(sql).fetchall()

    # What `mf query` computes: metric_time is the agg_time_dimension ds; transactions = SUM(1).
    by_day = q("SELECT ds, sum(1) FROM transactions GROUP BY ds")
    by_day_country = q(
        "SELECT t.ds, c.country, sum(1) FROM transactions t "
        "LEFT JOIN customers c ON t.id_customer = c.id_customer GROUP BY 1, 2"
    )
    by_week = q("SELECT date_trunc('week', ds), sum(1) FROM transactions GROUP BY 1")
    saved = q(
        "SELECT t.ds, c.country, sum(1), "
        "sum(CASE WHEN transaction_type_name = 'quick-buy' THEN 1 ELSE 0 END) "
        "FROM transactions t LEFT JOIN customers c ON t.id_customer = c.id_customer GROUP BY 1, 2"
    )
    # MetricFlow computes each metric over its own rows (transaction_usd_na: the rows whose
    # customer's country is in region NA, through two joins) and joins them on the groups
    # (a FULL OUTER JOIN): a (day, is_large) group with no NA transaction has NULL for it.
    # --start-time and --end-time are both inclusive.
    complicated = q(
        "SELECT t.ds, CASE WHEN t.transaction_amount_usd >= 30 THEN TRUE ELSE FALSE END, "
        "sum(1), sum(CASE WHEN co.region = 'NA' THEN t.transaction_amount_usd END) "
        "FROM transactions t LEFT JOIN customers c ON t.id_customer = c.id_customer "
        "LEFT JOIN countries co ON c.country = co.country "
        "WHERE t.ds >= DATE '2022-03-20' AND t.ds <= DATE '2022-04-01' GROUP BY 1, 2"
    )
    # transaction_usd_na alone by day: MetricFlow's WHERE leaves out the days without an NA
    # transaction (25 days, not the 26 with a transaction).
    na_by_day = q(
        "SELECT t.ds, sum(t.transaction_amount_usd) FROM transactions t "
        "LEFT JOIN customers c ON t.id_customer = c.id_customer "
        "LEFT JOIN countries co ON c.country = co.country WHERE co.region = 'NA' GROUP BY 1"
    )
    # Not documented: a value of a dimension (read from the data at import) as a filter.
    in_fr = q(
        "SELECT t.ds, sum(1) FROM transactions t LEFT JOIN customers c "
        "ON t.id_customer = c.id_customer WHERE c.country = 'FR' GROUP BY 1"
    )
    con.close()
    out = tmp_path / "layer.yaml"
    report = _import("metricflow", MF_TUTORIAL / "sample_dbt_models" / "sample_models", db, out)
    assert "values read from the data for 2 of 2 dimensions" in report
    questions = {
        # mf query --metrics transactions --group-by metric_time
        "first metric": ("transactions by day", by_day),
        # mf query --metrics transactions --group-by metric_time,customer__customer_country
        "another dimension": ("transactions by day and customer country", by_day_country),
        # mf query --metrics transactions --group-by metric_time__week
        "coarser granularity": ("transactions by week", by_week),
        # mf query --metrics transactions,transaction_usd_na --group-by
        #   metric_time,transaction__is_large --start-time 2022-03-20 --end-time 2022-04-01:
        # transaction_usd_na filters on another model's dimension (country__region through
        # the customer entity, two joins each the only way into its table); is_large is an
        # expression over its own model's columns: both mapped.
        "complicated query": (
            "transactions and transaction amount in NA by day and is large "
            "between 2022-03-20 and 2022-04-01",
            complicated,
        ),
        # saved query core_transaction_metrics
        "core_transaction_metrics": (
            "transactions and quick buy transactions by day and customer country",
            saved,
        ),
        "value filter": ("transactions by day in FR", in_fr),
        "filtered metric alone": ("transaction amount in NA by day", na_by_day),
    }
    assert len(na_by_day) == 25
    assert _outcomes(db, out, questions) == {
        "filtered metric alone": "same rows",
        "first metric": "same rows",
        "another dimension": "same rows",
        "coarser granularity": "same rows",
        "complicated query": "same rows",
        "core_transaction_metrics": "same rows",
        "value filter": "same rows",
    }


# --- dbt MetricFlow: the simple manifest (MetricFlow's own test model and data) -------------

_TYPES = {"TIME": "TIMESTAMP", "STRING": "VARCHAR", "FLOAT": "DOUBLE", "INT": "BIGINT"}


def test_metricflow_simple_manifest(tmp_path: Path) -> None:
    db = tmp_path / "sm.duckdb"
    con = duckdb.connect(str(db))
    snapshots = MF_MANIFEST / "tests_metricflow" / "fixtures" / "source_table_snapshots"
    # The model tables (not the time spines, which Assay does not read), through CSV: one
    # INSERT per row of 17 tables takes minutes.
    for file in sorted((snapshots / "simple_model").glob("*.yaml")):
        snap = yaml.safe_load(file.read_text(encoding="utf-8"))["table_snapshot"]
        cols = snap["column_definitions"]
        csv_path = tmp_path / f"{snap['table_name']}.csv"
        with csv_path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(
                [["" if v is None else v for v in row] for row in snap["rows"]]
            )
        types = ", ".join(f"'{c['name']}': '{_TYPES.get(c['type'], c['type'])}'" for c in cols)
        con.execute(
            f"CREATE TABLE {snap['table_name']} AS SELECT * FROM read_csv('{csv_path}', "
            f"header=false, columns={{{types}}})"
        )
    # The README's check of the load.
    assert con.execute("SELECT count(*), sum(booking_value) FROM fct_bookings").fetchone() == (
        287,
        pytest.approx(223070.46),
    )
    # metric instant_booking_value: booking_value where is_instant (MetricFlow's WHERE).
    instant = con.execute("SELECT sum(booking_value) FROM fct_bookings WHERE is_instant").fetchall()
    # ... grouped by day: MetricFlow's WHERE leaves out the days without an instant booking.
    instant_by_day = con.execute(
        "SELECT date_trunc('day', ds), sum(booking_value) FROM fct_bookings WHERE is_instant "
        "GROUP BY 1"
    ).fetchall()
    # saved query p0_booking as MetricFlow runs it: the listing joined LEFT, its where as WHERE
    # (a booking without a listing has no capacity, so the filter keeps none of them).
    p0_booking = con.execute(
        "SELECT date_trunc('day', b.ds), l.capacity, sum(1), "
        "sum(CASE WHEN b.is_instant THEN 1 ELSE 0 END) FROM fct_bookings b "
        "LEFT JOIN dim_listings_latest l ON b.listing_id = l.listing_id "
        "WHERE l.capacity > 3 GROUP BY 1, 2"
    ).fetchall()
    # ... without its where: the bookings with no listing a group of their own, labelled
    # apart from a listing whose capacity is NULL (outside tryout 22: abstained on).
    unfiltered = con.execute(
        "SELECT date_trunc('day', b.ds), CASE WHEN l.listing_id IS NULL THEN "
        "'(no dim_listings_latest)' ELSE CAST(l.capacity AS VARCHAR) END, sum(1), "
        "sum(CASE WHEN b.is_instant THEN 1 ELSE 0 END) FROM fct_bookings b "
        "LEFT JOIN dim_listings_latest l ON b.listing_id = l.listing_id GROUP BY 1, 2"
    ).fetchall()
    con.close()
    out = tmp_path / "layer.yaml"
    manifest = MF_MANIFEST / "metricflow_semantics" / "test_helpers" / "semantic_manifest_yamls"
    _import("metricflow", manifest / "simple_manifest", db, out)
    questions = {
        # saved query p0_booking: bookings and instant_bookings by day and listing capacity,
        # where capacity > 3. The comparison is read (capacity_latest > 3) and the dimension
        # by its MetricFlow name (listing__capacity_latest). 133 bookings have no listing:
        # the join is marked at import (unmatched) and taken only because the filter keeps
        # the listing's capacity to values, which no booking without a listing has.
        "p0_booking": (
            "bookings and instant bookings by day and listing capacity latest "
            "where capacity latest is above 3",
            p0_booking,
        ),
        # The same breakdown without the filter: LEFT joined, those 133 bookings a group of
        # their own, never left out.
        "p0_booking, unfiltered": (
            "bookings and instant bookings by day and listing capacity latest",
            unfiltered,
        ),
        # metric instant_booking_value: filtered by its own model's is_instant.
        "instant_booking_value": ("instant booking value", instant),
        "instant_booking_value by day": ("instant booking value by day", instant_by_day),
    }
    assert _outcomes(db, out, questions) == {
        "p0_booking": "same rows",
        "p0_booking, unfiltered": "same rows",
        "instant_booking_value": "same rows",
        "instant_booking_value by day": "same rows",
    }
    assert len(p0_booking) == 84 and len(instant_by_day) == 105
    # fix39d: trailing_2_months_revenue (cumulative, left out: a 2-month window averaged by
    # period) was read as "revenue in the past 2 months" and shown 4,000; said whole it is
    # asked back, naming it and the simple metric to ask instead. The period said otherwise
    # stays answered.
    with connect(str(db)) as connector:
        agent = Agent(connector, load_semantic(out))
        trailing = agent.ask("trailing 2 months revenue")
        past = agent.ask("revenue in the past 2 months")
    assert (trailing.behaviour, trailing.reasons) == ("clarify", ("behaviour.undefined_concept",))
    message = trailing.provenance["message"]
    assert "'trailing 2 months revenue' is not defined" in message and "'revenue'" in message
    assert past.action == "show" and past.candidate is not None


def test_semantic_model_generator_customers(tmp_path: Path) -> None:
    """The jaffle-shop customers mart (dbt MetricFlow) with SMG_DEMO.csv: its documented
    metric is the derived average_order_value (lifetime_spend_pretax / count_lifetime_orders,
    two simple metrics of one table), mapped as the same arithmetic over their sums; its saved
    query groups three metrics by the customer entity, imported as a dimension over its key
    column (no other model holds it as foreign)."""
    # This test was flaky (about one run in four in a parallel run): the per-customer answer
    # lists a few unordered rows, and a customer id such as f8486fce-...-a6e9-... (250 of the
    # 935) was read as a float's exponent, veto.garbled_answer. Fixed in the check.
    generator = SHARED / "semantic-model-generator" / "artifacts"
    db = tmp_path / "smg.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        f"CREATE TABLE customers AS SELECT * FROM read_csv_auto('{generator / 'SMG_DEMO.csv'}')"
    )
    # What `mf query --metrics average_order_value` computes: each input metric's sum over
    # the same (here: no) group, then the derived expression.
    aov = con.execute(
        "SELECT spend / orders FROM (SELECT sum(lifetime_spend_pretax) AS spend, "
        "sum(count_lifetime_orders) AS orders FROM customers)"
    ).fetchall()
    # The saved query customer_order_metrics: three metrics grouped by Entity('customer'),
    # which MetricFlow groups by its key column customer_id.
    per_customer = con.execute(
        "SELECT customer_id, sum(count_lifetime_orders), sum(lifetime_spend_pretax), "
        "sum(lifetime_spend_pretax) / sum(count_lifetime_orders) FROM customers GROUP BY 1"
    ).fetchall()
    con.close()
    out = tmp_path / "layer.yaml"
    report = _import("metricflow", generator / "customers.yml", db, out)
    assert "average_order_value" not in report  # mapped, not reported
    questions = {
        "average_order_value": ("average order value", aov),
        "customer_order_metrics": (
            "count lifetime orders, LTV pre-tax and average order value per customer",
            per_customer,
        ),
        # A period is not asked of it by the source; the metric is timed by first_ordered_at
        # like its inputs, so a period is applied, not refused: checked against SQL too.
    }
    verdicts = {key: (v, e) for key, v, e in _ask_all(db, out, questions)}
    outcomes = {key: outcome(v, e) for key, (v, e) in verdicts.items()}
    assert outcomes == {
        "average_order_value": "same rows",
        "customer_order_metrics": "same rows",
    }, _why(verdicts)


# --- Snowflake Cortex Analyst: the two quickstarts, verified queries as trusted examples ---


def _cortex_quickstart(db: Path, schema: str = "main") -> None:
    data = CORTEX / "data"
    con = duckdb.connect(str(db))
    con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}; USE {schema}")
    con.execute(
        "CREATE TABLE daily_revenue AS SELECT CAST(column0 AS DATE) AS date, column1 AS revenue, "
        "column2 AS cogs, column3 AS forecasted_revenue, column4 AS product_id, "
        f"column5 AS region_id FROM read_csv('{data / 'daily_revenue.csv'}', header=true, "
        "columns={'column0': 'TIMESTAMP', 'column1': 'DOUBLE', 'column2': 'DOUBLE', "
        "'column3': 'DOUBLE', 'column4': 'INT', 'column5': 'INT'})"
    )
    con.execute(
        "CREATE TABLE product_dim AS SELECT column0 AS product_id, column1 AS product_line "
        f"FROM read_csv('{data / 'product.csv'}', header=true, "
        "columns={'column0': 'INT', 'column1': 'VARCHAR'})"
    )
    con.execute(
        "CREATE TABLE region_dim AS SELECT column0 AS region_id, column1 AS sales_region, "
        f"column2 AS state FROM read_csv('{data / 'region.csv'}', header=true, "
        "columns={'column0': 'INT', 'column1': 'VARCHAR', 'column2': 'VARCHAR'})"
    )
    con.close()


def _readme_rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    """The verified query run as the README runs it: the physical table in schema
    revenue_timeseries, and a view daily_revenue selecting each ``expr AS name``."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{db}' AS src (READ_ONLY)")
    con.execute("CREATE SCHEMA revenue_timeseries")
    con.execute("CREATE TABLE revenue_timeseries.daily_revenue AS SELECT * FROM src.daily_revenue")
    con.execute(
        "CREATE VIEW daily_revenue AS SELECT date, revenue AS daily_revenue, "
        "cogs AS daily_cogs, forecasted_revenue AS daily_forecasted_revenue, "
        "revenue - cogs AS daily_profit, abs(forecasted_revenue - revenue) AS "
        "daily_forecast_abs_error, product_id, region_id FROM revenue_timeseries.daily_revenue"
    )
    rows = con.execute(sql.strip().rstrip(";")).fetchall()
    con.close()
    return rows


def test_cortex_quickstart(tmp_path: Path) -> None:
    db = tmp_path / "cx.duckdb"
    _cortex_quickstart(db)
    out = tmp_path / "layer.yaml"
    report = _import("cortex", CORTEX / "revenue_timeseries.yaml", db, out)
    # product_id: a number, said as one (its range), never as values that failed to be read
    assert "(daily_revenue.product_id): numbers from 1 to 5, so there is no list" in report
    assert "no values read (not text" not in report
    raw = yaml.safe_load((CORTEX / "revenue_timeseries.yaml").read_text(encoding="utf-8"))
    verified = {v["name"]: v for v in raw["verified_queries"]}
    expected = {name: _readme_rows(db, v["sql"]) for name, v in verified.items()}
    assert [len(rows) for rows in expected.values()] == [31, 25]
    questions = {name: (v["question"], expected[name]) for name, v in verified.items()}
    # The same question typed differently (case, spacing, punctuation) matches too.
    first = "daily cumulative expenses in 2023 dec"
    questions["retyped"] = ("Daily cumulative expenses in 2023 Dec?", expected[first])
    # A different month is not the verified question: Assay has no cumulative metric.
    questions["other month"] = ("daily cumulative expenses in 2023 nov", None)
    # Not documented: values read from the data at import filter. A product line is one join
    # away; a sales region sits behind the region join, which fans out (25 rows, 5 ids): a
    # forbidden join, so never answered.
    con = duckdb.connect(str(db), read_only=True)
    questions["value filter"] = (
        "daily revenue for Electronics in 2023",
        con.execute(
            "SELECT sum(d.revenue) FROM daily_revenue d LEFT JOIN product_dim p "
            "ON d.product_id = p.product_id WHERE p.product_line = 'Electronics' "
            "AND d.date >= DATE '2023-01-01' AND d.date < DATE '2024-01-01'"
        ).fetchall(),
    )
    con.close()
    questions["fanning value"] = ("daily revenue for Europe in 2023", None)
    verdicts = {key: (v, e) for key, v, e in _ask_all(db, out, questions)}
    assert {k: outcome(v, e) for k, (v, e) in verdicts.items()} == {
        first: "same rows",
        "lowest revenue each month": "same rows",
        "retyped": "same rows",
        "other month": "not shown",
        "value filter": "same rows",
        "fanning value": "not shown",
    }
    used = verdicts[first][0]
    assert used.provenance["verified_query"]["match"] == "exact"
    assert "note.verified_query" in [f.code for f in used.findings]
    assert "verified_query" not in verdicts["other month"][0].provenance


def test_cortex_quickstart_in_the_schema_base_table_names(tmp_path: Path) -> None:
    """The quickstart's tables loaded where its base_table puts them (schema
    revenue_timeseries, not main) import and answer the verified questions with the same
    rows; with a same-named table in main too, the bare name would read main's: the import
    stops, naming both, and writes nothing."""
    main_db, db = tmp_path / "main.duckdb", tmp_path / "schema.duckdb"
    _cortex_quickstart(main_db)
    _cortex_quickstart(db, "revenue_timeseries")
    out = tmp_path / "layer.yaml"
    report = _import("cortex", CORTEX / "revenue_timeseries.yaml", db, out)
    assert "schema revenue_timeseries" not in report  # read from it: nothing to note
    raw = yaml.safe_load((CORTEX / "revenue_timeseries.yaml").read_text(encoding="utf-8"))
    questions = {
        v["name"]: (v["question"], _readme_rows(main_db, v["sql"])) for v in raw["verified_queries"]
    }
    assert set(_outcomes(db, out, questions).values()) == {"same rows"}
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE main.daily_revenue AS SELECT * FROM revenue_timeseries.daily_revenue")
    con.close()
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "cortex",
            "--source",
            str(CORTEX / "revenue_timeseries.yaml"),
            "--db",
            str(db),
            "--out",
            str(tmp_path / "again.yaml"),
        ],
    )
    assert result.exit_code == 1
    assert (
        "reads revenue_timeseries.daily_revenue, but the bare name 'daily_revenue' reads "
        "main.daily_revenue" in " ".join(result.output.split())
    )
    assert not (tmp_path / "again.yaml").exists()


def test_snowflake_intelligence(tmp_path: Path) -> None:
    """The semantic-view style model declares facts without an aggregation and no metrics.
    A fact whose values allow a sum (numeric, never negative, no stand-ins) is summed and
    marked unconfirmed (confirm-first); the others are reported. The verified question is a
    trusted example, answered verbatim with the verified SQL's rows."""
    db = tmp_path / "si.duckdb"
    con = duckdb.connect(str(db))
    data = INTELLIGENCE / "data"
    for table, name in (
        ("MARKETING_CAMPAIGN_METRICS", "marketing_campaign_metrics.csv"),
        ("PRODUCTS", "products.csv"),
        ("SALES", "sales.csv"),
        ("SOCIAL_MEDIA", "social_media_mentions.csv"),
    ):
        con.execute(f"CREATE TABLE {table} AS SELECT * FROM read_csv_auto('{data / name}')")
    raw = yaml.safe_load((INTELLIGENCE / "marketing_campaigns.yaml").read_text(encoding="utf-8"))
    verified = raw["verified_queries"][0]
    trend = con.execute(verified["sql"]).fetchall()
    july = con.execute(
        "SELECT sum(SALES_AMOUNT) FROM SALES WHERE DATE >= DATE '2025-07-01' "
        "AND DATE < DATE '2025-08-01'"
    ).fetchall()
    con.close()
    out = tmp_path / "layer.yaml"
    report = " ".join(_import("cortex", INTELLIGENCE / "marketing_campaigns.yaml", db, out).split())
    assert "facts.SALES_AMOUNT: no aggregation given; summed, as its values allow" in report
    assert "the model places it in schema RETAIL, which the database does not hold" in report
    questions = {
        "verified": (" ".join(verified["question"].split()), trend),
        "guessed sum": ("sales amount in July 2025", july),
    }
    verdicts = {key: (v, e) for key, v, e in _ask_all(db, out, questions)}
    assert {k: outcome(v, e) for k, (v, e) in verdicts.items()} == {
        "verified": "same rows",
        "guessed sum": "same rows",
    }
    assert verdicts["verified"][0].provenance["verified_query"]["match"] == "exact"
    guessed = verdicts["guessed sum"][0]
    assert guessed.route == "confirm_first" and guessed.action == "warn"
    assert "cap.unconfirmed_fact" in guessed.reasons
    # how to confirm it on an imported layer: in its file, never by drafting a layer over it
    # (outside tryout 40, F-11: "assay semantic init --store STORE ... draft the layer again")
    fix = next(f.message for f in guessed.findings if f.code == "cap.unconfirmed_fact")
    assert "delete its tier, confidence and fact lines" in fix, fix
    assert "semantic init --store" not in fix and "draft the layer again" not in fix, fix


# --- Cube: the workshop's TPC-H data model --------------------------------------------------


@pytest.fixture(scope="module")
def tpch(tpch_duckdb: Path) -> Path:
    return tpch_duckdb  # the session's TPC-H SF 0.01 (importing only reads it)


def test_cube_workshop(tpch: Path, tmp_path: Path) -> None:
    out = tmp_path / "layer.yaml"
    report = _import("cube", CUBE, tpch, out)
    assert "cubes.supplier_nations: a second role of table 'nation'" in report
    con = duckdb.connect(str(tpch), read_only=True)
    # "Your First Query": orders.count by orders.order_date (year) and customer_regions.name,
    # as Cube joins it (orders -> customers -> customer_nations -> customer_regions). Cube
    # labels the year by its first instant; Assay by the year's number: compared as the number.
    expected = con.execute(
        "SELECT year(CAST(o.o_orderdate AS DATE)), r.r_name, count(*) FROM orders o "
        "LEFT JOIN customer c ON o.o_custkey = c.c_custkey "
        "LEFT JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "LEFT JOIN region r ON n.n_regionkey = r.r_regionkey GROUP BY 1, 2"
    ).fetchall()
    parts = con.execute("SELECT count(*) FROM part").fetchall()
    segments = con.execute("SELECT c_mktsegment, count(*) FROM customer GROUP BY 1").fetchall()
    asia = con.execute(
        "SELECT count(*) FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey "
        "JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "JOIN region r ON n.n_regionkey = r.r_regionkey WHERE r.r_name = 'ASIA'"
    ).fetchall()
    top_regions = con.execute(
        "SELECT r.r_name, sum(l.l_quantity) FROM lineitem l "
        "JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN customer c ON o.o_custkey = c.c_custkey "
        "JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "JOIN region r ON n.n_regionkey = r.r_regionkey "
        "WHERE year(CAST(l.l_shipdate AS DATE)) = 1998 GROUP BY 1 ORDER BY 2 DESC LIMIT 3"
    ).fetchall()
    by_nation = con.execute(
        "SELECT n.n_name, count(*) FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey "
        "JOIN nation n ON c.c_nationkey = n.n_nationkey GROUP BY 1"
    ).fetchall()
    con.close()
    questions = {
        "first query": ("orders count by year and customer regions name", expected),
        # Not documented: parts has no time dimension, so its count is untimed: answered over
        # all rows, and abstained on when a period is asked.
        "untimed": ("parts count", parts),
        "untimed with a period": ("parts count in 1995", None),
        # A supplier's region is a second role of table region: not mapped, never guessed.
        "supplier role": ("line items total quantity by year and supplier regions name", None),
        # Not documented (found by an outside tryout): orders end 1998-08-02, line items run
        # to the end of 1998 (the layer's coverage); a month past the orders is abstained on,
        # never a confident 0.
        "past the orders": ("orders count in October 1998", None),
        # Not documented (outside tryout): a dimension by its own name, a value read at import.
        "own name": ("number of customers by segment", segments),
        "value": ("orders count for customer region ASIA", asia),
        # Found by an outside tryout: "customer regions" for customer_regions_name, and
        # "customer nations" for customer_nations_name (both names proved unique in their
        # table). "region" alone is the customer's or the supplier's (a role the layer leaves
        # undefined): asked back, never read as the customer's (semantic._names, tuned on).
        "customer regions": (
            "top 3 customer regions by line items total quantity in 1998",
            top_regions,
        ),
        "customer nations": ("orders count by customer nations", by_nation),
        "region": ("line items total sales amount by region in 1997", None),
        "no such dimension": ("orders count by planet", None),
        "no such value": ("orders count for customer region Narnia", None),
    }
    verdicts = {key: (v, e) for key, v, e in _ask_all(tpch, out, questions)}
    messages = {key: v.provenance.get("message", "") for key, (v, _) in verdicts.items()}
    assert verdicts["region"][0].reasons == ("behaviour.ambiguous_name",)
    assert "customer_regions_name (region.r_name)" in messages["region"]
    assert "which this layer does not define" in messages["region"]
    assert messages["region"].index("customer_regions_name") < messages["region"].index(
        "supplier regions name"
    )
    # at most 8 names, closest first (it listed all 51, and the agent adds the orders' total
    # price, a numeric column the import leaves out), and no 100-character comment value
    assert "and 44 more" in messages["no such dimension"]
    assert "furiously" not in messages["no such value"]
    # no value is close to "Narnia": none is listed (outside tryout 16 was offered unrelated
    # values as the "closest"), and the count of values it holds is said
    assert "(customer_regions_name)" not in messages["no such value"]
    assert "none of the 37 values it records is close to it" in messages["no such value"]
    assert {k: outcome(v, e) for k, (v, e) in verdicts.items()} == {
        "customer regions": "same rows",
        "customer nations": "same rows",
        "region": "not shown",
        "no such dimension": "not shown",
        "no such value": "not shown",
        "first query": "same rows",
        "untimed": "same rows",
        "untimed with a period": "not shown",
        "supplier role": "not shown",
        "past the orders": "not shown",
        "own name": "same rows",
        "value": "same rows",
    }


def test_cube_workshop_in_the_readme_schema(tpch: Path, tmp_path: Path) -> None:
    """The data README's recipe loads TPC-H into schema tpch (CALL dbgen(schema='tpch')), the
    schema the cubes' sql_table names: the import reads it there and answers alike (found by
    an outside tryout: the import looked in main only)."""
    db = tmp_path / "schema.duckdb"
    con = duckdb.connect(str(db))
    con.execute(f"ATTACH '{tpch}' AS src (READ_ONLY); CREATE SCHEMA tpch")
    for (table,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'src'"
    ).fetchall():
        con.execute(f"CREATE TABLE tpch.{table} AS SELECT * FROM src.{table}")
    expected = con.execute(
        "SELECT year(CAST(o.o_orderdate AS DATE)), r.r_name, count(*) FROM tpch.orders o "
        "LEFT JOIN tpch.customer c ON o.o_custkey = c.c_custkey "
        "LEFT JOIN tpch.nation n ON c.c_nationkey = n.n_nationkey "
        "LEFT JOIN tpch.region r ON n.n_regionkey = r.r_regionkey GROUP BY 1, 2"
    ).fetchall()
    con.close()
    out = tmp_path / "layer.yaml"
    report = _import("cube", CUBE, db, out)
    assert "schema tpch" not in report  # read from it: nothing to note
    questions = {"first query": ("orders count by year and customer regions name", expected)}
    assert _outcomes(db, out, questions) == {"first query": "same rows"}


# --- OSI: the TPC-DS example -----------------------------------------------------------------


def test_osi_tpcds_example(tmp_path: Path, tpcds_duckdb: Path) -> None:
    """OSI's metrics are timed by date_dim.d_date through store_sales.ss_sold_date_sk (NULL
    on 1,208 of the 28,810 rows at sf=0.01), the join marked: a question without a period is
    answered over all rows (date_dim never joined), one with a period over the rows dated in
    it (outside tryout 22: imported untimed, every period abstained). store_productivity and
    customer_lifetime_value read two datasets and sales_by_brand is named as a breakdown
    (total_sales grouped by brand answers its description).

    store_productivity (SUM(store_sales.ss_ext_sales_price) / NULLIF(SUM(store.s_number_employees),
    0)) is answered as the layer defines it, over store_sales joined many to one to store, so
    each store's employees count once per sale (the fan-out inside the source's own
    definition), and only ever warned (``cap.fan_out_in_metric`` names it). OSI does not say how
    the source joins; the rows expected here keep every store_sales row (LEFT JOIN: the
    numerator is total_sales, the sales with no store add no employees). That reading of the
    join is ours (the planner's rule for a metric's own join; tuned on this example)."""
    db = tpcds_duckdb  # the session's TPC-DS SF 0.01 (importing only reads it)
    out = tmp_path / "layer.yaml"
    report = _import("osi", OSI, db, out)
    assert "metric total_sales: timed by date_dim.d_date, but 1208 rows of store_sales" in report
    assert (
        "metrics[4] (store_productivity): it reads store, store_sales; imported over "
        "store_sales joined many to one to store; SUM(store.s_number_employees) over "
        "store_sales rows joined to store (many to one) counts each store row once per "
        "store_sales row, a fan-out of the source's own SQL: answered as it defines it, "
        "always with a warning (cap.fan_out_in_metric)"
    ) in " ".join(report.split())
    assert "join store_sales.ss_store_sk -> store.s_store_sk: " in report
    assert "have no match in store.s_store_sk (a NULL or missing key)" in report
    con = duckdb.connect(str(db), read_only=True)
    total = con.execute("SELECT SUM(ss_ext_sales_price) FROM store_sales").fetchall()
    by_brand = con.execute(
        "SELECT i.i_brand, SUM(s.ss_ext_sales_price) FROM store_sales s "
        "LEFT JOIN item i ON s.ss_item_sk = i.i_item_sk GROUP BY 1"
    ).fetchall()
    # "across stores" is a breakdown (Assay reads "across" as "by", "across all" as a total):
    # by the store key of store_sales, the sales with no store one group of their own.
    productivity = con.execute(
        "SELECT ss.ss_store_sk, SUM(ss.ss_ext_sales_price) / NULLIF(SUM(s.s_number_employees), 0) "
        "FROM store_sales ss LEFT JOIN store s ON ss.ss_store_sk = s.s_store_sk GROUP BY 1"
    ).fetchall()
    overall = con.execute(
        "SELECT SUM(ss.ss_ext_sales_price) / NULLIF(SUM(s.s_number_employees), 0) "
        "FROM store_sales ss LEFT JOIN store s ON ss.ss_store_sk = s.s_store_sk"
    ).fetchall()
    by_item = "FROM store_sales s LEFT JOIN item i ON s.ss_item_sk = i.i_item_sk"
    by_category = con.execute(
        f"SELECT i.i_category, SUM(s.ss_ext_sales_price) {by_item} GROUP BY 1"
    ).fetchall()
    profit_by_category = con.execute(
        f"SELECT i.i_category, SUM(s.ss_net_profit) {by_item} GROUP BY 1"
    ).fetchall()
    both_by_category = con.execute(
        f"SELECT i.i_category, SUM(s.ss_ext_sales_price), SUM(s.ss_net_profit) {by_item} GROUP BY 1"
    ).fetchall()
    not_books = con.execute(
        f"SELECT SUM(s.ss_ext_sales_price) {by_item} WHERE i.i_category <> 'Books'"
    ).fetchall()
    in_2002 = con.execute(
        "SELECT SUM(s.ss_ext_sales_price) FROM store_sales s JOIN date_dim d "
        "ON s.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002"
    ).fetchall()
    # the clock is the last date a sale joins to; the past 30 days end on it
    last_30 = con.execute(
        "WITH dated AS (SELECT s.ss_ext_sales_price AS v, d.d_date AS day FROM store_sales s "
        "JOIN date_dim d ON s.ss_sold_date_sk = d.d_date_sk) SELECT SUM(v) FROM dated "
        "WHERE day > (SELECT max(day) FROM dated) - INTERVAL 30 DAY"
    ).fetchall()
    by_state = con.execute(
        "SELECT CASE WHEN st.s_store_sk IS NULL THEN '(no store)' ELSE st.s_state END, "
        "SUM(s.ss_ext_sales_price) FROM store_sales s "
        "LEFT JOIN store st ON s.ss_store_sk = st.s_store_sk GROUP BY 1"
    ).fetchall()
    con.close()
    questions = {
        # The three metric descriptions the README quotes as the example questions, verbatim.
        # "across all transactions" is one total over them; the parenthetical names a
        # grouping by item.i_brand, the column of dimension i_brand.
        "total_sales": ("Total sales revenue across all transactions", total),
        "sales_by_brand": ("Total sales by brand (requires grouping by item.i_brand)", by_brand),
        "store_productivity": ("Sales per employee across stores", productivity),
        # The first two as a reader would type them (written here, tuned on).
        "total_sales, written": ("Total sales revenue", total),
        "sales_by_brand, written": ("Total sales by brand", by_brand),
        # Not documented: a period keeps the sales dated in it (outside tryout 22).
        "with a period": ("total sales in 2002", in_2002),
        # Found by an outside tryout: 1,190,543.01 of sales have no ss_store_sk; through the
        # (inner) join they vanished from the breakdown. LEFT joined, they are a group of
        # their own, "(no store)" (outside tryout 22: abstained on).
        "orphan rows": ("total sales by store state", by_state),
        # Outside tryout 7's wording: one value over all rows, warned for the fan-out; "per
        # employee" also fires signal.grouping_missing, which does not decide (the cap does).
        "per employee": ("sales per employee", overall),
        # Found by an outside tryout: the dimensions keep the raw column names (i_category);
        # "category" is derived from it (semantic._names, tuned on these questions).
        "by category": ("total sales by category", by_category),
        "rank categories": ("rank categories by profit", profit_by_category),
        "two metrics by category": (
            "total sales and total profit by category",
            both_by_category,
        ),
        "categories other than": ("total sales for categories other than Books", not_books),
        "last 30 days": ("total sales in the last 30 days", last_30),
    }
    verdicts = {key: (v, e) for key, v, e in _ask_all(db, out, questions)}
    assert {k: outcome(v, e, warned_apart=True) for k, (v, e) in verdicts.items()} == {
        "by category": "same rows",
        "rank categories": "same rows",
        "two metrics by category": "same rows",
        "categories other than": "same rows",
        "last 30 days": "same rows",
        "total_sales": "same rows",
        "sales_by_brand": "same rows",
        "store_productivity": "warned, same rows",
        "total_sales, written": "same rows",
        "sales_by_brand, written": "same rows",
        "with a period": "same rows",
        "orphan rows": "same rows",
        "per employee": "warned, same rows",
    }
    per_employee = verdicts["per employee"][0]
    assert per_employee.reasons[0] == "cap.fan_out_in_metric"
    printed = [click.unstyle(line).strip() for line in render_answer(per_employee).splitlines()]
    codes = [
        line.split(":")[0]
        for line in printed
        if line.split(":")[0] in {f.code for f in per_employee.findings}
    ]
    assert printed[printed.index("because cap.fan_out_in_metric") + 1].startswith(
        "cap.fan_out_in_metric: "
    )
    assert codes[0] == "cap.fan_out_in_metric"
    fan = [
        f for f in verdicts["store_productivity"][0].findings if f.code == "cap.fan_out_in_metric"
    ]
    assert len(fan) == 1 and "s_number_employees is counted once per store_sales row" in (
        fan[0].message
    )
    assert "category (i_category)" in verdicts["by category"][0].provenance["reading"]
