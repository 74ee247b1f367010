"""Writes samples.jsonl, gold.jsonl and meta.jsonl from records.py."""
import json
from pathlib import Path
from records import R

here = Path(__file__).parent
with open(here / "samples.jsonl", "w") as s, open(here / "gold.jsonl", "w") as g, open(here / "meta.jsonl", "w") as m:
    for r in R:
        s.write(json.dumps({"id": r["id"], "db": r["db"], "question": r["question"],
                            "samples": [{"final_sql": r["sql"]} for _ in range(5)], "label": r["label"]}) + "\n")
        g.write(json.dumps({"id": r["id"], "gold_sql": r["gold"], "why_wrong": r["why"]}) + "\n")
        m.write(json.dumps({"id": r["id"], "label": r["label"], "kind": r["kind"], "ordered": r["ordered"]}) + "\n")
print(len(R), "records")
