"""Verify every label in samples.jsonl against gold.jsonl and meta.jsonl.

Runs each record's SQL (sample 0) and its gold SQL on the databases below and checks that
label 1 means the same rows and label 0 different rows (ignoring row order unless the record is
ordered; numbers rounded to 4 places; column order ignored). Builds nothing.
Run: /work/main/.venv/bin/python /work/heldout21/check.py
"""
import json
import sqlite3
import sys
from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
MAIN = Path("/work/main")
DUCK = {
    "{tpcds}": "/tmp/h21/tpcds.duckdb",
    "{tpch}": "/tmp/h21/tpch.duckdb",
    "{csv:semantic-model-generator/artifacts}": "/tmp/h21/smg.duckdb",
}


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
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float, Decimal)):
        f = round(float(v), 4)
        return 0.0 if f == 0 else f
    if isinstance(v, (date, datetime)):
        return v.isoformat()
    return v


def norm_row(r):
    return tuple(sorted((norm_cell(v) for v in r), key=lambda x: (str(type(x)), str(x))))


def same(a, b, ordered):
    ra, rb = [norm_row(r) for r in a], [norm_row(r) for r in b]
    if ordered:
        return ra == rb
    return Counter(ra) == Counter(rb)


def load(name):
    return {r["id"]: r for r in map(json.loads, (HERE / name).read_text().splitlines())}


def main():
    samples, gold, meta = load("samples.jsonl"), load("gold.jsonl"), load("meta.jsonl")
    bad = 0
    for i, rec in samples.items():
        sqls = {s["final_sql"] for s in rec["samples"]}
        assert len(sqls) == 1 and len(rec["samples"]) == 5, i
        assert "--" not in rec["samples"][0]["final_sql"] and "/*" not in rec["samples"][0]["final_sql"], i
        assert meta[i]["label"] == rec["label"], i
        try:
            got = run(rec["db"], rec["samples"][0]["final_sql"])
            want = run(rec["db"], gold[i]["gold_sql"])
        except Exception as e:
            print(f"FAIL {i}: error {e}")
            bad += 1
            continue
        eq = same(got, want, meta[i]["ordered"])
        ok = eq == (rec["label"] == 1)
        if not got or not want:
            print(f"note {i}: empty result (answer {len(got)} rows, gold {len(want)} rows)")
        if not ok:
            bad += 1
            print(f"FAIL {i}: label {rec['label']} but equal={eq}\n  answer {got[:5]}\n  gold   {want[:5]}")
        else:
            print(f"ok   {i} label={rec['label']} rows={len(want)} answer={got[:2]} gold={want[:2]}")
    labels = Counter(r["label"] for r in samples.values())
    kinds = Counter(m["kind"] for m in meta.values() if m["kind"])
    print(f"\n{len(samples)} records, right={labels[1]} wrong={labels[0]}, kinds={dict(kinds)}")
    print("ALL LABELS VERIFIED" if bad == 0 else f"{bad} FAILED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
