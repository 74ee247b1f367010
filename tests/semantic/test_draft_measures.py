"""What the drafter makes a measure, a dimension or leaves out (Spider slice, drafted as a new
user would): never a sum or an average of identifiers (pets_1 Student.Advisor was drafted as
"average Advisor"); quantities by their name even when their few values look like codes
(Student.Age, Pets.pet_age); a name column as an open label dimension (stadium.Name); every
column left out named in a comment; a table's row count named by its noun ("how many cars")."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
import yaml

from assay.catalog import CAPS, Tier
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.semantic._draft import table_noun
from tests.semantic._helpers import drafted_spider, spider_db

SPIDER = ("car_1", "concert_singer", "pets_1")


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    out = {}
    for name in SPIDER:
        db, layer = drafted_spider(name, tmp_path_factory)
        out[name] = (db, layer.read_text(encoding="utf-8"))
    return out


def _metrics(text: str) -> dict[str, dict[str, object]]:
    return {m["name"]: m for m in yaml.safe_load(text)["metrics"]}


def test_identifiers_are_never_measured(drafted: dict[str, tuple[Path, str]]) -> None:
    _, text = drafted["pets_1"]
    expressions = [str(m["expression"]) for m in _metrics(text).values()]
    assert not [e for e in expressions if "Advisor" in e or "StuID" in e or "PetID" in e]
    assert "# Student.Advisor left out: its name (advisor) says an identifier" in text
    assert "# Has_Pet.StuID left out: a key (joins through it), an identifier" in text
    _, cars = drafted["car_1"]
    assert not [
        e for e in map(str, (m["expression"] for m in _metrics(cars).values())) if "Id" in e
    ]


@pytest.mark.parametrize(
    ("name", "column"),
    [("pets_1", "Student.Age"), ("pets_1", "Pets.pet_age"), ("concert_singer", "stadium.Capacity")],
    ids=["student-age", "pet-age", "capacity"],
)
def test_quantities_get_their_statistics_capped_by_their_evidence(
    drafted: dict[str, tuple[Path, str]], name: str, column: str
) -> None:
    _, text = drafted[name]
    found = {
        str(m["expression"]): m for m in _metrics(text).values() if column in str(m["expression"])
    }
    assert {f"{fn}({column})" for fn in ("avg", "max", "min")} <= set(found)
    for metric in found.values():
        # admitted on its name alone (Student.Age read as categorical_enum, pet_age as
        # surrogate_key): the lowest tier, its confidence at that tier's cap (Rosetta 4.3)
        assert metric["tier"] == "INTERPRETER_ONLY"
        assert metric["confidence"] == CAPS[Tier.INTERPRETER_ONLY]


def test_every_column_is_drafted_or_named_as_left_out(
    drafted: dict[str, tuple[Path, str]],
) -> None:
    for name in SPIDER:
        db, text = drafted[name]
        layer = yaml.safe_load(text)
        used = " ".join(str(m["expression"]) for m in layer["metrics"])
        used += " " + " ".join(str(d["column"]) for d in layer["dimensions"])
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            tables = [
                r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            columns = [(t, r[1]) for t in tables for r in con.execute(f"PRAGMA table_info('{t}')")]
        for table, column in columns:
            ref = f"{table}.{column}"
            named = re.search(rf"# .*\b{re.escape(ref)}\b.*left out", text) or re.search(
                rf"# left out, every value NULL.*\b{re.escape(ref)}\b", text
            )
            assert ref in used or named, f"{name}: {ref} neither drafted nor named"


def test_a_name_column_is_an_open_label_dimension(drafted: dict[str, tuple[Path, str]]) -> None:
    _, text = drafted["concert_singer"]
    dims = {d["column"]: d for d in yaml.safe_load(text)["dimensions"]}
    assert "stadium.Name" in dims and "values" not in dims["stadium.Name"]
    assert dims["stadium.Name"]["tier"] == "INTERPRETER_ONLY"
    assert "# stadium.Location left out: 9 distinct values" in text


def test_table_nouns() -> None:
    assert [table_noun(t) for t in ("Pets", "cars_data", "model_list", "Has_Pet", "city")] == [
        "pets",
        "cars",
        "models",
        None,
        "cities",
    ]


@pytest.mark.parametrize(
    ("name", "question", "sql"),
    [
        ("car_1", "how many cars are there", "SELECT count(*) FROM cars_data"),
        ("pets_1", "how many pets are there", "SELECT count(*) FROM Pets"),
        ("pets_1", "average age of students", "SELECT avg(Age) FROM Student"),
    ],
    ids=["cars", "pets", "student-age"],
)
def test_drafted_words_are_read(
    tmp_path_factory: pytest.TempPathFactory, name: str, question: str, sql: str
) -> None:
    db, path = drafted_spider(name, tmp_path_factory)
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask(question)
    assert verdict.behaviour == "answer" and verdict.candidate is not None, verdict.reasons
    assert verdict.candidate.result is not None
    with sqlite3.connect(f"file:{spider_db(name)}?mode=ro", uri=True) as con:
        expected = con.execute(sql).fetchall()
    assert [tuple(r) for r in verdict.candidate.result.rows] == [tuple(r) for r in expected]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("how many dogs are there", "SELECT count(*) FROM Pets WHERE PetType = 'dog'"),
        ("How many cats?", "SELECT count(*) FROM Pets WHERE PetType = 'cat'"),
    ],
    ids=["dogs", "cats"],
)
def test_how_many_of_a_value_counts_its_tables_rows(
    tmp_path_factory: pytest.TempPathFactory, question: str, sql: str
) -> None:
    """ "how many dogs are there": a dog is a pet type's value and names no metric; the rows
    counted are the pets (the one table holding the value, its one row count), filtered by
    it. It listed "average Advisor" among the closest metrics before."""
    db, path = drafted_spider("pets_1", tmp_path_factory)
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask(question)
    assert verdict.behaviour == "answer" and verdict.candidate is not None, verdict.reasons
    assert verdict.candidate.result is not None
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        expected = con.execute(sql).fetchall()
    assert [tuple(r) for r in verdict.candidate.result.rows] == [tuple(r) for r in expected]


def test_a_value_with_words_left_over_is_not_counted(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """ "number of dogs heavier than 10": 'heavier' is read as nothing, so the count is not
    taken (fail closed); the closest metrics start with the count of the pets."""
    db, path = drafted_spider("pets_1", tmp_path_factory)
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask("number of dogs heavier than 10")
    assert verdict.candidate is None or verdict.action == "withhold"
    message = str(verdict.provenance.get("message", ""))
    assert "the closest metrics are Pets count" in message, message
    assert "Advisor" not in message
