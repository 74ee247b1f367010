"""Writing a generated warehouse: tables to a DuckDB file, the semantic layer to YAML.

Everything is deterministic from the seed. Tables are written through a CSV staging file with
explicit column types, on one thread, into a file whose name is its final name (DuckDB stores
the database name inside the file), so the same seed gives the same tables. The files are
byte-identical on an idle machine only: on a busy one DuckDB's block layout can differ, so the
manifest digests them by content (``content_digest`` in ``_generate.py``).
"""

from __future__ import annotations

import csv
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

__all__ = ["Table", "Trap", "Warehouse", "dates", "write_warehouse"]

EPOCH = np.datetime64("1970-01-01")


@dataclass
class Table:
    """A table as typed columns (numpy arrays or lists), written in column order."""

    name: str
    columns: dict[str, tuple[str, Any]]  # type, values (a numpy array or a list)

    @property
    def n_rows(self) -> int:
        return len(next(iter(self.columns.values()))[1])


@dataclass(frozen=True)
class Trap:
    """A trap planted in the data, with a query that proves it is there."""

    kind: str
    table: str
    column: str
    detail: str
    check_sql: str


@dataclass
class Warehouse:
    """One generated domain: its tables, semantic layer, traps and task material."""

    name: str
    tables: list[Table]
    semantic: dict[str, Any]
    traps: list[Trap]
    facts: dict[str, Any] = field(default_factory=dict)


def dates(days: np.ndarray) -> np.ndarray:
    """Day offsets from 1970-01-01 as ``YYYY-MM-DD`` strings."""
    return np.datetime_as_string(EPOCH + days.astype("timedelta64[D]"), unit="D")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return ""
        return repr(round(float(value), 2))
    return value


def write_warehouse(warehouse: Warehouse, folder: Path) -> tuple[Path, Path]:
    """Write ``<name>.duckdb`` and ``<name>.yaml`` into ``folder``; return their paths."""
    import duckdb

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{warehouse.name}.duckdb"
    staging = Path(tempfile.mkdtemp(prefix="assay-wh-", dir=folder))
    try:
        db_path = staging / target.name
        con = duckdb.connect(str(db_path), config={"threads": 1})
        try:
            for table in warehouse.tables:
                csv_path = staging / f"{table.name}.csv"
                with csv_path.open("w", newline="", encoding="utf-8") as handle:
                    writer = csv.writer(handle)
                    writer.writerow(list(table.columns))
                    columns = [list(values) for _, values in table.columns.values()]
                    for row in zip(*columns, strict=True):
                        writer.writerow([_cell(v) for v in row])
                types = ", ".join(f"'{c}': '{t}'" for c, (t, _) in table.columns.items())
                con.execute(
                    f"CREATE TABLE {table.name} AS SELECT * FROM read_csv('{csv_path}', "
                    f"header = true, columns = {{{types}}}, nullstr = '')"
                )
                csv_path.unlink()
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(db_path, target)
    finally:
        for leftover in staging.glob("*"):
            leftover.unlink()
        staging.rmdir()
    yaml_path = folder / f"{warehouse.name}.yaml"
    yaml_path.write_text(
        yaml.safe_dump(warehouse.semantic, sort_keys=False, allow_unicode=True, width=100),
        encoding="utf-8",
    )
    return target, yaml_path
