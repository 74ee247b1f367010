"""Build the three DuckDB files and verify every label in samples.jsonl against gold.jsonl."""
import datetime, decimal, glob, json, os, sys
import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = "/work/shared/data/semantic-models"
FOLDERS = {
    "{csv:sfguide-snowflake-intelligence/data}": ROOT + "/sfguide-snowflake-intelligence/data",
    "{csv:sfguide-cortex-analyst/data}": ROOT + "/sfguide-cortex-analyst/data",
    "{csv:metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds}":
        ROOT + "/metricflow-tutorial/dbt-metricflow/dbt_metricflow/cli/sample_dbt_models/seeds",
}
OUT = os.environ.get("H17_DIR", "/tmp/h17/check")


def build():
    os.makedirs(OUT, exist_ok=True)
    paths = {}
    for i, (key, folder) in enumerate(FOLDERS.items()):
        path = os.path.join(OUT, f"db{i}.duckdb")
        if os.path.exists(path):
            os.remove(path)
        con = duckdb.connect(path)
        for csv in sorted(glob.glob(folder + "/*.csv")):
            stem = os.path.splitext(os.path.basename(csv))[0]
            con.execute(f"CREATE TABLE {stem} AS SELECT * FROM read_csv_auto('{csv}')")
        con.close()
        paths[key] = path
    return paths


def norm(v):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        return round(float(v), 4) + 0.0
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    return v


def rows(con, sql):
    return [tuple(norm(x) for x in r) for r in con.execute(sql).fetchall()]


def same(a, b, ordered):
    if ordered:
        return a == b
    key = lambda r: tuple((x is None, str(type(x)), x if x is not None else 0) for x in r)
    return sorted(a, key=key) == sorted(b, key=key)


def main():
    paths = build()
    load = lambda n: [json.loads(l) for l in open(os.path.join(HERE, n)) if l.strip()]
    samples, gold, meta = load("samples.jsonl"), load("gold.jsonl"), load("meta.jsonl")
    gold = {g["id"]: g for g in gold}
    meta = {m["id"]: m for m in meta}
    cons = {k: duckdb.connect(p, read_only=True) for k, p in paths.items()}
    bad = 0
    for s in samples:
        rid = s["id"]
        sqls = {x["final_sql"] for x in s["samples"]}
        problems = []
        if len(s["samples"]) != 5 or len(sqls) != 1:
            problems.append("samples are not 5 identical")
        if "--" in next(iter(sqls)) or "/*" in next(iter(sqls)):
            problems.append("SQL comment")
        con = cons[s["db"]]
        try:
            got = rows(con, s["samples"][0]["final_sql"])
            want = rows(con, gold[rid]["gold_sql"])
        except Exception as e:
            problems.append(f"error: {e}")
        else:
            if not want:
                problems.append("gold returns no rows")
            eq = same(got, want, meta[rid]["ordered"])
            if eq != (s["label"] == 1):
                problems.append(f"label {s['label']} but equal={eq}: got {got[:5]} want {want[:5]}")
            if s["label"] == 0 and not gold[rid]["why_wrong"]:
                problems.append("wrong record without why_wrong")
        status = "OK " if not problems else "BAD"
        bad += bool(problems)
        print(f"{status} {rid} label={s['label']} {'; '.join(problems)}")
    n = len(samples)
    right = sum(s["label"] for s in samples)
    print(f"{n} records, {right} right, {n - right} wrong, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
