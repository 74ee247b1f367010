"""``build_report``: every number of an evaluation, from stored verdict records only.

Verdict files (one per rule, on the same answers) and labels go in; a dictionary of every
number comes out, laid out as the governed-score paper's tables: Table 1 (discrimination and
calibration per rule), Table 4 (paired comparisons and the hypotheses, pass or fail), Table 6
(gate quantities) and Table 8 (show / warn / withhold counts by correctness). The same inputs
give the same report, byte for byte: seeds are fixed and every float is rounded.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from assay.bench.statistics._bootstrap import UndefinedStatisticWarning
from assay.bench.statistics._gate_metrics import RS_LAMBDAS, gate_table, reliability_score
from assay.bench.statistics._metrics import (
    aurc,
    auroc_interval,
    brier,
    ece,
    paired_auroc_difference,
    reliability_bins,
    risk_coverage,
)
from assay.errors import BenchError
from assay.ledger import VerdictSet

if TYPE_CHECKING:  # the runner imports this module: a runtime import would be a cycle
    from assay.bench.runner._prereg import Hypothesis

__all__ = ["build_report", "rounded"]


def rounded(value: Any) -> Any:
    """Floats to six places, NaN to null, recursively: reports are byte-stable."""
    if isinstance(value, float | np.floating):
        return None if math.isnan(float(value)) else round(float(value), 6)
    if isinstance(value, dict):
        return {str(k): rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    return value


def _check_ids(sets: dict[str, VerdictSet], labels: dict[str, int]) -> list[str]:
    names = list(sets)
    ids = [i for i, r in sets[names[0]].items() if r.get("status", "ok") == "ok"]
    for name in names[1:]:
        other = {i for i, r in sets[name].items() if r.get("status", "ok") == "ok"}
        if other != set(ids):
            gone = sorted(set(ids) ^ other)[:10]
            raise BenchError(
                f"The verdict sets {names[0]} and {name} cover different questions, e.g. {gone}.",
                hint="Compare rules on the same scored answers.",
            )
        # The same questions are not enough: a paired comparison of rules needs the same
        # answers (outside tryout 17 paired files scored from different samples, silently).
        differ = sorted(i for i in ids if _answer(sets[names[0]][i]) != _answer(sets[name][i]))
        if differ:
            raise BenchError(
                f"The verdict sets {names[0]} and {name} hold different answers to "
                f"{len(differ)} question{'' if len(differ) == 1 else 's'} (their SQL or their "
                f"label differs), e.g. {differ[:10]}.",
                hint="Score one samples file with each rule (assay score --rule NAME) and "
                "compare those files.",
            )
    missing = sorted(i for i in ids if i not in labels)
    if missing:
        raise BenchError(
            f"{len(missing)} verdicts have no label, e.g. {missing[:10]}.",
            hint="Give a label for every scored question (--labels, or 'label' in the samples).",
        )
    return sorted(ids)


def _answer(record: dict[str, Any]) -> tuple[Any, Any]:
    """What must be equal for two rules' verdicts to be on the same answer: its SQL and its
    own label (a verdict with neither compares equal: nothing says they differ)."""
    label = record.get("label")
    return record.get("sql"), label if label in (0, 1) and not isinstance(label, bool) else None


def _quietly(func: Callable[[], Any], reasons: list[str]) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedStatisticWarning)
        value = func()
    reasons.extend(str(w.message) for w in caught)
    return value


def _accuracy_by_share(scores: np.ndarray, labels: np.ndarray) -> list[dict[str, float]]:
    """Figure 4: accuracy of the answers shown against the share shown, threshold lowered."""
    points = []
    for threshold in sorted(set(scores.tolist()), reverse=True):
        shown = scores >= threshold
        points.append(
            {
                "threshold": threshold,
                "share_shown": float(shown.mean()),
                "accuracy": float(labels[shown].mean()),
            }
        )
    return points


def _rule_section(
    records: VerdictSet, ids: list[str], labels: dict[str, int], seed: int, n_resamples: int
) -> dict[str, Any]:
    scores = np.array([float(records[i]["score"]) for i in ids])
    y = np.array([labels[i] for i in ids])
    actions = [records[i]["action"] for i in ids]
    reasons: list[str] = []
    first = records[ids[0]] if ids else {}
    curve = risk_coverage(scores, y)
    section = {
        "rule": first.get("rule", {}),
        "policy": first.get("policy", {}),
        "n": len(ids),
        "n_right": int(y.sum()),
        "auroc": _quietly(
            lambda: auroc_interval(scores, y, n_resamples=n_resamples, rng=seed), reasons
        ).to_dict(),
        "ece": _quietly(lambda: ece(scores, y), reasons),
        "brier": _quietly(lambda: brier(scores, y), reasons),
        "aurc": _quietly(lambda: aurc(scores, y), reasons),
        "gate": _quietly(lambda: gate_table(actions, y.tolist()), reasons),
        "reliability_score": {
            f"rs_{lam:g}": reliability_score(
                [a == "show" for a in actions], [True] * len(ids), (y == 1).tolist(), lam
            )
            for lam in RS_LAMBDAS
        },
        "reliability_bins": reliability_bins(scores, y),
        "risk_coverage": {"coverage": curve.coverage.tolist(), "risk": curve.risk.tolist()},
        "accuracy_by_share": _accuracy_by_share(scores, y),
        "scores": {"right": scores[y == 1].tolist(), "wrong": scores[y == 0].tolist()},
        "undefined": sorted(set(reasons)),
    }
    return section


def _hypothesis(
    h: Hypothesis, rules: dict[str, Any], comparisons: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": h.id,
        "statement": h.statement,
        "metric": h.metric,
        "rule": h.rule,
        "baseline": h.baseline,
        "criterion": h.criterion,
        "threshold": h.threshold,
    }
    missing = [r for r in (h.rule, h.baseline) if r and r not in rules]
    if missing:
        return {
            **out,
            "value": None,
            "result": "not evaluated",
            "reason": f"it is about {' and '.join(missing)}; these verdicts were scored with "
            f"{', '.join(sorted(rules))}",
            "missing_rules": missing,
        }
    if h.metric == "auroc" and h.baseline:
        diff = comparisons.get(f"{h.rule}-{h.baseline}")
        value, low = (diff["value"], diff["low"]) if diff else (None, None)
        if h.criterion == "ci_low_above":
            passed = low is not None and low > h.threshold
        elif value is None:
            passed = False
        else:
            passed = value >= h.threshold if h.criterion == "at_least" else value <= h.threshold
        return {
            **out,
            "value": value,
            "low": low,
            "high": diff["high"] if diff else None,
            "result": "pass" if passed else "fail",
        }
    if h.metric != "auroc" and h.metric not in rules[h.rule]["gate"]:
        return {
            **out,
            "value": None,
            "result": "not evaluated",
            "reason": f"{h.metric!r} is not measured from verdicts (a benchmark measures it)",
        }
    value = (
        rules[h.rule]["gate"].get(h.metric)
        if h.metric != "auroc"
        else (rules[h.rule]["auroc"]["value"])
    )
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return {**out, "value": None, "result": "fail", "reason": "undefined on these data"}
    passed = value >= h.threshold if h.criterion == "at_least" else value <= h.threshold
    return {**out, "value": value, "result": "pass" if passed else "fail"}


def build_report(
    sets: dict[str, VerdictSet],
    labels: dict[str, int],
    *,
    hypotheses: Sequence[Hypothesis] = (),
    seed: int = 0,
    n_resamples: int = 2_000,
    inputs: dict[str, str] | None = None,
    bundle: str = "",
    manifest: str = "",
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every number of the report, from verdict sets keyed by rule name."""
    ids = _check_ids(sets, labels)
    if not ids:
        raise BenchError("No scored verdicts to report on.", hint="Score some questions first.")
    rules: dict[str, Any] = {}
    for name, records in sets.items():
        if progress:
            progress(name)
        rules[name] = _rule_section(records, ids, labels, seed, n_resamples)
    y = np.array([labels[i] for i in ids])
    names = list(sets)
    comparisons: dict[str, Any] = {}
    for base in names:
        for other in names:
            if other == base:
                continue
            a = np.array([float(sets[base][i]["score"]) for i in ids])
            b = np.array([float(sets[other][i]["score"]) for i in ids])
            reasons: list[str] = []
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UndefinedStatisticWarning)
                diff = paired_auroc_difference(a, b, y, n_resamples=n_resamples, rng=seed)
            reasons.extend(str(w.message) for w in caught)
            comparisons[f"{other}-{base}"] = diff.to_dict()
    report = {
        "kind": "assay.report",
        "version": 1,
        "bundle": bundle,
        "manifest": manifest,
        "inputs": dict(sorted((inputs or {}).items())),
        "n_questions": len(ids),
        "failed_excluded": {
            n: sum(r.get("status") == "failed" for r in s.values()) for n, s in sets.items()
        },
        "seed": seed,
        "n_resamples": n_resamples,
        "rules": rules,
        "comparisons": comparisons,
        "hypotheses": [_hypothesis(h, rules, comparisons) for h in hypotheses],
    }
    return dict(rounded(report))
