"""Bench: generated warehouses, evaluation and reports."""

from assay.bench._tpc import TPC_BENCHMARKS, build_tpc, tpc_extension_path, tpc_queries

__all__ = ["TPC_BENCHMARKS", "build_tpc", "tpc_extension_path", "tpc_queries"]
