"""Ledger: verdict files (append, resume, read), their labels, and the fact store."""

from assay.ledger._facts import FactStore, StoredFact
from assay.ledger._labels import labels_for, read_labels
from assay.ledger._verdicts import VerdictSet, append_verdict, read_verdicts, written_ids

__all__ = [
    "FactStore",
    "StoredFact",
    "VerdictSet",
    "append_verdict",
    "labels_for",
    "read_labels",
    "read_verdicts",
    "written_ids",
]
