"""Outside tryout 36 (the Snowflake Intelligence guide's data): "For each product category, how
many social media mentions did it get?" as the distinct categories of products (a CTE or a
derived table) inner joined to the mentions gives one category of four, shown at 1.00; the
right LEFT JOIN was withheld as a sum fanned out (the empty row of each category with none
counted as a repeat). Tested on a small schema of our own with the guide's shape."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored

TABLES = """
CREATE TABLE products (product_id INTEGER, product_name VARCHAR, category VARCHAR);
CREATE TABLE social_media_mentions (date DATE, category VARCHAR, platform VARCHAR,
    mentions INTEGER);
INSERT INTO products SELECT i, 'Item ' || i,
    ['Fitness Wear', 'Casual Wear', 'Accessories', 'Footwear'][1 + i % 4] FROM range(0, 20) t(i);
-- only Fitness Wear is mentioned; each day on three platforms
INSERT INTO social_media_mentions SELECT DATE '2025-05-01' + (i // 3)::INTEGER, 'Fitness Wear',
    ['Instagram', 'Twitter', 'Facebook'][1 + i % 3], 5 + i % 7 FROM range(0, 30) t(i);
"""

EACH = "For each product category, how many social media mentions did it get?"
CTE = (
    "WITH cats AS (SELECT DISTINCT category FROM products) SELECT c.category, "
    "sum(m.mentions) AS mentions FROM cats c JOIN social_media_mentions m "
    "ON m.category = c.category GROUP BY c.category"
)
DERIVED = (
    "SELECT p.category, sum(m.mentions) AS mentions FROM (SELECT DISTINCT category "
    "FROM products) p JOIN social_media_mentions m ON m.category = p.category "
    "GROUP BY p.category"
)
# unqualified columns, joined USING: the categories read from the list, as the engine does
USING = (
    "SELECT category, sum(mentions) AS mentions FROM (SELECT category FROM products "
    "GROUP BY category) JOIN social_media_mentions USING (category) GROUP BY category"
)
LEFT = (
    "SELECT p.category, coalesce(sum(m.mentions), 0) AS mentions FROM (SELECT DISTINCT "
    "category FROM products) p LEFT JOIN social_media_mentions m ON m.category = p.category "
    "GROUP BY p.category"
)


@pytest.fixture(scope="module")
def guide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("tryout36") / "si.duckdb"
    con = duckdb.connect(str(path))
    con.execute(TABLES)
    con.close()
    return path


@pytest.mark.parametrize(
    "question",
    [
        EACH,
        "How many social media mentions per product category?",
        "Total social media mentions by product category.",
    ],
    ids=["for-each", "per", "by"],
)
@pytest.mark.parametrize("wrong", [CTE, DERIVED, USING], ids=["cte", "derived", "using"])
def test_a_list_of_every_group_inner_joined_is_withheld(
    guide: Path, tmp_path: Path, question: str, wrong: str
) -> None:
    verdict = scored(tmp_path, guide, question, *[wrong] * 5)
    found = [f for f in verdict["findings"] if f["code"] == "signal.empty_groups_dropped"]
    assert found and "never shows 0" in found[0]["message"], codes(verdict)
    assert verdict["action"] == "withhold"


def test_a_list_of_every_group_left_joined_is_shown(guide: Path, tmp_path: Path) -> None:
    """The right answer: each category once, the three with none at 0."""
    verdict = scored(tmp_path, guide, EACH, *[LEFT] * 5)
    assert "signal.sum_fanned_out" not in codes(verdict)
    assert "signal.empty_groups_dropped" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


@pytest.mark.parametrize(
    "question",
    [
        "Which product categories got social media mentions, and how many?",
        "Among product categories with social media mentions, how many mentions did each get?",
    ],
    ids=["which", "among"],
)
def test_groups_with_mentions_asked_inner_joined_are_shown(
    guide: Path, tmp_path: Path, question: str
) -> None:
    verdict = scored(tmp_path, guide, question, *[CTE] * 5)
    assert "signal.empty_groups_dropped" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_list_from_the_counted_table_itself_is_left_alone(guide: Path, tmp_path: Path) -> None:
    """The categories listed from the mentions themselves all have mentions: the inner join
    drops none."""
    sql = CTE.replace("FROM products", "FROM social_media_mentions")
    verdict = scored(tmp_path, guide, EACH, *[sql] * 5)
    assert "signal.empty_groups_dropped" not in codes(verdict)


def test_a_plain_table_grouped_needs_the_words(guide: Path, tmp_path: Path) -> None:
    """``products JOIN social_media_mentions`` grouped by category: Spider's reading of "for
    each" (no list of the groups built), left to the words "include those with none"."""
    sql = (
        "SELECT p.category, count(DISTINCT m.date) AS days FROM products p JOIN "
        "social_media_mentions m ON m.category = p.category GROUP BY p.category"
    )
    verdict = scored(tmp_path, guide, "On how many days was each product category mentioned?", sql)
    assert "signal.empty_groups_dropped" not in codes(verdict)
