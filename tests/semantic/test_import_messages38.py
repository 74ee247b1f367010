"""Import 38: the messages a new user reads after ``assay semantic import`` and ``assay ask``.

An outside tester imported each real model under ``../shared/data/semantic-models`` and
reported messages a user could not act on: a number dimension "no values read" as if reading
had failed; a cumulative metric left out with no word of what it was or what to ask instead; a
time field the database lacks (OSI's ``d_month_name``) reported as if it were there; a period
"partly covered" said of the layer's dates where the asked metric's own rows cover fewer; and
raw names (``booking_value``, ``customer_country``) in answer sentences. Each test here fails
without its fix; none makes an answer shown that was not shown before.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
from click.testing import CliRunner

from assay.answer import spoken_name, write_governed
from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.types import Result
from tests.semantic.test_import_osi import MODEL as OSI_MODEL
from tests.semantic.test_import_osi import _db as osi_db

PROJECT = """
semantic_models:
  - name: orders
    model: ref('orders')
    defaults: {agg_time_dimension: ds}
    entities: [{name: order, type: primary, expr: id}]
    dimensions:
      - {name: ds, type: time, type_params: {time_granularity: day}}
      - {name: order_country, type: categorical, expr: country}
      - {name: party_size, type: categorical, expr: size}
      - {name: is_paid, type: categorical, expr: paid}
    measures:
      - {name: order_count, agg: sum, expr: "1"}
      - {name: order_amount, agg: sum, expr: amount}
metrics:
  - {name: orders, type: simple, type_params: {measure: order_count}}
  - {name: order_amount, type: simple, type_params: {measure: order_amount}}
  - name: orders_to_date
    label: Total Orders
    type: cumulative
    type_params: {measure: order_count}
  - name: orders_last_7_days
    type: cumulative
    type_params: {measure: order_count, cumulative_type_params: {window: 7 days}}
