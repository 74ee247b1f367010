"""``assay ask --agent`` on the Spider slice with a scripted model: one run against N runs.

What it measures: for each of the 179 questions of the Spider slice
(``../shared/data/spider-slice``: Spider 1.0 dev questions on ``car_1``, ``concert_singer`` and
``pets_1``, with six published systems' predictions), the verdict of the agent path
(``assay.pipeline.ask_agent``, default rule, no monitor) when the model answers in one turn
(``FINAL_SQL:``) with a published system's prediction, run once (``--n-samples`` absent) and
run N times (``--n-samples N``). No model is called: a stand-in endpoint (``httpx.MockTransport``)
answers each run of each question from a plan fixed before any verdict:

- ``wrong-first`` (the default; outside tryout 38's plan, which fix38d reproduced): run 1
  answers with the first prediction, in the order of ``SYSTEMS``, whose result differs from
  gold's (gold's SQL when every system is right); runs 2, 3, ... with the other systems'
  predictions in that order (cycling past six). So a single run is as wrong as the slice
  allows, and N runs vary as the six systems vary.
- ``published``: run k answers with system k's prediction (cycling).

A system with no prediction for a question answers with gold's SQL. A run whose reply the guard
refuses gets the same reply again on every turn (the stand-in repeats itself), so it ends at the
step limit, as a model that insists would.

Each verdict is set against gold's result (corrected where ``FAULTY_GOLD`` says gold answers
another question) with ``eval_spider_drafted.equivalent`` (the benchmark's result equivalence,
columns by content, rows in order when gold orders them), and put in one class: ``shown_right``,
``shown_wrong`` (action show), ``warned_right``, ``warned_wrong`` (action warn),
``withheld_right``, ``withheld_wrong`` (an answer withheld; right or wrong as its rows are), or
``no_answer`` (no run answered: withheld failures or an abstention). Reported per N: wrong
shown (show and warn), right withheld, and the accuracy of what is shown (right / shown).

Usage: .venv/bin/python scripts/eval_agent_spider.py [--n 1 5] [--plan wrong-first|published]
       [--root SPIDER_SLICE] [--out RECORDS.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_spider_drafted import (
    GOLD_MAX_ROWS,
    _corrected,
    equivalent,
)

from assay.errors import ExecutionError
from assay.types import Result, Verdict

SYSTEMS = (
    "dailsql_gpt4",
    "dinsql_gpt4",
    "codes_7b",
    "c3sql_chatgpt",
    "graphix_t5",
    "chatgpt_zeroshot",
)
CLASSES = (
    "shown_right",
    "shown_wrong",
    "warned_right",
    "warned_wrong",
    "withheld_right",
    "withheld_wrong",
    "no_answer",
)


def plan_runs(row: dict[str, Any], plan: str, is_right: Callable[[str], bool], n: int) -> list[str]:
    """The SQL each of the ``n`` runs answers with (see the module docstring).

    Example:
        >>> row = {"gold_sql": "G", "predictions": {"dailsql_gpt4": "A", "codes_7b": "C"}}
        >>> plan_runs(row, "wrong-first", lambda sql: sql != "C", 3)
        ['C', 'A', 'G']
        >>> plan_runs(row, "published", lambda sql: True, 3)
        ['A', 'G', 'C']
    """
    said = [row["predictions"].get(system) or row["gold_sql"] for system in SYSTEMS]
    if plan == "wrong-first":
        wrong = next((i for i, sql in enumerate(said) if not is_right(sql)), None)
        if wrong is None:
            order = [row["gold_sql"], *said]
        else:
            order = [said[wrong], *said[:wrong], *said[wrong + 1 :]]
    else:
        order = said
    return [order[k % len(order)] for k in range(n)]


def scripted_model(runs: list[str]) -> httpx.MockTransport:
    """A stand-in endpoint: conversation k (a request of two messages begins one) is answered
    with run k's SQL, on every turn of that conversation."""
    begun = [0]

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if len(body.get("messages", [])) <= 2:
            begun[0] += 1
        sql = runs[(begun[0] - 1) % len(runs)]
        reply = f"THOUGHT: this answers it\nFINAL_SQL: {sql}"
        choices = [{"message": {"role": "assistant", "content": reply}}] * int(body.get("n", 1))
        return httpx.Response(200, json={"choices": choices})

    return httpx.MockTransport(handler)


def classify(verdict: Verdict, gold: Result | None, ordered: bool) -> str:
    """The class of one verdict against gold's result."""
    candidate = verdict.candidate
    if verdict.behaviour != "answer" or candidate is None or verdict.failure is not None:
        return "no_answer"
    right = (
        gold is not None
        and candidate.result is not None
        and equivalent(gold, candidate.result, ordered)
    )
    which = "right" if right else "wrong"
    kind = {"show": "shown", "warn": "warned", "withhold": "withheld"}[verdict.action]
    return f"{kind}_{which}"


