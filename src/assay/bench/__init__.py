"""Bench: generated warehouses, evaluation and reports."""

from assay.bench._faults import DETERMINISTIC_FAULTS, FAULTS, Fault, Planted, plant
from assay.bench._planted import FaultRow, PlantedReport, run_planted
from assay.bench._spider import (
    SPIDER_SYSTEMS,
    default_spider_root,
    execution_match,
    spider_records,
)
from assay.bench._tpc import TPC_BENCHMARKS, build_tpc, tpc_extension_path, tpc_queries

__all__ = [
    "DETERMINISTIC_FAULTS",
    "FAULTS",
    "SPIDER_SYSTEMS",
    "TPC_BENCHMARKS",
    "Fault",
    "FaultRow",
    "Planted",
    "PlantedReport",
    "build_tpc",
    "default_spider_root",
    "execution_match",
    "plant",
    "run_planted",
    "spider_records",
    "tpc_extension_path",
    "tpc_queries",
]
