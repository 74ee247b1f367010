"""Held-out evaluation of a frozen monitor: ``report.json`` numbers with clustered intervals.

Intervals are percentile bootstraps that resample whole clusters (question templates, or
databases), so that the runs of one template stay together (Sentinel Appendix F/J: template-level
cluster bootstrap); the vanilla and monitored scores are resampled together, so their difference
is paired. Every interval records its method, resample count, confidence level, cluster key and
seed. Runs whose source leaks the label through the step count are left out of every
correctness and RS number, and counted.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from assay.monitor._decisions import (
    LAMBDAS,
    Outcome,
    Trace,
    auroc,
    chow_tau,
    ece,
    reliability_score,
    simulate,
    vanilla,
)
from assay.monitor._features import FeatureExtractor
from assay.monitor._monitor import Monitor
from assay.monitor._trajectory import Run

__all__ = ["N_RESAMPLES", "clustered_bootstrap", "evaluate"]

N_RESAMPLES = 1000
CONFIDENCE_LEVEL = 0.95


def clustered_bootstrap(
    values: np.ndarray, clusters: Sequence[str], *, n_resamples: int = N_RESAMPLES, seed: int = 42
) -> dict[str, Any]:
    """Mean of ``values`` (rows: runs; columns: paired quantities) with percentile intervals
    over resampled clusters. NaN bounds, with a reason, when there are fewer than two clusters."""
    values = np.atleast_2d(np.asarray(values, dtype=float).T).T
    names = sorted(set(clusters))
    index = {c: i for i, c in enumerate(names)}
    ids = np.array([index[c] for c in clusters], dtype=int)
    sums = np.zeros((len(names), values.shape[1]))
    np.add.at(sums, ids, values)
    counts = np.bincount(ids, minlength=len(names)).astype(float)
    mean = values.mean(axis=0) if len(values) else np.full(values.shape[1], math.nan)
    meta = {
        "method": "percentile, clustered",
        "n_resamples": n_resamples,
        "confidence_level": CONFIDENCE_LEVEL,
        "seed": seed,
        "n_clusters": len(names),
    }
    if len(names) < 2:
        nan = [[math.nan, math.nan]] * values.shape[1]
        return {"mean": mean.tolist(), "ci": nan, **meta, "reason": "fewer than two clusters"}
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(names), size=(n_resamples, len(names)))
    boot = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)[:, None]
    alpha = (1 - CONFIDENCE_LEVEL) / 2
    lo, hi = np.quantile(boot, [alpha, 1 - alpha], axis=0)
    return {"mean": mean.tolist(), "ci": np.stack([lo, hi], axis=1).tolist(), **meta}


def _safe_auroc(scores: Sequence[float], labels: Sequence[int]) -> dict[str, Any]:
    if len(set(labels)) < 2:
        return {"value": math.nan, "n": len(labels), "reason": "one class only"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"value": auroc(scores, labels), "n": len(labels)}


def _rs_block(
    runs: list[Run], traces: list[Trace], monitor: Monitor, cluster_of: Any, seed: int
) -> dict[str, Any]:
    out: dict[str, Any] = {"rs": {}, "coverage": {}, "delivered_accuracy": {}, "steps_saved": {}}
    base = [vanilla(r) for r in runs]
    clusters = [cluster_of(r) for r in runs]
    for lam in LAMBDAS:
        key = f"{lam:g}"
        stop = monitor.stops.get(str(lam))
        tau = chow_tau(lam) if monitor.correctness is not None else None
        mon: list[Outcome] = [
            simulate(tr, theta=monitor.theta, stop=stop, tau=tau) for tr in traces
        ]
        v = np.array([reliability_score(r, o, lam) for r, o in zip(runs, base, strict=True)])
        m = np.array([reliability_score(r, o, lam) for r, o in zip(runs, mon, strict=True)])
        # Refusing every question (Appendix F): the reference a monitor must beat, not only
        # the vanilla agent; with every question answerable it scores 0.
        a = np.array([1.0 if r.answerable is False else 0.0 for r in runs])
        boot = clustered_bootstrap(np.stack([v, m, m - v, a, m - a], axis=1), clusters, seed=seed)
        meta = {k: boot[k] for k in boot if k not in ("mean", "ci")}
        names = ("vanilla", "monitored", "difference", "always_abstain", "gain_over_abstain")
        out["rs"][key] = {
            name: {"mean": boot["mean"][i], "ci": boot["ci"][i]} for i, name in enumerate(names)
        } | {"bootstrap": meta, "stop_threshold": stop, "tau": tau}
        out["coverage"][key] = {
            "vanilla": float(np.mean([o.answered for o in base])),
            "monitored": float(np.mean([o.answered for o in mon])),
        }
        out["delivered_accuracy"][key] = {
            "vanilla": _accuracy(runs, base),
            "monitored": _accuracy(runs, mon),
        }
        total = sum(o.steps_total for o in mon)
        saved = sum(o.steps_total - o.steps_used for o in mon)
        out["steps_saved"][key] = {
            "fraction": saved / total if total else math.nan,
            "steps": saved,
            "of": total,
            "by_gate": sum(o.steps_total - o.steps_used for o in mon if o.action == "exit_gate"),
            "by_early_exit": sum(
                o.steps_total - o.steps_used for o in mon if o.action == "exit_early"
            ),
        }
    return out


def _accuracy(runs: list[Run], outcomes: list[Outcome]) -> float:
    hits = [bool(r.delivered_correct) for r, o in zip(runs, outcomes, strict=True) if o.answered]
    return float(np.mean(hits)) if hits else math.nan


def evaluate(
    monitor: Monitor,
    runs: Sequence[Run],
    *,
    cluster: Literal["group", "database"] = "group",
    seed: int = 42,
) -> dict[str, Any]:
    """Every number of ``report.json`` (see the module docstring and docs/trajectories.md)."""
    extractor = FeatureExtractor(monitor.catalogs)
    leaking = [r for r in runs if r.step_count_leaks]
    honest = [r for r in runs if not r.step_count_leaks]
    traces = [monitor.trace(r, extractor) for r in honest]

    def cluster_of(r: Run) -> str:
        return r.database if cluster == "database" else r.group

    report: dict[str, Any] = {
        "n_runs": len(runs),
        "n_evaluated": len(honest),
        "excluded_step_count_leaks": len(leaking),
        # An agent run that ended without an answer or an abstention (a model failure, the
        # step limit) is a system failure: left out of RS, never counted as an abstention.
        "system_failures": sum(1 for r in honest if r.final == "none" and r.steps),
        "databases": sorted({r.database for r in honest}),
        "agents": sorted({r.agent for r in honest}),
        "cluster": cluster,
    }
    # Answerability at t = 0.
    ans = [
        (tr.p_ans[0], int(bool(tr.run.answerable)))
        for tr in traces
        if tr.p_ans is not None and tr.run.answerable is not None
    ]
    report["answerability"] = (
        _safe_auroc([a for a, _ in ans], [y for _, y in ans])
        if ans
        else {"value": math.nan, "n": 0, "reason": "no answerability head or no labels"}
    ) | {"theta": monitor.theta}
    if ans and monitor.theta is not None:
        answerable = [a for a, y in ans if y == 1]
        report["answerability"]["wrong_exit_rate_t0"] = (
            float(np.mean([a < monitor.theta for a in answerable])) if answerable else math.nan
        )
        # Outside tryout 17 could not tell how many unanswerable questions the gate refused.
        unanswerable = [a for a, y in ans if y == 0]
        report["answerability"]["refused_unanswerable_t0"] = {
            "refused": sum(a < monitor.theta for a in unanswerable),
            "of": len(unanswerable),
        }
    report["correctness"] = _correctness(monitor, traces, extractor)
    report["per_run"] = _per_run(monitor, traces, leaking)
    agent = [(tr.run, tr) for tr in traces if tr.run.final != "none"]
    if agent:
        report.update(
            _rs_block([r for r, _ in agent], [t for _, t in agent], monitor, cluster_of, seed)
        )
    else:
        reason = "no agent runs (questions only): RS needs the agent's answers"
        for key in ("rs", "coverage", "delivered_accuracy", "steps_saved"):
            report[key] = {"reason": reason}
    return report


def _per_run(monitor: Monitor, traces: list[Trace], leaking: list[Run]) -> list[dict[str, Any]]:
    """One record per run (``runs.jsonl``): its labels, the heads' readings and, at each lambda,
    what the monitored system did with it and at which step, so that a reader can see which
    runs were stopped, which questions were refused at the gate and which answers withheld."""
    out: list[dict[str, Any]] = []
    for tr in traces:
        run = tr.run
        record: dict[str, Any] = {
            "run_id": run.run_id,
            "database": run.database,
            "agent": run.agent,
            "source": run.source,
            "question": run.question,
            "answerable": run.answerable,
            "final": run.final,
            "correct": run.correct,
            "steps": len(run.steps),
            "p_answerable_t0": None if tr.p_ans is None else round(float(tr.p_ans[0]), 6),
            "p_deliver": None if tr.p_deliver is None else round(float(tr.p_deliver), 6),
        }
        outcomes = {}
        for lam in LAMBDAS:
            stop = monitor.stops.get(str(lam))
            tau = chow_tau(lam) if monitor.correctness is not None else None
            o = simulate(tr, theta=monitor.theta, stop=stop, tau=tau)
            outcomes[f"{lam:g}"] = {"action": o.action, "at_step": o.steps_used}
        record["monitored"] = outcomes
        out.append(record)
    for run in leaking:
        out.append(
            {
                "run_id": run.run_id,
                "database": run.database,
                "agent": run.agent,
                "source": run.source,
                "question": run.question,
                "excluded": "step_count_leaks",
            }
        )
    return out


def _correctness(
    monitor: Monitor, traces: list[Trace], extractor: FeatureExtractor
) -> dict[str, Any]:
    answered = [tr for tr in traces if tr.run.final == "answer" and tr.run.correct is not None]
    if monitor.correctness is None or not answered:
        nan = {"value": math.nan, "reason": "no correctness head or no answered runs"}
        return {"auroc": nan, "auroc_by_step": [], "ece_before": math.nan, "ece_after": math.nan}
    labels = [int(bool(tr.run.delivered_correct)) for tr in answered]
    raw = [monitor.delivery_raw(tr.run, extractor) or 0.0 for tr in answered]
    calibrated = [tr.p_deliver if tr.p_deliver is not None else 0.0 for tr in answered]
    by_step = []
    longest = max(len(tr.run.steps) for tr in answered)
    for t in range(longest + 1):
        # The head's own score (isotonic ties would blur the ranking).
        rows = [
            (float(tr.raw_corr[t]), int(bool(tr.run.delivered_correct)))
            for tr in answered
            if tr.raw_corr is not None and len(tr.run.steps) >= t
        ]
        by_step.append({"t": t} | _safe_auroc([s for s, _ in rows], [y for _, y in rows]))
    by_source: dict[str, list[tuple[float, int]]] = {}
    for tr, score, label in zip(answered, raw, labels, strict=True):
        by_source.setdefault(tr.run.source.rsplit(":", 1)[0], []).append((score, label))
    return {
        "auroc": _safe_auroc(raw, labels) | {"estimator": monitor.estimator},
        # Which source files carry the claim, and how each one reads on its own.
        "auroc_by_source": {
            name: _safe_auroc([p for p, _ in rows], [y for _, y in rows])
            | {"base_rate": float(np.mean([y for _, y in rows]))}
            for name, rows in sorted(by_source.items())
        },
        "auroc_calibrated": _safe_auroc(calibrated, labels),
        "auroc_by_step": by_step,
        "ece_before": ece(raw, labels),
        "ece_after": ece(calibrated, labels),
        "reliability": _reliability(raw, calibrated, labels),
        "base_rate": float(np.mean(labels)),
    }


def _reliability(
    raw: list[float], calibrated: list[float], labels: list[int], n_bins: int = 10
) -> dict[str, list[dict[str, float]]]:
    out: dict[str, list[dict[str, float]]] = {}
    y = np.asarray(labels, dtype=float)
    for name, probs in (("before", raw), ("after", calibrated)):
        p = np.asarray(probs, dtype=float)
        bins = np.minimum((p * n_bins).astype(int), n_bins - 1)
        out[name] = [
            {
                "bin": b,
                "mean_p": float(p[bins == b].mean()),
                "accuracy": float(y[bins == b].mean()),
                "n": int((bins == b).sum()),
            }
            for b in range(n_bins)
            if (bins == b).any()
        ]
    return out