def evaluate(root: Path, ns: list[int], plan: str, limit: int = 0) -> list[dict[str, Any]]:
    from assay.connectors import connect
    from assay.settings import load_settings

    settings = load_settings({})
    rows = [json.loads(x) for x in (root / "questions.jsonl").read_text().splitlines() if x]
    rows = rows[:limit] if limit else rows
    records: list[dict[str, Any]] = []
    for db_id in sorted({r["db_id"] for r in rows}):
        db = root / "database" / db_id / f"{db_id}.sqlite"
        with connect(str(db), settings) as connector:
            for row in (r for r in rows if r["db_id"] == db_id):
                records.append(_one(row, db, connector, settings, ns, plan))
                print(f"{row['id']}: {records[-1]['classes']}", file=sys.stderr)
    return records


def _one(
    row: dict[str, Any], db: Path, connector: Any, settings: Any, ns: list[int], plan: str
) -> dict[str, Any]:
    from assay.generators import ChatClient, ChatEndpoint
    from assay.pipeline import ask_agent

    def run(sql: str) -> Result | None:
        try:
            return connector.execute(
                sql, time_limit_ms=settings.time_limit_ms, max_rows=GOLD_MAX_ROWS
            )
        except ExecutionError:
            return None

    gold = _corrected(row["id"], run(row["gold_sql"]), connector, settings)
    ordered = "order by" in row["gold_sql"].lower()

    def is_right(sql: str) -> bool:
        got = run(sql)
        return gold is not None and got is not None and equivalent(gold, got, ordered)

    runs = plan_runs(row, plan, is_right, max(ns))
    record: dict[str, Any] = {"id": row["id"], "db": row["db_id"], "runs": runs, "classes": {}}
    for n in ns:
        endpoint = ChatEndpoint("http://stand-in.invalid/v1", "stand-in", timeout_s=5)
        client = ChatClient(endpoint, transport=scripted_model(runs[:n]))
        try:
            verdict = ask_agent(
                row["question"], str(db), connector, settings, client, n_runs=n, ident=row["id"]
            )
            label = classify(verdict, gold, ordered)
            reasons = list(verdict.reasons)
        except Exception as exc:  # an exception is a failure of the path, recorded
            label, reasons = "no_answer", [f"exception.{type(exc).__name__}: {exc}"]
        finally:
            client.close()
        record["classes"][str(n)] = label
        record.setdefault("reasons", {})[str(n)] = reasons
    return record


def report(records: list[dict[str, Any]], ns: list[int]) -> str:
    lines = [f"{'class':<16}" + "".join(f"{'N=' + str(n):>8}" for n in ns)]
    counts = {n: Counter(r["classes"][str(n)] for r in records) for n in ns}
    for name in CLASSES:
        lines.append(f"{name:<16}" + "".join(f"{counts[n][name]:>8}" for n in ns))
    lines.append("")
    for n in ns:
        c = counts[n]
        right = c["shown_right"] + c["warned_right"]
        shown = right + c["shown_wrong"] + c["warned_wrong"]
        accuracy = f"{right / shown:.1%} ({right}/{shown})" if shown else "n/a (nothing shown)"
        lines.append(
            f"N={n}: wrong shown {c['shown_wrong'] + c['warned_wrong']} (at SHOW "
            f"{c['shown_wrong']}), right withheld {c['withheld_right']}, no answer "
            f"{c['no_answer']}, shown accuracy {accuracy}; SHOW accuracy "
            + (
                f"{c['shown_right'] / (c['shown_right'] + c['shown_wrong']):.1%} "
                f"({c['shown_right']}/{c['shown_right'] + c['shown_wrong']})"
                if c["shown_right"] + c["shown_wrong"]
                else "n/a"
            )
        )
    return "\n".join(lines)


def main() -> int:
    from assay.bench.datasets import default_spider_root

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1, 5], help="Runs per question.")
    parser.add_argument("--plan", choices=("wrong-first", "published"), default="wrong-first")
    parser.add_argument("--root", type=Path, help="The spider-slice folder.")
    parser.add_argument("--out", type=Path, help="Records, one JSON line a question.")
    parser.add_argument("--limit", type=int, default=0, help="The first N questions only.")
    args = parser.parse_args()
    root = args.root or default_spider_root()
    if not (root / "questions.jsonl").exists():
        print(f"Error: no Spider slice at {str(root)!r}; pass --root.", file=sys.stderr)
        return 2
    records = evaluate(root, args.n, args.plan, args.limit)
    if args.out:
        args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
    print(f"plan {args.plan}, {len(records)} questions")
    print(report(records, args.n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
