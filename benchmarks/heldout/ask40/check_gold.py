import json, sys, duckdb, sqlite3
def run_gold(db, sql):
    if db.endswith(".sqlite"):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True); cur = con.execute(sql); rows = cur.fetchall(); con.close(); return rows
    con = duckdb.connect(db, read_only=True)
    try: return con.execute(sql).fetchall()
    finally: con.close()
if __name__ == "__main__":
    for line in open("/work/heldout-ask40/questions.jsonl"):
        q = json.loads(line)
        if q["expect"] != "answer": continue
        rows = run_gold(q["target"]["gold_db"], q["gold_sql"])
        print(q["id"], q["target"]["name"], len(rows), str(rows[:7])[:300])
        assert rows and any(v is not None for v in rows[0]), q["id"]
