"""Synthetic run records built by code: correct runs read real tables and get rows, wrong runs
hit errors and empty results, so a monitor has something to learn."""

from __future__ import annotations

import numpy as np

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.monitor import Run, Step

CATALOG = Catalog(
    (
        TableInfo("singer", (ColumnInfo("id", "int"), ColumnInfo("name", "text"))),
        TableInfo("concert", (ColumnInfo("id", "int"), ColumnInfo("singer_id", "int"))),
    ),
    (ForeignKey("concert", ("singer_id",), "singer", ("id",)),),
    dialect="sqlite",
)


def synthetic_runs(n: int, seed: int = 0, *, databases: int = 3) -> list[Run]:
    rng = np.random.default_rng(seed)
    runs = []
    for i in range(n):
        correct = bool(rng.random() < 0.5)
        steps = []
        for _ in range(int(rng.integers(1, 4))):
            if correct:
                steps.append(
                    Step(
                        "sql",
                        thought="look at singers",
                        sql="SELECT name FROM singer",
                        observation="[('Ann',), ('Bo',)]",
                        row_count=2,
                        n_columns=1,
                    )
                )
            else:
                steps.append(
                    Step(
                        "sql",
                        thought="guess a table",
                        sql="SELECT x FROM singers_table",
                        error="no such table: singers_table",
                    )
                )
        final_sql = "SELECT name FROM singer" if correct else "SELECT x FROM singers_table"
        steps.append(
            Step("final_sql", thought="done", sql=final_sql, row_count=2 if correct else 0)
        )
        runs.append(
            Run(
                run_id=f"r{i}",
                question=f"Which singers are there? ({i % 40})",
                database=f"db{i % databases}",
                steps=tuple(steps),
                final="answer",
                final_sql=final_sql,
                answerable=True,
                correct=correct,
                group=f"g{i % 40}",
                agent="synthetic",
            )
        )
    return runs
