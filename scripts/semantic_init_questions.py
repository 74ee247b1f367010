"""Drafted layers answering questions: `assay semantic init` on each Spider slice database and on
TPC-H SF 0.01, and on their mangled copies (severity 1, names carry no meaning), then questions
asked through the Agent (what `assay ask` runs), each compared with SQL written by hand against
the source data.

The questions and their SQL were written before any was run. Names in them are written
``{table}`` / ``{table.column}`` and rendered through the mangle's name map on the mangled copies,
so the same question is asked in the layer's own (opaque) words. ``expect`` is ``rows`` (the
answer's rows must equal the hand SQL's) or ``no_time`` (a period asked of data without dates:
the agent must abstain, naming why; where hand SQL is given, a column holds the period's years
as plain values and an answer with the hand SQL's rows is right too) or ``joined`` (the hand
SQL's rows; on a mangled copy abstaining with ``plan.no_join_path`` is right too: its names
cannot say that one column refers to another table's key, and the drafter proposes a join only
where they do, containment alone being no proof: 6e96d93, outside tryouts 17 and 18).

Usage: .venv/bin/python scripts/semantic_init_questions.py [--out results.jsonl] [--only DB]
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

SLICE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "spider-slice"

# (question, hand SQL or None, expect)
QUESTIONS: dict[str, list[tuple[str, str | None, str]]] = {
    "concert_singer": [
        ("What is the {singer} count?", "SELECT count(*) FROM singer", "rows"),
        ("What is the {stadium} count?", "SELECT count(*) FROM stadium", "rows"),
        (
            "{singer} count by {singer.Country}",
            "SELECT Country, count(*) FROM singer GROUP BY Country",
            "rows",
        ),
        ("What is the total {stadium.Capacity}?", "SELECT sum(Capacity) FROM stadium", "rows"),
        (
            "What is the {singer} count for France?",
            "SELECT count(*) FROM singer WHERE Country = 'France'",
            "rows",
        ),
        ("What is the {concert} count?", "SELECT count(*) FROM concert", "rows"),
        # concert.Year holds years as text: read as a year, the count is right; with opaque
        # names (the mangled copy) it cannot be read, and abstaining is right too.
        (
            "What is the {concert} count in 2014?",
            "SELECT count(*) FROM concert WHERE Year = '2014'",
            "no_time",
        ),
    ],
    "pets_1": [
        ("What is the {Pets} count?", "SELECT count(*) FROM Pets", "rows"),
        ("What is the {Student} count?", "SELECT count(*) FROM Student", "rows"),
        (
            "{Student} count by {Student.Sex}",
            "SELECT Sex, count(*) FROM Student GROUP BY Sex",
            "rows",
        ),
        ("What is the total {Pets.weight}?", "SELECT sum(weight) FROM Pets", "rows"),
        ("What is the {Has_Pet} count?", "SELECT count(*) FROM Has_Pet", "rows"),
        ("What is the {Pets} count in 2020?", None, "no_time"),
    ],
    "car_1": [
        ("What is the {car_makers} count?", "SELECT count(*) FROM car_makers", "rows"),
        ("What is the {cars_data} count?", "SELECT count(*) FROM cars_data", "rows"),
        ("What is the {countries} count?", "SELECT count(*) FROM countries", "rows"),
        ("What is the total {cars_data.Weight}?", "SELECT sum(Weight) FROM cars_data", "rows"),
        ("What is the {continents} count?", "SELECT count(*) FROM continents", "rows"),
        ("What is the {model_list} count?", "SELECT count(*) FROM model_list", "rows"),
        ("What is the {car_names} count last year?", None, "no_time"),
    ],
    "tpch": [
        ("What is the {orders} count?", "SELECT count(*) FROM orders", "rows"),
        (
            "What is the {orders} count in 1995?",
            "SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1995-01-01' "
            "AND o_orderdate < DATE '1996-01-01'",
            "rows",
        ),
        (
            "{customer} count by {customer.c_mktsegment}",
            "SELECT c_mktsegment, count(*) FROM customer GROUP BY 1",
            "rows",
        ),
        (
            "What is the total {lineitem.l_quantity} by {lineitem.l_returnflag}?",
            "SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY 1",
            "rows",
        ),
        (
            "What is the total {orders.o_totalprice} in 1996?",
            "SELECT sum(o_totalprice) FROM orders WHERE o_orderdate >= DATE '1996-01-01' "
            "AND o_orderdate < DATE '1997-01-01'",
            "rows",
        ),
        (
            "{orders} count by {customer.c_mktsegment}",
            "SELECT c_mktsegment, count(*) FROM orders JOIN customer ON o_custkey = c_custkey "
            "GROUP BY 1",
            "joined",
        ),
        ("What is the {supplier} count?", "SELECT count(*) FROM supplier", "rows"),
    ],
}


# Plain English, as a user who knows the data but not the layer would ask (issue 12: the drafted
# pets_1 layer abstained on plain English 16 of 16). Written with their hand SQL and committed
# before the drafter's synonyms were changed; asked on the unmangled databases only. world_1,
# named in the task, is not in the shared slice: car_1 stands in for it.
PLAIN: dict[str, list[tuple[str, str | None, str]]] = {
    "pets_1": [
        ("How many pets are there?", "SELECT count(*) FROM Pets", "rows"),
        ("How many students are there?", "SELECT count(*) FROM Student", "rows"),
        ("What is the total weight of all pets?", "SELECT sum(weight) FROM Pets", "rows"),
        (
            "How many pets of each pet type?",
            "SELECT PetType, count(*) FROM Pets GROUP BY PetType",
            "rows",
        ),
        ("How many dogs are there?", "SELECT count(*) FROM Pets WHERE PetType = 'dog'", "rows"),
        ("Number of students by sex", "SELECT Sex, count(*) FROM Student GROUP BY Sex", "rows"),
        ("Total pet weight by type", "SELECT PetType, sum(weight) FROM Pets GROUP BY 1", "rows"),
        ("What is the total age of students?", "SELECT sum(Age) FROM Student", "rows"),
        ("How many students have sex F?", "SELECT count(*) FROM Student WHERE Sex = 'F'", "rows"),
        (
            "What is the total weight of the dogs?",
            "SELECT sum(weight) FROM Pets WHERE PetType = 'dog'",
            "rows",
        ),
        (
            "How many students are there in each city?",
            "SELECT city_code, count(*) FROM Student GROUP BY 1",
            "rows",
        ),
        ("What is the total pet age?", "SELECT sum(pet_age) FROM Pets", "rows"),
    ],
    "car_1": [
        ("How many car makers are there?", "SELECT count(*) FROM car_makers", "rows"),
        ("How many countries are there?", "SELECT count(*) FROM countries", "rows"),
        ("How many continents are there?", "SELECT count(*) FROM continents", "rows"),
        ("What is the total weight of the cars?", "SELECT sum(Weight) FROM cars_data", "rows"),
        ("How many car names are there?", "SELECT count(*) FROM car_names", "rows"),
        (
            "How many countries per continent?",
            "SELECT ct.Continent, count(*) FROM countries c JOIN continents ct "
            "ON c.Continent = ct.ContId GROUP BY 1",
            "rows",
        ),
        ("What is the total number of cylinders?", "SELECT sum(Cylinders) FROM cars_data", "rows"),
        ("How many cars are there?", "SELECT count(*) FROM cars_data", "rows"),
        (
            "How many car makers in each country?",
            "SELECT co.CountryName, count(*) FROM car_makers m JOIN countries co "
            "ON m.Country = co.CountryId GROUP BY 1",
            "rows",
        ),
        (
            "How many countries are in europe?",
            "SELECT count(*) FROM countries c JOIN continents ct ON c.Continent = ct.ContId "
            "WHERE ct.Continent = 'europe'",
            "rows",
        ),
        (
            "What is the total weight of cars by year?",
            "SELECT Year, sum(Weight) FROM cars_data GROUP BY Year",
            "rows",
        ),
        ("What is the total acceleration?", "SELECT sum(Accelerate) FROM cars_data", "rows"),
    ],
}


def _render(question: str, names: Any) -> str:
    """Placeholders in the layer's words: ``{t}`` -> 't', ``{t.c}`` -> 't c' (as the draft
    names a dimension ``t_c``), each through the name map when mangled."""

    def one(match: re.Match[str]) -> str:
        ref = match.group(1)
        if "." in ref:
            table, column = ref.split(".", 1)
            t, c = names.column(table, column) if names else (table, column)
            return f"{t} {c}"
        return str(names.tables.get(ref, ref)) if names else ref

    return re.sub(r"\{([^}]+)\}", one, question)


def _norm(rows: Any) -> Counter[tuple[Any, ...]]:
    out: Counter[tuple[Any, ...]] = Counter()
    for row in rows:
        out[tuple(round(float(v), 4) if isinstance(v, (int, float)) else v for v in row)] += 1
    return out


def _hand(db: Path, sql: str) -> list[tuple[Any, ...]]:
    if db.suffix == ".duckdb":
        import duckdb

        with duckdb.connect(str(db), read_only=True) as con:
            return [tuple(r) for r in con.execute(sql).fetchall()]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return [tuple(r) for r in con.execute(sql).fetchall()]


def _init(db: Path, out: Path) -> None:
    from click.testing import CliRunner

    from assay.cli import main

    run = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    if run.exit_code != 0:
        raise SystemExit(f"init failed on {db}: {run.output}")
    check = CliRunner().invoke(main, ["semantic", "check", "--db", str(db), "--semantic", str(out)])
    if check.exit_code != 0:
        raise SystemExit(f"check failed on {db}: {check.output}")


def run_database(
    name: str, source: Path, work: Path, mangled: bool, plain: bool = False
) -> list[dict[str, Any]]:
    """Draft, check and ask; one record per question (``plain``: the PLAIN set)."""
    from assay.catalog import mangle
    from assay.connectors import connect
    from assay.pipeline import Agent
    from assay.semantic import load_semantic

    db, names = source, None
    if mangled:
        db = work / f"{name}.mangled{source.suffix}"
        names = mangle(source, db, severity=1.0, seed=0)
    layer_path = work / f"{name}{'.mangled' if mangled else ''}.yaml"
    _init(db, layer_path)
    records = []
    with connect(str(db)) as connector:
        agent = Agent(connector, load_semantic(layer_path))
        for i, (template, sql, expect) in enumerate((PLAIN if plain else QUESTIONS)[name]):
            question = _render(template, names)
            verdict = agent.ask(question, ident=f"{name}-{i}")
            shown = verdict.behaviour == "answer" and verdict.action != "withhold"
            got = verdict.candidate.result.rows if verdict.candidate and shown else None
            if expect == "no_time":
                ok = verdict.behaviour == "abstain" and "behaviour.no_time" in verdict.reasons
                if sql and got is not None:  # a column that holds years: its count is right too
                    ok = _norm(got) == _norm(_hand(source, sql))
                wrong = shown and not ok
            else:
                want = _norm(_hand(source, sql or ""))
                ok = got is not None and _norm(got) == want
                wrong = shown and not ok
                if expect == "joined" and mangled and got is None:
                    ok = verdict.behaviour == "abstain" and "plan.no_join_path" in verdict.reasons
            records.append(
                {
                    "db": name,
                    "mangled": mangled,
                    "question": question,
                    "behaviour": verdict.behaviour,
                    "action": verdict.action,
                    "route": verdict.route,
                    "reasons": list(verdict.reasons),
                    "expect": expect,
                    "correct": ok,
                    "shown_wrong": wrong,
                    "sql": verdict.candidate.final_sql if verdict.candidate else None,
                }
            )
    return records


def sources(cache: Path) -> dict[str, Path]:
    from assay.bench.datasets import build_tpc

    out = {
        db: SLICE / "database" / db / f"{db}.sqlite" for db in ("concert_singer", "pets_1", "car_1")
    }
    out["tpch"] = build_tpc("tpch", 0.01, cache / "tpch-sf0.01.duckdb")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="Write one JSON line per question.")
    parser.add_argument("--only", help="One database.")
    parser.add_argument(
        "--plain", action="store_true", help="The plain-English set (PLAIN), unmangled only."
    )
    args = parser.parse_args()
    from assay.settings import load_settings

    all_records = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, source in sources(load_settings().cache_path).items():
            if (args.only and name != args.only) or (args.plain and name not in PLAIN):
                continue
            for mangled in (False,) if args.plain else (False, True):
                records = run_database(name, source, work, mangled, args.plain)
                all_records += records
                n_ok = sum(r["correct"] for r in records)
                n_wrong = sum(r["shown_wrong"] for r in records)
                n_confirm = sum(r["route"] == "confirm_first" for r in records)
                print(
                    f"{name}{' (mangled)' if mangled else ''}: {n_ok}/{len(records)} correct, "
                    f"{n_wrong} shown wrong, {n_confirm} confirm-first"
                )
                for r in records:
                    if not r["correct"]:
                        print(f"   MISS {r['question']!r}: {r['behaviour']} {r['reasons']}")
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in all_records), encoding="utf-8")
    total = len(all_records)
    print(
        f"total: {sum(r['correct'] for r in all_records)}/{total} correct, "
        f"{sum(r['shown_wrong'] for r in all_records)} shown wrong"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
