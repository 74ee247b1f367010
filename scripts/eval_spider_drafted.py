"""Assay's no-model agent on Spider's own questions, over semantic layers drafted from the data.

What it measures: for each question of the Spider slice (``../shared/data/spider-slice``:
179 Spider 1.0 dev questions on ``car_1``, ``concert_singer`` and ``pets_1``, written by
Spider's authors, none by this project), what a new user would get by running
``assay semantic init --db DB --out LAYER`` (default options, nothing edited) and then
``assay ask QUESTION --db DB --semantic LAYER`` with no model: ``assay.pipeline.Agent`` over the
drafted layer, ``model=None``. Each verdict is set against the result of Spider's gold SQL run on
the same database and put in one class:

- ``RIGHT_SHOWN`` / ``WRONG_SHOWN``: behaviour ``answer``, action ``show``, result equivalent to
  gold's or not;
- ``WARNED_RIGHT`` / ``WARNED_WRONG``: action ``warn`` (shown with a warning);
- ``CONFIRM_FIRST``: Rosetta's route ``confirm_first`` (shown, but the user is asked to confirm
  the unconfirmed facts it rests on; the action underneath is ``warn``), right or wrong in the
  record's ``equivalent``;
- ``NOT_ANSWERED``: nothing shown: behaviour ``clarify``, ``abstain`` or ``refuse``, or action
  ``withhold``; the behaviour and first reason are recorded;
- ``SYSTEM_FAILURE``: the verdict records a system failure, or ``ask`` raised (never counted as
  an abstention); ``GOLD_FAILED``: the gold SQL did not run (nothing to compare with).

Result equivalence (the rule, exactly): the benchmark scorer's ``result_equivalent``
(``assay.bench.runner``: values normalised, one NULL, numbers to four places, numeric strings as
numbers, a period key as its start date; columns matched by content, not by name; rows compared
as a multiset, or in order when the gold SQL has ``ORDER BY``, as Spider's own evaluation
decides), applied to every choice of as many of the answer's columns as gold has: the answer is
equivalent when some choice of its columns equals gold's result, so extra label columns are
allowed, a missing column is not. An answer cut at the row cap (``truncated``) is never
equivalent (its rows are not all there).

Gold known faulty: ``FAULTY_GOLD`` lists the questions whose gold SQL answers another question
(its id, why, a corrected SQL and the rows it returns as run). Those questions are scored against
the corrected rows, and reported apart under the table, each with its class against Spider's
own gold beside it, so a right answer is not counted as shown wrong and the correction stays
visible. The corrected rows are checked against the corrected SQL on every run: the script stops
if they differ.

The questions are split once, by id alone, before any is read: held-out when
``int(sha256(id).hexdigest(), 16) % 2 == 1``, dev otherwise (97 dev, 82 held-out). Nothing is
tuned on the held-out half; ``--show-failures`` and the reasons list refuse it.

Layers are drafted once per database into ``WORK/layers/DB.yaml`` and reused (``--redraft``
drafts them again and starts the records over); one JSON line per question is appended to
``WORK/SPLIT.jsonl`` as it goes, and a rerun skips the ids already there. ``--reasons N`` (dev
only) ranks the non-answers by first reason and by what gold's SQL needed (``gold_needs``, a
diagnostic read from gold after the verdict, never shown to the agent).

Usage: .venv/bin/python scripts/eval_spider_drafted.py --split dev [--work DIR] [--out FILE]
       [--show-failures] [--reasons N] [--redraft]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from assay.bench.runner import result_equivalent
from assay.types import Result, Verdict

Split = Literal["dev", "heldout"]
CLASSES = (
    "RIGHT_SHOWN",
    "WRONG_SHOWN",
    "WARNED_RIGHT",
    "WARNED_WRONG",
    "CONFIRM_FIRST",
    "NOT_ANSWERED",
    "SYSTEM_FAILURE",
    "GOLD_FAILED",
)
DATABASES = ("car_1", "concert_singer", "pets_1")
# Columns of an answer tried as gold's: C(12, k) choices at most, a few hundred for Spider's
# widest gold (4 columns); a wider answer is compared on its first 12.
MAX_ANSWER_COLUMNS = 12
GOLD_MAX_ROWS = 100_000  # every Spider gold result on these databases is far below this


@dataclass(frozen=True)
class FaultyGold:
    """A gold SQL known to answer another question: why, and the right SQL and rows as run."""

    why: str
    sql: str
    rows: tuple[tuple[Any, ...], ...]


_COUNTRIES_OVER_2_MAKERS = FaultyGold(
    why="gold groups by country and returns one count of makers per country (4, 4, 3, 5) with "
    "no outer count; the question asks how many countries: 4 (usa, germany, france, japan)",
    sql="SELECT count(*) FROM (SELECT country FROM car_makers GROUP BY country "
    "HAVING count(*) > 2)",
    rows=((4,),),
)
FAULTY_GOLD: dict[str, FaultyGold] = {
    "spider-dev-161": _COUNTRIES_OVER_2_MAKERS,  # "How many countries has more than 2 car makers"
    "spider-dev-162": _COUNTRIES_OVER_2_MAKERS,  # "... the number of countries with more than 2"
}


def split_of(question_id: str) -> Split:
    """The fixed split, by id alone.

    Example:
        >>> split_of("spider-dev-0"), split_of("spider-dev-2")
        ('dev', 'heldout')
    """
    return "heldout" if int(hashlib.sha256(question_id.encode()).hexdigest(), 16) % 2 else "dev"


def equivalent(gold: Result, got: Result, ordered: bool) -> bool:
    """Some choice of ``got``'s columns, as many as gold's, is ``result_equivalent`` to gold.

    Example:
        >>> gold = Result(("n",), ((3,),), 1)
        >>> equivalent(gold, Result(("label", "count"), (("singers", 3),), 1), ordered=False)
        True
        >>> equivalent(gold, Result(("count",), ((4,),), 1), ordered=False)
        False
    """
    n = len(gold.columns)
    if got.truncated or len(got.columns) < n or len(got.rows) != len(gold.rows):
        return False
    width = min(len(got.columns), MAX_ANSWER_COLUMNS)
    for chosen in itertools.combinations(range(width), n):
        projected = Result(
            tuple(got.columns[i] for i in chosen),
            tuple(tuple(row[i] for i in chosen) for row in got.rows),
            got.row_count,
        )
        if result_equivalent(gold, projected, ordered):
            return True
    return False


@dataclass(frozen=True)
class Outcome:
    """One question's class, with what decided it."""

    label: str
    equivalent: bool | None  # None: nothing shown, or no gold to compare with
    first_reason: str | None


