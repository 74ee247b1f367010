"""The import layers of ARCHITECTURE.md, checked over the source with ``ast``."""

from __future__ import annotations

import ast
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
# Entry points run evaluations; settings report bad values with the shared errors.
ALLOWED_SIBLINGS = {("cli", "bench"), ("service", "bench"), ("settings", "errors")}
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _top(path: Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "assay" and len(parts) > 1:
                found.append((parts[1], node.lineno))
    return found


MODULES = sorted(p for p in SRC.rglob("*.py") if _top(p) not in {"__init__", "__main__"})


def test_every_package_has_a_layer() -> None:
    tops = {_top(p) for p in MODULES}
    assert tops <= set(LEVEL), tops - set(LEVEL)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_go_only_downwards(path: Path) -> None:
    own = _top(path)
    for target, line in _imports(path):
        if target == own:
            continue
        assert target in LEVEL, f"{path.name}:{line} imports unknown package assay.{target}"
        ok = LEVEL[target] < LEVEL[own] or (own, target) in ALLOWED_SIBLINGS
        assert ok, f"{path.relative_to(SRC)}:{line}: {own} may not import assay.{target}"


def test_the_checker_catches_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from assay.pipeline import ask\n")
    assert _imports(bad) == [("pipeline", 1)]
    assert LEVEL["pipeline"] > LEVEL["guard"]
