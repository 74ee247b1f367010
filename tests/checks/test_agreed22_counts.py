"""agreed22's counts (a development set): groups "with none" an inner join drops
(``_empty_groups``), a count per group that repeats the counted things (``_grouped_repeats``)
and a total of a measure counted (``_counted_measure``). Each was shown at 1.00, five samples
agreeing; each is tested on a small schema of our own, and on its record where its data is
here (the Spider slice, MetricFlow's tutorial seeds)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import sqlglot

from assay.catalog import Catalog, ColumnInfo, TableInfo
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear
from tests.semantic.test_import_metricflow import TUTORIAL

TABLES = """
CREATE TABLE owners (owner_id INTEGER PRIMARY KEY, name VARCHAR);
CREATE TABLE pets (pet_id INTEGER PRIMARY KEY, owner_id INTEGER, kind VARCHAR);
CREATE TABLE visits (id_visit INTEGER PRIMARY KEY, id_pet INTEGER, id_owner INTEGER,
    id_bill INTEGER, amount DOUBLE, quantity INTEGER);
INSERT INTO owners SELECT i, 'Owner ' || i FROM range(1, 11) t(i);
-- owners 9 and 10 have no pet
INSERT INTO pets SELECT i, 1 + i % 8, ['cat', 'dog'][1 + i % 2] FROM range(1, 25) t(i);
-- a bill spans three visits
INSERT INTO visits SELECT i, 1 + i % 24, 1 + (i // 3) % 8, i // 3, 10.0 + i, 1 + i % 4
    FROM range(0, 60) t(i);
"""

WITH_NONE = "How many pets does each owner have? Include owners with none."
LEFT = (
    "SELECT o.name, count(p.pet_id) AS pets FROM owners o LEFT JOIN pets p "
    "ON p.owner_id = o.owner_id GROUP BY o.owner_id, o.name"
)
INNER = LEFT.replace("LEFT JOIN", "JOIN")
LEFT_STAR = LEFT.replace("count(p.pet_id)", "count(*)")
# the child table first, the owners joined RIGHT: every owner kept
RIGHT_JOINED = (
    "SELECT o.name, count(p.pet_id) AS pets FROM pets p RIGHT JOIN owners o "
    "ON p.owner_id = o.owner_id GROUP BY o.owner_id, o.name"
)
# a LEFT JOIN whose WHERE on the pets drops the owners with none again
LEFT_FILTERED = LEFT.replace("GROUP BY", "WHERE p.kind = 'cat' GROUP BY")
CORRELATED = (
    "SELECT o.name, (SELECT count(*) FROM pets p WHERE p.owner_id = o.owner_id) AS pets "
    "FROM owners o"
)


@pytest.fixture(scope="module")
def vet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("agreed22") / "vet.duckdb"
    con = duckdb.connect(str(path))
    con.execute(TABLES)
    con.close()
    return path


@pytest.mark.parametrize(
    "question",
    [
        WITH_NONE,
        "How many concerts has each stadium hosted, including stadiums that have hosted none?",
        "List each owner's number of pets, even those with no pets.",
    ],
)
def test_asks_for_empty_groups(question: str) -> None:
    from assay.checks._empty_groups import asks_for_empty_groups  # absent before agreed22

    assert asks_for_empty_groups(question)


@pytest.mark.parametrize(
    "question",
    ["How many pets does each owner have?", "Which owners have no pets?"],
)
def test_does_not_ask_for_empty_groups(question: str) -> None:
    from assay.checks._empty_groups import asks_for_empty_groups

    assert not asks_for_empty_groups(question)


@pytest.mark.parametrize(
    ("wrong", "said"),
    [(INNER, "never shows 0"), (LEFT_STAR, "count(*)"), (LEFT_FILTERED, "never shows 0")],
)
def test_groups_with_none_dropped_are_withheld(
    vet: Path, tmp_path: Path, wrong: str, said: str
) -> None:
    verdict = scored(tmp_path, vet, WITH_NONE, *[wrong] * 5)
    found = [f for f in verdict["findings"] if f["code"] == "signal.empty_groups_dropped"]
    assert found and said in found[0]["message"], codes(verdict)
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize("right", [LEFT, RIGHT_JOINED, CORRELATED])
def test_groups_with_none_kept_are_shown(vet: Path, tmp_path: Path, right: str) -> None:
    verdict = scored(tmp_path, vet, WITH_NONE, *[right] * 5)
    assert "signal.empty_groups_dropped" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def test_an_inner_join_is_right_when_none_is_not_asked(vet: Path, tmp_path: Path) -> None:
    question = "How many pets does each owner have?"
    verdict = scored(tmp_path, vet, question, *[INNER] * 5)
    assert "signal.empty_groups_dropped" not in codes(verdict)


def test_bills_counted_per_visit_are_withheld(vet: Path, tmp_path: Path) -> None:
    """A bill spans three visits: visits counted where bills are asked."""
    case = (
        "bills",
        vet,
        "How many bills does each owner have?",
        "SELECT id_owner, count(*) FROM visits GROUP BY id_owner",
        "SELECT id_owner, count(DISTINCT id_bill) FROM visits GROUP BY id_owner",
        "signal.aggregate_mismatch",
    )
    wrong_withheld_right_clear(tmp_path, case)


def test_pets_counted_once_per_visit_are_withheld(vet: Path, tmp_path: Path) -> None:
    """A join into the visits repeats each pet once per visit of it."""
    case = (
        "pets",
        vet,
        "How many pets does each owner have?",
        "SELECT o.name, count(*) FROM owners o JOIN pets p ON p.owner_id = o.owner_id "
        "JOIN visits v ON v.id_pet = p.pet_id GROUP BY o.owner_id, o.name",
        "SELECT o.name, count(*) FROM owners o JOIN pets p ON p.owner_id = o.owner_id "
        "GROUP BY o.owner_id, o.name",
        "signal.aggregate_mismatch",
    )
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)


def test_a_count_of_rows_each_thing_once_is_shown(vet: Path, tmp_path: Path) -> None:
    """Each visit is one row of visits: its key counts as many as the rows, so nothing fires."""
    question = "How many visits does each owner have?"
    sql = "SELECT id_owner, count(*) FROM visits GROUP BY id_owner"
    verdict = scored(tmp_path, vet, question, *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


def test_total_quantity_counted_is_withheld(vet: Path, tmp_path: Path) -> None:
    case = (
        "quantity",
        vet,
        "What total quantity was recorded over all visits?",
        "SELECT count(quantity) AS total_quantity FROM visits",
        "SELECT sum(quantity) AS total_quantity FROM visits",
        "signal.aggregate_mismatch",
    )
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)


SHIPPED = "What total quantity did we ship?"
LINES = Catalog(
    (
        TableInfo(
            "lineitem",
            (ColumnInfo("l_quantity", "DECIMAL(15,2)"), ColumnInfo("l_comment", "VARCHAR")),
        ),
    )
)


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        ("What total quantity did we ship?", "SELECT count(l_quantity) FROM lineitem", True),
        (
            "What is the total number of line items?",
            "SELECT count(l_quantity) FROM lineitem",
            False,
        ),
        (
            "What total quantity did we ship?",
            "SELECT count(DISTINCT l_quantity) FROM lineitem",
            False,
        ),
        ("What total comment did we ship?", "SELECT count(l_comment) FROM lineitem", False),
        (
            "What total quantity did we ship, and in how many lines?",
            "SELECT sum(l_quantity), count(l_quantity) FROM lineitem",
            False,
        ),
    ],
)
def test_measure_counted(question: str, sql: str, fires: bool) -> None:
    from assay.checks._counted_measure import measure_counted  # absent before agreed22

    tree = sqlglot.parse_one(sql)
    assert (measure_counted(question, tree, LINES) is not None) is fires


# The records themselves, where their data is here.
RECORDS = [
    (
        "h22_s10",
        "concert_singer",
        "How many concerts has each stadium hosted, including stadiums that have hosted none?",
        "SELECT s.Name, count(*) AS concerts FROM stadium s JOIN concert c "
        "ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name",
        "SELECT s.Name, count(c.concert_ID) FROM stadium s LEFT JOIN concert c "
        "ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name",
        "signal.empty_groups_dropped",
    ),
    (
        "h22_s04",
        "car_1",
        "How many models does each car maker have? Give the makers' full names.",
        "SELECT m.FullName, count(*) AS models FROM car_makers m JOIN model_list l "
        "ON l.Maker = m.Id JOIN car_names n ON n.Model = l.Model GROUP BY m.Id, m.FullName",
        "SELECT m.FullName, count(*) FROM car_makers m JOIN model_list l ON l.Maker = m.Id "
        "GROUP BY m.Id, m.FullName",
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", RECORDS, ids=[c[0] for c in RECORDS])
def test_spider_records(tmp_path: Path, case: tuple[str, str, str, str, str, str]) -> None:
    wrong_withheld_right_clear(tmp_path, case)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """MetricFlow's tutorial seeds, one table per CSV, as agreed22 loads them."""
    folder = TUTORIAL / "seeds"
    if not folder.exists():
        pytest.skip("the shared semantic models are absent")
    path: Path = tmp_path_factory.mktemp("seeds") / "seeds.duckdb"
    con = duckdb.connect(str(path))
    for csv in sorted(folder.glob("*.csv")):
        con.execute(f"CREATE TABLE \"{csv.stem}\" AS SELECT * FROM read_csv_auto('{csv}')")
    con.close()
    return path


SEED_RECORDS = [
    (
        "h22_c17",
        "How many customers does each region have? Include regions with none.",
        "SELECT k.region, count(c.id_customer) AS customers FROM countries_seed k "
        "JOIN customers_seed c ON c.country = k.country GROUP BY k.region",
        "SELECT k.region, count(c.id_customer) FROM countries_seed k "
        "LEFT JOIN customers_seed c ON c.country = k.country GROUP BY k.region",
        "signal.empty_groups_dropped",
    ),
    (
        "h22_c19",
        "How many orders has each customer placed?",
        "SELECT id_customer, count(*) AS orders FROM transactions_seed GROUP BY id_customer",
        "SELECT id_customer, count(DISTINCT id_order) FROM transactions_seed GROUP BY id_customer",
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", SEED_RECORDS, ids=[c[0] for c in SEED_RECORDS])
def test_seed_records(seeds: Path, tmp_path: Path, case: tuple[str, str, str, str, str]) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, seeds, question, wrong, right, code))


def test_a_count_per_group_of_the_group_key_joined_is_not_read_as_repeats(tmp_path: Path) -> None:
    """Spider's right answer: ``t2.country`` equals the group's key through the join, so its
    one value per group is no count of countries (it fired before the join was read)."""
    question = "How many countries has more than 2 car makers ?"
    sql = (
        "select count(*) from countries as t1 join car_makers as t2 on t1.countryid = "
        "t2.country group by t1.countryid having count(*) > 2"
    )
    verdict = scored(tmp_path, "car_1", question, *[sql] * 5)
    assert not [f for f in verdict["findings"] if "per group" in f["message"]], codes(verdict)
