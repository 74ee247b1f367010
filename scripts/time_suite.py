"""Time the test suite of two checkouts, interleaved, on the same machine and the same tests.

Each round runs the baseline, then the candidate (A, B, A, B, ...), so a machine that gets
busier or quieter during the measurement weighs on both alike. Each checkout runs with its own
``.venv`` and its own pytest arguments (the baseline as its Makefile ran it, the candidate as
``make test`` runs it now). Prints every run's wall time, exit status and pytest summary line,
and the median ratio candidate / baseline; writes the same as JSON with ``--out``.

Usage::

    .venv/bin/python scripts/time_suite.py --base ../wt-base --new . --rounds 2 \\
        --base-args "-q -p no:cacheprovider" \\
        --new-args "-q -p no:cacheprovider -n auto --dist loadgroup" \\
        -- tests/checks tests/guard

The tests after ``--`` are the subset timed (the whole suite when none are given). Lint and
type checks are not timed: they do not change here.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _run(checkout: Path, args: list[str], tests: list[str]) -> dict[str, Any]:
    command = [str(checkout / ".venv" / "bin" / "pytest"), *args, *tests]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    summary = next((line for line in reversed(lines) if " passed" in line or " failed" in line), "")
    return {"wall_s": round(wall, 1), "rc": done.returncode, "summary": summary.strip("= ")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the baseline checkout")
    parser.add_argument("--new", type=Path, default=Path("."), help="the candidate checkout")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base-args", default="-q -p no:cacheprovider")
    parser.add_argument("--new-args", default="-q -p no:cacheprovider -n auto --dist loadgroup")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("tests", nargs="*")
    ns = parser.parse_args()
    runs: list[dict[str, Any]] = []
    walls: dict[str, list[float]] = {"base": [], "new": []}
    for round_ in range(ns.rounds):
        for name, checkout, args in (
            ("base", ns.base, ns.base_args),
            ("new", ns.new, ns.new_args),
        ):
            run = {"round": round_, "checkout": name, **_run(checkout, shlex.split(args), ns.tests)}
            runs.append(run)
            walls[name].append(run["wall_s"])
            print(json.dumps(run), flush=True)
    base, new = statistics.median(walls["base"]), statistics.median(walls["new"])
    report = {
        "tests": ns.tests or ["(all)"],
        "base_median_s": base,
        "new_median_s": new,
        "ratio": round(new / base, 3),
        "runs": runs,
    }
    print(f"median base {base:.1f} s, new {new:.1f} s, new/base {new / base:.2f}")
    if ns.out is not None:
        ns.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r["rc"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
