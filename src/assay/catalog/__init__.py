"""Catalog: what Assay knows about a database's tables before questions arrive."""

from assay.catalog._profile import (
    STAND_IN_MIN_SHARE,
    ColumnProfile,
    KeyOverlap,
    SqlRunner,
    StandIn,
    key_overlap,
    profile_column,
)
from assay.catalog._profiles import Profiles
from assay.catalog._schema import Catalog, ColumnInfo, ForeignKey, TableInfo

__all__ = [
    "STAND_IN_MIN_SHARE",
    "Catalog",
    "ColumnInfo",
    "ColumnProfile",
    "ForeignKey",
    "KeyOverlap",
    "Profiles",
    "SqlRunner",
    "StandIn",
    "TableInfo",
    "key_overlap",
    "profile_column",
]
