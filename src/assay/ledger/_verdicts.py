"""Verdict files: one JSON record per line, appended as verdicts are made, read back by id.

``assay score --out`` appends with ``append_verdict`` (one line, flushed, so a crash loses at
most the line being written), ``--resume`` asks ``written_ids`` which ids are already there
(a last line cut short by a crash is dropped from the file), and ``assay calibrate`` and
``assay report`` read whole files with ``read_verdicts``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from assay.errors import LedgerError

__all__ = ["VerdictSet", "append_verdict", "read_verdicts", "written_ids"]

VerdictSet = dict[str, dict[str, Any]]  # id -> verdict record

_HINT = "Give files written by 'assay score --out'."


def append_verdict(sink: TextIO, record: Mapping[str, Any]) -> None:
    """Write one verdict record as one JSON line (keys sorted) and flush it.

    Example:
        >>> import io
        >>> sink = io.StringIO()
        >>> append_verdict(sink, {"id": "q1", "action": "show"})
        >>> sink.getvalue()
        '{"action": "show", "id": "q1"}\\n'
    """
    sink.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
    sink.flush()


def written_ids(path: Path) -> Counter[str]:
    """Ids already in a verdict file, with how often each was written, for resuming it (a
    duplicate id is written twice: once scored, once as its named failure).

    A last line cut short by a crash is not counted and is removed from the file, so that the
    next append starts on a line of its own. An unreadable line before the last is not a crash
    of ours: the file is refused rather than cut.

    Raises:
        LedgerError: the file cannot be read or rewritten, or a line before the last is not a
            verdict record.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"Cannot read verdicts {str(path)!r}: {exc}.", hint=_HINT) from exc
    ids: Counter[str] = Counter()
    keep: list[str] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            ident = str(record["id"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            if n == len(lines):
                break
            raise LedgerError(
                f"Line {n} of {str(path)!r} is not a verdict record, and it is not the last.",
                hint="Only a last line cut short is repaired; remove or fix this one.",
            ) from exc
        ids[ident] += 1
        keep.append(line if line.endswith("\n") else line + "\n")
    if "".join(keep) != "".join(lines):
        try:
            Path(path).write_text("".join(keep), encoding="utf-8")
        except OSError as exc:
            raise LedgerError(
                f"Cannot repair the cut last line of {str(path)!r}: {exc.strerror}.",
                hint="Check that the file is writable.",
            ) from exc
    return ids


def drop_ids(path: Path, keep: set[str]) -> list[str]:
    """Remove from a verdict file every record whose id is not in ``keep`` (resuming a file
    written for another input), and return the ids dropped, in file order.

    Raises:
        LedgerError: the file cannot be read or rewritten.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"Cannot read verdicts {str(path)!r}: {exc}.", hint=_HINT) from exc
    kept: list[str] = []
    dropped: list[str] = []
    for line in lines:
        ident = str(json.loads(line)["id"]) if line.strip() else None
        if ident is not None and ident not in keep:
            dropped.append(ident)
        else:
            kept.append(line)
    if dropped:
        try:
            Path(path).write_text("".join(kept), encoding="utf-8")
        except OSError as exc:
            raise LedgerError(
                f"Cannot rewrite {str(path)!r}: {exc.strerror}.",
                hint="Check that the file is writable.",
            ) from exc
    return dropped


def _repeat_refused(record: Any) -> bool:
    """A line the scorer wrote for a repeated id (status failed, ``input.duplicate_id``)."""
    failure = record.get("failure") if isinstance(record, dict) else None
    return (
        isinstance(failure, dict)
        and record.get("status") == "failed"
        and failure.get("code") == "input.duplicate_id"
    )


def read_verdicts(path: Path) -> VerdictSet:
    """Every verdict record of a file, by id, in file order.

    Raises:
        LedgerError: the file cannot be read, a line is not a verdict record, an id repeats,
            or the file holds no verdicts; the message names the line or the ids.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerError(f"Cannot read verdicts {str(path)!r}: {exc}.", hint=_HINT) from exc
    records: VerdictSet = {}
    duplicates: list[str] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            ident = str(record["id"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise LedgerError(
                f"Line {n} of {str(path)!r} is not a verdict record.", hint=_HINT
            ) from exc
        if _repeat_refused(record):
            # 'assay score' writes a failed line for a repeated id and keeps the first verdict:
            # its own file reads (outside tryout 14: report and calibrate refused it).
            continue
        if ident in records:
            duplicates.append(ident)
        records[ident] = record
    if duplicates:
        raise LedgerError(
            f"{str(path)!r} has duplicate ids: {sorted(set(duplicates))[:10]}.",
            hint="Score each question once (use --resume to continue a run).",
        )
    if not records:
        raise LedgerError(
            f"{str(path)!r} holds no verdicts.",
            hint="Score a samples file first: 'assay score samples.jsonl --out'.",
        )
    return records
