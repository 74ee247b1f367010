"""Everyday words read as words, on a layer shaped as Assay drafts TPC-DS (outside tryout 22).

- F1: a word of grammar that a column happens to hold ("Each" in ``item.i_units``, "first" in
  ``time_dim.t_shift``) was read as a filter: "for each category" kept the units 'Each' (4
  categories of small totals), "by category, highest first" kept the first shift and a top 1,
  both shown with score 1.00. It is a value only where the question ties it to its column
  ("units each", "the first shift", "shift = first", quoted); elsewhere it is grammar.
- F2: "which category has the highest store sales net paid" was read as the maximum metric
  (its drafted synonym "highest store sales net paid") grouped, unranked: every category's
  single largest sale. It is a ranking by the total.
- F16: a count's one-word name said of a breakdown or after a value ("by customer state", "for
  good customers") was a second metric, asked back; it says whose rows are meant.
- F14: a fan-out refusal named a table the question never implied; it names the table needed.

Each answer shown is compared with SQL written here on the same data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from assay.connectors import connect
from assay.errors import FanOut
from assay.generators import plan
from assay.pipeline import Agent
from assay.semantic import parse_semantic, read
from tests.semantic._helpers import read_and_decide

# A small star as TPC-DS has it: one fact table, an item and a time-of-day dimension, with the
# drafter's four statistics of one summed column and their synonyms.
LAYER = """
name: "ds"
tables: {"store_sales": {}, "item": {}, "time_dim": {}}
joins:
  - {left: "store_sales.ss_item_sk", right: "item.i_item_sk", relationship: many_to_one}
  - {left: "store_sales.ss_sold_time_sk", right: "time_dim.t_time_sk",
     relationship: many_to_one}
metrics:
  - name: "net_paid_total"
    label: "total store sales net paid"
    synonyms: ["net paid", "store sales net paid"]
    table: "store_sales"
    expression: "sum(store_sales.ss_net_paid)"
  - name: "net_paid_average"
    label: "average store sales net paid"
    synonyms: ["mean store sales net paid", "net paid", "store sales net paid"]
    table: "store_sales"
    expression: "avg(store_sales.ss_net_paid)"
  - name: "net_paid_maximum"
    label: "maximum store sales net paid"
    synonyms: ["highest store sales net paid", "largest store sales net paid",
               "max store sales net paid", "net paid", "store sales net paid"]
    table: "store_sales"
    expression: "max(store_sales.ss_net_paid)"
  - name: "net_paid_minimum"
    label: "minimum store sales net paid"
    synonyms: ["lowest store sales net paid", "smallest store sales net paid",
               "min store sales net paid", "net paid", "store sales net paid"]
    table: "store_sales"
    expression: "min(store_sales.ss_net_paid)"
dimensions:
  - name: "item_i_category"
    column: "item.i_category"
    synonyms: ["item category", "category"]
    values: ["Books", "Men", "Women"]
  - name: "item_i_units"
    column: "item.i_units"
    synonyms: ["item units", "units"]
    values: ["Box", "Each", "Gross"]
  - name: "time_dim_t_shift"
    column: "time_dim.t_shift"
    synonyms: ["shift", "time shift"]
    values: ["first", "second", "third"]
"""

# item: (key, category, units); time: (key, shift); sales: (item, time, net paid). Men sells
# most in total, Books holds the single largest sale, and only Books and Women have an 'Each'.
ITEMS = [(1, "Books", "Each"), (2, "Men", "Box"), (3, "Women", "Each"), (4, "Men", "Gross")]
TIMES = [(1, "first"), (2, "second"), (3, "third")]
SALES = [(1, 1, 90.0), (2, 2, 40.0), (2, 3, 40.0), (4, 1, 30.0), (3, 2, 20.0), (3, 1, 5.0)]


@pytest.fixture(scope="module")
def star(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ds") / "ds.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE item (i_item_sk INTEGER, i_category TEXT, i_units TEXT)")
        con.execute("CREATE TABLE time_dim (t_time_sk INTEGER, t_shift TEXT)")
        con.execute(
            "CREATE TABLE store_sales (ss_item_sk INTEGER, ss_sold_time_sk INTEGER, "
            "ss_net_paid DECIMAL(7,2))"
        )
        con.executemany("INSERT INTO item VALUES (?, ?, ?)", ITEMS)
        con.executemany("INSERT INTO time_dim VALUES (?, ?)", TIMES)
        con.executemany("INSERT INTO store_sales VALUES (?, ?, ?)", SALES)
    return path


def _layer() -> Any:
    return parse_semantic(yaml.safe_load(LAYER))


def _plain(rows: Any) -> list[tuple[Any, ...]]:
    return [tuple(v if isinstance(v, str) else float(v) for v in row) for row in rows]


def _truth(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return _plain(con.sql(sql).fetchall())


def _shown(db: Path, question: str) -> list[tuple[Any, ...]]:
    """The rows of the answer shown for ``question`` (asserted answered and shown)."""
    with connect(str(db)) as connector:
        verdict = Agent(connector, _layer()).ask(question)
    assert (verdict.behaviour, verdict.action) == ("answer", "show"), verdict.reasons
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return _plain(verdict.candidate.result.rows)


BY_CATEGORY = """
SELECT i_category, sum(ss_net_paid) FROM store_sales JOIN item ON ss_item_sk = i_item_sk
GROUP BY i_category ORDER BY 2 DESC
"""


@pytest.mark.parametrize(
    "question",
    [
        "Total store sales net paid for each category",
        "Total store sales net paid by category, highest first",
        "Total store sales net paid for every category",
    ],
    ids=["for-each", "highest-first", "for-every"],
)
def test_a_word_of_grammar_is_no_filter(star: Path, question: str) -> None:
    reading = read(question, _layer())
    assert not reading.filters
    assert reading.top_n is None
    assert sorted(_shown(star, question)) == sorted(_truth(star, BY_CATEGORY))


@pytest.mark.parametrize(
    ("question", "dimension", "value"),
    [
        ("Total store sales net paid for units each", "item_i_units", "Each"),
        ("Total store sales net paid in the first shift", "time_dim_t_shift", "first"),
        ("Total store sales net paid where shift = first", "time_dim_t_shift", "first"),
        ("Total store sales net paid for 'Each'", "item_i_units", "Each"),
    ],
    ids=["column-before", "column-after", "equals", "quoted"],
)
def test_a_word_tied_to_its_column_is_its_value(question: str, dimension: str, value: str) -> None:
    reading = read(question, _layer())
    assert [(f.dimension, f.values) for f in reading.filters] == [(dimension, (value,))]


def test_a_grammar_value_said_alone_is_asked_back_never_dropped() -> None:
    """ "..., first" with nothing ranked nor a column beside it: neither the first shift
    (filtered) nor dropped, but left unread, so the question is asked back."""
    reading = read("Total store sales net paid, first", _layer())
    assert not reading.filters
    assert "first" in reading.unread


def test_which_has_the_highest_ranks_by_the_total(star: Path) -> None:
    question = "Which category has the highest store sales net paid?"
    reading = read(question, _layer())
    assert (reading.metrics, reading.top_n) == (("net_paid_total",), 1)
    assert _shown(star, question) == _truth(star, BY_CATEGORY + " LIMIT 1") == [("Men", 110.0)]


def test_the_highest_alone_is_still_the_maximum() -> None:
    """Nothing ranked: "what is the highest store sales net paid" is the one largest sale."""
    reading = read("What is the highest store sales net paid?", _layer())
    assert reading.metrics == ("net_paid_maximum",)
    assert reading.top_n is None


# F16 and F14: a layer counting customers, whose state sits on a joined address table, and
# whose store sales reach the customer only through web sales (the direct join forbidden).
OWNERS = """
name: "owners"
tables: {"store_sales": {}, "web_sales": {}, "item": {}, "customer": {},
         "customer_address": {}}
