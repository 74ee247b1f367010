"""Datasets: the task sets of the generated warehouses, phrasing variants, the Spider slice,
TPC-H/DS builds and planted faults.
"""

from assay.bench.datasets._faults import DETERMINISTIC_FAULTS, FAULTS, Fault, Planted, plant
from assay.bench.datasets._phrasing import (
    PHRASING_DIR,
    load_phrasing,
    phrasing_splits,
    phrasing_task,
)
from assay.bench.datasets._spider import (
    SPIDER_SYSTEMS,
    default_spider_root,
    execution_match,
    spider_records,
    system_labels,
)
from assay.bench.datasets._tasks import SPLITS, Task, assign_splits, domain_tasks, task_set_hash
from assay.bench.datasets._tpc import TPC_BENCHMARKS, build_tpc, tpc_extension_path, tpc_queries

__all__ = [
    "DETERMINISTIC_FAULTS",
    "FAULTS",
    "PHRASING_DIR",
    "SPIDER_SYSTEMS",
    "SPLITS",
    "TPC_BENCHMARKS",
    "Fault",
    "Planted",
    "Task",
    "assign_splits",
    "build_tpc",
    "default_spider_root",
    "domain_tasks",
    "execution_match",
    "load_phrasing",
    "phrasing_splits",
    "phrasing_task",
    "plant",
    "spider_records",
    "system_labels",
    "task_set_hash",
    "tpc_extension_path",
    "tpc_queries",
]
