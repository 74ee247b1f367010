"""A drafted layer keeps a prefixed column's own name among its words.

Where every column of a table shares a prefix (TPC-H's ``c_`` of customer, ``o_`` of orders),
labels drop it ("customer mktsegment"), yet a user who types the column's name as written
("c_mktsegment", "customer c_mktsegment") must be understood too: after the labels dropped the
prefix (9543442), "customer count by customer c_mktsegment" abstained
(behaviour.dimension_missing) and "total orders o_totalprice in 1996" was asked back
(behaviour.unread_words) on TPC-H (``scripts/semantic_init_questions.py``).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import yaml
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic

SEGMENTS = ("AUTOMOBILE", "BUILDING", "MACHINERY")


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("prefixed")
    db = folder / "shop.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(
            "CREATE TABLE customer AS SELECT i AS c_custkey, 'Customer ' || i AS c_name, "
            f"{list(SEGMENTS)}[i % 3 + 1] AS c_mktsegment FROM range(1, 61) t(i)"
        )
        con.execute(
            "CREATE TABLE orders AS SELECT i AS o_orderkey, i % 60 + 1 AS o_custkey, "
            "CAST(100 + i * 7 % 50 AS DECIMAL(12, 2)) AS o_totalprice, "
            "DATE '1995-01-01' + INTERVAL (i * 3) DAY AS o_orderdate FROM range(1, 301) t(i)"
        )
    out = folder / "shop.yaml"
    result = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return db, out


def _element(path: Path, kind: str, name: str) -> dict[str, object]:
    found = {str(e["name"]): e for e in yaml.safe_load(path.read_text("utf-8"))[kind]}
    return found[name]


def test_labels_drop_the_prefix_and_synonyms_keep_the_name(drafted: tuple[Path, Path]) -> None:
    _, layer = drafted
    segment = _element(layer, "dimensions", "customer_c_mktsegment")
    assert {"customer mktsegment", "c_mktsegment", "customer c_mktsegment"} <= set(
        map(str, segment["synonyms"])  # type: ignore[call-overload]
    )
    total = _element(layer, "metrics", "orders_o_totalprice_total")
    assert total["label"] == "total orders totalprice"
    assert {"total o_totalprice", "total orders o_totalprice"} <= set(
        map(str, total["synonyms"])  # type: ignore[call-overload]
    )


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "customer count by customer c_mktsegment",
            "SELECT c_mktsegment, count(*) FROM customer GROUP BY 1",
        ),
        (
            "What is the total orders o_totalprice in 1996?",
            "SELECT sum(o_totalprice) FROM orders "
            "WHERE o_orderdate >= DATE '1996-01-01' AND o_orderdate < DATE '1997-01-01'",
        ),
    ],
)
def test_the_column_named_as_written_is_answered(
    drafted: tuple[Path, Path], question: str, sql: str
) -> None:
    db, layer = drafted
    with duckdb.connect(str(db), read_only=True) as con:
        want = sorted(tuple(r) for r in con.execute(sql).fetchall())
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(layer)).ask(question)
    assert verdict.behaviour == "answer", (question, list(verdict.reasons))
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert sorted(tuple(r) for r in verdict.candidate.result.rows) == want
