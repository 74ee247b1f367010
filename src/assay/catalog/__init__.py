"""Catalog: what Assay knows about a database's tables before questions arrive."""

from assay.catalog._deep import (
    CatalogProfile,
    ColumnReport,
    Namer,
    NamerProposal,
    TableProfile,
    deep_profile,
    profile_table,
    verify_proposal,
)
from assay.catalog._evaluate import (
    TPCH_KEYS,
    KeyEvaluation,
    declared_keys,
    evaluate_keys,
    spider_keys,
    tpcds_keys,
)
from assay.catalog._fingerprint import ColumnFingerprint, EngineStats, fingerprint
from assay.catalog._keys import InferredKey, KeyDiscovery, discover_foreign_keys
from assay.catalog._mangle import NameMap, mangle, read_name_map
from assay.catalog._patterns import FORCING_PII, PATTERNS, PatternMatch, PatternSpec
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
from assay.catalog._reconstruct import Reconstruction, proposals, reconstruct
from assay.catalog._schema import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.catalog._structure import (
    PiiFinding,
    Rollup,
    TableDescription,
    closed_domains,
    describe_tables,
    find_pii,
    find_rollups,
)
from assay.catalog._tiers import (
    AUTO_COMMIT_TIER,
    CAPS,
    FactProposal,
    FactStatus,
    Tier,
    cap_confidence,
    tier_for_evidence,
)

__all__ = [
    "AUTO_COMMIT_TIER",
    "CAPS",
    "FORCING_PII",
    "PATTERNS",
    "STAND_IN_MIN_SHARE",
    "TPCH_KEYS",
    "Catalog",
    "CatalogProfile",
    "ColumnFingerprint",
    "ColumnInfo",
    "ColumnProfile",
    "ColumnReport",
    "EngineStats",
    "FactProposal",
    "FactStatus",
    "ForeignKey",
    "InferredKey",
    "KeyDiscovery",
    "KeyEvaluation",
    "KeyOverlap",
    "NameMap",
    "Namer",
    "NamerProposal",
    "PatternMatch",
    "PatternSpec",
    "PiiFinding",
    "Profiles",
    "Reconstruction",
    "Rollup",
    "SqlRunner",
    "StandIn",
    "TableDescription",
    "TableInfo",
    "TableProfile",
    "Tier",
    "cap_confidence",
    "closed_domains",
    "declared_keys",
    "deep_profile",
    "describe_tables",
    "discover_foreign_keys",
    "evaluate_keys",
    "find_pii",
    "find_rollups",
    "fingerprint",
    "key_overlap",
    "mangle",
    "profile_column",
    "profile_table",
    "proposals",
    "read_name_map",
    "reconstruct",
    "spider_keys",
    "tier_for_evidence",
    "tpcds_keys",
    "verify_proposal",
]
