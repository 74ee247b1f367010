"""The governed score on real model output (issue 10): the Spider slice's published systems taken
as K = 5 samples (sample 0 DAIL-SQL + GPT-4, then DIN-SQL + GPT-4, CodeS-7B, C3SQL, Graphix-T5),
sample 0 labelled by execution match with the gold SQL, SQL only (no written answer, no judge).

Reports, for every rule and for the plain agreement share A (strict and relaxed matching):
AUROC with a 2,000-resample percentile interval, the gate table, the accuracy of shown answers
and the share of right answers withheld; paired AUROC differences of the default rule
(``assay``, assay-1.0) against A and against the paper's rules; every check's firing counts on
right and on wrong answers; the leave-one-database-out choice of the rule; the planted errors
(with Assay's written answer, as the paper planted them); and the pre-registered hypotheses of
``benchmarks/prereg/assay-1.0.json`` against the frozen manifest (a changed bundle is named).

Reproduce: ``make bench BENCH_ARGS=spider`` (or ``.venv/bin/python -m benchmarks spider``).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any

from assay.bench.datasets import SPIDER_SYSTEMS, default_spider_root, spider_records, system_labels
from assay.bench.runner import check_manifest, run_planted
from assay.bench.statistics import (
    VARIANTS,
    ChoiceRow,
    auroc_interval,
    choose,
    gate_summary,
    gate_table,
    leave_one_out,
    paired_auroc_difference,
)
from assay.bench.statistics._rule_choice import variant_score
from assay.checks import QUESTION_SIGNALS
from assay.errors import BenchError
from assay.generators import SampleRecord
from assay.pipeline import Scorer
from assay.scoring import DEFAULT_RULE, RULES, fit_reliability, get_rule
from assay.settings import load_settings
from assay.types import Candidate, Verdict
from benchmarks._common import report, write

K = 5
N_RESAMPLES = 2_000
# assay-1.0.json preceded the first run (strict matching, column-order label); r2 re-froze it
# after a performance-only change; r3 after the label was corrected and the rule re-chosen
# (each manifest's note says what changed and why); r4 after optional weights were
# added, r5 after a move of helpers between modules, r6 after checks that raise became vetoes.
PREREG = Path(__file__).parent / "prereg" / "assay-1.0-r44.json"
MATCHING = load_settings({}).matching  # the default rule with the default matching policy
MATCHING_POLICIES = ("strict", "permuted", "relaxed")


def _score_all(
    records: list[SampleRecord], executed: list[list[Candidate]], scorer: Scorer
) -> list[Verdict]:
    return [scorer.score(r, candidates=c) for r, c in zip(records, executed, strict=True)]


def _rule_entry(scores: list[float], labels: list[int], actions: list[str]) -> dict[str, Any]:
    summary = gate_summary(scores, labels)
    return {
        "auroc": auroc_interval(scores, labels, n_resamples=N_RESAMPLES, rng=0).to_dict(),
        "gate": gate_table(actions, labels),
        "pass_accuracy": summary["pass_accuracy"],
        "right_withheld": summary["right_withheld"],
        "right_shown": summary["right_shown"],
    }


def _actions(scores: list[float]) -> list[str]:
    return ["show" if s >= 0.8 else "warn" if s >= 0.6 else "withhold" for s in scores]


def _firing(verdicts: list[Verdict]) -> dict[str, dict[str, int]]:
    """Questions on which each check fired, by correctness of sample 0; every question-SQL
    check is listed, also when it never fired."""
    table: dict[str, Counter[str]] = {code: Counter() for code in QUESTION_SIGNALS}
    for v in verdicts:
        for code in dict.fromkeys(f.code for f in v.findings):
            table.setdefault(code, Counter())["right" if v.label == 1 else "wrong"] += 1
    return {code: {"right": c["right"], "wrong": c["wrong"]} for code, c in sorted(table.items())}


def _choice_rows(by_policy: dict[str, list[Verdict]]) -> list[ChoiceRow]:
    rows = []
    for s, p, r in zip(*(by_policy[m] for m in MATCHING_POLICIES), strict=True):
        kinds = {f.code: f.kind for f in s.findings}
        rows.append(
            ChoiceRow(
                group=Path(str(s.provenance["db"])).stem,
                label=int(s.label or 0),
                a_strict=float(s.agreement["a"]),
                a_permuted=float(p.agreement["a"]),
                a_relaxed=float(r.agreement["a"]),
                signal=any(c in QUESTION_SIGNALS for c in kinds),
                veto=any(k == "veto" for k in kinds.values()),
                cap=any(k == "cap" for k in kinds.values()),
            )
        )
    return rows


def _reliability(records: list[SampleRecord], root: Path) -> dict[str, Any]:
    """Agreement weighted by each system's measured reliability, leave one database out: the
    reliabilities are measured on the two other databases, the weighted rule is scored on the
    held-out one, and compared with the unweighted rule and plain A on the same questions."""
    systems = system_labels(root, k=K)
    group = {r.id: Path(r.db).stem for r in records}
    folds = []
    pooled: dict[str, list[float]] = {"weighted": [], "unweighted": [], "plain": []}
    pooled_labels: list[int] = []
    for held_out in sorted(set(group.values())):
        train = [r for r in records if group[r.id] != held_out]
        test = [r for r in records if group[r.id] == held_out and r.label is not None]
        reliability = fit_reliability(
            {name: [systems[r.id][name] for r in train] for name in SPIDER_SYSTEMS[:K]}
        )
        scores: dict[str, list[float]] = {}
        for name, rel in (("weighted", reliability), ("unweighted", None)):
            with Scorer.named(DEFAULT_RULE, matching=MATCHING, reliability=rel) as scorer:
                verdicts = [scorer.score(r) for r in test]
            scores[name] = [float(v.score or 0.0) for v in verdicts]
            if name == "unweighted":
                scores["plain"] = [float(v.agreement["a"]) for v in verdicts]
        labels = [int(r.label or 0) for r in test]
        for key, values in scores.items():
            pooled[key] += values
        pooled_labels += labels
        folds.append(
            {
                "held_out": held_out,
                "reliability": dict(reliability.samplers),
                **{f"{k}_rule": gate_summary(v, labels) for k, v in scores.items()},
            }
        )
    paired = paired_auroc_difference(
        pooled["unweighted"], pooled["weighted"], pooled_labels, n_resamples=N_RESAMPLES, rng=0
    )
    return {
        "folds": folds,
        "pooled_auroc": {k: gate_summary(v, pooled_labels)["auroc"] for k, v in pooled.items()},
        "weighted_minus_unweighted": paired.to_dict(),
    }


def _hypotheses(measured: dict[str, Any]) -> dict[str, Any]:
    try:
        manifest = check_manifest(PREREG)
        bundle = {"frozen": manifest["bundle"]["hash"], "matches": True}
    except BenchError as exc:
        manifest = json.loads(PREREG.read_text(encoding="utf-8"))
        bundle = {"frozen": manifest["bundle"]["hash"], "matches": False, "error": str(exc)}
    results = []
    for h in manifest["hypotheses"]:
        value, low = _hypothesis_value(h, measured)
        if h["criterion"] == "ci_low_above":
            passed = low is not None and low > h["threshold"]
        elif h["criterion"] == "at_least":
            passed = value >= h["threshold"]
        else:
            passed = value <= h["threshold"]
        result = {**h, "value": value, "ci_low": low, "passed": bool(passed)}
        secondary = measured.get("gold_reads_numbers_as_text")
        if secondary and h["metric"] != "planted_not_shown":
            result["value_without_gold_reading_text"] = _hypothesis_value(h, secondary)[0]
        results.append(result)
    return {"bundle": bundle, "note": manifest.get("note", ""), "results": results}


def _hypothesis_value(h: dict[str, Any], measured: dict[str, Any]) -> tuple[float, float | None]:
    if h["metric"] == "auroc":
        diff = measured["paired"][f"{h['rule']}_minus_{h['baseline']}"]
        return float(diff["value"]), float(diff["low"])
    if h["metric"] == "planted_not_shown":
        rows = measured["planted"][h["rule"]]["faults"]
        return min(float(f["not_shown"]) for f in rows), None
    entry = measured["rules"][h["rule"]]
    key = {"pass_accuracy": "pass_accuracy", "correct_withheld": "right_withheld"}[h["metric"]]
    return float(entry[key]), None


def _measure(records: list[SampleRecord]) -> dict[str, Any]:
    out: dict[str, Any] = {"matching": MATCHING}
    with Scorer.named(DEFAULT_RULE, matching=MATCHING) as scorer:
        executed = [scorer.execute_samples(r)[0] for r in records]
        verdicts: dict[str, list[Verdict]] = {}
        for name in RULES:
            scorer.rule = get_rule(name)
            verdicts[name] = _score_all(records, executed, scorer)
        scorer.rule = get_rule(DEFAULT_RULE)
        by_policy: dict[str, list[Verdict]] = {}
        for policy in MATCHING_POLICIES:
            scorer.matching = policy
            by_policy[policy] = _score_all(records, executed, scorer)
    out |= _summarise(verdicts, by_policy)
    excluded = _gold_reads_numbers_as_text(records)
    if excluded:
        out["gold_reads_numbers_as_text"] = {
            "ids": sorted(excluded),
            "note": "the gold SQL itself compares or orders numbers stored as text (its answer "
            "changes read as numbers), so its label is not the truth; the same measures "
            "without these questions (a secondary reading, never in place of the above)",
            **_summarise(verdicts, by_policy, excluded, detail=False),
        }
    return out


def _gold_reads_numbers_as_text(records: list[SampleRecord]) -> set[str]:
    """The questions whose gold SQL, scored as an answer itself, draws
    ``signal.numbers_as_text``: Spider's car_1 stores Horsepower and MPG as text, and its gold
    compares them as text ("horsepower more than 150" counts 281 cars; read as numbers, 49)."""
    golds = {
        str(q["id"]): str(q["gold_sql"])
        for q in map(json.loads, (default_spider_root() / "questions.jsonl").open())
    }
    found: set[str] = set()
    with Scorer.named(DEFAULT_RULE, matching=MATCHING) as scorer:
        for r in records:
            gold = SampleRecord.model_validate(
                {
                    "id": r.id,
                    "db": r.db,
                    "question": r.question,
                    "hint": r.hint,
                    "samples": [{"final_sql": golds[r.id]}],
                }
            )
            if "signal.numbers_as_text" in scorer.score(gold).reasons:
                found.add(r.id)
    return found


def _summarise(
    verdicts: dict[str, list[Verdict]],
    by_policy: dict[str, list[Verdict]],
    excluded: frozenset[str] | set[str] = frozenset(),
    detail: bool = True,
) -> dict[str, Any]:
    """AUROCs, gates and paired differences over the labelled questions not in ``excluded``."""
    out: dict[str, Any] = {"rules": {}, "paired": {}}
    kept = [
        i
        for i, v in enumerate(verdicts[DEFAULT_RULE])
        if v.label is not None and v.id not in excluded
    ]
    labels = [int(verdicts[DEFAULT_RULE][i].label or 0) for i in kept]
    scores: dict[str, list[float]] = {}
    for name, vs in verdicts.items():
        scores[name] = [float(vs[i].score or 0.0) for i in kept]
        entry = _rule_entry(scores[name], labels, [vs[i].action for i in kept])
        out["rules"][name] = {"version": RULES[name].version, **entry}
    for policy, vs in by_policy.items():
        name = f"agreement_{policy}"
        scores[name] = [float(vs[i].agreement["a"]) for i in kept]
        out["rules"][name] = {
            "version": "A",
            **_rule_entry(scores[name], labels, _actions(scores[name])),
        }
    baselines = [f"agreement_{p}" for p in MATCHING_POLICIES] + [n for n in RULES if n != "assay"]
    for base in baselines:
        diff = paired_auroc_difference(
            scores[base], scores[DEFAULT_RULE], labels, n_resamples=N_RESAMPLES, rng=0
        )
        out["paired"][f"{DEFAULT_RULE}_minus_{base}"] = diff.to_dict()
    out["n"], out["n_right"] = len(labels), sum(labels)
    if not detail:
        return out
    out["checks"] = _firing([verdicts[DEFAULT_RULE][i] for i in kept])
    rows = _choice_rows({p: [vs[i] for i in kept] for p, vs in by_policy.items()})
    out["choice_all"] = choose(rows).name
    out["variants_in_sample"] = {
        v.name: gate_summary([variant_score(r, v) for r in rows], [r.label for r in rows])
        for v in VARIANTS
    }
    out["leave_one_database_out"] = leave_one_out(rows)
    return out


def run() -> dict[str, object]:
    root = default_spider_root()
    if not (root / "questions.jsonl").exists():
        print(f"\n== spider: skipped, the Spider slice is not at {root}")
        return {}
    started = time.perf_counter()
    records = list(spider_records(root, k=K))
    measured = _measure(records)
    planted = {}
    for name in ("agreement_first", DEFAULT_RULE):
        with Scorer.named(name, write_missing_text=True, matching=MATCHING) as scorer:
            planted[name] = run_planted(records, scorer).to_dict()
    measured["planted"] = planted
    measured["reliability_weighted"] = _reliability(records, root)
    record: dict[str, Any] = {
        "samples": f"K = {K} published systems, sample 0 = dailsql_gpt4, SQL only",
        "label": "execution match of sample 0 with the gold SQL",
        "same_data_caveat": "assay-1.0 was designed and chosen on these 179 questions; the "
        "leave-one-database-out rows choose on two databases and measure on the third",
        **measured,
        "hypotheses": _hypotheses(measured) if PREREG.exists() else None,
    }
    record["seconds"] = round(time.perf_counter() - started, 1)
    write("spider", record)
    report("spider", _rows(record))
    return record


def _fmt(x: float) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _rows(record: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    rows = []
    for name, entry in record["rules"].items():
        a, g = entry["auroc"], entry["gate"]["counts"]
        rows.append(
            (
                f"{name} ({entry['version']}) AUROC",
                f"{_fmt(a['value'])} [{_fmt(a['low'])}, {_fmt(a['high'])}]; shown accuracy "
                f"{_fmt(entry['pass_accuracy'])}, right withheld {_fmt(entry['right_withheld'])}"
                f"; show/warn/withhold right {g['show']['right']}/{g['warn']['right']}/"
                f"{g['withhold']['right']}, wrong {g['show']['wrong']}/{g['warn']['wrong']}/"
                f"{g['withhold']['wrong']}",
                "reported",
                True,
            )
        )
    for name, d in record["paired"].items():
        rows.append(
            (name, f"{d['value']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]", "reported", True)
        )
    for code, c in record["checks"].items():
        rows.append((f"check {code}", f"right {c['right']}, wrong {c['wrong']}", "reported", True))
    for fold in record["leave_one_database_out"]:
        m = fold["held_out_metrics"]
        rows.append(
            (
                f"held out {fold['held_out']} (n={fold['n']})",
                f"chose {fold['chosen']}: AUROC {_fmt(m['auroc'])} (A alone "
                f"{_fmt(fold['plain_agreement']['auroc'])}), shown accuracy "
                f"{_fmt(m['pass_accuracy'])}, right withheld {_fmt(m['right_withheld'])}",
                "reported",
                True,
            )
        )
    for name, table in record["planted"].items():
        for fault in table["faults"]:
            rows.append(
                (
                    f"planted {fault['kind']} under {name}",
                    f"withheld {fault['withheld']:.0%}, not shown {fault['not_shown']:.0%}, "
                    f"check fired {_fmt(fault['check_fired'])} (n={fault['planted']})",
                    "reported",
                    True,
                )
            )
    weighted = record["reliability_weighted"]
    d = weighted["weighted_minus_unweighted"]
    pooled = weighted["pooled_auroc"]
    rows.append(
        (
            "reliability-weighted assay-1.0, leave one database out (pooled)",
            f"AUROC {_fmt(pooled['weighted'])} vs unweighted {_fmt(pooled['unweighted'])} "
            f"(plain A {_fmt(pooled['plain'])}); weighted - unweighted {d['value']:+.3f} "
            f"[{d['low']:+.3f}, {d['high']:+.3f}]",
            "reported",
            True,
        )
    )
    hypotheses = record.get("hypotheses") or {"results": []}
    for h in hypotheses["results"]:
        rows.append((f"{h['id']}: {h['statement']}", _fmt(h["value"]), h["criterion"], h["passed"]))
    secondary = record.get("gold_reads_numbers_as_text")
    if secondary:
        n = len(secondary["ids"])
        for h in hypotheses["results"]:
            if "value_without_gold_reading_text" in h:
                rows.append(
                    (
                        f"  {h['id']} without the {n} questions whose gold reads numbers as text "
                        "(secondary)",
                        _fmt(h["value_without_gold_reading_text"]),
                        "reported",
                        True,
                    )
                )
    return rows
