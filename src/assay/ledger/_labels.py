"""Labels, the feedback on verdicts: a JSONL file ``{"id", "label"}`` or the verdicts' own."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from assay.errors import InputError
from assay.ledger._verdicts import VerdictSet

__all__ = ["labels_for", "read_labels"]


def read_labels(path: Path) -> dict[str, int]:
    """Labels as JSONL lines ``{"id", "label"}``; every problem named with its line.

    Raises:
        InputError: the file cannot be read, is empty, or has a malformed line, a label that
            is not 0 or 1, or a repeated id (up to ten problems named at once).
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(
            f"Cannot read labels {str(path)!r}: {exc.strerror}.", hint="Check the path."
        ) from exc
    labels: dict[str, int] = {}
    problems: list[str] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            ident, label = str(raw["id"]), raw["label"]
        except (json.JSONDecodeError, KeyError, TypeError):
            problems.append(f'line {n} is not {{"id", "label"}}')
            continue
        if label not in (0, 1) or isinstance(label, bool):
            problems.append(f"line {n} (id {ident!r}) has label {label!r}, not 0 or 1")
        elif ident in labels:
            problems.append(f"line {n} repeats id {ident!r}")
        else:
            labels[ident] = int(label)
    if problems:
        raise InputError(
            f"Labels file {str(path)!r}: " + "; ".join(problems[:10]) + ".",
            hint='Write one {"id": ..., "label": 0 or 1} per line, ids unique.',
        )
    if not labels:
        raise InputError(
            f"Labels file {str(path)!r} is empty.",
            hint='Write one {"id": ..., "label": 0 or 1} per line.',
        )
    return labels


def labels_for(path: Path | None, sets: Sequence[VerdictSet]) -> dict[str, int]:
    """Labels from a JSONL file when given, else from the verdicts' own ``label`` field.

    A verdict's own label counts only when it is 0 or 1 (``true`` is not a label, as in files).

    Example:
        >>> labels_for(None, [{"a": {"label": 1}, "b": {"label": None}}])
        {'a': 1}
    """
    if path is not None:
        return read_labels(path)
    labels: dict[str, int] = {}
    for records in sets:
        for ident, record in records.items():
            label = record.get("label")
            if label in (0, 1) and not isinstance(label, bool):
                labels[ident] = int(label)
    return labels
