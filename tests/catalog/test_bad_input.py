"""Bad input never crashes: empty databases, empty tables, NULL, binary, odd names, wide tables."""

from __future__ import annotations

from pathlib import Path

import duckdb

from assay.catalog import FactStatus, proposals, reconstruct
from assay.connectors import connect
from assay.ledger import FactStore


def _db(path: Path, statements: list[str]) -> Path:
    con = duckdb.connect(str(path))
    for sql in statements:
        con.execute(sql)
    con.close()
    return path


def _statuses(db: Path) -> dict[tuple[str, str], FactStatus]:
    with connect(str(db)) as connector:
        found = reconstruct(connector, connector.catalog())
    with FactStore() as store:
        return {(p.subject, p.predicate): store.record(p).status for p in proposals(found)}


def test_empty_database(tmp_path: Path) -> None:
    assert _statuses(_db(tmp_path / "e.duckdb", [])) == {}


def test_empty_table_null_column_binary_and_odd_names(tmp_path: Path) -> None:
    db = _db(
        tmp_path / "b.duckdb",
        [
            'CREATE TABLE "empty table" (a INTEGER)',
            'CREATE TABLE "Ünïcode ""quoted""" ("col with space" VARCHAR, nothing INTEGER, '
            "blob BLOB)",
            'INSERT INTO "Ünïcode ""quoted""" VALUES (\'a\', NULL, \'\\xAA\'::BLOB), '
            "('b', NULL, '\\xBB'::BLOB)",
        ],
    )
    statuses = _statuses(db)
    assert statuses[("empty table", "entity")] == "undetermined"
    assert statuses[("empty table.a", "semantic_type")] == "undetermined"
    assert statuses[('Ünïcode "quoted".nothing', "semantic_type")] == "undetermined"
    assert statuses[('Ünïcode "quoted".blob', "semantic_type")] == "undetermined"


def test_a_thousand_columns(tmp_path: Path) -> None:
    cols = ", ".join(f"c{i} INTEGER" for i in range(1000))
    values = ", ".join(str(i) for i in range(1000))
    db = _db(
        tmp_path / "w.duckdb",
        [f"CREATE TABLE wide ({cols})", f"INSERT INTO wide VALUES ({values}), ({values})"],
    )
    with connect(str(db)) as connector:
        found = reconstruct(connector, connector.catalog())
    assert len(found.profile.tables[0].columns) == 1000
    assert found.profile.tables[0].columns[999].fingerprint.n_rows == 2


def test_dimension_values_read_only_closed_text_domains(tmp_path: Path) -> None:
    """An imported layer's dimensions get the values their columns hold when the domain is
    closed text (a LIMIT in the engine); every other column says why none were read."""
    from assay.catalog import dimension_values

    emails = ", ".join(f"('x', 'p{i}@example.com', {i}, 'v{i}')" for i in range(25))
    db = _db(
        tmp_path / "d.duckdb",
        [
            'CREATE TABLE t (kind VARCHAR, email VARCHAR, n INTEGER, "many values" VARCHAR, '
            "empty VARCHAR)",
            f'INSERT INTO t (kind, email, n, "many values") VALUES {emails}',
            "UPDATE t SET kind = 'y' WHERE n % 2 = 0",
        ],
    )
    refs = ["T.Kind", "t.email", "t.n", "t.many values", "t.empty", "gone.x"]
    with connect(str(db)) as connector:
        values, why = dimension_values(connector, connector.catalog(), refs)
    assert values == {"T.Kind": ("x", "y")}  # named as the layer names it, any case
    assert why == {
        "t.email": "PII (email): values are not listed",
        "t.n": "not text (integer)",
        "t.many values": "more than 20 distinct values",
        "t.empty": "every value is NULL",
        "gone.x": "not in the database",
    }
