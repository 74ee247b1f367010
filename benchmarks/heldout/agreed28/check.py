"""Verify every label of heldout28: run each record's SQL and its gold, compare rows.

Databases: {tpcds} -> /tmp/h28/tpcds.duckdb, {tpch} -> /tmp/h28/tpch.duckdb (built beforehand with
assay.bench.datasets.build_tpc); each {csv:...} token -> /tmp/h28/<name>.duckdb, one table per CSV
(CREATE TABLE "<stem>" AS SELECT * FROM read_csv_auto(path)); made here only if missing.
Spider paths are relative to /work/main and opened read-only in place.
Run: /work/main/.venv/bin/python check.py
"""
import datetime, decimal, glob, json, os, sqlite3, sys
from collections import Counter
from pathlib import Path
import duckdb

HERE = Path(__file__).parent
BASE = "/work/shared/data/semantic-models/"
CSV = {"sfguide-snowflake-intelligence/data": "si", "sfguide-cortex-analyst/data": "ca",
       "metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds": "mf",
       "semantic-model-generator/artifacts": "smg"}


def csv_db(folder):
    p = f"/tmp/h28/{CSV[folder]}.duckdb"
    if not os.path.exists(p):
        os.makedirs("/tmp/h28", exist_ok=True)
        con = duckdb.connect(p)
        for f in sorted(glob.glob(BASE + folder + "/*.csv")):
            con.execute(f'CREATE TABLE "{Path(f).stem}" AS SELECT * FROM read_csv_auto(\'{f}\')')
        con.close()
    return p


def run(db, sql):
    if db == "{tpcds}" or db == "{tpch}":
        con = duckdb.connect(f"/tmp/h28/{db[1:-1]}.duckdb", read_only=True)
    elif db.startswith("{csv:"):
        con = duckdb.connect(csv_db(db[5:-1]), read_only=True)
    else:
        path = (Path("/work/main") / db).resolve()
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def norm(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float, decimal.Decimal)):
        f = round(float(v), 4)
        return 0.0 if f == 0 else f
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v


def rows(rs, ordered):
    out = [tuple(norm(v) for v in r) for r in rs]
    return out if ordered else sorted(out, key=repr)


def main():
    samples = [json.loads(l) for l in open(HERE / "samples.jsonl")]
    gold = {g["id"]: g for g in map(json.loads, open(HERE / "gold.jsonl"))}
    meta = {m["id"]: m for m in map(json.loads, open(HERE / "meta.jsonl"))}
    bad = 0
    for s in samples:
        i = s["id"]
        sqls = {x["final_sql"] for x in s["samples"]}
        assert len(s["samples"]) == 5 and len(sqls) == 1, i
        sql = s["samples"][0]["final_sql"]
        assert "--" not in sql and "/*" not in sql, i
        m = meta[i]
        assert m["label"] == s["label"], i
        try:
            a = run(s["db"], sql)
            g = run(s["db"], gold[i]["gold_sql"])
        except Exception as e:
            print(f"FAIL {i}: error {e}")
            bad += 1
            continue
        same = rows(a, m["ordered"]) == rows(g, m["ordered"])
        ok = same == (s["label"] == 1) and len(g) > 0 and len(a) > 0
        if not ok:
            bad += 1
            print(f"FAIL {i}: label={s['label']} same={same}\n  sql={a[:5]}\n  gold={g[:5]}")
        else:
            print(f"ok   {i} label={s['label']} rows={len(a)}/{len(g)} sql={a[:2]} gold={g[:2]}")
    labels = Counter(s["label"] for s in samples)
    kinds = Counter(m["kind"] for m in meta.values() if m["kind"])
    print(f"\n{len(samples)} records, right={labels[1]} wrong={labels[0]}; kinds={dict(kinds)}")
    assert len({s['id'] for s in samples}) == len(samples)
    assert max(kinds.values()) <= 4
    print("ALL LABELS VERIFIED" if bad == 0 else f"{bad} FAILED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
