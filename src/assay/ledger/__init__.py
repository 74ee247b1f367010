"""Ledger: verdict files (append, resume, read), their labels, the fact store and the
append-only store of questions, verdicts and feedback.

``Ledger`` (the store behind ``assay serve``) needs SQLAlchemy, an optional dependency
(``pip install 'assay[service]'``); it is imported on first use, so that reading verdict files
does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assay.ledger._facts import FactStore, StoredFact
from assay.ledger._labels import labels_for, read_labels
from assay.ledger._verdicts import (
    VerdictSet,
    append_verdict,
    drop_ids,
    read_verdicts,
    written_ids,
)

if TYPE_CHECKING:
    from assay.ledger._store import LabelledAnswer, Ledger, LedgerCounts

__all__ = [
    "FactStore",
    "LabelledAnswer",
    "Ledger",
    "LedgerCounts",
    "StoredFact",
    "VerdictSet",
    "append_verdict",
    "drop_ids",
    "labels_for",
    "read_labels",
    "read_verdicts",
    "written_ids",
]


def __getattr__(name: str) -> Any:
    if name in {"LabelledAnswer", "Ledger", "LedgerCounts"}:
        from assay.ledger import _store

        return getattr(_store, name)
    raise AttributeError(f"module 'assay.ledger' has no attribute {name!r}")
