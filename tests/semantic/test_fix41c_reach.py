"""A group word two roles share, asked of a count of rows that reach only one of them (outside
recheck 40, N4: "which nation had the most customers in the building segment?" and "which region
had the most customers?" were asked back, 'nation' being the customer's or the supplier's,
while a customer has no supplier). The count of the rows is read first; the group word is then
read over what those rows reach (the customer's nation). Rows that reach both roles (line items,
suppliers' own nation left undefined) stay asked back."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"

JOINED = (
    "FROM customer JOIN nation ON c_nationkey = n_nationkey "
    "JOIN region ON n_regionkey = r_regionkey"
)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_the_most_rows_by_a_role_word_only_they_reach(tpch_duckdb: Path, tmp_path: Path) -> None:
    out = tmp_path / "cube.yaml"
    args = ["semantic", "import", "--from", "cube", "--source", str(CUBE), "--db"]
    run = CliRunner().invoke(main, [*args, str(tpch_duckdb), "--out", str(out)])
    assert run.exit_code == 0, run.output
    asked = [
        (
            "which region has the most customers in the machinery segment",
            f"SELECT r_name, count(*) {JOINED} WHERE c_mktsegment = 'MACHINERY' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "which nation had the most customers in the building segment?",
            f"SELECT n_name, count(*) {JOINED} WHERE c_mktsegment = 'BUILDING' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "which region had the most customers?",
            f"SELECT r_name, count(*) {JOINED} GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
    ]
    with duckdb.connect(str(tpch_duckdb), read_only=True) as con:
        wanted = [con.sql(sql).fetchall() for _, sql in asked]
        for (_, sql), rows in zip(asked, wanted, strict=True):  # no tie for first
            second = con.sql(sql.replace("LIMIT 1", "LIMIT 2")).fetchall()
            assert second[1][1] < rows[0][1]
    with connect(str(tpch_duckdb)) as connector:
        agent = Agent(connector, load_semantic(out))
        for (question, _), rows in zip(asked, wanted, strict=True):
            verdict = agent.ask(question)
            assert verdict.candidate is not None, (question, verdict.provenance.get("message"))
            assert verdict.candidate.result is not None
            assert [tuple(r) for r in verdict.candidate.result.rows] == rows, question
        # line items reach both the customer's nation and the supplier's: asked back
        for question in (
            "which nation had the most line items?",
            "which nation has the most suppliers?",
        ):
            verdict = agent.ask(question)
            assert verdict.behaviour == "clarify", question
            assert "nation" in str(verdict.provenance.get("message")), question
