"""Every error class is in the tree of ``errors.py``'s docstring as it is, and is raised."""

from __future__ import annotations

import re
from pathlib import Path

import assay.errors as errors
from assay.connectors._drivers import CONNECTION, FAILED, RESOURCE, TIMEOUT
from assay.errors import AssayError, error_for_code

SRC = Path(__file__).resolve().parents[2] / "src" / "assay"
CLASSES = sorted(
    (v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, AssayError)),
    key=lambda c: c.__name__,
)
# Raised from a code a worker process reports (connectors/_worker.py), not by name.
RAISED_BY_CODE = {FAILED, TIMEOUT, CONNECTION, RESOURCE}


def _tree() -> dict[str, tuple[str, str | None]]:
    """Name -> (code, parent) as the docstring draws them."""
    drawn: dict[str, tuple[str, str | None]] = {}
    stack: list[str] = []
    assert errors.__doc__ is not None
    for line in errors.__doc__.splitlines():
        match = re.match(r"^    ([│├└─ ]*)(\w+)\s+([\w.]+)$", line)
        if not match:
            continue
        depth = len(match.group(1)) // 4
        stack[depth:] = [match.group(2)]
        drawn[match.group(2)] = (match.group(3), stack[depth - 1] if depth else None)
    return drawn


def test_the_tree_is_the_classes() -> None:
    drawn = _tree()
    assert set(drawn) == {c.__name__ for c in CLASSES}
    for cls in CLASSES:
        parent = cls.__mro__[1].__name__ if cls is not AssayError else None
        assert drawn[cls.__name__] == (cls.code, parent), cls.__name__


def test_every_class_is_exported_and_mapped_from_its_code() -> None:
    assert {c.__name__ for c in CLASSES} <= set(errors.__all__)
    for cls in CLASSES:
        assert issubclass(error_for_code(cls.code), cls)
    assert error_for_code(FAILED) is errors.ExecutionFailed
    assert error_for_code("no.such.code") is AssayError


def _unraised(classes: list[type[AssayError]], source: str) -> list[str]:
    """Classes neither raised by name, nor from a worker's code, nor the base of one raised."""

    def raised(cls: type[AssayError]) -> bool:
        if f"raise {cls.__name__}(" in source:
            return True
        if cls.code in RAISED_BY_CODE and error_for_code(cls.code) is cls:
            return True
        return any(raised(sub) for sub in classes if sub.__mro__[1] is cls)

    return [cls.__name__ for cls in classes if not raised(cls)]


def test_every_class_is_raised() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SRC.rglob("*.py")))
    assert _unraised(CLASSES, source) == [], "raise these somewhere, or remove them"


def test_a_class_never_raised_is_named() -> None:
    class Unused(AssayError):
        code = "unused.error"

    class Parent(AssayError):
        code = "parent.error"

    class Child(Parent):
        code = "child.error"

    classes = [Unused, Parent, Child, errors.ExecutionFailed]
    assert _unraised(classes, "raise Child(") == ["Unused"]
    assert _unraised(classes, "") == ["Unused", "Parent", "Child"]


def test_message_and_hint() -> None:
    exc = errors.LedgerError("Cannot read v.jsonl.", hint="Check the path.", details={"n": 1})
    assert str(exc) == "Cannot read v.jsonl. Check the path."
    assert (exc.code, exc.details) == ("ledger.error", {"n": 1})