def classify(verdict: Verdict, gold: Result | None, ordered: bool) -> Outcome:
    """The class of one verdict against gold's result (see the module docstring).

    Example:
        >>> from assay.types import Candidate
        >>> shown = Result(("n",), ((3,),), 1)
        >>> v = Verdict(id="q", behaviour="answer", action="show", score=0.9, rule="r",
        ...             rule_version="1", policy="p", policy_version="1",
        ...             candidate=Candidate("SELECT 3", result=shown))
        >>> classify(v, shown, ordered=False).label
        'RIGHT_SHOWN'
    """
    reason = verdict.reasons[0] if verdict.reasons else None
    if verdict.failure:
        return Outcome("SYSTEM_FAILURE", None, verdict.failure.get("code") or reason)
    if verdict.behaviour != "answer" or verdict.action == "withhold":
        return Outcome("NOT_ANSWERED", None, reason or f"behaviour.{verdict.behaviour}")
    if gold is None:
        return Outcome("GOLD_FAILED", None, reason)
    candidate = verdict.candidate
    result = candidate.result if candidate is not None else None
    same = result is not None and equivalent(gold, result, ordered)
    if verdict.route == "confirm_first":
        return Outcome("CONFIRM_FIRST", same, reason)
    if verdict.action == "show":
        return Outcome("RIGHT_SHOWN" if same else "WRONG_SHOWN", same, reason)
    return Outcome("WARNED_RIGHT" if same else "WARNED_WRONG", same, reason)


