"""Run every benchmark (or those named on the command line) and write their results."""

from __future__ import annotations

import importlib
import sys

NAMES = ["guard", "execution", "score", "stats", "spider", "agreed", "wrb", "ask", "catalog"]


def main(argv: list[str]) -> int:
    names = argv or NAMES
    for name in names:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        module.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
