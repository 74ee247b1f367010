"""Runs every record's SQL and gold SQL and verifies every label. Builds nothing.

Databases: {tpcds} -> /tmp/h22/tpcds.duckdb, {tpch} -> /tmp/h22/tpch.duckdb, each {csv:...} token -> its
.duckdb under /tmp/h22 (si, ca, mf), Spider paths relative to /work/main (opened read-only).
Rows are compared ignoring order unless meta says ordered; numbers rounded to 4 places.
"""
import datetime
import decimal
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import duckdb

HERE = Path(__file__).parent
MAIN = Path("/work/main")
DUCK = {
    "{tpcds}": "/tmp/h22/tpcds.duckdb",
    "{tpch}": "/tmp/h22/tpch.duckdb",
    "{csv:sfguide-snowflake-intelligence/data}": "/tmp/h22/si.duckdb",
    "{csv:sfguide-cortex-analyst/data}": "/tmp/h22/ca.duckdb",
    "{csv:metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds}": "/tmp/h22/mf.duckdb",
}


def load(name):
    return [json.loads(line) for line in open(HERE / name) if line.strip()]


def run(db, sql):
    if db in DUCK:
        con = duckdb.connect(DUCK[db], read_only=True)
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


def norm_cell(v):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        x = round(float(v), 4)
        return 0.0 if x == 0 else x
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v


def norm(rows, ordered):
    rows = [tuple(norm_cell(c) for c in r) for r in rows]
    return rows if ordered else sorted(Counter(map(repr, rows)).items())


def main():
    samples, gold, meta = load("samples.jsonl"), {g["id"]: g for g in load("gold.jsonl")}, {m["id"]: m for m in load("meta.jsonl")}
    bad = 0
    kinds = Counter()
    for s in samples:
        i = s["id"]
        m = meta[i]
        sqls = {x["final_sql"] for x in s["samples"]}
        assert len(s["samples"]) == 5 and len(sqls) == 1, i
        assert "--" not in s["samples"][0]["final_sql"] and "/*" not in s["samples"][0]["final_sql"], i
        assert s["label"] == m["label"], i
        try:
            got = run(s["db"], s["samples"][0]["final_sql"])
            want = run(s["db"], gold[i]["gold_sql"])
        except Exception as e:  # noqa: BLE001
            print(f"FAIL {i}: error {type(e).__name__}: {e}")
            bad += 1
            continue
        same = norm(got, m["ordered"]) == norm(want, m["ordered"])
        ok = same == (s["label"] == 1) and len(want) > 0 and all(any(c is not None for c in r) for r in want)
        if s["label"] == 0:
            kinds[m["kind"]] += 1
            ok = ok and bool(m["kind"]) and bool(gold[i]["why_wrong"])
        else:
            ok = ok and m["kind"] == "" and gold[i]["why_wrong"] == ""
        if not ok:
            bad += 1
        print(f"{'ok  ' if ok else 'FAIL'} {i} label={s['label']} gold={want[:3]}{'...' if len(want) > 3 else ''} sql={got[:3]}{'...' if len(got) > 3 else ''}")
    labels = Counter(s["label"] for s in samples)
    print(f"{len(samples)} records, right={labels[1]} wrong={labels[0]}; kinds: {dict(kinds)}")
    print("ALL LABELS VERIFIED" if bad == 0 else f"{bad} record(s) FAILED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
