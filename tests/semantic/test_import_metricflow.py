"""``assay semantic import --from metricflow``: MetricFlow's tutorial imports, loads and answers."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.semantic import load_semantic
from assay.semantic._import_metricflow import import_metricflow

TUTORIAL = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "data"
    / "semantic-models"
    / "metricflow-tutorial"
    / "dbt-metricflow"
    / "dbt_metricflow"
    / "cli"
    / "sample_dbt_models"
)


@pytest.mark.skipif(not TUTORIAL.exists(), reason="the shared semantic models are absent")
def test_tutorial_imports_loads_and_answers(tmp_path: Path) -> None:
    db = tmp_path / "mf.duckdb"
    con = duckdb.connect(str(db))
    for name in ("transactions", "customers", "countries"):
        seed = TUTORIAL / "seeds" / f"{name}_seed.csv"
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_csv_auto('{seed}')")
    expected = dict(
        con.execute(
            "SELECT c.country, sum(1) FROM transactions t JOIN customers c "
            "ON t.id_customer = c.id_customer GROUP BY 1"
        ).fetchall()
    )
    con.close()
    out = tmp_path / "layer.yaml"
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "metricflow",
            "--source",
            str(TUTORIAL / "sample_models"),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "metrics[11] (cumulative_transactions): a cumulative metric" in result.output
    assert "cancellation_rate" not in result.output and "revenue_usd" not in result.output
    layer = load_semantic(out)
    assert {m.name for m in layer.metrics} >= {
        "transactions",
        "transaction_amount",
        "cancellation_rate",  # a ratio of two simple metrics
        "revenue_usd",  # derived: transaction_amount - cancellations + alterations
    }
    assert str(layer.coverage) == "(datetime.date(2022, 3, 7), datetime.date(2022, 4, 4))"
    ask = runner.invoke(
        main,
        [
            "ask",
            "--db",
            str(db),
            "--semantic",
            str(out),
            "--json",
            "Transactions by customer_country",
        ],
    )
    assert ask.exit_code == 0, ask.output
    for country, count in expected.items():
        assert f'"{country}"' in ask.output and str(count) in ask.output


def test_foreign_yaml_is_a_clear_error(tmp_path: Path) -> None:
    source = tmp_path / "cube.yml"
    source.write_text("cubes:\n  - name: orders\n", encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "metricflow",
            "--source",
            str(source),
            "--db",
            str(tmp_path / "x.duckdb"),
            "--out",
            str(tmp_path / "o.yaml"),
        ],
    )
    assert result.exit_code == 1 and "No MetricFlow semantic models" in result.output
    source.write_text("semantic_models: [\n", encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "metricflow",
            "--source",
            str(source),
            "--db",
            str(tmp_path / "x.duckdb"),
            "--out",
            str(tmp_path / "o.yaml"),
        ],
    )
    assert result.exit_code == 1 and "as YAML" in result.output
    assert not (tmp_path / "o.yaml").exists()


def test_metricflow_derived_metric_with_a_filter_or_offset_is_not_mapped(tmp_path: Path) -> None:
    """Fail closed: a derived metric whose input has a filter or an offset, or whose inputs
    are on different tables, is reported and made an undefined concept."""
    (tmp_path / "m.yml").write_text(
        """
semantic_models:
  - name: orders
    model: ref('orders')
    defaults: {agg_time_dimension: ds}
    entities: [{name: order, type: primary, expr: id}]
    dimensions:
      - {name: ds, type: time, type_params: {time_granularity: day}}
      - {name: paid_at, type: time, type_params: {time_granularity: day}}
    measures:
      - {name: amount, agg: sum}
      - {name: n, agg: count, expr: id}
      - {name: paid, agg: sum, expr: amount, agg_time_dimension: paid_at}
