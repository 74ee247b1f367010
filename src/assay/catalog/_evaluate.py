"""Reconstruction evaluation (Rosetta 5.1): keys found against the truth, by name.

The truth is a set of single-column foreign keys ``(table, column, ref_table, ref_column)`` in
the original names: a database's declared keys, Spider's ``tables.json``, or the TPC-H and
TPC-DS specifications. With a mangler name map the truth is translated to the mangled names
first, so a reconstruction of a mangled copy is scored against what its names now are.
Names compare case-insensitively.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from assay.catalog._mangle import NameMap
from assay.catalog._schema import ForeignKey
from assay.errors import InputError

__all__ = [
    "TPCDS_REFERENCES",
    "TPCH_KEYS",
    "Edge",
    "KeyEvaluation",
    "declared_keys",
    "evaluate_keys",
    "spider_keys",
    "tpcds_keys",
]

Edge = tuple[str, str, str, str]

# TPC-H specification 1.4: the single-column foreign keys (the composite
# (l_partkey, l_suppkey) -> partsupp is out of scope for single-column discovery).
TPCH_KEYS: tuple[Edge, ...] = (
    ("customer", "c_nationkey", "nation", "n_nationkey"),
    ("lineitem", "l_orderkey", "orders", "o_orderkey"),
    ("lineitem", "l_partkey", "part", "p_partkey"),
    ("lineitem", "l_suppkey", "supplier", "s_suppkey"),
    ("nation", "n_regionkey", "region", "r_regionkey"),
    ("orders", "o_custkey", "customer", "c_custkey"),
    ("partsupp", "ps_partkey", "part", "p_partkey"),
    ("partsupp", "ps_suppkey", "supplier", "s_suppkey"),
    ("supplier", "s_nationkey", "nation", "n_nationkey"),
)

# TPC-DS specification 2.x: a column ending in one of these suffixes references the named
# dimension's surrogate key (the specification's naming rule for its foreign keys).
TPCDS_REFERENCES: tuple[tuple[str, str, str], ...] = (
    ("_call_center_sk", "call_center", "cc_call_center_sk"),
    ("_catalog_page_sk", "catalog_page", "cp_catalog_page_sk"),
    ("_cdemo_sk", "customer_demographics", "cd_demo_sk"),
    ("_customer_sk", "customer", "c_customer_sk"),
    ("_date_sk", "date_dim", "d_date_sk"),
    ("_addr_sk", "customer_address", "ca_address_sk"),
    ("_hdemo_sk", "household_demographics", "hd_demo_sk"),
    ("_income_band_sk", "income_band", "ib_income_band_sk"),
    ("_item_sk", "item", "i_item_sk"),
    ("_promo_sk", "promotion", "p_promo_sk"),
    ("_reason_sk", "reason", "r_reason_sk"),
    ("_ship_mode_sk", "ship_mode", "sm_ship_mode_sk"),
    ("_store_sk", "store", "s_store_sk"),
    ("_time_sk", "time_dim", "t_time_sk"),
    ("_warehouse_sk", "warehouse", "w_warehouse_sk"),
    ("_web_page_sk", "web_page", "wp_web_page_sk"),
    ("_web_site_sk", "web_site", "web_site_sk"),
)


def tpcds_keys(columns: list[tuple[str, str]]) -> tuple[Edge, ...]:
    """The TPC-DS foreign keys among ``(table, column)`` pairs, by the specification's rule."""
    edges = []
    for table, column in columns:
        for suffix, ref_table, ref_column in TPCDS_REFERENCES:
            if column.endswith(suffix) and (table, column) != (ref_table, ref_column):
                edges.append((table, column, ref_table, ref_column))
                break
    return tuple(sorted(edges))


def spider_keys(tables_json: Path, db_id: str) -> tuple[Edge, ...]:
    """Spider's declared foreign keys of ``db_id`` from its ``tables.json``."""
    try:
        entries = json.loads(tables_json.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(
            f"Cannot read {str(tables_json)!r}: {exc}.", hint="Check the path."
        ) from exc
    for entry in entries:
        if entry.get("db_id") == db_id:
            tables = entry["table_names_original"]
            cols = entry["column_names_original"]
            return tuple(
                sorted(
                    (tables[cols[a][0]], cols[a][1], tables[cols[b][0]], cols[b][1])
                    for a, b in entry["foreign_keys"]
                )
            )
    raise InputError(f"No database {db_id!r} in {str(tables_json)!r}.", hint="Check --db-id.")


def declared_keys(foreign_keys: tuple[ForeignKey, ...]) -> tuple[Edge, ...]:
    """The single-column declared keys of a catalogue."""
    return tuple(
        sorted(
            (fk.table, fk.columns[0], fk.ref_table, fk.ref_columns[0])
            for fk in foreign_keys
            if len(fk.columns) == 1 and len(fk.ref_columns) == 1
        )
    )


@dataclass(frozen=True)
class KeyEvaluation:
    """Precision and recall of found keys; ``nan`` when undefined (nothing found / no truth)."""

    n_truth: int
    n_found: int
    n_correct: int
    misses: tuple[Edge, ...]
    false_keys: tuple[Edge, ...]

    @property
    def precision(self) -> float:
        return self.n_correct / self.n_found if self.n_found else math.nan

    @property
    def recall(self) -> float:
        return self.n_correct / self.n_truth if self.n_truth else math.nan

    def to_dict(self) -> dict[str, object]:
        def fmt(edges: tuple[Edge, ...]) -> list[str]:
            return [f"{t}.{c} -> {rt}.{rc}" for t, c, rt, rc in edges]

        return {
            "n_truth": self.n_truth,
            "n_found": self.n_found,
            "n_correct": self.n_correct,
            "precision": None if math.isnan(self.precision) else round(self.precision, 4),
            "recall": None if math.isnan(self.recall) else round(self.recall, 4),
            "misses": fmt(self.misses),
            "false_keys": fmt(self.false_keys),
        }


def _fold(edge: Edge) -> Edge:
    t, c, rt, rc = edge
    return (t.lower(), c.lower(), rt.lower(), rc.lower())


def evaluate_keys(
    found: tuple[Edge, ...], truth: tuple[Edge, ...], names: NameMap | None = None
) -> KeyEvaluation:
    """Score ``found`` (in the evaluated database's names) against ``truth`` (original names)."""
    if names is not None:
        truth = tuple((*names.column(t, c), *names.column(rt, rc)) for t, c, rt, rc in truth)
    truth_set = {_fold(e) for e in truth}
    found_set = {_fold(e) for e in found}
    return KeyEvaluation(
        len(truth_set),
        len(found_set),
        len(truth_set & found_set),
        tuple(sorted(truth_set - found_set)),
        tuple(sorted(found_set - truth_set)),
    )
