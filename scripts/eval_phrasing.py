"""Run Assay's agent over a phrasing JSONL file and report how it read the questions.

Usage:
    .venv/bin/python scripts/eval_phrasing.py /work/phrasing-dev/shop.jsonl [...] \
        [--wrb /work/wrb] [--show-failures]

For each question: the behaviour (a shown or warned answer counts as ``answer``; a withheld one
as ``abstain``), and for answerable questions whether the rows equal those of any accepted SQL,
compared as the benchmark scorer does (``assay.bench.runner._score_task.result_equivalent``: columns
matched by content, values normalised, order ignored unless required). Reported per file:
behaviour accuracy, right-rows rate on answerable questions (a warned wrong answer counts
against it), and the count of WRONG ANSWERS SHOWN (must be zero).

Compared periods are compared by the period each row names, not by its label's text: a cell
that names a period ("Q2 2023", "FY2024", "fiscal year 2024", a date from DATE_TRUNC) stands
for the period's first day on both sides, so "Q2 2023" (the label Assay writes, as said)
equals an accepted SQL's ``DATE_TRUNC('quarter', ...)`` = 2023-04-01, and "fiscal year 2024"
equals 'FY2024'; the numbers are compared as ever. Rows right only so are counted as
``by period named`` (part of the right rows).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

from assay.bench.runner._score_task import result_equivalent
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic, parse_period
from assay.settings import load_settings
from assay.types import Result

_NAMES_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b|\bFY\s?\d\d\b", re.IGNORECASE)


def _period_start(cell: Any, layer: SemanticLayer) -> Any:
    """The first day of the period ``cell`` names, or the cell as it is."""
    if isinstance(cell, dt.datetime):
        return cell.date()
    if isinstance(cell, dt.date) or not isinstance(cell, str) or not _NAMES_A_YEAR.search(cell):
        return cell
    clock = layer.clock or dt.date.today()
    period = parse_period(cell, clock, layer.fiscal_year_start_month)
    return period.start if period is not None else cell


def _by_period_named(result: Result, layer: SemanticLayer) -> Result:
    rows = tuple(tuple(_period_start(c, layer) for c in row) for row in result.rows)
    return dataclasses.replace(result, rows=rows)


def _clarifies(task: dict[str, Any], message: str) -> bool:
    readings = task.get("readings") or []
    if len(readings) < 2:
        return True
    text = message.lower()
    hits = [any(t.lower() in text for t in r.get("tokens", [])) for r in readings]
    return sum(hits) >= 2


def evaluate(path: Path, wrb: Path, show: bool) -> dict[str, Any]:
    tasks = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    domain = tasks[0]["domain"]
    settings = load_settings()
    counts = {"n": 0, "behaviour_ok": 0, "answerable": 0, "right_rows": 0, "wrong_shown": 0}
    counts["wrong_warned"] = 0
    counts["by_period_named"] = 0
    with connect(str(wrb / f"{domain}.duckdb"), settings) as connector:
        agent = Agent(connector, load_semantic(wrb / f"{domain}.yaml"), settings)
        for task in tasks:
            counts["n"] += 1
            verdict = agent.ask(task["question"], ident=task["id"])
            behaviour = verdict.behaviour
            if behaviour == "answer" and verdict.action == "withhold":
                behaviour = "abstain"
            required = task["required"]
            ok = behaviour == required
            note = ""
            if required == "answer":
                counts["answerable"] += 1
            if behaviour == "answer":
                got = verdict.candidate.result if verdict.candidate else None
                right = named = False
                for sql in task.get("accepted_sql") or []:
                    expected = connector.execute(sql, time_limit_ms=10_000, max_rows=10_000)
                    if got is not None and result_equivalent(expected, got, task["ordered"]):
                        right = True
                    elif got is not None and result_equivalent(
                        _by_period_named(expected, agent.layer),
                        _by_period_named(got, agent.layer),
                        task["ordered"],
                    ):
                        named = True
                if named and not right:
                    right = True
                    counts["by_period_named"] += 1
                if required == "answer":
                    counts["right_rows"] += right
                    ok = right
                if not right or required != "answer":
                    counts["wrong_shown" if verdict.action == "show" else "wrong_warned"] += 1
                    note = f"WRONG {verdict.action.upper()}"
            elif required == "clarify" and behaviour == "clarify":
                ok = _clarifies(task, str(verdict.provenance.get("message", "")))
            counts["behaviour_ok"] += behaviour == required
            if show and not ok:
                print(
                    f"- {task['id']} [{required} -> {behaviour}{' ' + note if note else ''}] "
                    f"{task['question']}\n    read: {verdict.provenance.get('reading', '')}\n"
                    f"    said: {str(verdict.provenance.get('message', ''))[:160]}\n"
                    f"    why: {task.get('reason', '')}\n"
                    f"    sql: {(verdict.candidate.final_sql if verdict.candidate else '')}\n"
                    f"    want: {(task.get('accepted_sql') or [''])[0]}",
                    file=sys.stderr,
                )
    return {"domain": domain, **counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--wrb", type=Path, default=Path("/work/wrb"))
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args()
    total: dict[str, int] = {}
    for path in args.files:
        row = evaluate(path, args.wrb, args.show_failures)
        for k, v in row.items():
            if k != "domain":
                total[k] = total.get(k, 0) + v
        _print(row)
    if len(args.files) > 1:
        _print({"domain": "all", **total})


def _print(row: dict[str, Any]) -> None:
    answerable = row["answerable"] or 1
    print(
        f"{row['domain']:<10} n={row['n']:>3}  behaviour {row['behaviour_ok'] / row['n']:.3f}  "
        f"right rows {row['right_rows']}/{row['answerable']} = "
        f"{row['right_rows'] / answerable:.3f} ({row['by_period_named']} by period named)  "
        f"WRONG SHOWN {row['wrong_shown']}  (wrong warned {row['wrong_warned']})"
    )


if __name__ == "__main__":
    main()
