"""What the question names and the SQL ignores (outside tryout 18, items 63, 65, 71, 80): five
samples agreeing on the same wrong SQL were shown at 1.00. A tiny TPC-DS-shaped DuckDB built
here (``customer``, ``customer_address``, ``store_sales``) stands in for the tester's file.

- "How many customers are in GA?" with no state filter (1000 shown, 69 right): a bare all-caps
  code is a literal the SQL must use in a condition.
- the same question counted from ``customer_address`` (addresses, not customers): the noun
  names ``customer`` exactly and the SQL reads only a table that merely contains the word.
- "total store sales net profit" as ``sum(ss_net_paid)``: the question names ``ss_net_profit``
  word for word and the SQL aggregates its sibling.
- "List states by number of customers, highest first" with no ORDER BY.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from click.testing import CliRunner

from assay.checks._cues import read_cues
from assay.checks._mentions import missing_codes, named_codes, named_names
from assay.cli import main
from assay.generators import SampleRecord
from assay.pipeline import Scorer
from tests.semantic._helpers import spider_db


@pytest.fixture(scope="module")
def tpcds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 customers, each with a current address among 50 (states GA, TX, CA, KY cycling), and
    200 store sales whose net paid and net profit differ."""
    path = tmp_path_factory.mktemp("mentions") / "tpcds.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE customer_address AS SELECT i AS ca_address_sk, "
        "(['GA', 'TX', 'CA', 'KY'])[1 + i % 4] AS ca_state, 'Street ' || i AS ca_street_name "
        "FROM range(1, 51) t(i)"
    )
    con.execute(
        "CREATE TABLE customer AS SELECT i AS c_customer_sk, 1 + (i * 7) % 50 AS "
        "c_current_addr_sk, 'Name' || i AS c_first_name FROM range(1, 41) t(i)"
    )
    con.execute(
        "CREATE TABLE store_sales AS SELECT i AS ss_ticket_number, 1 + i % 40 AS ss_customer_sk, "
        "i % 9 AS ss_quantity, CAST(i * 2.5 AS DECIMAL(9, 2)) AS ss_net_paid, "
        "CAST(i * 0.5 - 40 AS DECIMAL(9, 2)) AS ss_net_profit FROM range(1, 201) t(i)"
    )
    con.close()
    return path


@pytest.fixture(scope="module")
def scorer() -> Iterator[Scorer]:
    """One scorer for the module: it keeps each database's connector open across questions."""
    with Scorer.named("assay") as scorer:
        yield scorer


def _verdict(scorer: Scorer, db: Path, question: str, sql: str) -> dict[str, Any]:
    samples = [{"final_sql": sql}] * 5  # unanimous: agreement cannot tell
    record = SampleRecord.model_validate(
        {"id": "q", "db": str(db), "question": question, "samples": samples}
    )
    verdict: dict[str, Any] = scorer.score_line(record).to_dict()
    return verdict


def test_the_tester_s_question_through_assay_score(tmp_path: Path, tpcds: Path) -> None:
    record = {
        "id": "ga_nofilter",
        "db": str(tpcds),
        "question": "How many customers are in GA?",
        "samples": [{"final_sql": "SELECT count(*) FROM customer"}] * 5,
    }
    samples = tmp_path / "s.jsonl"
    samples.write_text(json.dumps(record) + "\n")
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    verdict = json.loads(out.read_text().splitlines()[0])
    assert verdict["action"] == "withhold"
    assert verdict["reasons"] == ["signal.literal_missing"]


def _codes(verdict: dict[str, Any]) -> list[str]:
    return [f["code"] for f in verdict["findings"]]


JOINED = (
    "SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = ca_address_sk "
    "WHERE ca_state = 'GA'"
)


