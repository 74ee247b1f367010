"""One reader of the SQL in a model's reply, on the plain path and on the agent's: a fenced
block, a labelled field (``SQL:`` / ``FINAL_SQL:``, fenced or in backticks), or a reply that
starts with SELECT or WITH."""

from __future__ import annotations

import pytest

from assay.generators import extract_sql
from assay.pipeline._react import parse_reply

LABELLED = [
    "SQL: SELECT 1",
    "THOUGHT: one row\nSQL: SELECT 1;",
    "THOUGHT: done\nFINAL_SQL:\n```sql\nSELECT 1\n```\nThat is the query.",
    "THOUGHT: a\nSQL: `SELECT 1`",
]


@pytest.mark.parametrize(
    "reply",
    [*LABELLED, "```sql\nSELECT 1\n```", "Here it is:\n```\nSELECT 1;\n```", "SELECT 1;"],
    ids=["sql", "thought-sql", "final-fenced", "backticks", "fence", "prose-fence", "bare"],
)
def test_the_query_is_read_from_every_form_the_paths_accept(reply: str) -> None:
    assert extract_sql(reply) == "SELECT 1"


@pytest.mark.parametrize(
    "reply",
    ["THOUGHT: the data cannot say\nFINAL: null", "I'm sorry, I can't write that.", "SQL:", ""],
    ids=["final-null", "prose", "empty-field", "empty"],
)
def test_a_reply_without_a_query_has_none(reply: str) -> None:
    assert extract_sql(reply) is None


@pytest.mark.parametrize("reply", LABELLED, ids=["sql", "thought-sql", "final-fenced", "backticks"])
def test_both_paths_read_a_labelled_query_alike(reply: str) -> None:
    assert parse_reply(reply)[2] == extract_sql(reply)
