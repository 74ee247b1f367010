"""Every package re-exports its public names in a sorted, complete ``__all__``."""

from __future__ import annotations

import importlib
import pkgutil
import types

import pytest

import assay


def _isort_key(item: str) -> tuple[int, str]:
    """Ruff's RUF022 order: CONSTANTS, then CamelCase classes, then everything else."""
    if item.isupper() or (item.upper() == item and "_" in item):
        return (0, item)
    if item[:1].isupper():
        return (1, item)
    return (2, item)


def _modules() -> list[str]:
    names = ["assay"]
    for info in pkgutil.walk_packages(assay.__path__, "assay."):
        leaf = info.name.rsplit(".", 1)[-1]
        if info.ispkg or not leaf.startswith("_"):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_all_sorted_and_complete(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert list(exported) == sorted(exported, key=_isort_key), f"{name}.__all__ is not sorted"
    for item in exported:
        assert hasattr(module, item), f"{name}.__all__ names missing {item!r}"
    public = {
        key
        for key, value in vars(module).items()
        if not key.startswith("_")
        and not isinstance(value, types.ModuleType)
        and getattr(value, "__module__", name).startswith("assay")
        and (
            getattr(value, "__module__", None) == name
            or getattr(value, "__module__", "").startswith(name + "._")
        )
    }
    assert public <= set(exported), f"{name} does not export {sorted(public - set(exported))}"


def test_implementation_modules_are_private() -> None:
    for info in pkgutil.walk_packages(assay.__path__, "assay."):
        parts = info.name.split(".")
        if len(parts) > 2 and not info.ispkg:
            assert parts[-1].startswith("_"), f"{info.name} should be private (_-prefixed)"