@pytest.mark.parametrize(
    "question",
    [
        "How many customers are in GA?",
        "A quick count of customers in GA",
        "How many customers live in the state GA?",
    ],
    ids=["ga_nofilter", "quickfill", "live_in_state"],
)
def test_a_bare_code_the_sql_ignores_is_not_shown(
    scorer: Scorer, tpcds: Path, question: str
) -> None:
    verdict = _verdict(scorer, tpcds, question, "SELECT count(*) FROM customer")
    found = [f for f in verdict["findings"] if f["code"] == "signal.literal_missing"]
    assert found, _codes(verdict)
    assert "GA" in found[0]["evidence"]["codes"]
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 'GA' AS state, count(*) FROM customer",  # named, but filters nothing
        "SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = "
        "ca_address_sk WHERE ca_state = 'TX'",
    ],
    ids=["projected_only", "other_state"],
)
def test_a_code_outside_any_condition_is_missing(scorer: Scorer, tpcds: Path, sql: str) -> None:
    verdict = _verdict(scorer, tpcds, "How many customers are in GA?", sql)
    assert "signal.literal_missing" in _codes(verdict)
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(
    "sql",
    [
        JOINED,
        JOINED.replace("= 'GA'", "IN ('GA')"),
        JOINED.replace("= 'GA'", "LIKE '%GA%'"),
        "SELECT count(*) FROM customer JOIN customer_address ON c_current_addr_sk = "
        "ca_address_sk AND ca_state = 'GA'",
        "SELECT sum(CASE WHEN ca_state = 'GA' THEN 1 ELSE 0 END) FROM customer JOIN "
        "customer_address ON c_current_addr_sk = ca_address_sk",
    ],
    ids=["where", "in", "like", "join_on", "case"],
)
def test_the_code_used_in_a_condition_is_shown(scorer: Scorer, tpcds: Path, sql: str) -> None:
    verdict = _verdict(scorer, tpcds, "How many customers are in GA?", sql)
    assert "signal.literal_missing" not in _codes(verdict)
    assert "signal.table_mismatch" not in _codes(verdict)
    assert verdict["action"] == "show", _codes(verdict)


def test_a_name_the_sql_compares_nothing_with_is_not_shown(scorer: Scorer, tpcds: Path) -> None:
    question = "How many customers are in Georgia?"  # the data stores 'GA'
    verdict = _verdict(scorer, tpcds, question, "SELECT count(*) FROM customer")
    found = [f for f in verdict["findings"] if f["code"] == "signal.literal_missing"]
    assert found, _codes(verdict)
    assert found[0]["evidence"]["names"] == ["Georgia"]
    assert verdict["action"] == "withhold"
    right = _verdict(scorer, tpcds, question, JOINED)  # spelt as the data stores it
    assert "signal.literal_missing" not in _codes(right)
    assert right["action"] == "show", _codes(right)


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        # spider-dev-5, codes_7b's right answer: on SQLite "France" is the string 'France'
        (
            "What is the average, minimum, and maximum age for all French singers?",
            'SELECT avg(age), min(age), max(age) FROM singer WHERE country = "France"',
            False,
        ),
        # spider-dev-130, codes_7b's right answer: Europe stored as the code 2
        (
            "What are the names of all European countries with at least 3 manufacturers?",
            "SELECT countries.countryname FROM car_makers JOIN countries ON car_makers.country "
            "= countries.countryid WHERE countries.continent = 2 GROUP BY countries.countryname "
            "HAVING count(*) >= 3",
            False,
        ),
        # spider-dev-130, graphix_t5's wrong answer: every country with 3 makers
        (
            "What are the names of all European countries with at least 3 manufacturers?",
            "select countries.countryname from car_makers join countries on car_makers.country "
            "= countries.countryid group by countries.countryname having count(*) >= 3",
            True,
        ),
    ],
    ids=["dev5_french_as_france", "dev130_europe_as_code", "dev130_no_filter"],
)
def test_names_on_the_spider_slice(scorer: Scorer, question: str, sql: str, fires: bool) -> None:
    db = spider_db("concert_singer" if "singer" in sql else "car_1")
    verdict = _verdict(scorer, db, question, sql)
    assert ("signal.literal_missing" in _codes(verdict)) is fires, _codes(verdict)


def test_named_names_leave_out_sentence_starts_and_schema_words() -> None:
    schema = ("singer", "Country")
    assert named_names("How many singers are from France or Spain?", schema) == ("France", "Spain")
    assert named_names("Find the ages. List them by Country.", schema) == ()
    assert named_names("Which singers sang Hey Jude?", schema) == ("Hey", "Jude")


def test_a_code_spelt_out_in_a_condition_is_carried() -> None:
    question = "How many customers are in the US or the UAE?"
    sql = "SELECT count(*) FROM t WHERE country IN ('United States', 'United Arab Emirates')"
    assert missing_codes(question, sql, "duckdb", None) == []
    assert missing_codes(question, "SELECT count(*) FROM t", "duckdb", None) == ["US", "UAE"]
    unrelated = "SELECT count(*) FROM t WHERE country = 'Uganda'"
    assert missing_codes(question, unrelated, "duckdb", None) == ["US", "UAE"]


