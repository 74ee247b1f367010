"""Places said by name and stored as codes (outside re-check of tryout 38: "customers in
Germany" as ``customers.country = 'DE'`` was withheld as a code the question never names, and
``= 'FR'`` withheld with that same wrong reason). Here on a schema of stores by US state and
suppliers by ISO 3166 alpha-3 country: the right code is no longer withheld, another place's
code is ``value_swapped`` naming both places, and full names stay as they were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks._places import place_of, places_named
from tests.checks._helpers import codes, scored


def _db(tmp_path: Path) -> Path:
    db = tmp_path / "places.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE stores (store_id INTEGER PRIMARY KEY, state TEXT, sales REAL)")
    states = ["TX", "CA", "NY", "GA"]
    con.executemany(
        "INSERT INTO stores VALUES (?, ?, ?)", [(i, states[i % 4], 10.0 * i) for i in range(40)]
    )
    con.execute("CREATE TABLE suppliers (supplier_id INTEGER PRIMARY KEY, country TEXT)")
    countries = ["USA", "GBR", "DEU", "FRA", "JPN"]
    con.executemany(
        "INSERT INTO suppliers VALUES (?, ?)", [(i, countries[i % 5]) for i in range(50)]
    )
    con.execute("CREATE TABLE nation (n_nationkey INTEGER PRIMARY KEY, n_name TEXT)")
    nations = ["GERMANY", "FRANCE", "JAPAN"]
    con.executemany("INSERT INTO nation VALUES (?, ?)", list(enumerate(nations)))
    con.commit()
    con.close()
    return db


TEXAS = "What were the total sales of stores in Texas?"
US = "How many suppliers are in the United States?"
UK = "How many suppliers are in the UK?"
GERMANY = "How many nations are called Germany?"


@pytest.mark.parametrize(
    ("question", "right", "wrong", "asked", "other"),
    [
        (
            TEXAS,
            "SELECT sum(sales) FROM stores WHERE state = 'TX'",
            "state = 'CA'",
            "Texas",
            "California",
        ),
        (
            US,
            "SELECT count(*) FROM suppliers WHERE country = 'USA'",
            "country = 'GBR'",
            "United States",
            "United Kingdom",
        ),
        (
            UK,
            "SELECT count(*) FROM suppliers WHERE country = 'GBR'",
            "country = 'DEU'",
            "United Kingdom",
            "Germany",
        ),
    ],
)
def test_a_place_named_links_to_its_code(
    tmp_path: Path, question: str, right: str, wrong: str, asked: str, other: str
) -> None:
    db = _db(tmp_path)
    fine = scored(tmp_path, db, question, *[right] * 5)
    assert fine["action"] == "show", fine["reasons"]
    bad_sql = right.split(" WHERE ")[0] + " WHERE " + wrong
    bad = scored(tmp_path, db, question, *[bad_sql] * 5)
    assert bad["action"] == "withhold"
    assert "signal.value_swapped" in codes(bad)
    message = next(f["message"] for f in bad["findings"] if f["code"] == "signal.value_swapped")
    assert asked in message and other in message, message


def test_full_names_are_read_as_before(tmp_path: Path) -> None:
    db = _db(tmp_path)
    right = "SELECT count(*) FROM nation WHERE n_name = 'GERMANY'"
    assert scored(tmp_path, db, GERMANY, *[right] * 5)["action"] == "show"
    wrong = scored(
        tmp_path, db, GERMANY, *["SELECT count(*) FROM nation WHERE n_name = 'FRANCE'"] * 5
    )
    assert wrong["action"] == "withhold"


def test_the_table_of_places() -> None:
    assert place_of("DE") == ["Delaware", "Germany"]
    assert place_of("uk") == ["United Kingdom"]
    assert place_of("XX") == []
    named = places_named("Sales in New Mexico, South Sudan and the USA?")
    assert [n for _, n, _ in named] == ["new mexico", "south sudan", "united states"]
    # a continent is no country ("customers in South America" as country IN ('BR', 'AR'))
    assert places_named("Customers in South America or North America?") == []
    # a name that is also a word is a place only capitalised
    assert places_named("How many turkey sandwiches were sold?") == []
    assert [n for _, n, _ in places_named("Exports to Turkey?")] == ["turkey"]
