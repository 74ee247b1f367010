import json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from records import R
d = Path(__file__).parent
with open(d/"samples.jsonl","w") as fs, open(d/"gold.jsonl","w") as fg, open(d/"meta.jsonl","w") as fm:
    for (i, db, q, sql, gold, label, kind, ordered, why) in R:
        fs.write(json.dumps({"id": i, "db": db, "question": q, "samples": [{"final_sql": sql} for _ in range(5)], "label": label})+"\n")
        fg.write(json.dumps({"id": i, "gold_sql": gold, "why_wrong": why})+"\n")
        fm.write(json.dumps({"id": i, "label": label, "kind": kind, "ordered": ordered})+"\n")
print(len(R), "records")
