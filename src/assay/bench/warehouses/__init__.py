"""Generated warehouses for the reliability benchmark, deterministic from a seed."""

from assay.bench.warehouses._build import Table, Trap, Warehouse, write_warehouse
from assay.bench.warehouses._generate import (
    BENCHMARK_VERSION,
    DIGESTS,
    DOMAINS,
    build_domain,
    content_digest,
    generate_benchmark,
    load_tasks,
)

__all__ = [
    "BENCHMARK_VERSION",
    "DIGESTS",
    "DOMAINS",
    "Table",
    "Trap",
    "Warehouse",
    "build_domain",
    "content_digest",
    "generate_benchmark",
    "load_tasks",
    "write_warehouse",
]
