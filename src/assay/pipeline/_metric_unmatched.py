"""``metric_unmatched``: a metric whose own definition reads a table some of its rows match no
row of is warned, the rows named (``cap.unmatched_rows``).

A layer join may leave rows of its left table without a partner (``unmatched: N``). The
planner joins such a table LEFT when only the metric's own expression reads it (OSI's
"customer lifetime value", ``SUM(store_sales.ss_ext_sales_price) / COUNT(DISTINCT
customer.c_customer_sk)``), so that no row of the metric's table is lost: the answer is the
definition's, but its aggregates count different rows, the N rows with no customer in the
sum and in no customer count (outside tryout 39, F1: 57,658.95 shown plainly; over the sales
of known customers, 56,385.63). docs/semantic.md says an answer through a join with unmatched
rows is warned; the check ``unmatched_rows`` warns of joins that drop rows, this one of joins
a metric reads across. Done in the pipeline from the layer alone (which tables each asked
metric reads, and the joins from its table to them), not in the checks, whose registry is
preregistered. A metric's time join into its calendar is left out (a row with no date is in
no period, by the layer's definition), and so is a join a ``cap.fan_out_in_metric`` finding
already names with its unmatched rows.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from assay.semantic import Metric, SemanticLayer
from assay.types import Finding

__all__ = ["metric_unmatched"]


def _read_tables(metric: Metric) -> list[str]:
    """The tables the metric's expression reads, other than its own, sorted."""
    tree = sqlglot.parse_one(metric.expression, read="duckdb")  # raises: fail closed
    tables = {c.table for c in tree.find_all(exp.Column) if c.table}
    return sorted(tables - {metric.table})


def metric_unmatched(
    metrics: tuple[Metric, ...], layer: SemanticLayer, findings: tuple[Finding, ...]
) -> tuple[Finding, ...]:
    """One ``cap.unmatched_rows`` per join with unmatched rows on the way from an asked metric's
    table to a table its expression reads (see the module docstring)."""
    named = {
        (str(f.evidence.get("metric")), str(f.evidence.get("column", "")).split(".")[0])
        for f in findings
        if f.code == "cap.fan_out_in_metric" and "match no" in f.message
    }
    out: list[Finding] = []
    said = {
        str(f.evidence.get("join", "")).split(" -> ")[0]
        for f in findings
        if f.code == "cap.unmatched_rows"
    }
    for metric in metrics:
        timed = metric.time_column.split(".")[0] if metric.time_column else ""
        for table in _read_tables(metric):
            if table == timed or (metric.name, table) in named:
                continue
            for join, _ in layer.join_steps(metric.table, table):
                many, one = join.tables
                if not join.unmatched or join.left in said:
                    continue
                said.add(join.left)
                out.append(
                    Finding(
                        "cap.unmatched_rows",
                        "cap",
                        f"{join.unmatched} rows of {many} have no match in {one} ({join.left} "
                        f"is NULL or names no {one} row). {metric.label} is defined as "
                        f"{metric.expression}: those rows are counted in its aggregates over "
                        f"{metric.table} but in none over {one}, so its parts are not over the "
                        f"same rows. The answer is the definition's; the {join.unmatched} rows "
                        f"may change what it means.",
                        {"join": f"{join.left} -> {join.right}", "unmatched": join.unmatched},
                    )
                )
    return tuple(out)
