"""Statistics speed: AUROC with a 2,000-resample interval on 1,500 answers, the paired interval,
and the ratio against looping ``sklearn.metrics.roc_auc_score`` over the same resamples."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import roc_auc_score

from assay.bench.statistics import auroc_interval, bootstrap_counts, paired_auroc_difference
from benchmarks._common import median, report, timings, write

N = 1_500
B = 2_000


def run() -> dict[str, object]:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, N)
    a = rng.normal(y * 0.5, 1).round(2)
    b = rng.normal(y * 0.8, 1).round(2)
    single = median(timings(lambda: auroc_interval(a, y, n_resamples=B, rng=1), 5)) / 1000
    paired = (
        median(timings(lambda: paired_auroc_difference(a, b, y, n_resamples=B, rng=1), 5)) / 1000
    )
    index = np.random.default_rng(1).integers(0, N, (B, N))

    def loop() -> None:
        for row in index:
            if len(set(y[row])) > 1:
                roc_auc_score(y[row], a[row])

    looped = median(timings(loop, 1)) / 1000
    assert bootstrap_counts(N, 10, np.random.default_rng(0)).shape == (10, N)
    record = {
        "n_answers": N,
        "n_resamples": B,
        "auroc_interval_s": round(single, 4),
        "paired_interval_s": round(paired, 4),
        "looped_sklearn_s": round(looped, 3),
        "speedup_vs_loop": round(looped / single, 1),
    }
    write("stats", record)
    report(
        "stats",
        [
            (
                "AUROC + 2,000-resample interval, 1,500 answers",
                f"{single:.3f} s",
                "< 0.3 s",
                single < 0.3,
            ),
            ("paired interval", f"{paired:.3f} s", "< 0.6 s", paired < 0.6),
            (
                "speed-up over looping roc_auc_score",
                f"{looped / single:.1f}x",
                ">= 10x",
                looped / single >= 10,
            ),
        ],
    )
    return record
