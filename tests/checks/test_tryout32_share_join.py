"""Outside tryout 32 (TPC-DS): "What share of 2001 store net paid came from female customers?"
with ``customer_demographics`` joined inner for the gender alone: the whole loses the sales
whose customer has no demographics row (0.5153 where the share is 0.5077), shown at 1.00.
Tested on a small schema of our own with TPC-DS's shape: store sales, some with no
demographics key, their year, and the demographics."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored

TABLES = """
CREATE TABLE customer_demographics (cd_demo_sk INTEGER, cd_gender VARCHAR);
CREATE TABLE item (i_item_sk INTEGER, i_category VARCHAR);
CREATE TABLE store_sales (ss_item_sk INTEGER, ss_cdemo_sk INTEGER, ss_year INTEGER,
    ss_net_paid DOUBLE);
INSERT INTO customer_demographics SELECT i, CASE WHEN i % 2 = 0 THEN 'F' ELSE 'M' END
    FROM range(1, 11) t(i);
INSERT INTO item SELECT i, CASE WHEN i % 3 = 0 THEN 'Music' ELSE 'Books' END
    FROM range(1, 7) t(i);
-- one sale in five has no demographics key; the sales with none are the larger ones
INSERT INTO store_sales SELECT 1 + i % 6, CASE WHEN i % 5 = 0 THEN NULL ELSE 1 + i % 10 END,
    2000 + i % 2, CASE WHEN i % 5 = 0 THEN 40.0 ELSE 10.0 + i % 7 END FROM range(0, 200) t(i);
"""

SHARE = "What share of 2001 store net paid came from female customers?"
INNER = (
    "SELECT SUM(CASE WHEN cd.cd_gender = 'F' THEN ss.ss_net_paid ELSE 0 END) / "
    "SUM(ss.ss_net_paid) AS share FROM store_sales ss JOIN customer_demographics cd "
    "ON ss.ss_cdemo_sk = cd.cd_demo_sk WHERE ss.ss_year = 2001"
)
FILTERED = (
    "SELECT SUM(ss.ss_net_paid) FILTER (WHERE cd.cd_gender = 'F') / SUM(ss.ss_net_paid) "
    "FROM store_sales ss JOIN customer_demographics cd ON ss.ss_cdemo_sk = cd.cd_demo_sk "
    "WHERE ss.ss_year = 2001"
)
LEFT = INNER.replace("JOIN customer_demographics", "LEFT JOIN customer_demographics")


@pytest.fixture(scope="module")
def tpcds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("tryout32") / "tpcds.duckdb"
    con = duckdb.connect(str(path))
    con.execute(TABLES)
    con.close()
    return path


@pytest.mark.parametrize("wrong", [INNER, FILTERED], ids=["case", "filter"])
def test_a_whole_joined_inner_for_the_part_is_withheld(
    tpcds: Path, tmp_path: Path, wrong: str
) -> None:
    verdict = scored(tmp_path, tpcds, SHARE, *[wrong] * 5)
    found = [f for f in verdict["findings"] if f["code"] == "signal.share_whole_joined"]
    assert found and "20 rows of the whole" in found[0]["message"], codes(verdict)
    assert verdict["action"] == "withhold"


def test_the_whole_left_joined_is_shown(tpcds: Path, tmp_path: Path) -> None:
    verdict = scored(tmp_path, tpcds, SHARE, *[LEFT] * 5)
    assert "signal.share_whole_joined" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_whole_among_the_known_is_shown(tpcds: Path, tmp_path: Path) -> None:
    question = (
        "Among customers with known gender, what share of 2001 store net paid came from "
        "female customers?"
    )
    verdict = scored(tmp_path, tpcds, question, *[INNER] * 5)
    assert "signal.share_whole_joined" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_join_that_loses_no_row_is_shown(tpcds: Path, tmp_path: Path) -> None:
    """Every sale names its item: the inner join keeps the whole."""
    sql = (
        "SELECT SUM(CASE WHEN i.i_category = 'Music' THEN ss.ss_net_paid ELSE 0 END) / "
        "SUM(ss.ss_net_paid) AS share FROM store_sales ss JOIN item i "
        "ON ss.ss_item_sk = i.i_item_sk WHERE ss.ss_year = 2001"
    )
    question = "What share of 2001 store net paid came from Music items?"
    verdict = scored(tmp_path, tpcds, question, *[sql] * 5)
    assert "signal.share_whole_joined" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_join_the_whole_reads_is_left_alone(tpcds: Path, tmp_path: Path) -> None:
    """The WHERE reads the demographics too: the whole is the female and male sales, as
    asked."""
    sql = INNER.replace("WHERE", "WHERE cd.cd_gender IN ('F', 'M') AND")
    question = "What share of 2001 store net paid to female or male customers came from women?"
    verdict = scored(tmp_path, tpcds, question, *[sql] * 5)
    assert "signal.share_whole_joined" not in codes(verdict)
