"""Verify every label in samples.jsonl against gold.jsonl (run with /work/main/.venv/bin/python)."""
import json, sqlite3, sys, decimal, datetime
from pathlib import Path
import duckdb

HERE = Path(__file__).resolve().parent
MAIN = Path("/work/main")
DUCK = {"{tpcds}": "/tmp/h18/tpcds.duckdb", "{tpch}": "/tmp/h18/tpch.duckdb"}

def load(name):
    return {r["id"]: r for r in map(json.loads, (HERE / name).read_text().splitlines()) if r}

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
    if isinstance(v, (float, decimal.Decimal)):
        v = round(float(v), 4)
        return 0.0 if v == 0 else v
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return float(v)
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v

def norm(rows, ordered):
    rows = [tuple(norm_cell(c) for c in r) for r in rows]
    return rows if ordered else sorted(rows, key=repr)

def main():
    samples, gold, meta = load("samples.jsonl"), load("gold.jsonl"), load("meta.jsonl")
    assert samples.keys() == gold.keys() == meta.keys(), "id sets differ"
    bad = 0
    for rid, rec in samples.items():
        sqls = {s["final_sql"] for s in rec["samples"]}
        assert len(rec["samples"]) == 5 and len(sqls) == 1, rid
        assert "--" not in rec["samples"][0]["final_sql"] and "/*" not in rec["samples"][0]["final_sql"], rid
        m = meta[rid]
        assert m["label"] == rec["label"] and (m["kind"] == "") == (rec["label"] == 1), rid
        try:
            got = run(rec["db"], rec["samples"][0]["final_sql"])
            want = run(rec["db"], gold[rid]["gold_sql"])
        except Exception as e:
            print(f"FAIL {rid}: error {e}"); bad += 1; continue
        same = norm(got, m["ordered"]) == norm(want, m["ordered"])
        ok = same == (rec["label"] == 1) and len(got) > 0
        tag = "ok  " if ok else "FAIL"
        if not ok:
            bad += 1
        print(f"{tag} {rid} label={rec['label']} rows={len(got)}/{len(want)} gold={str(want[:3])[:90]}")
    print(f"{len(samples) - bad}/{len(samples)} labels verified")
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main()
