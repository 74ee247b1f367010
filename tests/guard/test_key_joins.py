"""A join equating two unrelated keys (outside tryout 17: ``customer c JOIN item i ON
c.c_customer_sk = i.i_item_sk`` ran and returned 180 rows; pets_1 ``student.stuid = pets.petid``
returned 0, both without a word) is ``guard.unrelated_join``: refused where the database's
joins are known (declared foreign keys, or a semantic layer's joins) or where each column is its
own table's key of a different thing (outside tryout 22: ``c_customer_sk = ca_address_sk``), a
warning beside the rows otherwise."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.cli import main
from assay.generators import SampleRecord
from assay.guard import validate
from assay.pipeline import Scorer
from assay.scoring import DEFAULT_RULE, get_rule
from assay.semantic import JoinPath, SemanticLayer

TABLES = {
    "customer": ("c_customer_sk", "c_current_addr_sk", "c_birth_year"),
    "customer_address": ("ca_address_sk", "ca_state"),
    "item": ("i_item_sk", "i_manufact_id", "i_current_price"),
    "store_sales": ("ss_item_sk", "ss_customer_sk", "ss_addr_sk", "ss_net_profit"),
    "store_returns": ("sr_item_sk", "sr_customer_sk", "sr_return_amt"),
}
UNRELATED = "SELECT count(*) FROM customer c JOIN item i ON c.c_customer_sk = i.i_item_sk"
# an address key read as an item's: c_current_addr_sk is no key of customer's own, so its name
# alone cannot say what it refers to
UNCERTAIN = "SELECT count(*) FROM customer c JOIN item i ON c.c_current_addr_sk = i.i_item_sk"


def _catalog(foreign_keys: tuple[ForeignKey, ...] = ()) -> Catalog:
    tables = tuple(
        TableInfo(t, tuple(ColumnInfo(c, "INTEGER") for c in cols)) for t, cols in TABLES.items()
    )
    return Catalog(tables, foreign_keys)


def _declared() -> Catalog:
    return _catalog(
        (
            ForeignKey("store_sales", ("ss_item_sk",), "item", ("i_item_sk",)),
            ForeignKey("store_sales", ("ss_customer_sk",), "customer", ("c_customer_sk",)),
            ForeignKey("store_returns", ("sr_item_sk",), "item", ("i_item_sk",)),
        )
    )


def _codes(sql: str, catalog: Catalog, semantic: SemanticLayer | None = None) -> list[str]:
    report = validate(sql, catalog=catalog, dialect="duckdb", semantic=semantic)
    return [v.code for v in report.violations if v.severity == "error"]


def test_unrelated_keys_are_refused_where_keys_are_declared() -> None:
    report = validate(UNRELATED, catalog=_declared(), dialect="duckdb")
    assert not report.ok
    assert [v.code for v in report.violations] == ["guard.unrelated_join"]
    assert "c_customer_sk" in report.violations[0].message
    assert "i_item_sk" in report.violations[0].message


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM store_sales s JOIN item i ON s.ss_item_sk = i.i_item_sk",
        # siblings: both reference item
        "SELECT count(*) FROM store_sales s JOIN store_returns r ON s.ss_item_sk = r.sr_item_sk",
        # not declared, but the names say it (addr names address)
        "SELECT count(*) FROM customer c JOIN customer_address a "
        "ON c.c_current_addr_sk = a.ca_address_sk",
        # a WHERE join, declared
        "SELECT count(*) FROM store_sales s, customer c WHERE s.ss_customer_sk = c.c_customer_sk",
        # not keys: a year equated with a price is no key join
        "SELECT count(*) FROM customer c JOIN item i ON c.c_birth_year = i.i_current_price",
    ],
    ids=["declared", "siblings", "names-agree", "where", "not-keys"],
)
def test_related_keys_pass(sql: str) -> None:
    assert _codes(sql, _declared()) == []


def test_unrelated_keys_in_a_where_join_are_refused() -> None:
    sql = "SELECT count(*) FROM store_sales s, customer c WHERE s.ss_item_sk = c.c_customer_sk"
    assert _codes(sql, _declared()) == ["guard.unrelated_join"]


def test_a_semantic_layers_joins_make_the_keys_known() -> None:
    layer = SemanticLayer(
        name="star",
        joins=(JoinPath("store_sales.ss_item_sk", "item.i_item_sk"),),
    )
    assert _codes(UNRELATED, _catalog(), layer) == ["guard.unrelated_join"]


def test_where_nothing_is_known_it_is_a_warning_and_the_statement_runs() -> None:
    report = validate(UNCERTAIN, catalog=_catalog(), dialect="duckdb")
    assert report.ok and report.sql is not None
    assert [(v.code, v.severity) for v in report.violations] == [
        ("guard.unrelated_join", "warning")
    ]


@pytest.mark.parametrize(
    "sql",
    [
        UNRELATED,
        # outside tryout 22, w14: 31 customers in TX shown, 67 right
        "SELECT count(*) FROM customer c JOIN customer_address a "
        "ON c.c_customer_sk = a.ca_address_sk WHERE a.ca_state = 'TX'",
    ],
    ids=["customer-item", "customer-address"],
)
def test_two_things_own_keys_are_refused_where_nothing_is_known(sql: str) -> None:
    """Each column is its own table's key, of two different things: the names make it certain
    without a declared key."""
    report = validate(sql, catalog=_catalog(), dialect="duckdb")
    assert not report.ok
    assert [(v.code, v.severity) for v in report.violations] == [("guard.unrelated_join", "error")]
    assert "its own table's key" in report.violations[0].message


def _star(tmp_path: Path) -> Path:
    db = tmp_path / "star.duckdb"
    with duckdb.connect(str(db)) as con:
        for table, cols in TABLES.items():
            con.execute(f"CREATE TABLE {table} ({', '.join(c + ' INTEGER' for c in cols)})")
        con.execute("INSERT INTO customer VALUES (1, 1, 1970), (2, 1, 1980)")
        con.execute("INSERT INTO item VALUES (1, 5, 10), (3, 5, 10)")
    return db


def test_assay_sql_prints_the_note_beside_the_rows(tmp_path: Path) -> None:
    db = _star(tmp_path)
    result = CliRunner().invoke(main, ["sql", "--db", str(db), UNCERTAIN])
    assert result.exit_code == 0, result.output
    assert "guard.unrelated_join" in result.output and "2" in result.output


def test_assay_sql_refuses_on_a_database_with_declared_keys(tmp_path: Path) -> None:
    db = tmp_path / "pets.sqlite"
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE Student (StuID INTEGER PRIMARY KEY, Age INTEGER);"
        "CREATE TABLE Pets (PetID INTEGER PRIMARY KEY, weight REAL);"
        "CREATE TABLE Has_Pet (StuID INTEGER REFERENCES Student(StuID),"
        " PetID INTEGER REFERENCES Pets(PetID));"
        "INSERT INTO Student VALUES (1, 20), (2, 21); INSERT INTO Pets VALUES (1, 3.0);"
        "INSERT INTO Has_Pet VALUES (1, 1);"
    )
    con.close()
    bad = "SELECT count(*) FROM Student s JOIN Pets p ON s.StuID = p.PetID"
    result = CliRunner().invoke(main, ["sql", "--db", str(db), "--json", bad])
    assert result.exit_code == 1
    codes = [v["code"] for v in json.loads(result.output)["guard"]["violations"]]
    assert codes == ["guard.unrelated_join"]
    good = "SELECT count(*) FROM Student s JOIN Has_Pet h ON s.StuID = h.StuID"
    assert CliRunner().invoke(main, ["sql", "--db", str(db), good]).exit_code == 0


def _scored(db: Path, sql: str) -> list[str]:
    record = SampleRecord.model_validate(
        {"id": "q", "db": str(db), "question": "How many?", "samples": [{"final_sql": sql}] * 2}
    )
    with Scorer(get_rule(DEFAULT_RULE)) as scorer:
        verdict = scorer.score(record)
    return [f.code for f in verdict.findings]


def test_assay_score_notes_an_unrelated_join_where_nothing_is_known(tmp_path: Path) -> None:
    db = _star(tmp_path)
    assert "note.unrelated_join" in _scored(db, UNCERTAIN)
    related = "SELECT count(*) FROM store_sales s JOIN item i ON s.ss_item_sk = i.i_item_sk"
    assert "note.unrelated_join" not in _scored(db, related)


def test_assay_score_withholds_a_join_of_two_things_own_keys(tmp_path: Path) -> None:
    db = _star(tmp_path)
    assert _scored(db, UNRELATED)[0] == "veto.no_result"


TPCH = Catalog(
    tuple(
        TableInfo(t, tuple(ColumnInfo(c, "INTEGER") for c in cols))
        for t, cols in {
            "customer": ("c_custkey", "c_nationkey", "c_acctbal"),
            "nation": ("n_nationkey", "n_regionkey", "n_name"),
            "region": ("r_regionkey", "r_name"),
        }.items()
    )
)


def test_keys_glued_to_their_names_are_read_as_keys() -> None:
    """TPC-H writes the key word into the name (``n_nationkey``): a nation's key equated with
    a region's is two things' own keys (agreed16: "customers in Asia" averaged one nation's
    balances, shown at 1.00), while the schema's own joins pass."""
    wrong = (
        "SELECT AVG(c_acctbal) FROM customer JOIN nation ON c_nationkey = n_nationkey "
        "JOIN region ON n_nationkey = r_regionkey WHERE r_name = 'ASIA'"
    )
    assert _codes(wrong, TPCH) == ["guard.unrelated_join"]
    right = wrong.replace("n_nationkey = r_regionkey", "n_regionkey = r_regionkey")
    assert _codes(right, TPCH) == []


