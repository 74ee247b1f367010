"""Outside tryout 32 (a TPC-DS tester): groups asked kept in other words ("listing classes
with no sales as 0", "show 0 for classes without sales"), read as an exclusion before. Each
is tested on a small schema of our own (agreed22's owners and pets)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored
from tests.checks.test_agreed22_counts import INNER, LEFT, TABLES

AS_ZERO = "How many pets does each owner have, listing owners with no pets as 0?"
ZERO_FOR = "How many pets does each owner have? Show 0 for owners without pets."
LISTED_NONE = "How many pets does each owner have, listing owners with none?"
# the 0 said in the SQL too (a bare count(p.pet_id) draws literal_missing for the "0")
LEFT_COALESCED = LEFT.replace("count(p.pet_id)", "coalesce(count(p.pet_id), 0)")


@pytest.fixture(scope="module")
def vet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("tryout32a") / "vet.duckdb"
    con = duckdb.connect(str(path))
    con.execute(TABLES)
    con.close()
    return path


@pytest.mark.parametrize("question", [AS_ZERO, ZERO_FOR, LISTED_NONE])
def test_groups_asked_kept_and_kept_are_shown(vet: Path, tmp_path: Path, question: str) -> None:
    """C2: "listing classes with no sales as 0" with a LEFT JOIN, withheld as
    negation_missing before."""
    verdict = scored(tmp_path, vet, question, *[LEFT_COALESCED] * 5)
    assert "signal.negation_missing" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


@pytest.mark.parametrize("question", [AS_ZERO, ZERO_FOR, LISTED_NONE])
def test_groups_asked_kept_and_dropped_are_withheld_as_dropped(
    vet: Path, tmp_path: Path, question: str
) -> None:
    """W2 and P4: an inner join drops the groups asked kept; withheld for that reason, not as
    a negation missing."""
    verdict = scored(tmp_path, vet, question, *[INNER] * 5)
    assert "signal.empty_groups_dropped" in codes(verdict)
    assert "signal.negation_missing" not in codes(verdict)
    assert verdict["action"] == "withhold"


def test_an_exclusion_still_needs_a_negation(vet: Path, tmp_path: Path) -> None:
    verdict = scored(tmp_path, vet, "Which owners have no pets?", *[INNER] * 5)
    assert "signal.negation_missing" in codes(verdict)


MOST_UNITS = "Which 3 owners bought the most units?"
BY_ROWS = (
    "SELECT o.name FROM owners o JOIN visits v ON v.id_owner = o.owner_id "
    "GROUP BY o.owner_id, o.name ORDER BY count(*) DESC LIMIT 3"
)
BY_UNITS = BY_ROWS.replace("count(*)", "sum(v.quantity)")


def test_most_units_ranked_by_rows_is_withheld(vet: Path, tmp_path: Path) -> None:
    """X6: "the 5 categories that sold the most units" ranked by ``count(*)``, sales lines,
    shown before."""
    verdict = scored(tmp_path, vet, MOST_UNITS, *[BY_ROWS] * 5)
    assert "signal.aggregate_mismatch" in codes(verdict)
    assert verdict["action"] == "withhold"


def test_most_units_ranked_by_quantity_is_clear(vet: Path, tmp_path: Path) -> None:
    verdict = scored(tmp_path, vet, MOST_UNITS, *[BY_UNITS] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict)


OWNERS_WITH_PETS = "How many owners have a pet?"
PAIRS = "SELECT count(*) AS owners FROM (SELECT owner_id, kind FROM pets GROUP BY owner_id, kind) t"
ONE_KEY = "SELECT count(*) AS owners FROM (SELECT owner_id FROM pets GROUP BY owner_id) t"
ATTRIBUTE = (
    "SELECT count(*) AS owners FROM (SELECT p.owner_id, o.name FROM pets p JOIN owners o "
    "ON o.owner_id = p.owner_id GROUP BY p.owner_id, o.name) t"
)


def test_a_count_of_key_pairs_is_withheld(vet: Path, tmp_path: Path) -> None:
    """X3: "how many customers" as count(*) over groups of customer and ticket, shown
    before."""
    verdict = scored(tmp_path, vet, OWNERS_WITH_PETS, *[PAIRS] * 5)
    found = [f for f in verdict["findings"] if f["code"] == "signal.aggregate_mismatch"]
    assert found and "owner_id and kind together" in found[0]["message"], codes(verdict)
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize("right", [ONE_KEY, ATTRIBUTE])
def test_a_count_of_one_key_or_its_attribute_is_clear(
    vet: Path, tmp_path: Path, right: str
) -> None:
    verdict = scored(tmp_path, vet, OWNERS_WITH_PETS, *[right] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict)


def test_an_inner_join_inside_a_left_joined_subquery_keeps_the_groups(
    vet: Path, tmp_path: Path
) -> None:
    """The groups come from the outer LEFT JOIN; the inner join of the totals drops none."""
    sql = (
        "SELECT o.name, coalesce(t.n, 0) AS pets FROM owners o LEFT JOIN (SELECT o2.owner_id, "
        "count(*) AS n FROM pets p JOIN owners o2 ON p.owner_id = o2.owner_id "
        "GROUP BY o2.owner_id) t ON t.owner_id = o.owner_id"
    )
    verdict = scored(tmp_path, vet, ZERO_FOR, *[sql] * 5)
    assert "signal.empty_groups_dropped" not in codes(verdict)
