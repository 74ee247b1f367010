import json
from records import R
import random
R = list(R)
random.Random(19).shuffle(R)
with open('samples.jsonl','w') as f, open('gold.jsonl','w') as g, open('meta.jsonl','w') as m:
    for r in R:
        f.write(json.dumps({"id": r['id'], "db": r['db'], "question": r['question'], "samples": [{"final_sql": r['sql']} for _ in range(5)], "label": r['label']})+"\n")
        g.write(json.dumps({"id": r['id'], "gold_sql": r['gold'], "why_wrong": r['why']})+"\n")
        m.write(json.dumps({"id": r['id'], "kind": r['kind'], "ordered": r['ordered']})+"\n")
