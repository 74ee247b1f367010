"""``Profiles``: column profiles and key overlaps of one database, computed once and kept."""

from __future__ import annotations

import threading

from assay.catalog._profile import (
    ColumnProfile,
    KeyOverlap,
    SqlRunner,
    key_overlap,
    profile_column,
)
from assay.catalog._schema import Catalog

__all__ = ["Profiles"]


class Profiles:
    """A cache of engine-side measurements for one database (safe to share across threads)."""

    def __init__(self, runner: SqlRunner, catalog: Catalog):
        self.runner = runner
        self.catalog = catalog
        self._profiles: dict[tuple[str, str], ColumnProfile] = {}
        self._overlaps: dict[tuple[tuple[str, str], tuple[str, str]], KeyOverlap] = {}
        self._lock = threading.Lock()

    def profile(self, table: str, column: str) -> ColumnProfile | None:
        info = self.catalog.table(table)
        col = info.column(column) if info else None
        if info is None or col is None:
            return None
        key = (info.name.lower(), col.name.lower())
        with self._lock:
            if key not in self._profiles:
                self._profiles[key] = profile_column(self.runner, info.name, col.name, col.type)
            return self._profiles[key]

    def overlap(self, left: tuple[str, str], right: tuple[str, str]) -> KeyOverlap | None:
        resolved = []
        for table, column in (left, right):
            info = self.catalog.table(table)
            col = info.column(column) if info else None
            if info is None or col is None:
                return None
            resolved.append((info.name, col.name))
        a, b = sorted(resolved, key=lambda p: (p[0].lower(), p[1].lower()))
        key = ((a[0].lower(), a[1].lower()), (b[0].lower(), b[1].lower()))
        with self._lock:
            if key not in self._overlaps:
                self._overlaps[key] = key_overlap(self.runner, a, b)
            return self._overlaps[key]
