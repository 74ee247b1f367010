"""Writes samples.jsonl, gold.jsonl and meta.jsonl from records.py (file order shuffled, ids numbered in file order)."""
import json
import random
from pathlib import Path

from records import R

HERE = Path(__file__).parent


def main() -> None:
    rng = random.Random(20)
    groups = {"d": [], "h": [], "g": []}
    for rec in R:
        groups[rec[0][0]].append(rec)
    out_s, out_g, out_m = [], [], []
    for prefix in ("d", "h", "g"):
        recs = groups[prefix][:]
        rng.shuffle(recs)
        for i, (_key, db, question, sql, gold, kind, ordered, why) in enumerate(recs, 1):
            rid = f"h20_{prefix}{i:02d}"
            label = 0 if kind else 1
            out_s.append({"id": rid, "db": db, "question": question,
                          "samples": [{"final_sql": sql} for _ in range(5)], "label": label})
            out_g.append({"id": rid, "gold_sql": gold, "why_wrong": why})
            out_m.append({"id": rid, "label": label, "kind": kind, "ordered": ordered})
    for name, rows in (("samples.jsonl", out_s), ("gold.jsonl", out_g), ("meta.jsonl", out_m)):
        (HERE / name).write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
