"""A shown list cut at the row cap says so, end to end (outside tryout 37: 1,499 groups were
written "(and 990 more)" under a 1,000-row cap nobody was told of)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from assay.cli import main


def test_ask_says_the_rows_were_cut_and_how_to_get_them_all(wrb: Path) -> None:
    args = ["--db", str(wrb / "shop.duckdb"), "--semantic", str(wrb / "shop.yaml")]
    question = "number of orders by day in 2023"
    cut = CliRunner().invoke(main, ["ask", question, *args, "--max-rows", "5"])
    assert cut.exit_code == 0, cut.output
    said = re.search(r"the result was cut at the row cap, ([\d,]+) rows in all", cut.output)
    assert said is not None, cut.output
    assert "raise --max-rows or ASSAY_MAX_ROWS to get them all)." in cut.output
    assert "truncated at the row cap; raise --max-rows or ASSAY_MAX_ROWS" in cut.output
    whole = CliRunner().invoke(main, ["ask", question, *args])
    assert whole.exit_code == 0, whole.output
    assert "cut at the row cap" not in whole.output
    # the count said is every row there is: the whole answer lists that many
    shown = re.search(r"\(5 of (\d+) rows", whole.output)
    assert shown is not None and shown.group(1) == said.group(1).replace(",", "")
