"""Catalog: what Assay knows about a database's tables before questions arrive."""

from assay.catalog._schema import Catalog, ColumnInfo, ForeignKey, TableInfo

__all__ = ["Catalog", "ColumnInfo", "ForeignKey", "TableInfo"]
