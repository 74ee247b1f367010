"""How often ``guard.unrelated_join`` fires on the Spider slice's right and wrong SQL.

Usage:
    .venv/bin/python scripts/guard_key_joins_eval.py [--k 6] [--undeclared]

For every question of the slice (``../shared/data/spider-slice``): Spider's gold SQL (right by
definition) and each of the first K published systems' SQL, labelled right or wrong by execution
match with gold (``system_labels``), validated by the guard against the database's catalogue
(its declared foreign keys). Prints the firings on right SQL (false positives: a refused right
answer) and on wrong SQL, with each statement that fired. The slice is the data this rule was
written while looking at: its numbers are tuned on, never held out. ``--undeclared`` drops the
declared foreign keys, so only the names decide (the rule where nothing is known: an error only
where both columns are their own tables' keys of two different things).
"""

from __future__ import annotations

import argparse
import json

from assay.bench.datasets import SPIDER_SYSTEMS, default_spider_root, system_labels
from assay.catalog import Catalog
from assay.connectors import connect
from assay.guard import validate

CODE = "guard.unrelated_join"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=len(SPIDER_SYSTEMS))
    parser.add_argument("--undeclared", action="store_true", help="drop declared foreign keys")
    args = parser.parse_args()
    root = default_spider_root()
    labels = system_labels(root, args.k)
    rows = [
        json.loads(line)
        for line in (root / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    catalogs = {}
    counts = {"gold": [0, 0], "right": [0, 0], "wrong": [0, 0]}  # [statements, fired]
    fired: list[dict[str, str]] = []
    for row in rows:
        db = row["db_id"]
        if db not in catalogs:
            with connect(str(root / "database" / db / f"{db}.sqlite")) as connector:
                catalogs[db] = connector.catalog()
            if args.undeclared:
                catalogs[db] = Catalog(catalogs[db].tables)
        statements = [("gold", row["gold_sql"])]
        for name in SPIDER_SYSTEMS[: args.k]:
            right = labels[row["id"]][name]
            statements.append(("right" if right else "wrong", row["predictions"][name]))
        for kind, sql in statements:
            report = validate(sql, catalog=catalogs[db], dialect="sqlite")
            hit = [v for v in report.violations if v.code == CODE and v.severity == "error"]
            counts[kind][0] += 1
            if hit:
                counts[kind][1] += 1
                fired.append({"id": row["id"], "kind": kind, "sql": sql, "why": hit[0].message})
    for item in fired:
        print(json.dumps(item), flush=True)
    print(
        json.dumps(
            {
                kind: {"statements": n, "fired": f, "rate": round(f / n, 4) if n else None}
                for kind, (n, f) in counts.items()
            }
        )
    )


if __name__ == "__main__":
    main()
