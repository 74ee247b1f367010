"""The import layers of ARCHITECTURE.md, checked over the source with ``ast``.

``violations`` reads a module graph (module path -> the ``assay`` modules it imports, with line
numbers) and returns every import that breaks the contract; the real graph must give none, and
fake graphs show that an upward import, a sibling import and a product import of the bench each
give one.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "assay"

# Lowest first. A module may import its own package and any lower layer, never a higher one or
# a sibling in its own layer, except where ALLOWED_SIBLINGS says.
LAYERS: list[set[str]] = [
    {"errors", "settings", "types"},
    {"catalog"},
    {"semantic"},
    {"guard", "connectors", "ledger"},
    {"generators"},
    {"checks", "agreement", "answer"},
    {"scoring"},
    {"gate", "monitor"},
    {"pipeline"},
    {"service", "cli", "bench"},
]
# Settings report bad values with the shared errors. `assay serve`, `assay mcp` and
# `assay calibrate --ledger` start the service (the service never imports cli).
ALLOWED_SIBLINGS = {("settings", "errors"), ("cli", "service")}
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}

# The product imports nothing from ``assay.bench``; only these entry points may.
BENCH_ENTRY_POINTS = {
    "cli/_bench.py": "assay bench generate | run | score | tpc",
    "cli/_report.py": "assay report, prereg and faults evaluate verdict files",
    # The demo warehouse is the benchmark's e-commerce domain (seed 0), built lazily on first
    # use; the generator lives in bench/warehouses.
    "cli/_ask.py": "assay demo and assay ask without --db build the demo warehouse",
}

Graph = Mapping[str, Sequence[tuple[str, int]]]


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every ``assay.*`` module a file imports, with its line; relative imports as ``.name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            found.append(("." * node.level + (node.module or ""), node.lineno))
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.extend((name, node.lineno) for name in names if name.startswith("assay."))
    return found


def violations(graph: Graph) -> list[str]:
    """Every import in ``graph`` that breaks the layers or the bench boundary, named."""
    found: list[str] = []
    for module, imports in sorted(graph.items()):
        own = module.split("/")[0].removesuffix(".py")
        for name, line in imports:
            where = f"{module}:{line}"
            if name.startswith("."):
                found.append(f"{where}: relative import {name!r}; import assay.* absolutely")
                continue
            target = name.split(".")[1]
            if target == own:
                continue
            if target not in LEVEL:
                found.append(f"{where}: imports unknown package assay.{target}")
            elif target == "bench" and module not in BENCH_ENTRY_POINTS:
                found.append(f"{where}: the product may not import assay.bench")
            elif target == "bench" and own == "cli":
                continue
            elif not (LEVEL[target] < LEVEL[own] or (own, target) in ALLOWED_SIBLINGS):
                found.append(f"{where}: {own} may not import assay.{target}")
    return found


def _graph() -> dict[str, list[tuple[str, int]]]:
    return {
        str(p.relative_to(SRC)): _imports(p)
        for p in sorted(SRC.rglob("*.py"))
        if p.parent != SRC or p.stem not in {"__init__", "__main__"}
    }


def test_every_package_has_a_layer() -> None:
    tops = {m.split("/")[0].removesuffix(".py") for m in _graph()}
    assert tops <= set(LEVEL), tops - set(LEVEL)


def test_the_source_keeps_the_contract() -> None:
    assert violations(_graph()) == []


def test_bench_entry_points_exist() -> None:
    for module in BENCH_ENTRY_POINTS:
        assert (SRC / module).is_file(), f"{module} is allowed to import assay.bench but is gone"


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        (
            {"guard/_rules.py": [("assay.pipeline", 3)]},
            ["guard/_rules.py:3: guard may not import assay.pipeline"],
        ),
        (
            {"checks/_checks.py": [("assay.answer._write", 9)]},
            ["checks/_checks.py:9: checks may not import assay.answer"],
        ),
        (
            {"pipeline/_agent.py": [("assay.bench.warehouses", 12)]},
            ["pipeline/_agent.py:12: the product may not import assay.bench"],
        ),
        (
            {"cli/_score.py": [("assay.bench", 13)]},
            ["cli/_score.py:13: the product may not import assay.bench"],
        ),
        (
            {"ledger/_verdicts.py": [("..bench", 4)]},
            ["ledger/_verdicts.py:4: relative import '..bench'; import assay.* absolutely"],
        ),
        ({"types.py": [("assay.monitor", 1)]}, ["types.py:1: types may not import assay.monitor"]),
        (
            {
                "cli/_report.py": [("assay.bench", 12)],
                "bench/report/_build_report.py": [("assay.ledger", 5), ("assay.pipeline", 6)],
                "guard/_validate.py": [("assay.settings", 24), ("assay.guard._context", 20)],
            },
            [],
        ),
    ],
    ids=[
        "upward",
        "sibling",
        "product-imports-bench",
        "score-imports-bench",
        "relative",
        "root",
        "ok",
    ],
)
def test_the_checker_fails_a_broken_graph(graph: Graph, expected: list[str]) -> None:
    assert violations(graph) == expected


def test_the_reader_finds_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import json\nfrom assay.pipeline import ask\n\ndef f():\n    import assay.bench\n"
    )
    assert _imports(bad) == [("assay.pipeline", 2), ("assay.bench", 5)]
