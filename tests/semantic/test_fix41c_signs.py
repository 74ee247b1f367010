"""A sign word said of a numeric column is a bound at zero (outside recheck 40, N4: "number of
customers with a negative account balance" abstained "'negative' is not a value" and read "by
account balance"; the tester's SQL is ``c_acctbal < 0``, 139 customers). "a negative balance",
"balance is negative": ``< 0``. A sign word of a column whose values are words, or with no
numeric column after it, stays unread (asked back), and so does "positive" (of a column never
below zero it means good: "a positive rating")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic, with_derived_names, with_numeric_columns

from ._helpers import draft, read_and_decide

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"


def _wallets(tmp_path: Path) -> tuple[Path, SemanticLayer]:
    """Wallets with a signed balance (some below zero) and a currency word column."""
    db = tmp_path / "wallets.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE wallet (wallet_id INTEGER PRIMARY KEY, owner TEXT, currency TEXT, "
        "balance REAL)"
    )
    con.executemany(
        "INSERT INTO wallet VALUES (?, ?, ?, ?)",
        [(i, f"owner {i}", ["EUR", "USD"][i % 2], (i % 7) * 10.0 - 25.0) for i in range(40)],
    )
    con.commit()
    con.close()
    path = draft(db, tmp_path / "layer.yaml")
    with connect(str(db)) as connector:
        layer = with_numeric_columns(load_semantic(path), connector.catalog())
    return db, with_derived_names(layer)


@pytest.mark.parametrize(
    ("question", "op"),
    [
        ("how many wallets have a negative balance", "<"),
        ("number of wallets whose balance is negative", "<"),
    ],
)
def test_a_sign_word_of_a_numeric_column_is_a_bound_at_zero(
    tmp_path: Path, question: str, op: str
) -> None:
    db, layer = _wallets(tmp_path)
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour == "answer", decision.message
    assert [(c.op, c.value) for c in reading.comparisons] == [(op, "0")]
    bounded = {c.column or c.dimension for c in reading.comparisons}
    assert bounded <= {"wallet_balance", "wallet.balance"}
    assert reading.groups == ()
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask(question)
    assert verdict.candidate is not None and verdict.candidate.result is not None
    with sqlite3.connect(db) as con:
        want = con.execute(f"SELECT count(*) FROM wallet WHERE balance {op} 0").fetchall()
    assert [tuple(r) for r in verdict.candidate.result.rows] == want
    # the sentence says the sign as asked, never a 0 that no returned cell supports
    assert "cap.uncited_number" not in {f.code for f in verdict.findings}
    assert verdict.action != "withhold"


def test_a_sign_word_with_no_numeric_column_stays_unread(tmp_path: Path) -> None:
    _, layer = _wallets(tmp_path)
    for question in (
        "how many negative wallets",
        "number of wallets with a negative currency",
        # "positive" may mean good ("a positive rating" on a 1-5 scale): asked back
        "how many wallets have a positive balance",
    ):
        reading, decision = read_and_decide(question, layer)
        assert decision.behaviour != "answer", question
        assert reading.comparisons == (), question


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_cube_customers_with_a_negative_account_balance(tpch_duckdb: Path, tmp_path: Path) -> None:
    out = tmp_path / "cube.yaml"
    args = ["semantic", "import", "--from", "cube", "--source", str(CUBE), "--db"]
    run = CliRunner().invoke(main, [*args, str(tpch_duckdb), "--out", str(out)])
    assert run.exit_code == 0, run.output
    with duckdb.connect(str(tpch_duckdb), read_only=True) as con:
        want = con.sql("SELECT count(*) FROM customer WHERE c_acctbal < 0").fetchall()
    with connect(str(tpch_duckdb)) as connector:
        layer = with_derived_names(with_numeric_columns(load_semantic(out), connector.catalog()))
        verdict = Agent(connector, layer).ask("number of customers with a negative account balance")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert [tuple(r) for r in verdict.candidate.result.rows] == want
