"""``score_run``: a run file scored against its task set, with every metric and its interval.

Business Truth Rate, False Success Rate, coverage, answer accuracy and cost per correct answer
(with their denominators), the per-stratum table (the benchmark paper's Table 4), the outcome
labels (its Figure 4), and percentile intervals for Business Truth Rate from resampling tasks
and from resampling template families (tasks of one family are not independent).
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from assay.bench.datasets._tasks import Task
from assay.bench.report._build_report import rounded
from assay.bench.runner._score_task import OUTCOMES, ScoredTask, score_task
from assay.bench.statistics._bootstrap import UndefinedStatisticWarning, estimate
from assay.bench.statistics._task_metrics import TaskOutcome, cost_per_correct, task_metrics
from assay.connectors import connect
from assay.errors import BenchError, ExecutionError
from assay.types import Result

__all__ = ["compare_runs", "confidence_rows", "expected_results", "load_run", "score_run"]


def load_run(path: Path) -> list[dict[str, Any]]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BenchError(
            f"Cannot read run {str(path)!r}: {exc.strerror}.",
            hint="Give a file written by 'assay bench run'.",
        ) from exc
    records = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise BenchError(
                f"Line {n} of {str(path)!r} is not JSON.",
                hint="Rerun with --resume to rewrite a cut-off last line.",
            ) from exc
    if not records:
        raise BenchError(f"Run {str(path)!r} is empty.", hint="Run a system first.")
    return records


def expected_results(tasks: list[Task], folder: Path) -> dict[str, list[Result]]:
    """The accepted SQL's results, one connector per domain, each SQL run once."""
    out: dict[str, list[Result]] = {}
    by_domain: dict[str, list[Task]] = {}
    for task in tasks:
        if task.accepted_sql:
            by_domain.setdefault(task.domain, []).append(task)
    for domain, members in sorted(by_domain.items()):
        with connect(str(folder / f"{domain}.duckdb")) as connector:
            seen: dict[str, Result] = {}
            for task in members:
                results = []
                for sql in task.accepted_sql:
                    if sql not in seen:
                        try:
                            seen[sql] = connector.execute(
                                sql, time_limit_ms=60_000, max_rows=100_000
                            )
                        except ExecutionError as exc:
                            raise BenchError(
                                f"Accepted SQL of {task.id} fails: {exc}",
                                hint="Regenerate the benchmark.",
                            ) from exc
                    results.append(seen[sql])
                out[task.id] = results
    return out


def _check(tasks: list[Task], records: list[dict[str, Any]], manifest: dict[str, Any]) -> None:
    known = {t.id for t in tasks}
    unknown = sorted({str(r.get("task_id")) for r in records} - known)
    if unknown:
        raise BenchError(
            f"The run has {len(unknown)} task ids not in this task set, e.g. {unknown[:5]}.",
            hint="Score the run against the task set it ran on.",
        )
    hashes = {str(r["task_set_hash"]) for r in records if r.get("task_set_hash")}
    if hashes and hashes != {manifest["task_set_hash"]}:
        raise BenchError(
            f"The run was made on task set {sorted(hashes)}, not "
            f"{manifest['task_set_hash']} (seed {manifest['seed']}).",
            hint="Generate the benchmark with the run's seed, or rerun the system.",
        )
    ids = [str(r["task_id"]) for r in records]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise BenchError(
            f"The run repeats task ids {duplicates[:5]}.",
            hint="Each task is run once; --resume skips finished ones.",
        )


def _btr_intervals(scored: list[ScoredTask], families: list[str], seed: int) -> dict[str, Any]:
    right = np.array([1.0 if s.correct else 0.0 for s in scored])
    point = float(right.mean()) if len(right) else float("nan")

    def mean(w: np.ndarray) -> np.ndarray:
        out: np.ndarray = (w @ right) / w.sum(axis=1)
        return out

    tasks = estimate(point, mean, len(right), rng=seed, method="percentile bootstrap of tasks")
    fams = estimate(
        point,
        mean,
        len(right),
        rng=seed,
        clusters=families,
        method="percentile bootstrap of template families",
    )
    return {"tasks": tasks.to_dict(), "families": fams.to_dict()}