def test_abbreviated_own_keys_are_two_things() -> None:
    """TPC-H abbreviates the thing a key keys (``c_custkey``, ``s_suppkey``): a nation's key
    equated with a customer's is two things' own keys (tryout 26, t_w6: "total price of orders
    by customers from GERMANY" joined ``n_nationkey = c_custkey``, only noted and shown at
    1.00), while the schema's own joins pass."""
    wrong = (
        "SELECT sum(o_totalprice) FROM orders o JOIN customer c ON c.c_custkey = o.o_custkey "
        "JOIN nation n ON n.n_nationkey = c.c_custkey WHERE n.n_name = 'GERMANY'"
    )
    assert _codes(wrong, TPCH_ORDERS) == ["guard.unrelated_join"]
    right = wrong.replace("n.n_nationkey = c.c_custkey", "n.n_nationkey = c.c_nationkey")
    assert _codes(right, TPCH_ORDERS) == []


def test_a_pair_tables_first_key_is_no_own_key() -> None:
    """``partsupp`` pairs parts with suppliers: ``ps_partkey`` abbreviates nothing of its own
    (``part`` is partsupp's start, but ``supp`` is its other key's thing), so a join of it with
    a supplier's key is no certain error on the names alone."""
    sql = "SELECT count(*) FROM partsupp ps JOIN supplier s ON ps.ps_partkey = s.s_suppkey"
    report = validate(sql, catalog=TPCH_ORDERS, dialect="duckdb")
    assert [(v.code, v.severity) for v in report.violations] == [
        ("guard.unrelated_join", "warning")
    ]


TPCH_ORDERS = Catalog(
    tuple(
        TableInfo(t, tuple(ColumnInfo(c, "INTEGER") for c in cols))
        for t, cols in {
            "customer": ("c_custkey", "c_nationkey", "c_acctbal"),
            "nation": ("n_nationkey", "n_regionkey", "n_name"),
            "orders": ("o_orderkey", "o_custkey", "o_totalprice"),
            "partsupp": ("ps_partkey", "ps_suppkey", "ps_availqty"),
            "supplier": ("s_suppkey", "s_nationkey", "s_name"),
        }.items()
    )
)
