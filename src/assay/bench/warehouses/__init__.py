"""Generated warehouses for the reliability benchmark, deterministic from a seed."""

from assay.bench.warehouses._build import Table, Trap, Warehouse, write_warehouse
from assay.bench.warehouses._generate import (
    BENCHMARK_VERSION,
    DOMAINS,
    build_domain,
    generate_benchmark,
    load_tasks,
)

__all__ = [
    "BENCHMARK_VERSION",
    "DOMAINS",
    "Table",
    "Trap",
    "Warehouse",
    "build_domain",
    "generate_benchmark",
    "load_tasks",
    "write_warehouse",
]