joins:
  - {left: "store_sales.ss_item_sk", right: "item.i_item_sk", relationship: many_to_one}
  - {left: "web_sales.ws_item_sk", right: "item.i_item_sk", relationship: many_to_one}
  - {left: "web_sales.ws_customer_sk", right: "customer.c_customer_sk",
     relationship: many_to_one}
  - {left: "customer.c_current_addr_sk", right: "customer_address.ca_address_sk",
     relationship: many_to_one}
forbidden_joins:
  - {left: "store_sales", right: "customer_address",
     reason: "12 rows of store_sales have no match"}
metrics:
  - name: "net_paid_total"
    label: "total store sales net paid"
    synonyms: ["store sales net paid"]
    table: "store_sales"
    expression: "sum(store_sales.ss_net_paid)"
  - name: "web_net_paid_total"
    label: "total web sales net paid"
    synonyms: ["web sales net paid"]
    table: "web_sales"
    expression: "sum(web_sales.ws_net_paid)"
  - name: "customer_count"
    label: "customer count"
    synonyms: ["number of customer", "customers"]
    table: "customer"
    expression: "count(*)"
dimensions:
  - name: "customer_address_ca_state"
    column: "customer_address.ca_state"
    synonyms: ["customer address state", "state"]
    values: ["CA", "TX"]
  - name: "customer_c_rating"
    column: "customer.c_rating"
    synonyms: ["rating"]
    values: ["Good", "Poor"]
  - name: "item_i_color"
    column: "item.i_color"
    synonyms: ["color"]
    values: ["red", "blue"]
"""


def _owners() -> Any:
    return parse_semantic(yaml.safe_load(OWNERS))


def test_a_count_named_before_its_dimension_says_whose_it_is() -> None:
    """ "by customer state" was asked back as two metrics: net paid and customers."""
    reading, decision = read_and_decide("Total web sales net paid by customer state", _owners())
    assert (reading.metrics, reading.several) == (("web_net_paid_total",), ())
    assert reading.group_by == "customer_address_ca_state"
    assert decision.behaviour == "answer", decision.message


def test_a_count_named_after_a_value_is_the_rows_measured() -> None:
    """ "for good customers": the customers rated Good, not a second metric."""
    reading, decision = read_and_decide("Total web sales net paid for good customers", _owners())
    assert (reading.metrics, reading.several) == (("web_net_paid_total",), ())
    assert decision.behaviour == "answer", decision.message
    assert [(f.dimension, f.values) for f in reading.filters] == [("customer_c_rating", ("Good",))]


def test_a_count_beside_a_dimension_of_an_unjoined_table_stays_a_metric() -> None:
    """ "by customer color": no table of customers holds a color (the items' does), so
    'customer' is not read away; the question stays asked back."""
    _, decision = read_and_decide("Total web sales net paid by customer color", _owners())
    assert decision.code == "behaviour.several_metrics"


def test_a_fan_out_names_the_table_the_question_needs() -> None:
    """The refusal named only web_sales, which the question never mentioned (F14)."""
    layer = _owners()
    reading = read("Total store sales net paid by customer state", layer)
    with pytest.raises(FanOut) as raised:
        plan(reading, layer)
    message = str(raised.value)
    assert "web_sales lies on the join path from store_sales to customer_address" in message
    assert "the direct join is forbidden: 12 rows of store_sales have no match" in message