metrics:
  - {name: amount, type: simple, type_params: {measure: amount}}
  - {name: n, type: simple, type_params: {measure: n}}
  - name: growth
    type: derived
    type_params:
      expr: amount - amount_prev
      metrics:
        - {name: amount}
        - {name: amount, offset_window: 1 month, alias: amount_prev}
  - name: big_share
    type: ratio
    type_params:
      numerator: {name: amount, filter: "{{ Dimension('order__ds') }} > '2020-01-01'"}
      denominator: amount
  - name: per_order
    type: ratio
    type_params: {numerator: amount, denominator: n}
  - name: odd
    type: derived
    type_params: {expr: amount / other, metrics: [{name: amount}]}
  - {name: paid, type: simple, type_params: {measure: paid}}
  - name: mixed
    type: ratio
    type_params: {numerator: paid, denominator: amount}
""",
        encoding="utf-8",
    )
    result = import_metricflow(tmp_path / "m.yml")
    by_name = {m["name"]: m for m in result.layer["metrics"]}
    assert sorted(by_name) == ["amount", "n", "paid", "per_order"]
    # A measure's own agg_time_dimension times its metric, not the model's default.
    assert by_name["paid"]["time_column"] == "orders.paid_at"
    assert "(mixed): its input metrics have different time columns" in "\n".join(result.unmapped)
    assert by_name["per_order"]["expression"] == (
        "CAST((SUM(orders.amount)) AS DOUBLE) / CAST(NULLIF((COUNT(orders.id)), 0) AS DOUBLE)"
    )
    assert by_name["per_order"]["time_column"] == "orders.ds"
    text = "\n".join(result.unmapped)
    assert "(growth): input metric 'amount' has offset_window" in text
    assert "(big_share): input metric 'amount' has filter" in text
    assert "(odd): its expression names 'other'" in text
    assert {"growth", "big_share", "odd"} <= set(result.undefined)


def test_metricflow_filter_on_its_own_models_dimension_is_mapped(tmp_path: Path) -> None:
    """A simple metric filtered by a categorical dimension of its own measure's model becomes
    the aggregate over the rows the filter keeps; a filter naming another model's dimension,
    an entity or a time dimension is reported and made an undefined concept."""
    (tmp_path / "m.yml").write_text(
        """
semantic_models:
  - name: bookings
    model: ref('bookings')
    defaults: {agg_time_dimension: ds}
    primary_entity: booking
    entities: [{name: listing, type: foreign, expr: listing_id}]
    dimensions:
      - {name: ds, type: time, type_params: {time_granularity: day}}
      - {name: is_instant, type: categorical}
      - {name: kind, type: categorical, expr: booking_kind}
    measures:
      - {name: booking_value, agg: sum}
      - {name: bookings, agg: sum, expr: "1"}
  - name: listings
    model: ref('listings')
    entities: [{name: listing, type: primary, expr: listing_id}]
    dimensions: [{name: is_lux, type: categorical}]
metrics:
  - name: instant_value
    type: simple
    type_params: {measure: booking_value}
    filter: "{{ Dimension('booking__is_instant') }}"
  - name: direct_bookings
    type: simple
    type_params: {measure: bookings}
    filter:
      - "NOT {{ Dimension('booking__is_instant') }}"
      - "{{ Dimension('booking__kind') }} IN ('a', 'b')"
  - name: lux_value
    type: simple
    type_params: {measure: booking_value}
    filter: "{{ Dimension('listing__is_lux') }}"
  - name: listed_value
    type: simple
    type_params: {measure: booking_value}
    filter: "{{ Entity('listing') }} IS NOT NULL"
  - name: late_value
    type: simple
    type_params: {measure: booking_value}
    filter: "{{ TimeDimension('booking__ds', 'day') }} > '2020-01-01'"