def test_named_codes_leave_out_sql_words_schema_names_and_units() -> None:
    schema = ("customer", "customer_address", "ca_state", "TV_Channel", "GNP")
    assert named_codes("How many customers are in GA or TX?", schema) == ("GA", "TX")
    assert named_codes("Customers in NYC and the USA", schema) == ("NYC", "USA")
    # a SQL word, a schema word, an identifier abbreviation, a unit, the first word, one letter
    assert named_codes("List customers with NULL state", schema) == ()
    assert named_codes("How many TV channels have a GNP over 10?", schema) == ()
    assert named_codes("What is the ID of the customer?", schema) == ()
    assert named_codes("What is the average GPA?", ("student", "grade_point_average")) == ()
    assert named_codes("What is the total price in USD?", schema) == ()
    assert named_codes("OK, how many customers?", schema) == ()
    assert named_codes("How many customers have grade A?", schema) == ()
    assert named_codes("HOW MANY CUSTOMERS ARE THERE?", schema) == ()  # shouting is no code


def test_counting_another_table_that_contains_the_noun_is_not_shown(
    scorer: Scorer, tpcds: Path
) -> None:
    sql = "SELECT count(*) FROM customer_address WHERE ca_state = 'GA'"  # ga_addr: addresses
    verdict = _verdict(scorer, tpcds, "How many customers are in GA?", sql)
    found = [f for f in verdict["findings"] if f["code"] == "signal.table_mismatch"]
    assert found, _codes(verdict)
    assert found[0]["evidence"]["named"] == ["customer"]
    assert verdict["action"] == "withhold"


def test_a_table_containing_the_noun_read_beside_it_is_silent(scorer: Scorer, tpcds: Path) -> None:
    question = "How many customer addresses are in GA?"  # names customer_address itself
    sql = "SELECT count(*) FROM customer_address WHERE ca_state = 'GA'"
    verdict = _verdict(scorer, tpcds, question, sql)
    assert "signal.table_mismatch" not in _codes(verdict)
    assert verdict["action"] == "show", _codes(verdict)


NET_PROFIT = "What is the total store sales net profit?"


def test_aggregating_a_sibling_of_the_named_column_is_not_shown(
    scorer: Scorer, tpcds: Path
) -> None:
    verdict = _verdict(scorer, tpcds, NET_PROFIT, "SELECT sum(ss_net_paid) FROM store_sales")
    found = [f for f in verdict["findings"] if f["code"] == "signal.column_mismatch"]
    assert found, _codes(verdict)
    assert found[0]["evidence"]["named"] == "store_sales.ss_net_profit"
    assert found[0]["evidence"]["aggregated"] == ["store_sales.ss_net_paid"]
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (NET_PROFIT, "SELECT sum(ss_net_profit) FROM store_sales"),
        (NET_PROFIT, "SELECT sum(s.ss_net_profit) FROM store_sales AS s"),
        # both named: the question asks for paid, and says profit elsewhere
        (
            "What is the total net paid of store sales with a net profit above 0?",
            "SELECT sum(ss_net_paid) FROM store_sales WHERE ss_net_profit > 0",
        ),
        # a word of a column is not the column: "net" alone names neither
        (
            "What is the total net amount of store sales?",
            "SELECT sum(ss_net_paid) FROM store_sales",
        ),
    ],
    ids=["right", "aliased", "both_named", "partial_words"],
)
def test_the_named_column_aggregated_is_silent(
    scorer: Scorer, tpcds: Path, question: str, sql: str
) -> None:
    verdict = _verdict(scorer, tpcds, question, sql)
    assert "signal.column_mismatch" not in _codes(verdict)


HIGHEST_FIRST = "List states by number of customers, highest first"
BY_STATE = (
    "SELECT ca_state, count(*) AS n FROM customer JOIN customer_address "
    "ON c_current_addr_sk = ca_address_sk GROUP BY ca_state"
)


def test_highest_first_without_order_by_is_not_shown(scorer: Scorer, tpcds: Path) -> None:
    verdict = _verdict(scorer, tpcds, HIGHEST_FIRST, BY_STATE)
    assert "signal.order_missing" in _codes(verdict)
    assert verdict["action"] == "withhold"


def test_highest_first_with_order_by_is_shown(scorer: Scorer, tpcds: Path) -> None:
    verdict = _verdict(scorer, tpcds, HIGHEST_FIRST, BY_STATE + " ORDER BY n DESC")
    assert "signal.order_missing" not in _codes(verdict)
    assert verdict["action"] == "show", _codes(verdict)


@pytest.mark.parametrize(
    ("question", "ordered"),
    [
        (HIGHEST_FIRST, True),
        ("Show products by price, lowest first", True),
        ("List teams from largest to smallest", True),
        ("Show the states from most to least customers", True),
        ("List cities in order of population", True),
        ("Names sorted by age", True),
        ("Players ranked by score", True),
        ("Which state has the highest count first recorded in 2001?", False),
        ("How many customers are in GA?", False),
        ("Send it first to the manager", False),
    ],
)
def test_order_cues(question: str, ordered: bool) -> None:
    assert read_cues(question).ordered is ordered
