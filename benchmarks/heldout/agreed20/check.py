"""Verifies every heldout20 label by running each record's SQL and its gold SQL.

Builds nothing: expects /tmp/h20/{tpcds,tpch,smg}.duckdb (see README.md). Spider paths, if any,
are read relative to /work/main. Rows are compared ignoring order unless meta says ordered;
numbers are rounded to 4 places. Exit status 0 when every label is verified.
"""
import collections
import datetime
import decimal
import json
import sqlite3
import sys
from pathlib import Path

import duckdb

HERE = Path(__file__).parent
DBS = {"{tpcds}": "/tmp/h20/tpcds.duckdb", "{tpch}": "/tmp/h20/tpch.duckdb",
       "{csv:semantic-model-generator/artifacts}": "/tmp/h20/smg.duckdb"}
MAIN = Path("/work/main")


def load(name):
    return {r["id"]: r for r in map(json.loads, (HERE / name).read_text().splitlines())}


def norm(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float, decimal.Decimal)):
        f = round(float(v), 4)
        return 0.0 if f == 0 else f
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v


def run(db, sql):
    if db in DBS:
        con = duckdb.connect(DBS[db], read_only=True)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()
    path = (MAIN / db).resolve()
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def same(a, b, ordered):
    a = [tuple(norm(v) for v in r) for r in a]
    b = [tuple(norm(v) for v in r) for r in b]
    if ordered:
        return a == b
    key = lambda r: tuple((x is None, str(type(x)), str(x)) for x in r)  # noqa: E731
    return sorted(a, key=key) == sorted(b, key=key)


def main() -> int:
    samples, gold, meta = load("samples.jsonl"), load("gold.jsonl"), load("meta.jsonl")
    problems = []
    assert samples.keys() == gold.keys() == meta.keys(), "ids differ between files"
    for rid, s in samples.items():
        m, g = meta[rid], gold[rid]
        sqls = {x["final_sql"] for x in s["samples"]}
        if len(s["samples"]) != 5 or len(sqls) != 1:
            problems.append(f"{rid}: needs 5 identical samples")
        sql = s["samples"][0]["final_sql"]
        if "--" in sql or "/*" in sql:
            problems.append(f"{rid}: SQL has a comment")
        if s["label"] != m["label"] or (m["label"] == 1) != (m["kind"] == "") or (m["label"] == 1) != (g["why_wrong"] == ""):
            problems.append(f"{rid}: label, kind and why_wrong disagree")
        try:
            got = run(s["db"], sql)
            want = run(s["db"], g["gold_sql"])
        except Exception as e:  # noqa: BLE001
            problems.append(f"{rid}: error {type(e).__name__}: {e}")
            continue
        if not want:
            problems.append(f"{rid}: gold returns no rows")
        eq = same(got, want, m["ordered"])
        if eq != (s["label"] == 1):
            problems.append(f"{rid}: label {s['label']} but answer {'matches' if eq else 'differs from'} gold "
                            f"(answer {got[:3]}, gold {want[:3]})")
    labels = collections.Counter(m["label"] for m in meta.values())
    prefixes = collections.Counter(rid[4] for rid in samples)
    kinds = collections.Counter(m["kind"] for m in meta.values() if m["kind"])
    if labels != {1: 30, 0: 30}:
        problems.append(f"labels {dict(labels)}, want 30/30")
    if prefixes != {"d": 25, "h": 15, "g": 20}:
        problems.append(f"datasets {dict(prefixes)}, want d25 h15 g20")
    for k, n in kinds.items():
        if n > 5:
            problems.append(f"kind {k} used {n} times (max 5)")
    for p in problems:
        print("FAIL", p)
    print(f"{len(samples)} records, labels {dict(labels)}, datasets {dict(prefixes)}")
    print("kinds", dict(sorted(kinds.items())))
    print("OK: every label verified" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