def gold_needs(sql: str) -> str:
    """The most demanding construct gold's SQL uses, first of an ordered list: a diagnostic of
    what a non-answer would have needed (read from gold, dev only; the agent never sees it).

    Example:
        >>> gold_needs("SELECT name FROM singer ORDER BY age LIMIT 1")
        'top row (ORDER BY .. LIMIT)'
        >>> gold_needs("SELECT count(*) FROM pets WHERE weight > 10")
        'comparison filter (<, >, BETWEEN, LIKE)'
    """
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    if isinstance(tree, exp.SetOperation):
        return "set operation (EXCEPT, INTERSECT, UNION)"
    if len(list(tree.find_all(exp.Select))) > 1:
        return "nested query"
    if tree.args.get("order") and tree.args.get("limit"):
        return "top row (ORDER BY .. LIMIT)"
    if tree.args.get("having"):
        return "group filter (HAVING)"
    outer = tree.expressions if isinstance(tree, exp.Select) else []
    if not any(e.find(exp.AggFunc) for e in outer):
        return "rows listed (no aggregate)"
    where, group = tree.args.get("where"), tree.args.get("group")
    columns = [c.name.lower() for part in (where, group) if part for c in part.find_all(exp.Column)]
    if "year" in columns:
        return "integer year column as a period"
    comparisons = (exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between, exp.Like)
    if where and where.find(*comparisons):
        return "comparison filter (<, >, BETWEEN, LIKE)"
    if any(e.find(exp.Avg, exp.Min, exp.Max) for e in outer):
        return "average, minimum or maximum"
    if tree.find(exp.Distinct):
        return "count distinct"
    if tree.args.get("joins"):
        return "join"
    if group:
        return "count or total by group"
    return "equality filter" if where else "plain count or total"


def questions(root: Path, split: Split) -> Iterator[dict[str, Any]]:
    """The split's questions; the other half is dropped on its id before anything else."""
    path = root / "questions.jsonl"
    if not path.exists():
        raise SystemExit(f"Error: no Spider slice at {str(root)!r}; pass --root SPIDER_SLICE_DIR.")
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if split_of(row["id"]) == split:
                yield row


def draft(db: Path, layer: Path, redraft: bool) -> Path:
    """``assay semantic init --db DB --out LAYER`` with default options, once per database."""
    from click.testing import CliRunner

    from assay.cli import main

    if layer.exists() and not redraft:
        return layer
    layer.parent.mkdir(parents=True, exist_ok=True)
    args = ["semantic", "init", "--db", str(db), "--out", str(layer), "--force"]
    run = CliRunner().invoke(main, args)
    if run.exit_code != 0:
        raise SystemExit(f"Error: assay semantic init failed on {db}: {run.output.strip()}")
    return layer


def _rows(result: Result | None, n: int = 10) -> dict[str, Any] | None:
    if result is None:
        return None
    rows = [
        [v if isinstance(v, (int, float, str)) or v is None else str(v) for v in r]
        for r in result.rows[:n]
    ]
    return {"columns": list(result.columns), "rows": rows, "n_rows": len(result.rows)}


