"""Score known-right answers as if five samples agreed on them, through the whole ``assay score``
path, and list every one not shown: with agreement at 1, only the question-SQL checks and the
guard can warn or withhold, so each line is a check (or guard) firing on a right answer.

Usage:
    .venv/bin/python scripts/scan_agreed.py [--wrong] [--sets spider]

Two sets from ../shared/data (each skipped when absent), labelled as ``scan_conditions.py``
labels them but with the benchmark's execution match (columns in any order, rows in order when
the gold SQL orders them):
- the Spider slice: the gold SQL and the six systems' answers;
- InterCode-SQL trajectories: every distinct SELECT the agents ran on the slice's questions.
``--sets`` names the sets to run (both by default; InterCode's 6,000 answers take an hour on
two shared cores, the slice's 1,200 about twenty minutes). ``--wrong`` also counts the wrong
answers' actions (what the checks catch). The Spider slice was looked at while the checks were
built (tuned on); InterCode was only scanned.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from assay.bench.datasets import execution_match
from assay.connectors import PooledConnector, connect
from assay.errors import ExecutionError
from assay.generators import SampleModel, SampleRecord
from assay.pipeline import Scorer
from assay.scoring import DEFAULT_RULE
from assay.types import Result

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
SPIDER = SHARED / "spider-slice"
K = 5


Answer = tuple[str, str, str, str, str]  # set, db id, question, gold SQL, SQL


def _spider() -> list[Answer]:
    """The slice's gold SQL and its systems' answers, each distinct SQL once a question."""
    questions = SPIDER / "questions.jsonl"
    out = []
    for line in questions.read_text().splitlines() if questions.exists() else []:
        r = json.loads(line)
        for sql in dict.fromkeys([r["gold_sql"], *r["predictions"].values()]):
            out.append(("spider", r["db_id"], r["question"], r["gold_sql"], sql))
    return out


def _intercode() -> list[Answer]:
    """Every distinct SELECT the InterCode agents ran, once a task."""
    tasks_file = SHARED / "intercode-sql" / "tasks.jsonl"
    tasks = {}
    for line in tasks_file.read_text().splitlines() if tasks_file.exists() else []:
        task = json.loads(line)
        tasks[task["task_id"]] = task
    out = []
    seen: set[tuple[int, str]] = set()
    for path in sorted((SHARED / "intercode-sql" / "trajectories").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            run = json.loads(line)
            task = tasks.get(run.get("task_id"))
            for sql in run["turn_history"]["actions"] if task is not None else []:
                if not isinstance(sql, str) or not sql.strip().lower().startswith("select"):
                    continue
                if (task["task_id"], sql) not in seen:
                    seen.add((task["task_id"], sql))
                    out.append(("intercode", task["db"], task["query"], task["gold"], sql))
    return out


def _run(connector: PooledConnector, sql: str) -> Result | None:
    try:  # an agent's exploratory cross join can run for minutes: no labelled answer
        return connector.execute(sql, time_limit_ms=5_000, max_rows=100_000)
    except ExecutionError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="count wrong answers' actions too")
    parser.add_argument(
        "--sets", nargs="+", default=["spider", "intercode"], choices=["spider", "intercode"]
    )
    args = parser.parse_args()
    wrong_too = args.wrong
    answers = [
        *(_spider() if "spider" in args.sets else ()),
        *(_intercode() if "intercode" in args.sets else ()),
    ]
    connectors: dict[str, PooledConnector] = {}
    counts: Counter[str] = Counter()
    golds: dict[tuple[str, str], Result | None] = {}
    with Scorer.named(DEFAULT_RULE) as scorer:
        for n, (name, db_id, question, gold_sql, sql) in enumerate(answers):
            db = str(SPIDER / "database" / db_id / f"{db_id}.sqlite")
            if not Path(db).exists():
                continue
            connector = connectors.setdefault(db, connect(db))
            if (db_id, question) not in golds:
                golds[(db_id, question)] = _run(connector, gold_sql)
            gold = golds[(db_id, question)]
            got = _run(connector, sql)
            if gold is None or got is None:
                continue
            ordered = "order by" in gold_sql.lower()
            right = execution_match(gold, got, ordered)
            if not right and not wrong_too:
                continue
            record = SampleRecord(
                id=str(n),
                db=db,
                question=question,
                samples=[SampleModel(final_sql=sql)] * K,
                label=int(right),
            )
            verdict = scorer.score_line(record)
            key = f"{name} {'right' if right else 'wrong'}"
            counts[f"{key}: {verdict.action}"] += 1
            if right and verdict.action != "show":
                reasons = ", ".join(verdict.reasons) or (verdict.failure or {}).get("code", "")
                print(f"{key} {verdict.action} [{reasons}] | {question} | {sql}", flush=True)
    for connector in connectors.values():
        connector.close()
    for key, value in sorted(counts.items()):
        print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