"""


def _orders_db(path: Path) -> None:
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE orders AS SELECT * FROM (VALUES "
        "(1, DATE '2022-03-07', 'FR', 2, TRUE, 10.0), (2, DATE '2022-03-20', 'US', 4, FALSE, 5.0), "
        "(3, DATE '2022-04-04', 'FR', 3, TRUE, 7.5)) t(id, ds, country, size, paid, amount)"
    )
    con.close()


def _import(kind: str, source: Path, db: Path, out: Path) -> str:
    result = CliRunner().invoke(
        main,
        [
            *("semantic", "import", "--from", kind, "--source", str(source)),
            *("--db", str(db), "--out", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    return result.output


def _project(tmp_path: Path) -> tuple[Path, Path, str]:
    db = tmp_path / "orders.duckdb"
    _orders_db(db)
    (tmp_path / "m.yml").write_text(PROJECT, encoding="utf-8")
    out = tmp_path / "layer.yaml"
    return db, out, _import("metricflow", tmp_path / "m.yml", db, out)


def test_numbers_and_flags_are_said_as_what_they_are(tmp_path: Path) -> None:
    """A number dimension has no list of values to read: its range is said, and how a question
    uses it; a true/false one is said to be that. Neither is "no values read" (nothing failed)."""
    _, _, report = _project(tmp_path)
    assert "no values read" not in report
    assert (
        "dimension party_size (orders.size): numbers from 2 to 4, so there is no list of "
        "values to read; group by it ('by party size') or bound it ('party size above N'"
    ) in report
    assert "dimension is_paid (orders.paid): true or false, so there is no list" in report
    # the text dimension still gets its values, and the count says what the others are
    assert "values read from the data for 1 of 1 dimensions (2 more are numbers" in report


def test_left_out_metrics_are_named_with_why_and_what_to_ask(tmp_path: Path) -> None:
    """Each cumulative metric is named, said to be a running total (of what, over which
    window), and the simple metric over the same measure is offered; the last line lists
    every metric left out."""
    db, out, report = _project(tmp_path)
    assert (
        "metrics[2] (orders_to_date): a cumulative metric (a running total of order_count "
        "over all dates up to each date)"
    ) in report
    assert "a question naming it ('Total Orders') is asked back" in report
    assert "instead ask for 'orders' over the dates you mean" in report
    assert "(a running total of order_count over a moving window of 7 days" in report
    assert "Metrics left out (2): orders_to_date, orders_last_7_days." in report
    with connect(str(db)) as connector:
        asked = Agent(connector, load_semantic(out)).ask("total orders")
    assert asked.behaviour == "clarify"  # as the line says: asked back, never another metric


def test_a_metric_without_a_label_is_said_in_words(tmp_path: Path) -> None:
    """``order_amount`` (no label in the source) is labelled "order amount": the label is what
    answers and readings say to people."""
    db, out, _ = _project(tmp_path)
    layer = load_semantic(out)
    assert layer.metric("order_amount").label == "order amount"
    assert "orders_to_date" not in {m.name for m in layer.metrics}
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask("order amount by order country")
    assert verdict.candidate is not None and verdict.candidate.text
    text = verdict.candidate.text
    assert text.startswith("Order amount by order country:"), text
    assert "order_amount" not in text and "order_country" not in text


def test_a_time_field_the_database_lacks_is_said_so(tmp_path: Path) -> None:
    """OSI's TPC-DS example declares ``d_month_name``, which date_dim does not have: said to be
    missing, not "a time field beside d_date" as if it were there. A second time field the
    database holds (``d_year``) keeps its report."""
    db = tmp_path / "osi.duckdb"
    osi_db(db, undated=False)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE date_dim ADD COLUMN d_year INTEGER")
    con.close()
    model = OSI_MODEL.replace(
        "          - name: d_year\n",
        "          - name: d_month_name\n"
        "            expression: {dialects: [{dialect: ANSI_SQL, expression: d_month_name}]}\n"
        "            dimension: {is_time: true}\n"
        "            ai_context: {synonyms: [month]}\n"
        "          - name: d_year\n",
    )
    (tmp_path / "osi.yaml").write_text(model, encoding="utf-8")
    out = tmp_path / "layer.yaml"
    report = _import("osi", tmp_path / "osi.yaml", db, out)
    assert (
        "fields.d_month_name: its column date_dim.d_month_name is not in the database"
    ) in report
    assert "d_month_name: a time field beside" not in report
    assert "fields.d_year: a time field beside date_dim.d_date, the dataset's first" in report
    # "month" is still the month grain of d_date
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(out)).ask("total sales by month")
    assert verdict.behaviour == "answer" and verdict.candidate is not None
    assert verdict.candidate.result is not None
    assert [float(row[-1]) for row in verdict.candidate.result.rows] == [22.0]  # January 2024


LAYER = """
name: shop
clock: 2022-04-04
coverage: {start: 2022-03-07, end: 2022-04-04}
metrics:
  - name: orders
    table: orders
    expression: count(*)
    time_column: orders.ds
  - name: new_customers
    label: New Customer
    table: customers
    expression: count(*)
    time_column: customers.ds
    coverage: {start: 2022-03-07, end: 2022-03-10}
dimensions:
  - {name: order_country, column: orders.country, values: [FR, US]}