def ask_database(
    db_id: str, rows: list[dict[str, Any]], root: Path, layer: Path, out: Path
) -> None:
    """Ask each question of one database and append its record to ``out`` as it goes."""
    from assay.connectors import connect
    from assay.errors import ExecutionError
    from assay.pipeline import Agent
    from assay.semantic import load_semantic
    from assay.settings import load_settings

    settings = load_settings()
    db = root / "database" / db_id / f"{db_id}.sqlite"
    with connect(str(db), settings) as connector, out.open("a", encoding="utf-8") as sink:
        agent = Agent(connector, load_semantic(layer), settings, model=None)
        for row in rows:
            try:
                gold: Result | None = connector.execute(
                    row["gold_sql"], time_limit_ms=settings.time_limit_ms, max_rows=GOLD_MAX_ROWS
                )
            except ExecutionError:
                gold = None
            spider_gold, gold = gold, _corrected(row["id"], gold, connector, settings)
            ordered = "order by" in row["gold_sql"].lower()
            record: dict[str, Any] = {"id": row["id"], "db": db_id, "question": row["question"]}
            try:
                verdict = agent.ask(row["question"], ident=row["id"])
            except Exception as exc:  # an exception is a system failure, never an abstention
                record |= {"class": "SYSTEM_FAILURE", "behaviour": None, "action": None}
                record |= {"first_reason": f"exception.{type(exc).__name__}", "error": str(exc)}
            else:
                outcome = classify(verdict, gold, ordered)
                candidate = verdict.candidate
                record |= {
                    "class": outcome.label,
                    "equivalent": outcome.equivalent,
                    "behaviour": verdict.behaviour,
                    "action": verdict.action,
                    "route": verdict.route,
                    "first_reason": outcome.first_reason,
                    "reasons": list(verdict.reasons),
                    "message": verdict.provenance.get("message"),
                    "reading": verdict.provenance.get("reading"),
                    "unread": list((verdict.provenance.get("read") or {}).get("unread") or []),
                    "sql": candidate.final_sql if candidate else None,
                    "shown": _rows(candidate.result if candidate else None),
                }
                if row["id"] in FAULTY_GOLD:
                    against_spider = classify(verdict, spider_gold, ordered)
                    record |= {"gold_corrected": FAULTY_GOLD[row["id"]].why}
                    record |= {"class_against_spider_gold": against_spider.label}
            record |= {"gold_sql": row["gold_sql"], "gold": _rows(gold), "ordered": ordered}
            sink.write(json.dumps(record, default=str) + "\n")
            sink.flush()


def _corrected(ident: str, gold: Result | None, connector: Any, settings: Any) -> Result | None:
    """Gold's result, or the corrected rows where ``FAULTY_GOLD`` lists the question; the
    corrected SQL is run and must return those rows (else the list is stale: stop)."""
    fix = FAULTY_GOLD.get(ident)
    if fix is None:
        return gold
    ran = connector.execute(fix.sql, time_limit_ms=settings.time_limit_ms, max_rows=GOLD_MAX_ROWS)
    if tuple(tuple(r) for r in ran.rows) != fix.rows:
        raise SystemExit(
            f"Error: FAULTY_GOLD {ident}: {fix.sql} returned {ran.rows}, not {fix.rows}"
        )
    return ran


