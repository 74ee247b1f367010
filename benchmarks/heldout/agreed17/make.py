import json, random, sys
sys.path.insert(0, '/work/heldout17')
from records import R
out = {'s': [], 'c': [], 'm': []}
for r in R:
    out[r[0][0]].append(r)
rng = random.Random(17)
samples, gold, meta = [], [], []
for p in 'scm':
    grp = out[p][:]
    rng.shuffle(grp)
    for i, (key, db, kind, ordered, q, sql, g, label, why) in enumerate(grp, 1):
        rid = f"h17_{p}{i:02d}"
        samples.append({"id": rid, "db": db, "question": q, "samples": [{"final_sql": sql} for _ in range(5)], "label": label})
        gold.append({"id": rid, "gold_sql": g, "why_wrong": why})
        meta.append({"id": rid, "kind": kind, "ordered": ordered})
for name, rows in (("samples", samples), ("gold", gold), ("meta", meta)):
    with open(f"/work/heldout17/{name}.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
print(len(samples), sum(s["label"] for s in samples))
print("".join(str(s["label"]) for s in samples))
