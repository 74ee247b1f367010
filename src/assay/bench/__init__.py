"""Bench: the evaluation harness, in four subpackages named for what they hold.

``bench.datasets`` (task sets, phrasing variants, the Spider slice, TPC builds, planted faults),
``bench.warehouses`` (the generated warehouses), ``bench.runner`` (systems run over a task set,
answers scored against expected results, pre-registration), ``bench.statistics`` (AUROC,
bootstrap intervals, gate and task metrics) and ``bench.report`` (the HTML report). Import
from the subpackage; nothing is re-exported here. The product imports none of it outside the
CLI's bench commands.
"""

__all__: list[str] = []
