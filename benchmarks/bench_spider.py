"""The governed score on real model output: the Spider slice's six published systems taken as
K = 6 samples (sample 0 is DAIL-SQL + GPT-4), sample 0 labelled by execution match with the gold
SQL. Reports AUROC (2,000-resample percentile intervals, and the paired difference) of every
rule, with the gate counts by correctness (the paper's Table 8), under two evidence settings:
the SQL alone (no written answer, no judge: every answer's evidence is thin), and with Assay's
written answer for each sample (SCHEMA measured). Also the planted errors (Table 3).

Reproduce: ``make bench BENCH_ARGS=spider`` (or ``.venv/bin/python -m benchmarks spider``).
"""

from __future__ import annotations

import time
from typing import Any

from assay.bench import auroc_interval as interval
from assay.bench import (
    default_spider_root,
    gate_table,
    paired_auroc_difference,
    run_planted,
    spider_records,
)
from assay.pipeline import Scorer
from assay.scoring import RULES
from benchmarks._common import report, write


def _variant(records: list[Any], written: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    scores: dict[str, list[float]] = {}
    labels: list[int] = []
    for name in RULES:
        with Scorer.named(name, write_missing_text=written) as scorer:
            verdicts = [scorer.score(r) for r in records]
        kept = [v for v in verdicts if v.label is not None and v.score is not None]
        labels = [int(v.label) for v in kept]  # type: ignore[arg-type]
        scores[name] = [float(v.score) for v in kept]  # type: ignore[arg-type]
        estimate = interval(scores[name], labels, n_resamples=2_000, rng=0)
        out[name] = {
            "auroc": estimate.to_dict(),
            "gate": gate_table([v.action for v in kept], labels),
        }
    diff = paired_auroc_difference(
        scores["designed"], scores["agreement_first"], labels, n_resamples=2_000, rng=0
    )
    out["agreement_first_minus_designed"] = diff.to_dict()
    out["n"] = len(labels)
    out["n_right"] = sum(labels)
    return out


def run() -> dict[str, object]:
    root = default_spider_root()
    if not (root / "questions.jsonl").exists():
        print(f"\n== spider: skipped, the Spider slice is not at {root}")
        return {}
    started = time.perf_counter()
    records = list(spider_records(root))
    record: dict[str, Any] = {
        "samples": "six published systems, sample 0 = dailsql_gpt4",
        "label": "execution match of sample 0 with the gold SQL",
        "sql_only": _variant(records, written=False),
        "with_written_answers": _variant(records, written=True),
    }
    planted = {}
    for name in ("designed", "agreement_first"):
        with Scorer.named(name, write_missing_text=True) as scorer:
            planted[name] = run_planted(records, scorer).to_dict()
    record["planted"] = planted
    record["seconds"] = round(time.perf_counter() - started, 1)
    write("spider", record)
    rows = []
    for variant in ("sql_only", "with_written_answers"):
        for name in RULES:
            a = record[variant][name]["auroc"]
            g = record[variant][name]["gate"]["counts"]
            rows.append(
                (
                    f"{variant} {name} AUROC",
                    f"{a['value']:.3f} [{a['low']:.3f}, "
                    f"{a['high']:.3f}]; show/warn/withhold right "
                    f"{g['show']['right']}/{g['warn']['right']}/{g['withhold']['right']}, "
                    f"wrong {g['show']['wrong']}/{g['warn']['wrong']}/"
                    f"{g['withhold']['wrong']}",
                    "reported",
                    True,
                )
            )
        d = record[variant]["agreement_first_minus_designed"]
        rows.append(
            (
                f"{variant} agreement_first - designed",
                f"{d['value']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]",
                "reported",
                True,
            )
        )
    for name, table in planted.items():
        for fault in table["faults"]:
            rows.append(
                (
                    f"planted {fault['kind']} under {name}",
                    f"withheld {fault['withheld']:.0%}, not shown {fault['not_shown']:.0%}, "
                    f"own check fired {fault['check_fired']:.0%} (n={fault['planted']})",
                    "reported",
                    True,
                )
            )
    report("spider", rows)
    return record