def score_run(
    records: list[dict[str, Any]],
    tasks: list[Task],
    manifest: dict[str, Any],
    folder: Path,
    *,
    seed: int = 0,
) -> dict[str, Any]:
    _check(tasks, records, manifest)
    by_id = {t.id: t for t in tasks}
    run_tasks = [by_id[str(r["task_id"])] for r in records]
    expected = expected_results(run_tasks, folder)
    scored = [
        score_task(t, r, expected.get(t.id, [])) for t, r in zip(run_tasks, records, strict=True)
    ]
    outcomes = [TaskOutcome(s.required, s.behaviour, s.correct, s.cost) for s in scored]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedStatisticWarning)
        metrics: dict[str, Any] = dict(task_metrics(outcomes))
        metrics["cost_per_correct"] = cost_per_correct(outcomes)
    metrics["undefined"] = sorted({str(w.message) for w in caught})
    strata: dict[str, Any] = {}
    for kind in sorted({s.type for s in scored}):
        members = [s for s in scored if s.type == kind]
        strata[kind] = {
            "n": len(members),
            "correct": sum(s.correct for s in members),
            "business_truth_rate": sum(s.correct for s in members) / len(members),
        }
    labels = Counter(s.outcome for s in scored)
    return dict(
        rounded(
            {
                "system": records[0].get("system"),
                "n_tasks": len(scored),
                "task_set_hash": manifest["task_set_hash"],
                "metrics": metrics,
                "intervals": {
                    "business_truth_rate": _btr_intervals(
                        scored, [t.family for t in run_tasks], seed
                    )
                },
                "strata": strata,
                "outcomes": {k: labels.get(k, 0) for k in OUTCOMES},
                "exact_match": sum(s.exact_match for s in scored),
                "tasks": [{"id": s.task_id, "type": s.type, "outcome": s.outcome} for s in scored],
            }
        )
    )


def compare_runs(
    a: dict[str, Any], b: dict[str, Any], tasks: list[Task], *, seed: int = 0
) -> dict[str, Any]:
    """Paired differences (b - a) of Business Truth Rate and of the share of tasks given an
    unwarranted answer, on the same tasks, with task and family-cluster intervals, and
    McNemar's exact test on task success."""
    from assay.bench.statistics._metrics import mcnemar_exact

    out_a = {t["id"]: t["outcome"] for t in a["tasks"]}
    out_b = {t["id"]: t["outcome"] for t in b["tasks"]}
    common = sorted(set(out_a) & set(out_b))
    if not common:
        raise BenchError("The two runs share no task.", hint="Compare runs on the same split.")
    family = {t.id: t.family for t in tasks}
    right_a = np.array([out_a[i] == "correct" for i in common], dtype=float)
    right_b = np.array([out_b[i] == "correct" for i in common], dtype=float)
    unw_a = np.array([out_a[i] == "unwarranted_answer" for i in common], dtype=float)
    unw_b = np.array([out_b[i] == "unwarranted_answer" for i in common], dtype=float)
    clusters = [family[i] for i in common]
    result: dict[str, Any] = {"n_tasks": len(common), "a": a["system"], "b": b["system"]}
    for name, xa, xb in (
        ("business_truth_rate", right_a, right_b),
        ("unwarranted_answer_share", unw_a, unw_b),
    ):
        diff = xb - xa

        def mean(w: np.ndarray, d: np.ndarray = diff) -> np.ndarray:
            out: np.ndarray = (w @ d) / w.sum(axis=1)
            return out

        point = float(diff.mean())
        result[name] = {
            "difference": point,
            "tasks": estimate(
                point, mean, len(diff), rng=seed, method="paired percentile bootstrap of tasks"
            ).to_dict(),
            "families": estimate(
                point,
                mean,
                len(diff),
                rng=seed,
                clusters=clusters,
                method="paired percentile bootstrap of families",
            ).to_dict(),
        }
    test = mcnemar_exact(right_a.astype(bool).tolist(), right_b.astype(bool).tolist())
    result["discordant"] = {
        "a_right_only": test["only_a"],
        "b_right_only": test["only_b"],
        "mcnemar_exact_p": test["p_value"],
    }
    result["ties"] = int(np.sum(right_a == right_b))
    return dict(rounded(result))


def confidence_rows(
    records: list[dict[str, Any]], tasks: list[Task], folder: Path
) -> list[tuple[dict[str, float], int, str]]:
    """(features, right or wrong, family) for every answer a run returned: the training pool
    of the fitted confidence model."""
    by_id = {t.id: t for t in tasks}
    answered = [r for r in records if r.get("behaviour") == "answer"]
    run_tasks = [by_id[str(r["task_id"])] for r in answered]
    expected = expected_results(run_tasks, folder)
    rows = []
    for task, record in zip(run_tasks, answered, strict=True):
        scored = score_task(task, record, expected.get(task.id, []))
        rows.append((dict(record.get("features") or {}), int(scored.correct), task.family))
    return rows