""",
        encoding="utf-8",
    )
    result = import_metricflow(tmp_path / "m.yml")
    by_name = {m["name"]: m["expression"] for m in result.layer["metrics"]}
    assert by_name == {
        "instant_value": "sum(CASE WHEN ((bookings.is_instant)) THEN bookings.booking_value END)",
        "direct_bookings": "sum(CASE WHEN (NOT (bookings.is_instant)) AND "
        "((bookings.booking_kind) IN ('a', 'b')) THEN 1 END)",
        # another model's dimension, through the only join into its table
        "lux_value": "sum(CASE WHEN ((listings.is_lux)) THEN bookings.booking_value END)",
    }
    text = "\n".join(result.unmapped)
    assert "(listed_value): a metric filter not mapped: it names an entity" in text
    assert "(late_value): a metric filter not mapped: it names an entity" in text
    assert {"listed_value", "late_value"} <= set(result.undefined)


_BALANCES = """
semantic_models:
  - name: accounts
    node_relation: {alias: accounts}
    defaults: {agg_time_dimension: ds}
    primary_entity: account
    dimensions:
      - {name: ds, type: time, type_params: {time_granularity: day}}
      - {name: account_type, type: categorical}
    measures:
      - {name: deposits, agg: sum, expr: deposit}
      - name: first_day_balance
        agg: sum
        expr: balance
        non_additive_dimension: {name: ds, window_choice: min}
metrics:
  - {name: deposits, type: simple, type_params: {measure: deposits}}
  - {name: first_day_balance, type: simple, type_params: {measure: first_day_balance}}
  - name: balance_per_deposit
    type: ratio
    type_params: {numerator: first_day_balance, denominator: deposits}
"""


def test_metricflow_non_additive_measure_is_not_summed_over_days(tmp_path: Path) -> None:
    """Fail closed (outside recheck 41, F2): a measure with ``non_additive_dimension`` (an
    account balance: one day's value, never a sum over days) was imported as a plain SUM and
    answered 105,167 for a first-day balance of 51,455. Now it, and every metric built on it,
    is listed as not mapped with the reason, and a question naming it is not answered with a
    sum; the additive measure beside it is still imported and answered."""
    (tmp_path / "m.yml").write_text(_BALANCES, encoding="utf-8")
    result = import_metricflow(tmp_path / "m.yml")
    assert [m["name"] for m in result.layer["metrics"]] == ["deposits"]
    text = "\n".join(result.unmapped)
    assert "measures.first_day_balance: a balance-like measure" in text
    assert "'ds'" in text and "first" in text
    assert "(first_day_balance): measure 'first_day_balance' was not mapped" in text
    assert "(balance_per_deposit)" in text
    assert {"first_day_balance", "balance_per_deposit"} <= set(result.undefined)

    db = tmp_path / "b.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE accounts AS SELECT * FROM (VALUES "
        "(1, DATE '2024-01-01', 'savings', 100, 10), (1, DATE '2024-01-02', 'savings', 120, 20), "
        "(2, DATE '2024-01-01', 'checking', 50, 5), (2, DATE '2024-01-02', 'checking', 70, 7)) "
        "AS t(account, ds, account_type, balance, deposit)"
    )
    con.close()
    out = tmp_path / "layer.yaml"
    runner = CliRunner()
    imported = runner.invoke(
        main,
        [
            *["semantic", "import", "--from", "metricflow", "--source", str(tmp_path / "m.yml")],
            *["--db", str(db), "--out", str(out)],
        ],
    )
    assert imported.exit_code == 0, imported.output
    assert "first_day_balance: a balance-like measure" in imported.output
    ask = runner.invoke(
        main, ["ask", "--db", str(db), "--semantic", str(out), "--json", "first day balance"]
    )
    assert "340" not in ask.output and "150" not in ask.output  # the sum over days, the answer
    verdict = json.loads(ask.output)
    assert verdict["action"] == "withhold", ask.output
    assert verdict["reasons"] == ["behaviour.undefined_concept"]
    deposits = runner.invoke(
        main, ["ask", "--db", str(db), "--semantic", str(out), "--json", "total deposits"]
    )
    assert deposits.exit_code == 0 and "42" in deposits.output, deposits.output