"""


def _shop(tmp_path: Path) -> tuple[Path, Path]:
    db = tmp_path / "shop.duckdb"
    _orders_db(db)
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE customers AS SELECT * FROM (VALUES (1, DATE '2022-03-07'), "
        "(2, DATE '2022-03-10')) t(id, ds)"
    )
    con.close()
    (tmp_path / "shop.yaml").write_text(LAYER, encoding="utf-8")
    return db, tmp_path / "shop.yaml"


def test_partly_covered_is_said_of_the_metric_own_rows(tmp_path: Path) -> None:
    """March 2022 starts before the data: partly covered. Said of the layer, the message named
    2022-03-31 as covered for a metric whose rows end on 2022-03-10, and the part it offered
    was abstained on again. Said of the metric, the part offered is answered."""
    db, path = _shop(tmp_path)
    with connect(str(db)) as connector:
        agent = Agent(connector, load_semantic(path))
        march = agent.ask("new customers in March 2022")
        offered = agent.ask("new customers from 2022-03-07 to 2022-03-10")
        orders = agent.ask("orders in March 2022")
    assert march.behaviour == "abstain"
    message = march.provenance["message"]
    assert message.startswith("New Customer has data from 2022-03-07 to 2022-03-10;"), message
    assert "data from 2022-03-07 to 2022-03-10 only" in message
    assert "Ask for the covered part (2022-03-07 to 2022-03-10)." in message
    assert offered.behaviour == "answer" and offered.action == "show"
    assert offered.candidate is not None and offered.candidate.result is not None
    assert offered.candidate.result.rows == ((2,),)
    # a metric without coverage of its own: said of the layer, as before
    assert orders.behaviour == "abstain"
    assert orders.provenance["message"].startswith("The warehouse covers 2022-03-07")


def test_a_period_the_metric_has_no_rows_in_is_outside_it(tmp_path: Path) -> None:
    """A period partly inside the layer's coverage but wholly after the metric's own rows is
    outside that metric's data, never "partly covered" with an empty part."""
    db, path = _shop(tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        "coverage: {start: 2022-03-07, end: 2022-03-10}",
        "coverage: {start: 2022-03-25, end: 2022-04-04}",
    )
    path.write_text(text, encoding="utf-8")
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask(
            "new customers from 2022-03-01 to 2022-03-10"
        )
    assert verdict.behaviour == "abstain"
    assert verdict.reasons == ("behaviour.period_outside_coverage",)
    assert verdict.provenance["message"].startswith("New Customer has data from 2022-03-25")


def test_answer_sentences_say_names_in_words() -> None:
    """A label written as words keeps its capitals ("Revenue (USD)", never "Revenue (usd)");
    an identifier is said with spaces."""
    one = write_governed(
        Result(("value",), ((12.5,),), 1),
        label="Revenue (USD)",
        period="2024",
        group=None,
        definition="",
    )
    assert one.text.startswith("Revenue (USD) in 2024 was 12.50"), one.text
    grouped = write_governed(
        Result(("k", "value"), (("FR", 1), ("US", 2)), 2),
        label=spoken_name("booking_value"),
        group=spoken_name("customer__customer_country"),
        period="",
        definition="",
    )
    assert grouped.text.startswith("Booking value by customer customer country:"), grouped.text
    assert spoken_name("Quick Buy Amount (USD)") == "Quick Buy Amount (USD)"
    assert spoken_name("region") == "region"


FILTERED = """
name: bookings
clock: 2022-04-04
metrics:
  - {name: booking_value, table: bookings, expression: sum(bookings.value)}
  - {name: bookings, table: bookings, expression: count(*)}
  - name: instant_bookings
    table: bookings
    expression: sum(CASE WHEN bookings.is_instant THEN 1 ELSE 0 END)
  - name: paid_bookings
    table: bookings
    expression: count(CASE WHEN bookings.paid THEN 1 END)
    filter: bookings.paid
"""


def test_a_filtered_metric_said_as_the_rows_measured_is_not_dropped() -> None:
    """ "booking value for instant bookings": instant bookings are some bookings (a condition
    inside the metric, or a filter of its own); read as context, the condition was dropped and
    the booking value of every booking shown. Its words are asked back. A metric over all the
    rows stays context ("booking value for bookings")."""
    import yaml

    from assay.semantic import parse_semantic
    from tests.semantic._helpers import read_and_decide

    layer = parse_semantic(yaml.safe_load(FILTERED), source="test")
    for question in ("booking value for instant bookings", "booking value of paid bookings"):
        reading, decision = read_and_decide(question, layer)
        assert decision.behaviour == "clarify", (question, reading, decision)
        assert reading.unread, question
    reading, decision = read_and_decide("booking value for bookings", layer)
    assert decision.behaviour == "answer" and reading.metrics == ("booking_value",)