def _done(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    lines = out.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def summary(records: list[dict[str, Any]]) -> str:
    """Counts per class, one column per database and the total."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        counts[r["db"]][r["class"]] += 1
        counts["total"][r["class"]] += 1
    names = [*DATABASES, "total"]
    lines = [f"{'class':<16}" + "".join(f"{n:>16}" for n in names)]
    for label in CLASSES:
        lines.append(f"{label:<16}" + "".join(f"{counts[n][label]:>16}" for n in names))
    lines.append(f"{'questions':<16}" + "".join(f"{sum(counts[n].values()):>16}" for n in names))
    corrected = [r for r in records if r.get("gold_corrected")]
    if corrected:
        lines.append(
            f"Scored against corrected gold (FAULTY_GOLD), counted above: {len(corrected)}"
        )
        lines.extend(
            f"  {r['id']}: {r['class']} (against Spider's gold: "
            f"{r.get('class_against_spider_gold')}); {r['gold_corrected']}"
            for r in corrected
        )
    return "\n".join(lines)


def failures(records: list[dict[str, Any]]) -> str:
    """Every question not RIGHT_SHOWN: behaviour, reason, shown value against gold."""
    out = []
    for r in records:
        if r["class"] == "RIGHT_SHOWN":
            continue
        out.append(f"[{r['class']}] {r['id']} ({r['db']}): {r['question']}")
        out.append(f"    {r.get('behaviour')}/{r.get('action')} because {r.get('first_reason')}")
        if r.get("message"):
            out.append(f"    message: {r['message']}")
        if r.get("sql"):
            out.append(f"    sql: {r['sql']}")
            out.append(f"    shown: {r.get('shown')}")
        out.append(f"    gold sql: {r['gold_sql']}")
        out.append(f"    gold: {r['gold']}")
    return "\n".join(out)


def reasons(records: list[dict[str, Any]], n: int) -> str:
    """Non-answers three ways: by first reason; by first reason and what gold needed
    (``gold_needs``), the ``n`` most common with two example questions each; and the words the
    agent could not read most often."""
    missed = [r for r in records if r["class"] == "NOT_ANSWERED"]
    out = ["NOT_ANSWERED by first reason:"]
    by_code = Counter(str(r.get("first_reason")) for r in missed)
    out.extend(f"{k:>4}  {code}" for code, k in sorted(by_code.items(), key=lambda kv: -kv[1]))
    by_reason: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in missed:
        by_reason[f"{r.get('first_reason')} | gold: {gold_needs(r['gold_sql'])}"].append(r)
    ranked = sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:n]
    out.append(f"\nThe {len(ranked)} most common (first reason | what gold needed):")
    for reason, hits in ranked:
        out.append(f"{len(hits):>4}  {reason}")
        out.extend(f"        {h['id']} ({h['db']}): {h['question']}" for h in hits[:2])
    words = Counter(w for r in missed for w in r.get("unread") or [])
    out.append(
        "\nWords left unread, most often: "
        + ", ".join(f"{w} ({k})" for w, k in words.most_common(25))
    )
    return "\n".join(out)


def main() -> int:
    from assay.bench.datasets import default_spider_root
    from assay.settings import load_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout"), required=True)
    parser.add_argument("--root", type=Path, help="The spider-slice folder.")
    parser.add_argument("--work", type=Path, help="Drafted layers and records (default: cache).")
    parser.add_argument("--out", type=Path, help="Records, one JSON line a question.")
    parser.add_argument("--redraft", action="store_true", help="Draft the layers again.")
    parser.add_argument("--show-failures", action="store_true", help="Dev only.")
    parser.add_argument("--reasons", type=int, default=0, help="Dev only: top N non-answers.")
    args = parser.parse_args()
    if args.split == "heldout" and (args.show_failures or args.reasons):
        print("Error: --show-failures and --reasons are for the dev split only.", file=sys.stderr)
        return 2
    root = args.root or default_spider_root()
    work = args.work or load_settings().cache_path / "spider-drafted"
    out = args.out or work / f"{args.split}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    if args.redraft:
        out.unlink(missing_ok=True)  # records of the old layers would mix with the new
    seen = {r["id"] for r in _done(out)}
    todo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in questions(root, args.split):
        if row["id"] not in seen:
            todo[row["db_id"]].append(row)
    for db_id in sorted(todo):
        db = root / "database" / db_id / f"{db_id}.sqlite"
        layer = draft(db, work / "layers" / f"{db_id}.yaml", args.redraft)
        ask_database(db_id, todo[db_id], root, layer, out)
        print(f"{db_id}: {len(todo[db_id])} asked", file=sys.stderr)
    records = [r for r in _done(out) if split_of(r["id"]) == args.split]
    if args.show_failures:
        print(failures(records) + "\n")
    if args.reasons:
        print(reasons(records, args.reasons) + "\n")
    print(summary(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
