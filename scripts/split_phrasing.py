"""Split the free-phrased questions into dev and test halves, warehouse by warehouse.

Within each domain: ids sorted, shuffled with ``random.Random("phrasing-" + domain)``, the first
half (rounded up) ``dev``, the rest ``test`` (``assay.bench.datasets.phrasing_splits``). Rewrites
``src/assay/bench/phrasing/<domain>.jsonl`` in place with each record's ``split``; with
``--dev-out DIR`` also writes the dev half alone to ``DIR/<domain>.jsonl``.

Usage: ``.venv/bin/python scripts/split_phrasing.py [DOMAIN ...] [--dev-out DIR]``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from assay.bench.datasets._phrasing import PHRASING_DIR, phrasing_splits


def split_file(path: Path, dev_out: Path | None) -> dict[str, int]:
    """Rewrite one domain's file with its splits; return the count per split."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    draw = phrasing_splits([r["id"] for r in records], path.stem)
    for record in records:
        record["split"] = draw[record["id"]]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    if dev_out is not None:
        dev_out.mkdir(parents=True, exist_ok=True)
        dev = [r for r in records if r["split"] == "dev"]
        (dev_out / path.name).write_text(
            "".join(json.dumps(r) + "\n" for r in dev), encoding="utf-8"
        )
    return {s: sum(r["split"] == s for r in records) for s in ("dev", "test")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", help="domains to split (default: every file)")
    parser.add_argument("--dev-out", type=Path, default=None, help="write the dev halves here")
    args = parser.parse_args()
    paths = sorted(PHRASING_DIR.glob("*.jsonl"))
    if args.domains:
        paths = [p for p in paths if p.stem in set(args.domains)]
    for path in paths:
        print(path.stem, split_file(path, args.dev_out))


if __name__ == "__main__":
    main()
