"""Verify every heldout16 label by execution.

For each record: run sample 0's SQL and the gold SQL on the built database, compare the rows
(as a multiset, or in order where meta.jsonl marks the question as asking for an order), and
check that label 1 means "same rows" and label 0 means "runs without error, different rows".
Also checks the file format (5 identical samples, ids, keys, counts).

Usage: python check.py [--tpcds PATH] [--tpch PATH]
Defaults: /tmp/h16/tpcds.duckdb and /tmp/h16/tpch.duckdb (env H16_TPCDS / H16_TPCH also work).
Build them with assay.bench.datasets.build_tpc (see README.md). Exit status 0 when all pass.
"""
import argparse
import datetime
import decimal
import json
import os
import sys
from collections import Counter
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent


def load(name):
    with open(HERE / name) as f:
        return [json.loads(line) for line in f if line.strip()]


def norm_value(v):
    if isinstance(v, (decimal.Decimal, float)):
        return ("n", round(float(v), 4) + 0.0)
    if isinstance(v, int) and not isinstance(v, bool):
        return ("n", float(v))
    if isinstance(v, (datetime.date, datetime.datetime)):
        return ("d", v.isoformat())
    if v is None:
        return ("z", "")
    return ("s", str(v))


def run(con, sql):
    rows = con.execute(sql).fetchall()
    return [tuple(norm_value(v) for v in r) for r in rows]


def same(a, b, ordered):
    if ordered:
        return a == b
    return Counter(a) == Counter(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tpcds", default=os.environ.get("H16_TPCDS", "/tmp/h16/tpcds.duckdb"))
    ap.add_argument("--tpch", default=os.environ.get("H16_TPCH", "/tmp/h16/tpch.duckdb"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    cons = {"{tpcds}": duckdb.connect(args.tpcds, read_only=True),
            "{tpch}": duckdb.connect(args.tpch, read_only=True)}

    samples, gold, meta = load("samples.jsonl"), load("gold.jsonl"), load("meta.jsonl")
    gold = {g["id"]: g for g in gold}
    meta = {m["id"]: m for m in meta}
    problems = []
    ids = [s["id"] for s in samples]
    if len(ids) != len(set(ids)):
        problems.append("duplicate ids")
    if set(ids) != set(gold) or set(ids) != set(meta):
        problems.append("samples, gold and meta ids differ")
    per_db = Counter(s["db"] for s in samples)
    labels = Counter((s["db"], s["label"]) for s in samples)
    if per_db != Counter({"{tpcds}": 50, "{tpch}": 20}):
        problems.append(f"record counts per db {dict(per_db)}")
    if sum(v for (d, l), v in labels.items() if l == 1) != 35:
        problems.append(f"labels {dict(labels)}")

    ok = 0
    for s in samples:
        rid = s["id"]
        if set(s) - {"id", "db", "question", "hint", "samples", "label"}:
            problems.append(f"{rid}: unknown keys")
        sqls = [x["final_sql"] for x in s["samples"]]
        if len(sqls) != 5 or len(set(sqls)) != 1:
            problems.append(f"{rid}: samples are not 5 identical answers")
        g, m = gold[rid], meta[rid]
        if s["label"] != m["label"] or (s["label"] == 1) != (g["why_wrong"] == ""):
            problems.append(f"{rid}: label / why_wrong / meta disagree")
        con = cons[s["db"]]
        try:
            got = run(con, sqls[0])
        except Exception as e:  # noqa: BLE001
            problems.append(f"{rid}: sample SQL fails: {e}")
            continue
        try:
            want = run(con, g["gold_sql"])
        except Exception as e:  # noqa: BLE001
            problems.append(f"{rid}: gold SQL fails: {e}")
            continue
        equal = same(got, want, m["ordered"])
        if args.verbose:
            print(rid, s["label"], "equal" if equal else "differ", len(got), len(want), got[:2], want[:2])
        if equal != (s["label"] == 1):
            problems.append(f"{rid}: label {s['label']} but results {'equal' if equal else 'differ'}"
                            f" (sample {got[:3]} / gold {want[:3]})")
            continue
        if not want:
            problems.append(f"{rid}: gold returns no rows")
            continue
        ok += 1

    for p in problems:
        print("FAIL", p)
    print(f"{ok}/{len(samples)} records verified; "
          f"{sum(s['label'] for s in samples)} right, {sum(1 - s['label'] for s in samples)} wrong")
    return 0 if not problems and ok == len(samples) else 1


if __name__ == "__main__":
    sys.exit(main())
